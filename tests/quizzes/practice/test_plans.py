"""Study plans (issue 23, Build 1): "Search and its neighbours", "Level 1 rules", "Level 2
rules" or one topic, chosen on the practice page and kept in the session; selection follows
the plan, and a new learner's first 30 questions cover every topic of it that has questions."""

from __future__ import annotations

import pytest
from django.urls import reverse

from quizzes.practice import plans, selection, topics
from tests.factories import RuleFactory, ScenarioFactory
from tests.quizzes.conftest import land_tutor_spec, make_question
from tests.quizzes.practice.test_selection import answer

pytestmark = pytest.mark.django_db

# A rule of each of several topics (both plans' sections and the default plan's)
RULES = {
    "search": "701.23b",
    "dredge": "702.52a",
    "mana": "106.7",
    "casting": "601.2f",
    "triggers": "603.2",
    "sba": "704.5a",
    "mill": "701.17a",
}


@pytest.mark.parametrize("name", ["search", "level-1", "level-2"])
def test_each_plan_shares_out_the_whole(name):
    plan = topics.PLANS[name]
    assert sum(topic.share for topic in plan) == pytest.approx(1.0)
    assert len({topic.slug for topic in plan}) == len(plan)


def test_level_plans_weigh_the_sections_beyond_search():
    level_1 = {topic.slug: topic.share for topic in topics.LEVEL_1}
    for slug in ("casting", "turns", "triggers", "replacements", "sba", "layers"):
        assert level_1[slug] > 0
    assert "multiplayer" not in level_1  # the Level 1 guide leaves multiplayer out
    level_2 = {topic.slug for topic in topics.LEVEL_2}
    assert {t.slug for t in topics.every_topic()} == level_2  # the whole book


def test_a_plan_name_gives_its_plan_and_a_stale_one_the_default():
    assert topics.plan_named("level-1") is topics.LEVEL_1
    (dredge,) = topics.plan_named("topic-dredge")
    assert dredge.slug == "dredge" and dredge.share == 1.0
    assert topics.plan_named("topic-nonsense") is topics.PLAN
    assert topics.plan_named("whatever") is topics.PLAN
    assert {name for name, _label in plans.choices()} >= {"search", "level-1", "topic-layers"}


def test_the_learner_chooses_a_plan_on_the_practice_page(client, learner, bank):
    make_question(ScenarioFactory(spec=land_tutor_spec()), bank, rules=[RuleFactory()])
    client.force_login(learner)
    page = client.get(reverse("practice")).content.decode()
    assert 'class="study-plan"' in page and '<option value="search" selected>' in page
    response = client.post(reverse("choose_plan"), {"plan": "level-1"})
    assert response.status_code == 302 and client.session[plans.SESSION_KEY] == "level-1"
    page = client.get(reverse("practice")).content.decode()
    assert '<option value="level-1" selected>Level 1 rules</option>' in page
    assert client.post(reverse("choose_plan"), {"plan": "level-9"}).status_code == 400
    assert client.session[plans.SESSION_KEY] == "level-1"


def _bank_of_topics(bank, per_topic: int = 6, skip=()):
    made: dict[str, list] = {}
    for slug, number in RULES.items():
        if slug in skip:
            continue
        rule = RuleFactory(number=number)
        made[slug] = [
            make_question(ScenarioFactory(spec=land_tutor_spec(f"{slug}-{n}")), bank, rules=[rule])
            for n in range(per_topic)
        ]
    return made


@pytest.mark.parametrize("name", ["search", "level-1", "level-2"])
def test_a_new_learner_s_first_30_cover_every_topic_of_the_plan_that_has_questions(
    name, learner, bank, no_variants
):
    """Layers, turns and replacements have no questions here: the plan still serves (its wish
    for them relaxed), and covers the others within 30 questions."""
    _bank_of_topics(bank)
    plan = topics.PLANS[name]
    served: list[set[str]] = []
    for _ in range(30):
        pick = selection.next_question(learner, plan=plan)
        assert pick.question is not None
        numbers = [rule.number for rule in pick.question.rules.all()]
        served.append(topics.topics_of(numbers, plan))
        answer(learner, pick.question)
    with_questions = topics.topics_of(RULES.values(), plan)  # 601.2f: alternative costs too
    assert len(with_questions) >= 5
    assert set().union(*served) == with_questions


def test_a_one_topic_plan_serves_that_topic_and_anything_while_it_has_none(learner, bank):
    made = _bank_of_topics(bank, per_topic=2, skip=("sba",))
    for _ in range(3):
        pick = selection.next_question(learner, plan=topics.plan_named("topic-dredge"))
        assert pick.question in made["dredge"]
        answer(learner, pick.question)
    assert selection.next_question(learner, plan=topics.plan_named("topic-sba")).question

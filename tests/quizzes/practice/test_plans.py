"""Study plans (issue 23, Build 1): "Search and its neighbours" by default, "Level 1 rules",
"Level 2 rules" or one topic alone, chosen on the practice page and kept for the learner."""

from __future__ import annotations

import math

import pytest
from django.urls import reverse

from quizzes.practice import selection, topics
from quizzes.practice.views import PLAN_KEY
from tests.factories import RuleFactory, ScenarioFactory
from tests.quizzes.conftest import land_tutor_spec, make_question

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("slug", ["", "level-1", "level-2"])
def test_each_plan_shares_the_whole_among_known_topics(slug):
    plan = topics.plan_named(slug)
    assert math.isclose(sum(topic.share for topic in plan.topics), 1.0)
    assert {topic.slug for topic in plan.topics} <= set(topics.TOPIC_TITLES)
    assert len({topic.slug for topic in plan.topics}) == len(plan.topics)


def test_the_level_1_plan_weighs_the_sections_beyond_search():
    level_1 = {topic.slug: topic.share for topic in topics.plan_named("level-1").topics}
    beyond = {topic.slug for topic in topics.BEYOND_SEARCH}
    assert beyond <= set(level_1)
    assert sum(level_1[slug] for slug in beyond) > 0.5  # the exam's chapters, not search
    assert topics.plan_named("").topics == topics.SEARCH_AND_ITS_NEIGHBOURS  # the default


def test_one_topic_alone_and_an_unknown_plan():
    dredge = topics.plan_named("topic-dredge")
    assert dredge.only is not None and dredge.only.prefixes == ("702.52",)
    assert [topic.share for topic in dredge.topics] == [1.0]
    assert topics.plan_named("topic-nothing") is topics.DEFAULT_PLAN
    assert topics.plan_named("level-9") is topics.DEFAULT_PLAN
    offered = dict(topics.plan_choices())
    assert "level-1" in offered and "topic-sba" in offered and "" in offered


def board(name: str):
    return ScenarioFactory(slug=name, spec=land_tutor_spec(name))


@pytest.fixture
def mixed_bank(bank, no_variants):
    """Mana questions near a new learner's level, one dredge question far from it."""
    for index in range(4):
        mana = RuleFactory(number=f"106.{index + 1}")
        make_question(board(f"mana-{index}"), bank, rules=[mana], difficulty=-0.85)
    return make_question(board("dredge"), bank, rules=[RuleFactory(number="702.52a")], difficulty=2)


def test_one_topic_alone_serves_only_its_questions(learner, mixed_bank):
    dredge = topics.plan_named("topic-dredge")
    assert selection.next_question(learner, plan=dredge).question == mixed_bank
    assert selection.next_question(learner).question != mixed_bank  # nearest the level


def test_the_plan_chosen_is_kept_and_shown(client, learner, mixed_bank):
    client.force_login(learner)
    page = client.get(reverse("practice"), {"plan": "topic-dredge"})
    assert page.context["question"] == mixed_bank
    assert "· Dredge ·" in page.content.decode()
    assert client.session[PLAN_KEY] == "topic-dredge"
    again = client.get(reverse("practice"))  # no plan in the address: the one chosen
    assert again.context["plan"].slug == "topic-dredge"
    assert 'value="topic-dredge" selected' in again.content.decode()
    back = client.get(reverse("practice"), {"plan": ""})  # the default chosen again
    assert back.context["plan"] is topics.DEFAULT_PLAN and client.session[PLAN_KEY] == ""


def test_an_unknown_plan_is_refused(client, learner, mixed_bank):
    client.force_login(learner)
    assert client.get(reverse("practice"), {"plan": "level-9"}).status_code == 400

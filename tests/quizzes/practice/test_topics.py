"""A mix by topic (issue 23, Build 1, a first step): the study plan's topics by rule number, a
topic missing from the last answers first, and a topic that had its share waiting."""

from __future__ import annotations

import pytest
from django.db.models import Exists, OuterRef, Q
from django.urls import reverse

from quizzes.models import Question
from quizzes.practice import question_topics, selection, topics
from quizzes.practice.selection_sql import QUESTIONS, Questions
from tests.factories import RuleFactory, ScenarioFactory
from tests.quizzes.conftest import land_tutor_spec, make_question

pytestmark = pytest.mark.django_db


def test_a_question_is_about_the_topics_of_its_rules():
    assert topics.topics_of(["702.52b"]) == {"dredge"}
    assert topics.topics_of(["701.23b", "106.7"]) == {"search", "mana"}
    assert topics.topics_of(["999.1a"]) == set()


def test_the_balance_names_the_topics_missing_and_the_topics_full():
    mana = topics.topics_of(["106.12a"])
    assert mana == {"mana"}
    most = next(topic for topic in topics.PLAN if topic.slug == "mana").most
    recent = [["106.12a"]] * most + [["701.23b"]]
    balance = topics.balance(recent)
    assert [topic.slug for topic in balance.full] == ["mana"]
    assert "dredge" in {topic.slug for topic in balance.absent}
    # issue 23: a topic fewer than `LEAST` (two) of the last answers were about still comes first
    assert "search" in {topic.slug for topic in balance.absent}
    twice = topics.balance([["701.23b"]] * topics.LEAST + [["106.12a"]] * most)
    assert "search" not in {topic.slug for topic in twice.absent}
    assert all(topic.most >= topics.LEAST for topic in topics.PLAN)  # never full while short
    # only the last `WINDOW` answers count
    later = topics.balance([["701.23b"]] * topics.WINDOW + [["106.7"]] * 9)
    assert "mana" not in {topic.slug for topic in later.full}


def spec_about(prefixes):
    numbered = Q()
    for prefix in prefixes:
        numbered |= Q(rule__number__startswith=prefix)
    return Exists(Question.rules.through.objects.filter(numbered, question_id=OuterRef("pk")))


def ids(questions: Questions) -> set[int]:
    query = f"SELECT q.id {QUESTIONS} WHERE {questions.sql}"
    return {question.pk for question in Question.objects.raw(query, questions.params)}


def test_questions_about_a_topic_are_the_querysets(bank):
    rules = [RuleFactory(number=number) for number in ("702.52a", "106.7", "701.23b", "999.1a")]
    made = [make_question(ScenarioFactory(spec=land_tutor_spec()), bank, rules=[r]) for r in rules]
    made.append(make_question(ScenarioFactory(spec=land_tutor_spec()), bank, rules=rules[:2]))
    servable = Questions.servable([bank.pk])
    for slugs in (["dredge"], ["dredge", "mana"], ["search"]):
        chosen = [topics.TOPICS[slug] for slug in slugs]
        found = ids(servable.about(chosen))
        prefixes = [prefix for topic in chosen for prefix in topic.prefixes]
        expected = Question.objects.filter(spec_about(prefixes)).values_list("pk", flat=True)
        assert found == set(expected) and found
        assert ids(servable.not_about(chosen)) == {question.pk for question in made} - found


def test_a_question_stores_its_topics_whichever_way_its_rules_change(bank):
    dredge, mana = RuleFactory(number="702.52a"), RuleFactory(number="106.7")
    question = make_question(ScenarioFactory(spec=land_tutor_spec()), bank, rules=[dredge])

    def stored() -> set[str]:
        bits = Question.objects.get(pk=question.pk).topics
        return {slug for slug, bit in topics.BITS.items() if bits & bit}

    assert stored() == {"dredge"}
    mana.questions.add(question)  # from the rule's side
    assert stored() == {"dredge", "mana"}
    question.rules.remove(dredge)
    assert stored() == {"mana"}
    mana.number = "701.23b"  # a rule renumbered: its questions' topics follow
    mana.save()
    assert stored() == {"search"}
    question.rules.clear()
    assert stored() == set()
    Question.rules.through.objects.create(question=question, rule=dredge)  # in bulk: no signal
    assert stored() == set()
    assert question_topics.store() == 1 and stored() == {"dredge"}


RIGHT_FOREST_WRONG_SHOCK = {"claim_0": "may", "claim_1": "may"}


def board(name: str):
    return ScenarioFactory(slug=name, spec=land_tutor_spec(name))


def test_a_topic_missing_from_the_last_answers_comes_first(client, learner, bank, no_variants):
    """Dredge, far from a new learner's level, comes before mana questions near it once the
    learner has answered: no answer of theirs was about dredge."""
    dredge = RuleFactory(number="702.52a")
    for index in range(6):  # each on a rule of its own: the mix's rule wish leaves them all
        mana = RuleFactory(number=f"106.{index + 1}")
        make_question(board(f"mana-{index}"), bank, rules=[mana], difficulty=-0.85)
    # of another kind than the last answer's (the mix's first wish, kept by this step too)
    on_dredge = make_question(
        board("dredge"), bank, Question.Kind.YES_NO, rules=[dredge], difficulty=2.0
    )
    client.force_login(learner)
    first = client.get(reverse("practice"))
    assert first.context["question"] != on_dredge  # a first question: nearest the level
    client.post(reverse("answer"), {"token": first.context["token"], **RIGHT_FOREST_WRONG_SHOCK})
    page = client.get(reverse("practice"))
    assert page.context["question"] == on_dredge
    assert page.context["pick"].why == selection.Why.TOPIC
    assert "A topic of your study plan" in page.content.decode()


def test_a_topic_that_had_its_share_waits(learner, bank):
    """Mana questions, each on a rule of its own and all nearest the learner's level, give way
    to a search question once mana had its share of the last answers (so no family takes more
    than its topic's share)."""
    from tests.quizzes.practice.test_selection import answer

    most = next(topic for topic in topics.PLAN if topic.slug == "mana").most
    on_mana = [
        make_question(
            board(f"mana-{n}"), bank, rules=[RuleFactory(number=f"106.{n + 1}")], difficulty=-0.85
        )
        for n in range(most + 3)
    ]
    search = RuleFactory(number="701.23b")
    on_search = [
        make_question(board(f"search-{n}"), bank, rules=[search], difficulty=1.5) for n in range(4)
    ]
    for question in on_search[: topics.LEAST]:  # search met often enough: not short
        answer(learner, question)
    for question in on_mana[: most - 1]:
        answer(learner, question)
    assert selection.next_question(learner).question in on_mana  # mana below its share
    answer(learner, on_mana[most - 1])
    assert selection.next_question(learner).question in on_search[topics.LEAST :]


def _answered(number: int, family: str | None) -> selection.Answered:
    """An answer to a question of `family` (by slug), on a mana rule (no topic of search)."""
    return selection.Answered(
        number, number, True, frozenset({number}), "yes_no", number, None,
        frozenset({"106.1"}), family,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("met", "asked"),
    [
        ((), ["name-search-lobotomy", "name-search-splinter"]),
        (("name-search-splinter",), ["name-search-lobotomy"]),
        (("name-search-splinter", "name-search-lobotomy"), None),
    ],
)
def test_the_examples_asked_first_are_those_not_met_lately(met, asked):
    """The absent topic's first wish: a family a topic gives as its example, of those none of
    the recent answers came from; once every one has been met, no walk is asked for them."""
    recent = [_answered(n, family) for n, family in enumerate([*met, None, "another"], 1)]
    plan = topics.DEFAULT_PLAN
    balance = topics.balance([answer.rule_numbers for answer in recent], plan.topics)
    assert "search" in {topic.slug for topic in balance.absent}
    wish = selection._of_absent_topic(Questions.servable([1]), recent, balance, plan, 0.0)
    named = [tier for tier in wish.preferred if '"quizzes_family" f' in tier.sql]
    if asked is None:
        assert named == [] and len(wish.preferred) == 1
    else:
        assert len(named) == 1 and wish.preferred[0] is named[0]
        assert [p for p in named[0].params if isinstance(p, str) and "-search-" in p] == asked

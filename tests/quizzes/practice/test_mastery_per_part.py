"""Mastery per part (issue 23): each part of an answer counts for the rules that decide that part
alone, "Rules to work on" never lists a rule whose parts were all right, and relearning follows
the rule of the part that was missed. Through the test client, as a learner answers."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse

from quizzes.models import Mastery, Question
from tests.factories import RuleFactory, ScenarioFactory
from tests.quizzes.conftest import land_tutor_spec, make_question

pytestmark = pytest.mark.django_db

# The Land Tutor board's parts (tests/quizzes/conftest.py), as the engine rules them: a cards
# question's Forest part cites 701.23b (may), its Shock part 701.23a (cannot); a yes/no
# question's "revealed" statement cites 701.23e (true), "Nadia may search" 701.23a (false).
RIGHT_FOREST_WRONG_SHOCK = {"claim_0": "may", "claim_1": "may"}
ALL_RIGHT = {"claim_0": "may", "claim_1": "cannot"}
RIGHT_REVEALED_WRONG_NADIA = {"claim_0": "yes", "claim_1": "yes"}


@pytest.fixture
def rules(db):
    return {number: RuleFactory(number=number) for number in ("701.23a", "701.23b", "701.23e")}


def board(name: str):
    return ScenarioFactory(slug=name, spec=land_tutor_spec(name))


def serve_and_answer(client, answer: dict, url: str = "/practice/") -> Question:
    page = client.get(url)
    assert page.status_code == 200 and page.context["question"] is not None
    posted = client.post(
        reverse("answer"), {"token": page.context["token"], **answer}, HTTP_HX_REQUEST="true"
    )
    assert posted.status_code == 200
    return page.context["question"]


def mastery(learner, number: str) -> Mastery:
    return Mastery.objects.get(user=learner, rule__number=number)


def test_only_the_missed_parts_rules_are_weakened(client, learner, bank, rules, no_variants):
    make_question(board("tutor-a"), bank, rules=[rules["701.23a"], rules["701.23b"]])
    client.force_login(learner)
    serve_and_answer(client, RIGHT_FOREST_WRONG_SHOCK)
    found_forest, found_shock = mastery(learner, "701.23b"), mastery(learner, "701.23a")
    assert (found_forest.answers, found_forest.correct) == (1, 1)
    assert (found_shock.answers, found_shock.correct) == (1, 0)
    assert found_forest.theta > 0 > found_shock.theta
    assert found_shock.due < found_forest.due  # Again, then Good: the missed rule comes sooner


def test_the_rules_to_work_on_are_only_those_of_missed_parts(client, learner, bank, rules):
    """ "701.23e, 1 of 1 right" is not a rule to work on (issue 23, in German)."""
    make_question(
        board("tutor-a"), bank, Question.Kind.YES_NO, rules=[rules["701.23e"], rules["701.23a"]]
    )
    client.force_login(learner)
    serve_and_answer(client, RIGHT_REVEALED_WRONG_NADIA)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    progress = client.get(reverse("progress"))
    assert [item.mastery.rule.number for item in progress.context["weakest"]] == ["701.23a"]
    listed = progress.content.decode().split('id="weakest-title"')[1].split("</section>")[0]
    assert "701.23a" in listed and "701.23e" not in listed
    assert "0 von 1 richtig" in listed  # the row as a German reads it


def test_a_rule_all_of_whose_parts_were_right_is_never_to_work_on(client, learner, bank, rules):
    make_question(board("tutor-a"), bank, rules=[rules["701.23a"], rules["701.23b"]])
    make_question(board("tutor-b"), bank, rules=[rules["701.23a"], rules["701.23b"]])
    client.force_login(learner)
    serve_and_answer(client, RIGHT_FOREST_WRONG_SHOCK)
    serve_and_answer(client, RIGHT_FOREST_WRONG_SHOCK)
    progress = client.get(reverse("progress"))
    forest = mastery(learner, "701.23b")
    assert (forest.answers, forest.correct) == (2, 2)
    assert [item.mastery.rule.number for item in progress.context["weakest"]] == ["701.23a"]


def test_relearning_asks_the_rule_of_the_missed_part(client, learner, bank, rules, no_variants):
    """A miss on the Shock part (701.23a) brings 701.23a back after one other question, not
    701.23b, whose part was right, though a 701.23b question sits nearer the learner's level."""
    both = make_question(
        board("tutor-a"), bank, rules=[rules["701.23a"], rules["701.23b"]], difficulty=-0.85
    )
    other = make_question(board("tutor-b"), bank, rules=[RuleFactory(number="118.9")])
    forest_only = make_question(board("tutor-c"), bank, rules=[rules["701.23b"]], difficulty=-0.86)
    shock = make_question(board("tutor-d"), bank, rules=[rules["701.23a"]], difficulty=1.5)
    Question.objects.filter(pk=other.pk).update(difficulty=-0.8)
    client.force_login(learner)
    assert serve_and_answer(client, RIGHT_FOREST_WRONG_SHOCK) == both
    assert serve_and_answer(client, ALL_RIGHT) == other
    page = client.get("/practice/")
    assert page.context["question"] == shock != forest_only

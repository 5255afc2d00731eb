"""The rule page's hand-written query (quizzes/reference/queries.py) returns what the querysets
below, its specification, return: the scenario list for every kind of visitor, and the mastery
(`Mastery.objects.of_rule`)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from quizzes.models import Attempt, Question, Response, Scenario
from quizzes.reference.queries import scenario_rows
from quizzes.reference.views import listed
from tests.factories import QuestionFactory, ScenarioFactory, UserFactory

pytestmark = pytest.mark.django_db


def scenarios_for(rule, user):
    """The specification: the scenarios exercising `rule` that `user` may practise, listed."""
    return listed(Scenario.objects.visible_to(user).filter(rules_exercised=rule), user)


def as_rows(rule, user) -> list[dict]:
    return [dict(row) for row in scenarios_for(rule, user)]


@pytest.fixture
def visitors(scenarios_by_bank, search_rule):
    """The fixture's owner and member, a learner who answered one question, and an anonymous
    visitor; plus a scenario with an inactive question and one exercising another rule."""
    answered = Question.objects.filter(bank__visibility="public").first()
    learner = UserFactory()
    attempt = Attempt.objects.create(user=learner)
    Response.objects.create(attempt=attempt, question=answered, user=learner)
    inactive = ScenarioFactory(bank=answered.bank)
    inactive.rules_exercised.add(search_rule)
    QuestionFactory(scenario=inactive, bank=answered.bank, is_active=False)
    QuestionFactory(scenario=inactive, bank=answered.bank)
    ScenarioFactory(bank=answered.bank)  # no rule: listed nowhere
    return [scenarios_by_bank["owner"], scenarios_by_bank["member"], learner, AnonymousUser()]


def test_the_hand_written_rows_are_the_querysets(visitors, search_rule):
    for visitor in visitors:
        expected = as_rows(search_rule, visitor)
        assert [row._asdict() for row in scenario_rows(search_rule, visitor)] == expected
    counts = [len(as_rows(search_rule, visitor)) for visitor in visitors]
    assert counts == [4, 3, 2, 2]  # the owner: the private bank too; the member: the shared
    learner = visitors[2]
    assert [row.answered for row in scenario_rows(search_rule, learner)].count(True) == 1


def test_a_visitor_with_no_bank_lists_nothing(search_rule, scenarios_by_bank):
    from quizzes.models import Bank

    Bank.objects.filter(visibility="public").update(visibility="private")
    nobody = UserFactory()
    assert scenario_rows(search_rule, nobody) == ()
    assert as_rows(search_rule, nobody) == []


def test_the_mastery_read_by_hand_is_the_querysets(search_rule, scenarios_by_bank):
    from quizzes.models import Mastery

    learner, other = scenarios_by_bank["owner"], scenarios_by_bank["member"]
    Mastery.objects.create(
        user=learner, rule=search_rule, theta=0.4, answers=3, correct=2,
        fsrs_card={"state": 2}, due=timezone.now(),
    )  # fmt: skip
    expected = Mastery.objects.owned_by(learner).filter(rule=search_rule).first()
    found = Mastery.objects.of_rule(learner, search_rule)
    fields = [field.attname for field in Mastery._meta.concrete_fields]
    assert [getattr(found, f) for f in fields] == [getattr(expected, f) for f in fields]
    assert Mastery.objects.of_rule(other, search_rule) is None


def test_the_list_with_the_mastery_is_both_reads(visitors, search_rule):
    """`scenario_rows_and_mastery` (the rule page's one query) is `scenario_rows` and
    `Mastery.objects.of_rule`: for every kind of visitor, with a mastery or none."""
    from quizzes.models import Mastery
    from quizzes.reference.queries import scenario_rows_and_mastery

    owner = visitors[0]
    Mastery.objects.create(
        user=owner, rule=search_rule, theta=-0.7, answers=5, correct=1,
        fsrs_card={"state": 1}, due=timezone.now(),
    )  # fmt: skip
    fields = [field.attname for field in Mastery._meta.concrete_fields]
    for visitor in visitors:
        rows, mastery = scenario_rows_and_mastery(search_rule, visitor)
        assert [row._asdict() for row in rows] == as_rows(search_rule, visitor)
        if not visitor.is_authenticated:
            assert mastery is None
            continue
        expected = Mastery.objects.of_rule(visitor, search_rule)
        assert (mastery is None) is (expected is None) is (visitor != owner)
        if expected is not None:
            assert [getattr(mastery, f) for f in fields] == [getattr(expected, f) for f in fields]

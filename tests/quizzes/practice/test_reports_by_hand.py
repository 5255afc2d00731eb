"""The progress page's reads, written by hand (quizzes/reports.py, `Mastery.objects`), return
what their querysets (the specification, kept here) return."""

from __future__ import annotations

import datetime

import pytest
from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.db.models.functions import TruncDate
from django.utils import timezone

from quizzes.models import Attempt, Mastery, Response, ScenarioVersion
from quizzes.practice import reports
from tests.factories import RuleFactory, UserFactory
from tests.quizzes.conftest import make_question

pytestmark = pytest.mark.django_db

NOW = timezone.now()


@pytest.fixture
def history(learner, scenario, bank, search_rule):
    """Twelve answers over five days, at hours that cross midnight in other time zones; half
    given on a version with a title of its own."""
    question = make_question(scenario, bank, rules=[search_rule])
    version = ScenarioVersion.objects.filter(scenario=scenario).first()
    ScenarioVersion.objects.filter(pk=version.pk).update(title="As first given")
    for index in range(12):  # an attempt each: an attempt answers a question once
        attempt = Attempt.objects.create(user=learner)
        answer = Response.objects.create(
            attempt=attempt, question=question, user=learner, correct=index % 3 == 0,
            verdict={"correct": index % 3 == 0, "score": index / 12, "parts": []},
            scenario_version=version if index % 2 else None,
        )  # fmt: skip
        moment = NOW - datetime.timedelta(days=index // 3, hours=index * 5)
        Response.objects.filter(pk=answer.pk).update(created_at=moment)
    someone = UserFactory()  # and another learner's answer
    Response.objects.create(
        attempt=Attempt.objects.create(user=someone), question=question, user=someone
    )
    return learner


def days_by_orm(user, days=30):
    since = timezone.now() - datetime.timedelta(days=days)
    rows = (
        user.responses.filter(created_at__gte=since)
        .annotate(day=TruncDate("created_at"))
        .values("day")
        .annotate(answers=Count("id"), right=Count("id", filter=Q(correct=True)))
        .order_by("day")
    )
    return [reports.Day(row["day"], row["answers"], row["right"]) for row in rows]


@pytest.mark.parametrize("zone", ["UTC", "Pacific/Auckland", "America/Los_Angeles"])
def test_accuracy_by_day_is_the_orms_in_every_time_zone(history, zone):
    with timezone.override(zone):
        found = reports.accuracy_by_day(history)
        assert found == days_by_orm(history)
    assert sum(day.answers for day in found) == 12 and len(found) >= 4
    assert reports.accuracy_by_day(history, days=1) == days_by_orm(history, days=1)


def test_the_history_pages_are_the_orms(history):
    ordered = Response.objects.owned_by(history).select_related(
        "question__scenario", "scenario_version"
    )
    by_orm = Paginator(ordered, 5)
    by_hand = Paginator(reports.History(history), 5)
    assert by_hand.count == by_orm.count == 12 and by_hand.num_pages == 3
    for number in by_orm.page_range:
        expected = [
            (r.pk, (r.scenario_version.title if r.scenario_version else "") or
             r.question.scenario.title, r.created_at, r.verdict)
            for r in by_orm.page(number)
        ]  # fmt: skip
        found = [
            (v.response.pk, v.response.title, v.response.created_at, v.to_json())
            for v in by_hand.page(number)
        ]
        assert [row[:3] for row in found] == [row[:3] for row in expected]
        assert [(v.correct, v.score) for v in by_hand.page(number)] == [
            (row[3]["correct"], row[3]["score"]) for row in expected
        ]
    titles = {v.response.title for v in by_hand.page(1)}
    assert titles == {"As first given", history.responses.first().question.scenario.title}


def test_the_masteries_come_with_their_rules_numbers(learner, django_assert_num_queries):
    rules = [RuleFactory(number=number) for number in ("701.23a", "701.23b", "702.1")]
    for rule in rules[:2]:
        Mastery.objects.create(user=learner, rule=rule, theta=0.3)
    Mastery.objects.create(user=UserFactory(), rule=rules[2])
    expected = Mastery.objects.owned_by(learner).select_related("rule")
    with django_assert_num_queries(1):
        found = Mastery.objects.with_rule_numbers(learner)
        numbers = sorted((m.pk, m.rule.number, m.theta) for m in found)
    assert numbers == sorted((m.pk, m.rule.number, m.theta) for m in expected)
    assert found[0].rule.text == expected.get(pk=found[0].pk).rule.text  # the rest, if asked

"""The answer view's hand-written reads (quizzes/answer_lookup.py) give what the querysets they
replace give: the querysets below are the specification."""

from __future__ import annotations

import datetime

import pytest
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from quizzes.exams import proctor
from quizzes.models import (
    Attempt,
    Bank,
    Cohort,
    ExamSitting,
    Mastery,
    Presentation,
    Response,
    Scenario,
    ScenarioVersion,
)
from quizzes.practice import answer_lookup, selection
from rules import cards
from tests.factories import BankFactory, CardFactory, RuleFactory, ScenarioFactory, UserFactory
from tests.quizzes.conftest import land_tutor_spec, make_question

pytestmark = pytest.mark.django_db
DEFERRED = ("question__scenario__spec", "question__scenario__stored_expect")
DEFERRED += ("scenario_version__spec", "scenario_version__stored_expect")


def presentation_spec(user, token: str, since) -> Presentation | None:
    """The view's queryset before it was written by hand."""
    still_available = selection.available_questions(user).filter(pk=OuterRef("question_id"))
    return (
        Presentation.objects.owned_by(user)
        .served_since(since)
        .filter(Exists(still_available), token=token)
        .select_related("question__scenario", "scenario_version", "response")
        .defer(*DEFERRED)
        .first()
    )


def values(instance) -> dict | None:
    """Every loaded field's value, and which are deferred."""
    if instance is None:
        return None
    deferred = instance.get_deferred_fields()
    loaded = {
        field.attname: getattr(instance, field.attname)
        for field in instance._meta.concrete_fields
        if field.attname not in deferred
    }
    return {"model": type(instance).__name__, "deferred": deferred, **loaded}


def loaded(presentation) -> list:
    """The presentation and what the view reads through it, read without a query."""
    if presentation is None:
        return [None]
    question = presentation.question
    return [
        values(presentation),
        values(question),
        values(question.scenario),
        values(presentation.scenario_version),
        values(getattr(presentation, "response", None)),
    ]


def assert_same(user, token: str, since, django_assert_num_queries) -> None:
    expected = loaded(presentation_spec(user, token, since))
    with django_assert_num_queries(1):
        found = answer_lookup.find(user, token, since)
    with django_assert_num_queries(0):  # related objects loaded as select_related loads them
        assert loaded(found.presentation) == expected
    assert found.paused == proctor.sittings_of(user).unfinished().exists()
    assert found.card_generation == cards.generation_by_orm()
    if found.presentation is not None:
        attempt = Attempt.objects.latest_open_practice(user, found.presentation.question)
        assert values(found.attempt) == values(attempt)
        held = attempt.answered_question if attempt else False
        assert found.attempt_holds_question == held
        question = found.presentation.question
        lacking = question.rules.exclude(masteries__user=user).exists()
        assert found.masteries_missing == lacking
        # `learned`: whether they answered it before, each rule with their mastery or None
        answered = Response.objects.filter(user=user, question=question).exists()
        assert found.learned.answered_before == answered
        masteries = {m.rule_id: m for m in Mastery.objects.filter(user=user)}
        rules = [(r.pk, r.number, masteries.get(r.pk)) for r in question.rules.order_by("pk")]
        got = [(rule_id, number, values(m)) for rule_id, number, m in found.learned.rules]
        assert got == [(rule_id, number, values(m)) for rule_id, number, m in rules]
    else:
        assert found.learned is None


@pytest.fixture
def world(learner, other_learner, scenario, search_rule):
    """Questions in every kind of bank, and presentations of them to two learners."""
    instructor = UserFactory(username="teacher")
    banks = {
        "public": BankFactory(),
        "own": BankFactory(owner=learner, visibility=Bank.Visibility.PRIVATE),
        "private": BankFactory(owner=instructor, visibility=Bank.Visibility.PRIVATE),
        "cohort": BankFactory(owner=instructor, visibility=Bank.Visibility.SHARED),
        "other-cohort": BankFactory(owner=instructor, visibility=Bank.Visibility.SHARED),
        "cohort-private": BankFactory(owner=instructor, visibility=Bank.Visibility.PRIVATE),
    }
    cohort = Cohort.objects.create(name="Tuesday", instructor=instructor)
    cohort.banks.add(banks["cohort"], banks["cohort-private"])
    cohort.members.add(learner)
    elsewhere = Cohort.objects.create(name="Friday", instructor=instructor)
    elsewhere.banks.add(banks["other-cohort"])
    questions = {
        name: make_question(scenario, bank, rules=[search_rule]) for name, bank in banks.items()
    }
    questions["inactive"] = make_question(scenario, banks["public"], is_active=False)
    broken = ScenarioFactory(
        spec=land_tutor_spec("broken"), engine_status=Scenario.EngineStatus.INVALID
    )
    questions["invalid"] = make_question(broken, banks["public"])
    tokens = {}
    for name, question in questions.items():
        for user in (learner, other_learner):
            shown = Presentation.objects.create(
                user=user,
                question=question,
                shown={"spec": {}, "claims": []},
                scenario_version_id=question.scenario.current_version_id,
                filters="level=L1",
            )
            tokens[name, user.username] = shown.token
    return tokens


WHEN = timezone.now() - datetime.timedelta(days=1)


def test_each_bank_and_question_as_the_queryset(
    world, learner, other_learner, django_assert_num_queries
):
    for token in world.values():
        for user in (learner, other_learner):
            assert_same(user, token, WHEN, django_assert_num_queries)
    assert_same(learner, "no-such-token", WHEN, django_assert_num_queries)
    assert_same(learner, "", WHEN, django_assert_num_queries)


def test_a_presentation_found_only_for_its_own_learner(world, learner, other_learner):
    mine = world["public", learner.username]
    assert answer_lookup.find(learner, mine, WHEN).presentation.token == mine
    assert answer_lookup.find(other_learner, mine, WHEN).presentation is None
    found = [
        name
        for name, user in world
        if answer_lookup.find(learner, world[name, user], WHEN).presentation
    ]
    assert sorted(found) == ["cohort", "own", "public"]


def test_expired_answered_and_versioned_as_the_queryset(world, learner, django_assert_num_queries):
    token = world["public", learner.username]
    shown = Presentation.objects.get(token=token)
    Presentation.objects.filter(pk=shown.pk).update(created_at=WHEN - datetime.timedelta(seconds=1))
    assert_same(learner, token, WHEN, django_assert_num_queries)  # expired
    Presentation.objects.filter(pk=shown.pk).update(
        created_at=timezone.now(), scenario_version=None
    )
    assert_same(learner, token, WHEN, django_assert_num_queries)  # no version
    attempt = Attempt.objects.create(user=learner)
    Response.objects.create(
        attempt=attempt,
        question=shown.question,
        user=learner,
        answer={"claim_0": "may"},
        verdict={"parts": [], "correct": True, "score": 1.0},
        correct=True,
        score=1.0,
        presentation=shown,
    )
    assert_same(learner, token, WHEN, django_assert_num_queries)  # answered, attempt holds it
    other = world["own", learner.username]
    assert_same(learner, other, WHEN, django_assert_num_queries)  # attempt open, not holding it
    assert ScenarioVersion.objects.exists()


def test_the_card_tables_generation_is_read_along(world, learner, django_assert_num_queries):
    token = world["public", learner.username]
    assert_same(learner, token, WHEN, django_assert_num_queries)  # no card row
    CardFactory(name="Made Up Relic")
    card = CardFactory(name="Made Up Trinket")
    assert_same(learner, token, WHEN, django_assert_num_queries)
    card.save()
    assert_same(learner, token, WHEN, django_assert_num_queries)
    assert answer_lookup.find(learner, "", WHEN).card_generation == cards.generation()


def test_a_running_exam_is_seen(world, learner, django_assert_num_queries):
    token = world["public", learner.username]
    exam = Attempt.objects.create(
        user=learner, kind=Attempt.Kind.EXAM, deadline=timezone.now() + datetime.timedelta(hours=1)
    )
    ExamSitting.objects.create(
        attempt=exam, title="Exam", pass_mark=0.8, time_limit_minutes=60, question_count=1
    )
    assert_same(learner, token, WHEN, django_assert_num_queries)
    assert answer_lookup.find(learner, token, WHEN).paused
    exam.finished_at = timezone.now()
    exam.save()
    assert not answer_lookup.find(learner, token, WHEN).paused


class Rollback(Exception):
    pass


def attempts_after(open_one, user, question) -> tuple:
    """What opening the practice attempt returns and leaves stored, then undone."""
    try:
        with transaction.atomic():
            attempt = open_one(user, question)
            rows = list(
                Attempt.objects.filter(user=user).order_by("pk").values_list("kind", "finished_at")
            )
            made = (attempt.kind, attempt.user_id, attempt.finished_at, attempt.deadline)
            raise Rollback((made, [(kind, at is None) for kind, at in rows], attempt.pk))
    except Rollback as done:
        return done.args[0]


@pytest.mark.parametrize("state", ["none", "open", "holds"])
def test_the_open_attempt_as_open_practice_for(world, learner, state):
    shown = Presentation.objects.get(token=world["public", learner.username])
    if state != "none":
        attempt = Attempt.objects.create(user=learner)
    if state == "holds":
        Response.objects.create(
            attempt=attempt,
            question=shown.question,
            user=learner,
            answer={},
            verdict={"parts": [], "correct": False, "score": 0.0},
            correct=False,
            score=0.0,
        )

    def by_hand(user, question):
        return answer_lookup.open_attempt(user, answer_lookup.find(user, shown.token, WHEN))

    orm = attempts_after(Attempt.objects.open_practice_for, learner, shown.question)
    hand = attempts_after(by_hand, learner, shown.question)
    assert orm[:2] == hand[:2]
    if state == "open":
        assert hand[2] == attempt.pk


def test_a_missing_mastery_is_seen(world, learner, other_learner, django_assert_num_queries):
    """`masteries_missing`: the learner lacks a mastery of one of the question's rules (another
    learner's does not count; a question of no rule lacks none)."""
    token = world["public", learner.username]
    question = Presentation.objects.get(token=token).question
    second = RuleFactory()
    question.rules.add(second)
    assert answer_lookup.find(learner, token, WHEN).masteries_missing
    for rule in question.rules.all():
        Mastery.objects.create(user=other_learner, rule=rule)
    Mastery.objects.create(user=learner, rule=second)
    assert answer_lookup.find(learner, token, WHEN).masteries_missing  # one of two
    assert_same(learner, token, WHEN, django_assert_num_queries)
    Mastery.objects.get_or_create(user=learner, rule=question.rules.exclude(pk=second.pk).get())
    assert not answer_lookup.find(learner, token, WHEN).masteries_missing
    question.rules.clear()
    assert not answer_lookup.find(learner, token, WHEN).masteries_missing
    assert_same(learner, token, WHEN, django_assert_num_queries)

"""An answer's hand-written writes (quizzes/recording.py) do what the ORM statements they
replace do: those statements, below, are the specification."""

from __future__ import annotations

import datetime

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from quizzes.models import Attempt, Mastery, Presentation, Question, Response
from quizzes.practice import recording, scheduling
from tests.factories import RuleFactory
from tests.quizzes.conftest import make_question

pytestmark = pytest.mark.django_db


@pytest.fixture
def rules(search_rule):
    return [search_rule, RuleFactory(), RuleFactory()]


@pytest.fixture
def asked(scenario, bank, rules):
    return make_question(scenario, bank, rules=rules, difficulty=0.25, answer_count=3)


def respond(learner, question, **extra) -> Response:
    return Response.objects.create(
        attempt=Attempt.objects.create(user=learner),
        question=question,
        user=learner,
        answer={"claim_0": "may"},
        verdict={"parts": [], "correct": True, "score": 1.0},
        correct=True,
        score=1.0,
        **extra,
    )


def expected_lock(question, user, response_id: int = 0) -> recording.LockedQuestion:
    difficulty, answer_count = Question.objects.values_list("difficulty", "answer_count").get(
        pk=question.pk
    )
    return recording.LockedQuestion(
        difficulty,
        answer_count,
        Response.objects.filter(user=user, question=question).exclude(pk=response_id).exists(),
        question.rules.count(),
        Mastery.objects.filter(user=user, rule__in=question.rules.all()).count(),
    )


def locked_question(question_id: int, user_id: int, response_id: int) -> recording.LockedQuestion:
    return recording.lock_question_and_masteries(question_id, user_id, response_id)[0]


def test_the_question_lock_reads_what_the_orm_reads(
    asked, learner, other_learner, rules, scenario, bank
):
    bare = make_question(scenario, bank)
    for question in (asked, bare):
        for user in (learner, other_learner):
            assert locked_question(question.pk, user.pk, 0) == expected_lock(question, user)
    first = respond(learner, asked)
    assert not locked_question(asked.pk, learner.pk, first.pk).answered_before
    assert locked_question(asked.pk, learner.pk, first.pk) == expected_lock(
        asked, learner, first.pk
    )
    respond(learner, asked)
    Mastery.objects.create(user=learner, rule=rules[0])
    Mastery.objects.create(user=other_learner, rule=rules[1])
    assert locked_question(asked.pk, learner.pk, first.pk) == expected_lock(
        asked, learner, first.pk
    )
    assert not locked_question(asked.pk, learner.pk, 0).masteries_exist
    Mastery.objects.create(user=learner, rule=rules[1])
    Mastery.objects.create(user=learner, rule=rules[2])
    locked = locked_question(asked.pk, learner.pk, first.pk)
    assert locked == expected_lock(asked, learner, first.pk) and locked.answered_before
    assert locked.masteries_exist
    assert not locked_question(bare.pk, learner.pk, 0).masteries_exist  # links no rule


def fields(instance) -> dict:
    return {
        field.attname: getattr(instance, field.attname) for field in instance._meta.concrete_fields
    }


def test_the_masteries_as_the_orm_reads_them(asked, learner, other_learner, rules, scenario, bank):
    now = timezone.now()
    for index, rule in enumerate(reversed(rules)):
        card, due = scheduling.review({}, index % 2 == 0, now)
        Mastery.objects.create(
            user=learner, rule=rule, theta=index / 3, answers=index, fsrs_card=card, due=due
        )
    Mastery.objects.create(user=other_learner, rule=rules[0])
    Mastery.objects.create(user=learner, rule=RuleFactory())  # a rule the question does not ask
    rule_ids = sorted(rule.pk for rule in rules)
    expected = Mastery.objects.filter(user=learner, rule_id__in=rule_ids).order_by("rule_id")
    got = recording.lock_question_and_masteries(asked.pk, learner.pk, 0)[1]
    assert [fields(m) for m, _number in got] == [fields(m) for m in expected]
    assert [number for _m, number in got] == [m.rule.number for m in expected]
    assert all(not m._state.adding and m.get_deferred_fields() == set() for m, _number in got)
    assert (
        recording.lock_question_and_masteries(make_question(scenario, bank).pk, learner.pk, 0)[1]
        == []
    )


def stored(response_id: int) -> dict:
    row = Response.objects.filter(pk=response_id).values().get()
    row.pop("id")
    return row


def test_a_response_stored_as_create_stores_it(asked, learner, scenario):
    when = timezone.now() - datetime.timedelta(minutes=3)
    shown = [
        Presentation.objects.create(user=learner, question=asked, shown={"spec": {}})
        for _ in range(2)
    ]
    given = {
        "question": asked,
        "user": learner,
        "answer": {"claim_0": "may", "order": ["Alice", "Bob"], "n": 2},
        "verdict": {"parts": [{"right": True, "rule": "701.23b"}], "correct": True, "score": 1.0},
        "correct": True,
        "score": 0.5,
        "variant_seed": 12345,
        "scenario_version_id": scenario.current_version_id,
        "created_at": when,
    }
    attempts = [Attempt.objects.create(user=learner) for _ in range(5)]
    by_orm = Response.objects.create(attempt=attempts[0], presentation=shown[0], **given)
    by_hand = recording.insert_response(
        Response(attempt=attempts[1], presentation=shown[1], **given)
    )
    assert by_hand.pk and not by_hand._state.adding
    assert stored(by_hand.pk) == {
        **stored(by_orm.pk),
        "attempt_id": attempts[1].pk,
        "presentation_id": shown[1].pk,
    }
    assert Response.objects.get(pk=by_hand.pk).answer == given["answer"]
    # where `create` raises IntegrityError, nothing is stored and no error breaks the
    # transaction: one response per presentation, one per attempt and question
    for twice in (
        Response(attempt=attempts[2], presentation=shown[1], **given),
        Response(attempt=attempts[1], **given),
    ):
        with pytest.raises(IntegrityError), transaction.atomic():
            Response.objects.create(
                **{
                    f.name: getattr(twice, f.name)
                    for f in Response._meta.concrete_fields
                    if not f.primary_key
                }
            )
        assert recording.insert_response(twice) is None and twice.pk is None
    assert Response.objects.filter(attempt__in=attempts[1:3]).count() == 1
    bare = recording.insert_response(Response(attempt=attempts[3], question=asked, user=learner))
    made = Response.objects.create(attempt=attempts[4], question=asked, user=learner)
    assert stored(bare.pk) == {
        **stored(made.pk),
        "attempt_id": attempts[3].pk,
        "created_at": Response.objects.get(pk=bare.pk).created_at,
    }


def test_learned_values_of_every_rule_saved_as_save_saves_them(
    learner, rules, django_assert_num_queries
):
    """`save_learned`: the masteries of a question's rules written as `save()` writes each, one
    UPDATE each."""
    now = timezone.now()
    masteries = [Mastery.objects.create(user=learner, rule=rule) for rule in rules]
    card, due = scheduling.review({}, True, now)
    for index, mastery in enumerate(masteries):
        mastery.theta, mastery.answers, mastery.correct = 0.75 + index, 4, 3
        mastery.fsrs_card, mastery.due = dict(card), due
    masteries[0].save(update_fields=[*recording.LEARNED])
    with django_assert_num_queries(2):
        recording.save_learned(masteries[1:], now)
    stored = [Mastery.objects.filter(pk=m.pk).values().get() for m in masteries]
    assert [row["updated_at"] for row in stored[1:]] == [now, now]
    for index, row in enumerate(stored):
        row.pop("id"), row.pop("rule_id"), row.pop("updated_at")
        assert row["theta"] == 0.75 + index
        row.pop("theta")
    assert stored[0] == stored[1] == stored[2]
    assert Mastery.objects.get(pk=masteries[2].pk).due == due


def test_the_question_with_its_masteries_or_its_rules_as_the_orm_reads_them(
    asked, learner, other_learner, rules, scenario, bank
):
    """`lock_question_and_masteries` reads what the ORM reads: the masteries when the learner
    has one of each of the question's rules, else the rules the question links."""

    def apart(question, user, response_id=0):
        locked = expected_lock(question, user, response_id)
        if not locked.masteries_exist:
            return locked, [], dict(question.rules.values_list("id", "number"))
        masteries = Mastery.objects.filter(user=user, rule__in=question.rules.all())
        return locked, [(m, m.rule.number) for m in masteries.order_by("rule_id")], {}

    def together(question, user, response_id=0):
        return recording.lock_question_and_masteries(question.pk, user.pk, response_id)

    def same(question, user, response_id=0):
        (locked, masteries, linked), (expected, expected_masteries, expected_linked) = (
            together(question, user, response_id),
            apart(question, user, response_id),
        )
        assert locked == expected and linked == expected_linked
        assert [(fields(m), n) for m, n in masteries] == [
            (fields(m), n) for m, n in expected_masteries
        ]
        return locked, masteries, linked

    bare = make_question(scenario, bank)
    numbers = {rule.pk: rule.number for rule in rules}
    assert same(asked, learner) == (expected_lock(asked, learner), [], numbers)
    assert same(bare, learner)[1:] == ([], {})
    first = respond(learner, asked)
    Mastery.objects.create(user=learner, rule=rules[1], theta=0.5, answers=2)
    locked, masteries, linked = same(asked, learner, first.pk)  # one of three: none read
    assert not locked.masteries_exist and masteries == [] and linked == numbers
    Mastery.objects.create(user=learner, rule=rules[0])
    Mastery.objects.create(user=learner, rule=rules[2])
    Mastery.objects.create(user=other_learner, rule=rules[0])
    respond(learner, asked)
    locked, masteries, linked = same(asked, learner, first.pk)
    assert locked.masteries_exist and locked.answered_before and linked == {}
    assert [m.rule_id for m, _n in masteries] == sorted(rule.pk for rule in rules)
    assert all(m.user_id == learner.pk for m, _n in masteries)


def test_missing_masteries_created_as_bulk_create_creates_them(
    asked, learner, other_learner, rules
):
    """`create_masteries`: the learner's missing masteries of the question's rules, as
    `bulk_create(ignore_conflicts=True)` of new `Mastery` rows makes them; the others kept."""
    now = timezone.now()
    kept = Mastery.objects.create(user=learner, rule=rules[1], theta=0.5, answers=2)
    recording.create_masteries(asked.pk, learner.pk, now)
    Mastery.objects.bulk_create(
        [Mastery(user=other_learner, rule=rule) for rule in rules], ignore_conflicts=True
    )
    mine = {m.rule_id: m for m in Mastery.objects.filter(user=learner)}
    theirs = {m.rule_id: m for m in Mastery.objects.filter(user=other_learner)}
    assert sorted(mine) == sorted(theirs) == sorted(rule.pk for rule in rules)
    assert Mastery.objects.filter(pk=kept.pk).values_list("theta", "answers").get() == (0.5, 2)
    for rule in (rules[0], rules[2]):
        made, spec = mine[rule.pk], theirs[rule.pk]
        assert made.updated_at == now
        skip = {"id", "user_id", "updated_at"}
        assert {k: v for k, v in fields(made).items() if k not in skip} == {
            k: v for k, v in fields(spec).items() if k not in skip
        }
    recording.create_masteries(asked.pk, learner.pk, now)  # none missing: nothing made
    assert Mastery.objects.filter(user=learner).count() == len(rules)


def test_learned_values_written_where_unchanged_as_the_orm_writes_them(
    learner, other_learner, rules, django_assert_num_queries
):
    """`learn_if_unchanged`: in one statement, each mastery saved as `save()` saves it where its
    row still has one answer less (as read), created as `create()` creates it where missing,
    and left alone where it moved; the rules written."""
    now = timezone.now()
    card, due = scheduling.review({}, True, now)
    read = Mastery.objects.create(user=learner, rule=rules[0], answers=2, correct=1)
    moved = Mastery.objects.create(user=learner, rule=rules[1], answers=2)
    Mastery.objects.filter(pk=moved.pk).update(answers=3, theta=0.5)  # another answer, since
    missing = Mastery(user=learner, rule=rules[2])
    Mastery.objects.create(user=other_learner, rule=rules[2])  # another learner's: untouched
    for mastery in (read, moved, missing):
        mastery.theta, mastery.correct = 0.25, mastery.correct + 1
        mastery.answers += 1
        mastery.fsrs_card, mastery.due = dict(card), due
    with django_assert_num_queries(1):
        written = recording.learn_if_unchanged([read, moved, missing], now)
    assert written == {rules[0].pk, rules[2].pk}
    fields = ["theta", "answers", "correct", "fsrs_card", "due", "updated_at"]
    stored = Mastery.objects.filter(user=learner).order_by("rule_id").values(*fields)
    learnt = {"theta": 0.25, "fsrs_card": card, "due": due, "updated_at": now}
    assert list(stored)[0] == {**learnt, "answers": 3, "correct": 2}
    assert Mastery.objects.values_list("theta", "answers").get(pk=moved.pk) == (0.5, 3)
    assert list(stored)[2] == {**learnt, "answers": 1, "correct": 1}
    assert Mastery.objects.get(user=other_learner).answers == 0


def test_the_question_counted_where_its_count_is_as_read(asked, django_assert_num_queries):
    """`count_answer_if`: `count_answer` where the question still has the answers read; else
    nothing written (False)."""
    with django_assert_num_queries(1):
        assert recording.count_answer_if(asked.pk, 3, 0.5)
    assert Question.objects.values_list("answer_count", "difficulty").get(pk=asked.pk) == (4, 0.5)
    assert not recording.count_answer_if(asked.pk, 3, 0.75)  # moved: 4 answers now
    assert Question.objects.values_list("answer_count", "difficulty").get(pk=asked.pk) == (4, 0.5)

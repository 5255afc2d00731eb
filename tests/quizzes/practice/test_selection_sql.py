"""The selection's hand-written SQL (quizzes/selection_sql.py) returns what the querysets it
replaced return. The querysets are kept here as the specification: the learner's rows (a UNION
ALL of answers, masteries, banks), the mix's levels and the nearest question of each."""

from __future__ import annotations

import datetime
import random

import pytest
from django.db.models import (
    BooleanField,
    CharField,
    Count,
    DateTimeField,
    Exists,
    F,
    FloatField,
    IntegerField,
    OuterRef,
    Subquery,
    Value,
)
from django.db.models.functions import Abs
from django.utils import timezone

from config import sql
from quizzes.models import (
    Attempt,
    Bank,
    Cohort,
    CohortMembership,
    ExamSitting,
    Family,
    Mastery,
    Question,
    Response,
    Scenario,
)
from quizzes.practice import selection
from quizzes.practice.lookups import AnyOf
from quizzes.practice.selection_sql import (
    QUESTIONS,
    Questions,
    learner_rows,
    least_seen,
    nearest_unseen,
)
from rules.models import Rule
from tests.factories import BankFactory, RuleFactory, ScenarioFactory, UserFactory
from tests.quizzes.conftest import land_tutor_spec, make_question

pytestmark = pytest.mark.django_db


# --- the specification: the querysets the SQL replaced -------------------------------------------


def spec_learner_rows(user, missed_at=()):
    no_id, no_bool, no_text, no_float, no_moment = (
        Value(None, output_field=field())
        for field in (IntegerField, BooleanField, CharField, FloatField, DateTimeField)
    )
    last = Response.objects.filter(user=user).order_by("-created_at", "-id")[: selection.RECENT]
    answers = Response.objects.filter(pk__in=Subquery(last.values("pk"))).values_list(
        Value("answer"), "pk", "question_id", "question__scenario_id",
        "question__scenario__family_id", "correct", "question__kind", "question__rules",
        no_float, "created_at",
    )  # fmt: skip
    masteries = Mastery.objects.owned_by(user).values_list(
        Value("mastery"), no_id, no_id, no_id, no_id, no_bool, no_text, "rule_id", "theta", "due"
    )  # fmt: skip
    banks = Bank.objects.visible_to(user).values_list(
        Value("bank"), "pk", no_id, no_id, no_id, no_bool, no_text, no_id, no_float, no_moment
    )  # fmt: skip
    sittings = ExamSitting.objects.filter(
        attempt__user=user, attempt__finished_at__isnull=True
    ).values_list(
        Value("sitting"), "attempt_id", no_id, no_id, no_id, no_bool, no_text, no_id, no_float,
        no_moment,
    )  # fmt: skip
    rows = answers.order_by().union(
        masteries.order_by(), banks.order_by(), sittings.order_by(), all=True
    )
    placed_rows = [(*row[:9], *placed(row, rows)) for row in rows]
    return [(*row, *missed(row, missed_at), family_slug(row)) for row in placed_rows]


def family_slug(row) -> str | None:
    """An answer's scenario's family's slug (None: a scenario of no family, not an answer)."""
    if row[0] != "answer":
        return None
    family = Response.objects.get(pk=row[1]).question.scenario.family
    return family.slug if family is not None else None


def missed(row, missed_at) -> tuple:
    """A wrong answer's verdict and rule number at the places asked, else two NULLs."""
    if row[0] != "answer" or row[10] not in missed_at or row[5]:
        return (None, None)
    number = Rule.objects.get(pk=row[7]).number if row[7] is not None else None
    return (Response.objects.get(pk=row[1]).verdict, number)


def placed(row, rows) -> tuple:
    """The row's last column as `learner_rows` gives it: a mastery's due date, an answer's
    place among the answers (latest first, as `last` orders them) in a column of its own."""
    if row[0] != "answer":
        return (row[9], None)
    answers = sorted({(r[9], r[1]) for r in rows if r[0] == "answer"}, reverse=True)
    return (None, answers.index((row[9], row[1])) + 1)


def with_rules(rule_ids):
    return Exists(
        Question.rules.through.objects.filter(question_id=OuterRef("pk"), rule_id__in=rule_ids)
    )


def spec_questions(bank_ids):
    in_banks = AnyOf("bank_id", bank_ids, start_here=False)
    unservable = (Scenario.EngineStatus.INVALID, Scenario.EngineStatus.DISAGREES)
    return (
        Question.objects.filter(in_banks)
        .filter(is_active=True)
        .exclude(scenario__engine_status__in=unservable)
    )


def spec_mixed(questions, recent, avoid_rules):
    if not recent:
        yield questions
        return
    last = recent[0]
    scenarios = {answer.scenario_id for answer in recent[: selection.SCENARIO_GAP]}
    recent_scenarios = AnyOf("scenario_id", scenarios)
    families = {a.family_id for a in recent[: selection.FAMILY_GAP]} - {None}
    recent_kinds = {answer.kind for answer in recent[: selection.KIND_GAP]}
    if avoid_rules:
        recent_rules = frozenset().union(*(a.rule_ids for a in recent[: selection.RULE_GAP]))
        fresh_rules = questions.exclude(with_rules(recent_rules))
        away = fresh_rules.exclude(recent_scenarios)
        apart = away.exclude(scenario__family__in=families)
        yield apart.exclude(kind__in=recent_kinds)
        yield apart
        if families:
            yield away
        yield fresh_rules.exclude(scenario_id=last.scenario_id)
    else:
        away = questions.exclude(recent_scenarios)
        apart = away.exclude(scenario__family__in=families)
        yield apart.exclude(kind__in=recent_kinds)
        yield apart
        if families:
            yield away
    yield questions.exclude(scenario_id=last.scenario_id)
    yield questions.exclude(pk=last.question_id)


def spec_nearest_unseen(questions, user, target):
    answered = Response.objects.filter(user=user, question=OuterRef("pk"))
    unseen = questions.filter(~Exists(answered))
    above = unseen.filter(difficulty__gte=target).order_by("difficulty", "id")
    below = unseen.filter(difficulty__lt=target).order_by("-difficulty", "-id")
    ends = [Subquery(above.values("pk")[:1]), Subquery(below.values("pk")[:1])]
    found = Question.objects.filter(pk__in=ends).select_related("scenario").order_by()
    return min(found, key=lambda q: (abs(q.difficulty - target), q.pk), default=None)


def spec_least_seen(questions, user, target):
    return (
        questions.filter(responses__user=user)
        .annotate(times_seen=Count("responses"), distance=Abs(F("difficulty") - Value(target)))
        .select_related("scenario")
        .order_by("times_seen", "distance", "id")
        .first()
    )


# --- the data --------------------------------------------------------------------------------


def make_family(slug):
    return Family.objects.create(slug=slug, title=slug, level="L1", definition={})


def answer(user, question, correct=True, when=None):
    Response.objects.create(
        attempt=Attempt.objects.open_practice_for(user, question),
        question=question,
        user=user,
        correct=correct,
        created_at=when or timezone.now(),
    )


@pytest.fixture
def pool(learner):
    """Banks of every visibility (public, the learner's own, a cohort's shared bank they are in,
    another cohort's, someone's private), boards of every engine status, questions of several
    kinds and levels with zero to two rules, and answers of the learner over many of them."""
    rng = random.Random(7)
    owner = UserFactory()
    public, own = BankFactory(), BankFactory(owner=learner, visibility="private")
    shared, unshared = (BankFactory(owner=owner, visibility="shared") for _ in range(2))
    private = BankFactory(owner=owner, visibility="private")
    cohort = Cohort.objects.create(name="c", instructor=owner)
    cohort.banks.add(shared)
    CohortMembership.objects.create(cohort=cohort, user=learner)
    Cohort.objects.create(name="d", instructor=owner, join_code="other").banks.add(unshared)
    rules = [RuleFactory(number=f"702.{n}a") for n in range(6)]
    statuses = list(Scenario.EngineStatus.values)
    families = [None, *(make_family(f"pool-family-{n}") for n in range(4))]
    boards = [
        ScenarioFactory(
            slug=f"pool-{n}",
            spec=land_tutor_spec(f"pool-{n}"),
            engine_status=statuses[n % len(statuses)],
            family=families[n % len(families)],
        )
        for n in range(60)
    ]
    banks = [public, public, own, shared, unshared, private]
    kinds, levels = Question.Kind.values, Question.Level.values
    questions = [
        make_question(
            boards[n % len(boards)],
            banks[n % len(banks)],
            kinds[n % len(kinds)],
            rules=rng.sample(rules, n % 3),
            difficulty=round(rng.uniform(-2, 2), 1),  # ties, to test the id order
            level=levels[n % len(levels)],
            is_active=n % 11 != 0,
        )
        for n in range(140)
    ]
    start = timezone.now() - datetime.timedelta(hours=1)
    for n, question in enumerate(rng.sample(questions, 40) * 2):
        answer(learner, question, rng.random() < 0.6, start + datetime.timedelta(seconds=n % 50))
    Mastery.objects.create(user=learner, rule=rules[0], theta=0.4, due=timezone.now())
    Mastery.objects.create(user=learner, rule=rules[1], theta=-0.3, due=None)
    Mastery.objects.create(user=owner, rule=rules[2], theta=1.0)
    return rules, public


def test_the_learners_rows_are_the_querysets(learner, pool):
    expected = sorted(map(tuple, spec_learner_rows(learner)), key=repr)
    assert sorted(map(tuple, learner_rows(learner.pk, selection.RECENT)), key=repr) == expected
    assert len(expected) > 50  # answers with rules, masteries and banks are all there


def test_the_missed_answers_come_with_their_verdicts_and_rule_numbers(learner, pool):
    places = tuple(index + 1 for index in selection.MISSED_AT) + (5, 6, 7)
    expected = sorted(map(tuple, spec_learner_rows(learner, places)), key=repr)
    assert sorted(map(tuple, learner_rows(learner.pk, selection.RECENT, places)), key=repr) == (
        expected
    )
    assert any(row[11] is not None for row in expected)  # a wrong answer among those places


def test_the_unfinished_exam_sittings_come_with_the_learners_rows(learner, pool):
    def sitting(finished_at=None):
        attempt = Attempt.objects.create(
            user=learner, kind=Attempt.Kind.EXAM, finished_at=finished_at
        )
        return ExamSitting.objects.create(
            attempt=attempt, title="Exam", pass_mark=0.8, time_limit_minutes=30
        )

    sitting(finished_at=timezone.now())  # finished: not there
    assert not selection.Learner.of(learner).sitting_unfinished
    running = sitting()
    rows = learner_rows(learner.pk, selection.RECENT)
    expected = sorted(map(tuple, spec_learner_rows(learner)), key=repr)
    assert sorted(map(tuple, rows), key=repr) == expected
    assert [row.pk for row in rows if row.source == "sitting"] == [running.pk]
    assert selection.Learner.of(learner).sitting_unfinished


def test_a_learner_with_nothing_has_the_public_banks(pool):
    nobody = UserFactory()
    expected = sorted(map(tuple, spec_learner_rows(nobody)), key=repr)
    assert sorted(map(tuple, learner_rows(nobody.pk, selection.RECENT)), key=repr) == expected


def levels_of_every_branch(skills, rules, bank):
    """Each branch of `next_question` as levels: (hand-written, queryset) pairs."""
    recent = skills.recent
    hand, orm = skills.questions(), spec_questions(skills.bank_ids)
    narrowed = [
        (hand, orm),
        (hand.of_level("L2"), orm.filter(level="L2")),
        (hand.in_bank(bank.pk).of_level("L1"), orm.filter(bank=bank, level="L1")),
    ]
    missed = recent[1]
    for hand, orm in narrowed:
        yield from zip(
            selection._mixed(hand, recent, True), spec_mixed(orm, recent, True), strict=True
        )
        for rule_ids in ([rules[0].pk], [rules[1].pk, rules[2].pk], []):
            yield from zip(
                selection._mixed(hand.with_rules(rule_ids), recent, False),
                spec_mixed(orm.filter(with_rules(rule_ids)), recent, False),
                strict=True,
            )
        others = hand.with_rules(missed.rule_ids).not_question(missed.question_id)
        spec_others = orm.filter(with_rules(missed.rule_ids)).exclude(pk=missed.question_id)
        yield (
            others.not_from_scenario(missed.scenario_id),
            spec_others.exclude(scenario_id=missed.scenario_id),
        )
    yield from zip(selection._mixed(hand, [], True), spec_mixed(orm, [], True), strict=True)


@pytest.mark.parametrize("target", [-1.3, 0.0, 0.35, 2.5])
def test_every_level_finds_the_querysets_question(learner, pool, target):
    rules, bank = pool
    skills = selection.Learner.of(learner)
    compared = found = 0
    for hand, orm in levels_of_every_branch(skills, rules, bank):
        assert isinstance(hand, Questions)
        assert sorted(
            Question.objects.filter(pk__in=_ids(hand)).values_list("pk", flat=True)
        ) == sorted(orm.values_list("pk", flat=True))
        unseen = nearest_unseen(hand, learner.pk, target)
        assert unseen == spec_nearest_unseen(orm, learner, target)
        seen = least_seen(hand, learner.pk, target)
        assert seen == spec_least_seen(orm, learner, target)
        for picked, expected in ((unseen, spec_nearest_unseen), (seen, spec_least_seen)):
            if picked is not None:
                found += 1
                fetched = expected(orm, learner, target)
                assert _fields(picked) == _fields(fetched)
                assert _fields(picked.scenario) == _fields(fetched.scenario)
        compared += 1
    assert compared > 50 and found > 20  # most levels have a question


def _ids(questions: Questions) -> list[int]:
    """Every question `questions` holds (to compare the conditions themselves)."""
    query = f'SELECT q."id" {QUESTIONS} WHERE {questions.sql}'
    return [row[0] for row in sql.rows(query, questions.params)]


def _fields(instance) -> dict:
    return {field.attname: getattr(instance, field.attname) for field in instance._meta.fields}


def test_the_walks_are_planned_for_their_target_and_the_rest_prepared(learner, pool, monkeypatch):
    """A walk's plan hangs on its target and filters: PostgreSQL's generic plan for one (a
    prepared statement run often) walked the whole table at 100,000 questions, 200-570 ms
    instead of 8 (docs/benchmarks.md). What every pick reads besides is prepared."""
    asked = []  # (query, prepared) of every hand-written query run
    cursor = sql._cursor

    def noting(prepared):
        made = cursor(prepared)
        execute = made.execute

        def noted(query, params=None):
            asked.append((query, prepared))
            return execute(query, params)

        made.execute = noted
        return made

    monkeypatch.setattr(sql, "_cursor", noting)
    rules, _ = pool
    for rule in (None, *rules[:2]):
        selection.next_question(learner, rule)
    walks = [prepared for query, prepared in asked if 'q."difficulty"' in query]
    others = [prepared for query, prepared in asked if 'q."difficulty"' not in query]
    assert walks and not any(walks)
    assert others and all(others)

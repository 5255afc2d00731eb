"""Where quizzes meets the engine: check an answer, save the response once, update mastery.

`submit(attempt, question, answer, seed=...)` validates the answer against the question's kind,
asks the engine for the ruling on the variant the learner saw, saves one `Response`, updates the
learner's `Mastery` on each rule of the question (Elo + FSRS), each by the parts of the answer that
decide that rule, and the question's difficulty on a first attempt, and returns the `Grade`.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from quizzes import rulings
from quizzes.models import Attempt, Mastery, Presentation, Question, Response, ScenarioVersion
from quizzes.practice import adaptive, deciding, recording, scheduling
from quizzes.rulings import AnswerError, Grade, Part
from rules.models import Rule

__all__ = ["AnswerError", "Part", "Grade", "grade", "record", "submit"]


def grade(
    question: Question, answer: dict[str, Any], seed: int = 0, learner_id=None, version=None
) -> Grade:
    """The verdict on an answer to the question as `learner_id` saw it with variant `seed`, in
    `version` of its scenario (default: the current one)."""
    return rulings.grade(rulings.ruling_for(question, seed, learner_id, version=version), answer)


def submit(
    attempt: Attempt,
    question: Question,
    answer: dict[str, Any],
    *,
    seed: int = 0,
    ruling: rulings.Ruling | None = None,
    presentation: Presentation | None = None,
    version: ScenarioVersion | None = None,
    masteries_missing: bool = False,
) -> Grade:
    """Check, save once, learn. Raises AnswerError for an answer that does not fit.

    `ruling` is the question as shown (default: variant `seed` as the attempt's learner sees it,
    in `version` of its scenario). `masteries_missing`: the learner is known to lack a mastery
    of one of the question's rules (read with the presentation: see `record`).
    """
    if ruling is None:
        ruling = rulings.ruling_for(question, seed, attempt.user_id, version=version)
    verdict = rulings.grade(ruling, answer)
    return record(
        attempt,
        question,
        answer,
        verdict,
        seed=seed,
        presentation=presentation,
        version=version,
        masteries_missing=masteries_missing,
    )


def record(
    attempt: Attempt,
    question: Question,
    answer: dict[str, Any],
    verdict: Grade,
    *,
    seed: int = 0,
    presentation: Presentation | None = None,
    version: ScenarioVersion | None = None,
    masteries_missing: bool = False,
) -> Grade:
    """Save the graded answer once and learn from it, in one transaction.

    `masteries_missing`: the learner is known to lack a mastery of one of the question's rules:
    the missing ones are made first, in one statement, so that the masteries are then read,
    locked, with the question (else the question's rules are read, then the masteries made,
    then read locked).

    The response points at the scenario version answered: `version`, else the presentation's,
    else the scenario's current one.

    Exactly once: an answer to a presentation already answered (the question as served)
    or to a question its attempt already holds stores nothing and learns nothing; it returns the
    first response's verdict (a double click, a retry, a replayed form).
    """
    now = timezone.now()
    user = attempt.user
    if version is not None:
        version_id = version.pk
    elif presentation is not None:
        version_id = presentation.scenario_version_id
    else:
        version_id = question.scenario.current_version_id
    # One transaction (inside an exam's, part of it: no savepoint, nothing in it raises on a
    # second answer), so nothing is learnt twice.
    with transaction.atomic(savepoint=False):
        response = recording.insert_response(
            Response(
                attempt=attempt,
                question=question,
                user=user,
                answer=answer,
                verdict=verdict.to_json(),
                correct=verdict.correct,
                score=verdict.score,
                variant_seed=seed,
                scenario_version_id=version_id,
                presentation=presentation,
                created_at=now,
            )
        )
        if response is not None:
            if masteries_missing:
                recording.create_masteries(question.pk, user.pk, now)
            # then the question's row: the first row lock (the order every transaction that
            # learns keeps), held until the commit, so taken as late as may be
            locked, masteries, linked = recording.lock_question_and_masteries(
                question.pk, user.pk, response.pk
            )
            _learn(user, question, verdict, locked, masteries, linked, now)
    if response is None:  # answered already: nothing stored, nothing learnt
        first = _first_response(attempt, question, presentation)
        if first is None:
            raise IntegrityError("a response conflicts with none found")
        return Grade.from_json(first.verdict, first)
    if version is not None:
        response.scenario_version = version  # loaded: the feedback reads it without a query
    return Grade(verdict.parts, verdict.correct, verdict.score, response)


def _first_response(
    attempt: Attempt, question: Question, presentation: Presentation | None = None
) -> Response | None:
    """The response already stored for this presentation, or for this question in `attempt`."""
    if presentation is not None:
        stored = Response.objects.filter(presentation=presentation).first()
        if stored is not None:
            return stored
    return Response.objects.filter(attempt=attempt, question=question).first()


def _learn(
    user,
    question: Question,
    verdict: Grade,
    locked: recording.LockedQuestion,
    masteries: list[tuple[Mastery, str]],
    linked: dict[int, str],
    now,
) -> None:
    """Elo and an FSRS review on each rule of the question, each by the parts that decide it
    (quizzes/practice/deciding.py: a part counts for the rules it cites alone), and the
    question's difficulty by the whole answer.

    Read-modify-write under row locks, taken in one order in every transaction that learns
    (practice answers, exam finishes): the question row first (`locked`), then the learner's
    masteries by rule id; so no update is lost and no two transactions wait on each other in a
    cycle. (SQLite has no row locks: its IMMEDIATE transactions already run one writer at a
    time.)
    """
    first_attempt = not locked.answered_before
    difficulty, answer_count = locked.difficulty, locked.answer_count
    # `masteries`: read locked with the question when the learner has each; else a first answer
    # on one of its rules (`linked`: the rules the question links), or a question linking none
    if not locked.masteries_exist:
        numbers = dict(linked)
        some_missing = bool(numbers)  # it links rules, and the learner lacks a mastery of one
        if not numbers:
            cited = Rule.objects.cited(verdict.rule_numbers).order_by()
            numbers = dict(cited.values_list("id", "number"))
        rule_ids = sorted(numbers)
        masteries = [
            (m, numbers[m.rule_id]) for m in _locked_masteries(user, rule_ids, some_missing)
        ]
    outcomes = deciding.rule_outcomes(
        verdict.parts, {mastery.rule_id: number for mastery, number in masteries}, verdict.correct
    )
    thetas = []
    for mastery, _number in masteries:
        right = outcomes[mastery.rule_id]
        thetas.append(mastery.theta)
        if first_attempt:
            mastery.theta = adaptive.updated_theta(
                mastery.theta, difficulty, right, mastery.answers
            )
        mastery.answers += 1
        mastery.correct += int(right)
        mastery.fsrs_card, mastery.due = scheduling.review(mastery.fsrs_card, right, now)
    recording.save_learned([mastery for mastery, _number in masteries], now)
    if first_attempt and thetas:
        mean_theta = sum(thetas) / len(thetas)
        difficulty = adaptive.updated_difficulty(
            mean_theta, difficulty, verdict.correct, answer_count
        )
    question.answer_count, question.difficulty = answer_count + 1, difficulty
    recording.count_answer(question.pk, difficulty)


def _locked_masteries(user, rule_ids: list[int], some_missing: bool) -> list[Mastery]:
    """The learner's masteries of `rule_ids`, created when missing, locked in rule-id order.
    `some_missing`: known to lack one, so they are created first, with no read before (one
    statement less: insert, then read once)."""
    locked = Mastery.objects.select_for_update().filter(user=user, rule_id__in=rule_ids)
    if not some_missing:
        masteries = list(locked.order_by("rule_id"))
        if len(masteries) == len(rule_ids):
            return masteries
    Mastery.objects.bulk_create(
        [Mastery(user=user, rule_id=rule_id) for rule_id in rule_ids],  # in rule-id order
        ignore_conflicts=True,  # the ones that exist, or made meanwhile by another answer
    )
    return list(locked.order_by("rule_id"))

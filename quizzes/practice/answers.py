"""Where quizzes meets the engine: check an answer, save the response once, update mastery.

`submit(attempt, question, answer, seed=...)` validates the answer against the question's kind,
asks the engine for the ruling on the variant the learner saw, saves one `Response`, updates the
learner's `Mastery` on each rule of the question (Elo + FSRS), each by the parts of the answer that
decide that rule, and the question's difficulty on a first attempt, and returns the `Grade`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from quizzes import rulings
from quizzes.models import Attempt, Mastery, Presentation, Question, Response, ScenarioVersion
from quizzes.practice import adaptive, deciding, recording, scheduling

if TYPE_CHECKING:
    from quizzes.practice.answer_lookup import Learned
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
    learned: Learned | None = None,
) -> Grade:
    """Check, save once, learn. Raises AnswerError for an answer that does not fit.

    `ruling` is the question as shown (default: variant `seed` as the attempt's learner sees it,
    in `version` of its scenario). `masteries_missing`: the learner is known to lack a mastery
    of one of the question's rules (read with the presentation: see `record`); `learned`:
    what the answer learns from, read with the presentation (see `record`).
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
        learned=learned,
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
    learned: Learned | None = None,
) -> Grade:
    """Save the graded answer once and learn from it, in one transaction.

    `masteries_missing`: the learner is known to lack a mastery of one of the question's rules:
    the missing ones are made first, in one statement, so that the masteries are then read,
    locked, with the question (else the question's rules are read, then the masteries made,
    then read locked).

    `learned`: whether the learner answered the question before and their masteries of its
    rules, read with the presentation (and the question's counters with `question`): the
    answer's values are computed from them and written only where no row moved since
    (`_learn_as_read`); else read again locked.

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
        if response is not None and not _learn_as_read(user, question, verdict, learned, now):
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
        thetas.append(mastery.theta)
        _step(mastery, outcomes[mastery.rule_id], first_attempt, difficulty, now)
    recording.save_learned([mastery for mastery, _number in masteries], now)
    difficulty = _stepped_difficulty(first_attempt, thetas, difficulty, verdict, answer_count)
    question.answer_count, question.difficulty = answer_count + 1, difficulty
    recording.count_answer(question.pk, difficulty)


def _step(mastery: Mastery, right: bool, first_attempt: bool, difficulty: float, now) -> None:
    """One answer learnt on `mastery`: Elo on a first attempt, the counts, an FSRS review."""
    if first_attempt:
        mastery.theta = adaptive.updated_theta(mastery.theta, difficulty, right, mastery.answers)
    mastery.answers += 1
    mastery.correct += int(right)
    mastery.fsrs_card, mastery.due = scheduling.review(mastery.fsrs_card, right, now)


def _stepped_difficulty(
    first_attempt: bool, thetas: list[float], difficulty: float, verdict: Grade, answer_count: int
) -> float:
    """The question's difficulty after the answer, from its masteries' thetas before it."""
    if not (first_attempt and thetas):
        return difficulty
    mean_theta = sum(thetas) / len(thetas)
    return adaptive.updated_difficulty(mean_theta, difficulty, verdict.correct, answer_count)


def _learn_as_read(user, question: Question, verdict: Grade, learned: Learned | None, now) -> bool:
    """`_learn` from the values read with the presentation (`learned`, and the question's
    counters), written where no row moved since (quizzes/practice/recording.py); a mastery that
    moved is read again locked and learnt from afresh, and the question's difficulty redone
    with its theta. False, nothing written, when there was nothing read (a question of no rule,
    an exam's answer) or the question moved: the caller reads both locked."""
    if learned is None or not learned.rules:
        return False
    first_attempt = not learned.answered_before
    difficulty, answer_count = question.difficulty, question.answer_count
    numbers = {rule_id: number for rule_id, number, _mastery in learned.rules}
    outcomes = deciding.rule_outcomes(verdict.parts, numbers, verdict.correct)
    masteries = [
        mastery if mastery is not None else Mastery(user=user, rule_id=rule_id)
        for rule_id, _number, mastery in learned.rules
    ]
    thetas = {mastery.rule_id: mastery.theta for mastery in masteries}
    for mastery in masteries:
        _step(mastery, outcomes[mastery.rule_id], first_attempt, difficulty, now)
    stepped = _stepped_difficulty(
        first_attempt, [*thetas.values()], difficulty, verdict, answer_count
    )
    if not recording.count_answer_if(question.pk, answer_count, stepped):
        return False
    written = recording.learn_if_unchanged(masteries, now)
    moved = [mastery.rule_id for mastery in masteries if mastery.rule_id not in written]
    if moved:  # another answer on one of its rules: learnt again from its row, locked now
        fresh = _locked_masteries(user, moved, some_missing=False)
        for mastery in fresh:
            thetas[mastery.rule_id] = mastery.theta
            _step(mastery, outcomes[mastery.rule_id], first_attempt, difficulty, now)
        recording.save_learned(fresh, now)
        stepped = _stepped_difficulty(
            first_attempt, [*thetas.values()], difficulty, verdict, answer_count
        )
        if first_attempt:
            recording.set_difficulty(question.pk, stepped)
    question.answer_count, question.difficulty = answer_count + 1, stepped
    return True


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

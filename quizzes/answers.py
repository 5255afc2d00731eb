"""Where quizzes meets the engine: check an answer, save the response once, update mastery.

`submit(attempt, question, answer, seed=...)` validates the answer against the question's kind,
asks the engine for the ruling on the variant the learner saw, saves one `Response`, updates the
learner's `Mastery` on each rule of the question (Elo + FSRS) and the question's difficulty on a
first attempt, and returns the `Verdict`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone

from quizzes import adaptive, scheduling, variants
from quizzes.board import build_board, claim_question, claim_statement, show_value
from quizzes.models import Attempt, Mastery, Question, Response
from rules.engine import check_find_choice, evaluate_claim
from rules.models import Rule

RULE_NUMBER = re.compile(r"\b\d{3}\.\d+[a-z]?\b")
LEARNED_FIELDS = ("theta", "answers", "correct", "fsrs_card", "due")


class AnswerError(ValueError):
    """The answer does not fit the question (wrong shape, unknown card)."""


@dataclass(frozen=True)
class Part:
    """One checked part of an answer: what was asked, what the learner said, the ruling."""

    question: str
    given: str
    expected: str
    right: bool
    rule: str
    reason: str


@dataclass(frozen=True)
class Verdict:
    parts: tuple[Part, ...]
    correct: bool
    score: float
    response: Response | None = field(default=None, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "parts": [asdict(part) for part in self.parts],
            "correct": self.correct,
            "score": self.score,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], response: Response | None = None) -> Verdict:
        parts = tuple(Part(**part) for part in data.get("parts", []))
        return cls(parts, bool(data.get("correct")), float(data.get("score", 0.0)), response)

    @property
    def rule_numbers(self) -> list[str]:
        numbers: list[str] = []
        for part in self.parts:
            for number in RULE_NUMBER.findall(part.rule):
                if number not in numbers:
                    numbers.append(number)
        return numbers


def grade(question: Question, answer: dict[str, Any], seed: int = 0) -> Verdict:
    """The verdict on an answer, computed by the engine on the variant `seed` selects."""
    variant = variants.build(question.scenario.spec, question.claims, seed)
    board = build_board(variant.spec)
    spec, claims, kind = variant.spec, variant.claims, question.kind
    parts: list[Part] = []
    if kind == Question.Kind.LEGAL_SET:
        picked = answer.get("cards")
        if not isinstance(picked, list) or not all(label in board.cards for label in picked):
            raise AnswerError("Pick cards that are on the board.")
        claim = claims[0]
        choice = check_find_choice(spec, claim.get("searcher"), list(picked))
        parts.append(
            Part(
                question=claim_question(claim, board),
                given=", ".join(board.describe(label) for label in picked) or "no cards",
                expected="a legal choice" if choice.legal else "not a legal choice",
                right=bool(choice.legal),
                rule=str(choice.rule or ""),
                reason=str(choice.reason or ""),
            )
        )
    elif kind in {Question.Kind.MULTIPLE_CHOICE, Question.Kind.YES_NO}:
        if kind == Question.Kind.MULTIPLE_CHOICE:
            ticked = set(answer.get("true", []))
            said_true = [index in ticked for index in range(len(claims))]
        else:
            said = answer.get("parts", [])
            if len(said) != len(claims) or not set(said) <= {"yes", "no"}:
                raise AnswerError("Answer yes or no for every statement.")
            said_true = [word == "yes" for word in said]
        for claim, says in zip(claims, said_true, strict=True):
            result = evaluate_claim(spec, claim)
            truth = _same(result.value, claim.get("proposed"))
            parts.append(
                Part(
                    question=claim_statement(claim, board),
                    given="true" if says else "false",
                    expected=("true" if truth else "false")
                    + f" (the ruling: {show_value(result.value)})",
                    right=says == truth,
                    rule=str(result.rule or ""),
                    reason=str(result.reason or ""),
                )
            )
    else:
        if "range" in answer:
            givens: list[Any] = [list(answer["range"])]
        elif "value" in answer:
            givens = [answer["value"]]
        else:
            givens = list(answer.get("parts", []))
        if len(givens) != len(claims):
            raise AnswerError("Answer every part of the question.")
        for claim, given in zip(claims, givens, strict=True):
            result = evaluate_claim(spec, claim)
            parts.append(
                Part(
                    question=claim_question(claim, board),
                    given=show_value(given),
                    expected=show_value(result.value),
                    right=_same(result.value, given),
                    rule=str(result.rule or ""),
                    reason=str(result.reason or ""),
                )
            )
    right = sum(part.right for part in parts)
    score = right / len(parts) if parts else 0.0
    return Verdict(tuple(parts), correct=bool(parts) and right == len(parts), score=score)


def _same(computed: Any, given: Any) -> bool:
    if isinstance(computed, tuple):
        computed = list(computed)
    if isinstance(given, tuple):
        given = list(given)
    return (
        computed == given
        and type(computed) is type(given)
        or (
            isinstance(computed, int | float)
            and isinstance(given, int | float)
            and not isinstance(computed, bool)
            and not isinstance(given, bool)
            and computed == given
        )
    )


def deciding_rules(numbers: Iterable[str]) -> QuerySet[Rule]:
    """The current rules cited, found by current or earlier number, with editions and aliases."""
    numbers = list(numbers)
    return (
        Rule.objects.current()
        .filter(Q(number__in=numbers) | Q(aliases__number__in=numbers))
        .distinct()
        .prefetch_related("aliases", "editions")
        .order_by("number")
    )


def submit(
    attempt: Attempt, question: Question, answer: dict[str, Any], *, seed: int = 0, key: str = ""
) -> Verdict:
    """Check, save once, learn. Raises AnswerError for an answer that does not fit."""
    return record(attempt, question, answer, grade(question, answer, seed), seed=seed, key=key)


def record(
    attempt: Attempt,
    question: Question,
    answer: dict[str, Any],
    verdict: Verdict,
    *,
    seed: int = 0,
    key: str = "",
) -> Verdict:
    """Save the graded answer once and learn from it, in one transaction.

    Exactly once: an answer to a presentation already answered (`key`, the question as served)
    or to a question its attempt already holds stores nothing and learns nothing; it returns the
    first response's verdict (a double click, a retry, a replayed form).
    """
    now = timezone.now()
    user = attempt.user
    with transaction.atomic():
        first_attempt = not Response.objects.filter(user=user, question=question).exists()
        try:
            with transaction.atomic():  # a savepoint: the conflict below leaves the rest usable
                response = Response.objects.create(
                    attempt=attempt,
                    question=question,
                    user=user,
                    answer=answer,
                    verdict=verdict.to_json(),
                    correct=verdict.correct,
                    score=verdict.score,
                    variant_seed=seed,
                    presentation_key=key,
                    created_at=now,
                )
        except IntegrityError:
            first = _first_response(attempt, question, key)
            if first is None:
                raise
            return Verdict.from_json(first.verdict, first)
        _learn(user, question, verdict, first_attempt, now)
    return Verdict(verdict.parts, verdict.correct, verdict.score, response)


def _first_response(attempt: Attempt, question: Question, key: str = "") -> Response | None:
    """The response already stored for this presentation, or for this question in `attempt`."""
    if key:
        stored = Response.objects.filter(user_id=attempt.user_id, presentation_key=key).first()
        if stored is not None:
            return stored
    return Response.objects.filter(attempt=attempt, question=question).first()


def _learn(user, question: Question, verdict: Verdict, first_attempt: bool, now) -> None:
    """Elo on each rule of the question, FSRS review per rule, and the question's difficulty.

    Read-modify-write under row locks, taken in one order in every transaction that learns
    (practice answers, exam finishes): the question row first, then the learner's masteries by
    rule id; so no update is lost and no two transactions wait on each other in a cycle. (SQLite
    has no row locks: its IMMEDIATE transactions already run one writer at a time.)
    """
    rule_ids = sorted(set(question.rules.values_list("id", flat=True)))
    if not rule_ids:
        rule_ids = sorted(deciding_rules(verdict.rule_numbers).values_list("id", flat=True))
    difficulty, answer_count = (
        Question.objects.select_for_update()
        .filter(pk=question.pk)
        .values_list("difficulty", "answer_count")
        .get()
    )
    masteries = _locked_masteries(user, rule_ids)
    thetas = []
    for mastery in masteries:
        thetas.append(mastery.theta)
        if first_attempt:
            mastery.theta = adaptive.updated_theta(
                mastery.theta, difficulty, verdict.correct, mastery.answers
            )
        mastery.answers += 1
        mastery.correct += int(verdict.correct)
        mastery.fsrs_card, mastery.due = scheduling.review(mastery.fsrs_card, verdict.correct, now)
        mastery.save(update_fields=[*LEARNED_FIELDS, "updated_at"])
    if first_attempt and thetas:
        mean_theta = sum(thetas) / len(thetas)
        difficulty = adaptive.updated_difficulty(
            mean_theta, difficulty, verdict.correct, answer_count
        )
    question.answer_count, question.difficulty = answer_count + 1, difficulty
    Question.objects.filter(pk=question.pk).update(
        answer_count=F("answer_count") + 1, difficulty=difficulty
    )


def _locked_masteries(user, rule_ids: list[int]) -> list[Mastery]:
    """The learner's masteries of `rule_ids`, created when missing, locked in rule-id order."""
    locked = Mastery.objects.select_for_update().filter(user=user, rule_id__in=rule_ids)
    masteries = list(locked.order_by("rule_id"))
    if len(masteries) < len(rule_ids):
        have = {mastery.rule_id for mastery in masteries}
        Mastery.objects.bulk_create(
            [Mastery(user=user, rule_id=rule_id) for rule_id in rule_ids if rule_id not in have],
            ignore_conflicts=True,  # made meanwhile by another answer of this learner
        )
        masteries = list(locked.order_by("rule_id"))
    return masteries

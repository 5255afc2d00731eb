"""Where quizzes meets the engine: check an answer, save the response once, update mastery.

`submit(attempt, question, answer, seed=...)` validates the answer against the question's kind,
asks the engine for the ruling on the variant the learner saw, saves one `Response`, updates the
learner's `Mastery` on each rule of the question (Elo + FSRS) and the question's difficulty on a
first attempt, and returns the `Verdict`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from quizzes import adaptive, rulings, scheduling
from quizzes.models import Attempt, Mastery, Presentation, Question, Response
from quizzes.rulings import AnswerError, Part, Verdict
from rules.models import Rule

__all__ = ["AnswerError", "Part", "Verdict", "deciding_rules", "grade", "submit"]


def grade(question: Question, answer: dict[str, Any], seed: int = 0, learner_id=None) -> Verdict:
    """The verdict on an answer to the question as `learner_id` saw it with variant `seed`."""
    return rulings.grade(rulings.ruling_for(question, seed, learner_id), answer)


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
    attempt: Attempt,
    question: Question,
    answer: dict[str, Any],
    *,
    seed: int = 0,
    ruling: rulings.Ruling | None = None,
    presentation: Presentation | None = None,
) -> Verdict:
    """Check, save once, learn. Raises AnswerError for an answer that does not fit.

    `ruling` is the question as shown (default: variant `seed` as the attempt's learner sees it).
    """
    if ruling is None:
        ruling = rulings.ruling_for(question, seed, attempt.user_id)
    verdict = rulings.grade(ruling, answer)
    now = timezone.now()
    user = attempt.user
    with transaction.atomic():
        first_attempt = not Response.objects.filter(user=user, question=question).exists()
        try:
            with transaction.atomic():
                response = Response.objects.create(
                    attempt=attempt,
                    question=question,
                    user=user,
                    answer=answer,
                    verdict=verdict.to_json(),
                    correct=verdict.correct,
                    score=verdict.score,
                    variant_seed=seed,
                    presentation=presentation,
                    created_at=now,
                )
        except IntegrityError as error:
            raise AnswerError("This question was already answered in this attempt.") from error
        _learn(user, question, verdict, first_attempt, now)
    return Verdict(verdict.parts, verdict.correct, verdict.score, response)


def _learn(user, question: Question, verdict: Verdict, first_attempt: bool, now) -> None:
    """Elo on each rule of the question, FSRS review per rule, and the question's difficulty."""
    rule_ids = list(question.rules.values_list("id", flat=True))
    if not rule_ids:
        rule_ids = list(deciding_rules(verdict.rule_numbers).values_list("id", flat=True))
    masteries = {m.rule_id: m for m in Mastery.objects.filter(user=user, rule_id__in=rule_ids)}
    thetas = []
    for rule_id in rule_ids:
        mastery = masteries.get(rule_id) or Mastery(user=user, rule_id=rule_id)
        thetas.append(mastery.theta)
        if first_attempt:
            mastery.theta = adaptive.updated_theta(
                mastery.theta, question.difficulty, verdict.correct, mastery.answers
            )
        mastery.answers += 1
        mastery.correct += int(verdict.correct)
        mastery.fsrs_card, mastery.due = scheduling.review(mastery.fsrs_card, verdict.correct, now)
        mastery.save()
    question.answer_count += 1
    if first_attempt and thetas:
        mean_theta = sum(thetas) / len(thetas)
        question.difficulty = adaptive.updated_difficulty(
            mean_theta, question.difficulty, verdict.correct, question.answer_count - 1
        )
    Question.objects.filter(pk=question.pk).update(
        answer_count=question.answer_count, difficulty=question.difficulty
    )

"""The next question, chosen with a few indexed queries whatever the size of the bank.

Per DESIGN.md: a rule whose FSRS review is due comes first (the most overdue); otherwise the
learner's mean skill over their rules is the yardstick. Among the questions the learner may see,
unseen ones come first, then the least seen, then the one whose difficulty is nearest the
difficulty at which the predicted success is 70% (P = sigmoid(theta - b) is monotonic in b, so
"P nearest 0.7" is "b nearest the target"), never the question just answered.
All of that is one ORDER BY ... LIMIT 1 in the database.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Avg, Count, F, Q, QuerySet, Value
from django.db.models.functions import Abs
from django.utils import timezone

from quizzes import adaptive, limits
from quizzes.models import Bank, Mastery, Question, Response, Scenario
from rules.models import Rule

UNSERVABLE = (Scenario.EngineStatus.INVALID, Scenario.EngineStatus.DISAGREES)


@dataclass(frozen=True)
class Pick:
    question: Question | None
    theta: float
    target_difficulty: float
    due_rule_id: int | None = None


def available_questions(user) -> QuerySet[Question]:
    """Active questions in banks the learner may use (`Bank.objects.visible_to`: public, their
    own, shared with a cohort they belong to), from scenarios the engine can rule."""
    return (
        Question.objects.filter(is_active=True)
        .filter(bank__in=Bank.objects.visible_to(user))
        .exclude(scenario__engine_status__in=UNSERVABLE)
    )


def last_answered_question_id(user) -> int | None:
    return (
        Response.objects.filter(user=user)
        .order_by("-created_at", "-id")
        .values_list("question_id", flat=True)
        .first()
    )


# Stored scenarios found past the limits while serving are marked invalid; a few are skipped
# per request, so a learner never meets (or stays stuck on) a question that can't be served.
MAX_SKIPPED = 3


def _nearest(questions: QuerySet[Question], user, target: float, exclude_id) -> Question | None:
    for _ in range(MAX_SKIPPED + 1):
        question = _nearest_candidate(questions, user, target, exclude_id)
        if question is None or not mark_if_past_limits(question.scenario):
            return question
    return None


def mark_if_past_limits(scenario: Scenario) -> bool:
    """Mark a stored scenario past the limits invalid (so it is never served); True if it is."""
    problem = limits.spec_problem(scenario.spec)
    if problem:
        Scenario.objects.filter(pk=scenario.pk).update(
            engine_status=Scenario.EngineStatus.INVALID, engine_report=problem
        )
    return bool(problem)


def _nearest_candidate(
    questions: QuerySet[Question], user, target: float, exclude_id
) -> Question | None:
    """Unseen questions first (a NOT IN on the learner's own answers, indexed), nearest the
    target difficulty; once every question has been seen, the least seen of them."""
    if exclude_id is not None:
        questions = questions.exclude(pk=exclude_id)
    distance = Abs(F("difficulty") - Value(target))
    seen = Response.objects.filter(user=user).values("question_id")
    unseen = (
        questions.exclude(pk__in=seen)
        .annotate(distance=distance)
        .select_related("scenario")
        .order_by("distance", "id")
        .first()
    )
    if unseen is not None:
        return unseen
    return (
        questions.annotate(
            times_seen=Count("responses", filter=Q(responses__user=user)), distance=distance
        )
        .select_related("scenario")
        .order_by("times_seen", "distance", "id")
        .first()
    )


def next_question(user, rule: Rule | None = None, now=None) -> Pick:
    """The question to serve next, and the skill and target it was chosen for."""
    now = now or timezone.now()
    exclude_id = last_answered_question_id(user)
    questions = available_questions(user)
    if rule is not None:
        theta = (
            Mastery.objects.filter(user=user, rule=rule).values_list("theta", flat=True).first()
            or 0.0
        )
        target = adaptive.target_difficulty(theta)
        question = _nearest(questions.filter(rules=rule), user, target, exclude_id)
        return Pick(question, theta, target)
    due = Mastery.objects.owned_by(user).due(now).order_by("due").first()
    if due is not None:
        target = adaptive.target_difficulty(due.theta)
        question = _nearest(questions.filter(rules=due.rule_id), user, target, exclude_id)
        if question is not None:
            return Pick(question, due.theta, target, due.rule_id)
    theta = Mastery.objects.owned_by(user).aggregate(mean=Avg("theta"))["mean"] or 0.0
    target = adaptive.target_difficulty(theta)
    return Pick(_nearest(questions, user, target, exclude_id), theta, target)

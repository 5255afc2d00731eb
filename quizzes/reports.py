"""A learner's progress in numbers: mastery per rule, accuracy by day, streak, reviews due."""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass
from statistics import median

from django.core.cache import cache
from django.db.models import Count, Q
from django.db.models.functions import TruncDate
from django.utils import timezone

from quizzes import adaptive
from quizzes.models import Mastery, Question


@dataclass(frozen=True)
class RuleProgress:
    mastery: Mastery
    value: float  # sigmoid(theta - median b)

    @property
    def percent(self) -> int:
        return round(self.value * 100)

    @property
    def mastered(self) -> bool:
        return adaptive.is_mastered(self.value, self.mastery.answers)


@dataclass(frozen=True)
class Day:
    day: datetime.date
    answers: int
    right: int

    @property
    def percent(self) -> int:
        return round(100 * self.right / self.answers) if self.answers else 0


# Mastery is measured against the median difficulty of a rule's questions: the same for every
# learner, read from hundreds of rows, and moved only a little by each answer anywhere. So it is
# kept for a minute (the learner's own theta is always read fresh).
MEDIAN_TIMEOUT = 60


def _median_key(rule_id: int) -> str:
    return f"median-difficulty:{rule_id}"


def median_difficulties(rule_ids) -> dict[int, float]:
    """The median difficulty of each rule's active questions (0.0 for a rule with none), from
    the cache, with one query for the rules it lacks."""
    wanted = set(rule_ids)
    kept = cache.get_many([_median_key(rule_id) for rule_id in wanted]) if wanted else {}
    medians = {
        rule_id: kept[_median_key(rule_id)] for rule_id in wanted if _median_key(rule_id) in kept
    }
    missing = wanted - medians.keys()
    if missing:
        through = Question.rules.through.objects.filter(
            rule_id__in=missing, question__is_active=True
        ).values_list("rule_id", "question__difficulty")
        difficulties: dict[int, list[float]] = defaultdict(list)
        for rule_id, difficulty in through:
            difficulties[rule_id].append(difficulty)
        fresh = {rule_id: median(difficulties.get(rule_id) or [0.0]) for rule_id in missing}
        cache.set_many({_median_key(k): v for k, v in fresh.items()}, MEDIAN_TIMEOUT)
        medians |= fresh
    return medians


def rule_progress(user) -> list[RuleProgress]:
    """Mastery on every rule the learner has answered, weakest first (one query, and one for
    the medians not cached)."""
    masteries = list(Mastery.objects.owned_by(user).select_related("rule"))
    medians = median_difficulties(m.rule_id for m in masteries)
    progress = [RuleProgress(m, adaptive.sigmoid(m.theta - medians[m.rule_id])) for m in masteries]
    return sorted(progress, key=lambda item: (item.value, item.mastery.rule.number))


def reviews_due(progress: list[RuleProgress], now=None) -> int:
    """How many of the rules in `progress` (every mastery of a learner) are due for review, as
    `Mastery.objects.due()` counts them, from the rows `rule_progress` already read."""
    now = now or timezone.now()
    return sum(1 for item in progress if item.mastery.due is not None and item.mastery.due <= now)


def accuracy_by_day(user, days: int = 30) -> list[Day]:
    since = timezone.now() - datetime.timedelta(days=days)
    rows = (
        user.responses.filter(created_at__gte=since)
        .annotate(day=TruncDate("created_at"))
        .values("day")
        .annotate(answers=Count("id"), right=Count("id", filter=Q(correct=True)))
        .order_by("day")
    )
    return [Day(row["day"], row["answers"], row["right"]) for row in rows]


def streak(days: list[Day], today: datetime.date | None = None) -> int:
    """Consecutive days with an answer, ending today (or yesterday, if none yet today)."""
    today = today or timezone.localdate()
    answered = {day.day for day in days if day.answers}
    current = today if today in answered else today - datetime.timedelta(days=1)
    count = 0
    while current in answered:
        count += 1
        current -= datetime.timedelta(days=1)
    return count


@dataclass(frozen=True)
class Chart:
    """An accuracy line chart as SVG coordinates; the template draws it and a table fallback."""

    width: int
    height: int
    points: list[tuple[float, float, Day]]

    @property
    def polyline(self) -> str:
        return " ".join(f"{x:.1f},{y:.1f}" for x, y, _ in self.points)


def accuracy_chart(days: list[Day], width: int = 600, height: int = 200) -> Chart:
    pad = 30
    count = len(days)
    step = (width - 2 * pad) / max(count - 1, 1)
    points = [
        (pad + i * step, height - pad - (height - 2 * pad) * day.percent / 100, day)
        for i, day in enumerate(days)
    ]
    return Chart(width, height, points)

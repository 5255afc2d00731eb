"""A learner's progress in numbers: mastery per rule, accuracy by day, streak, reviews due."""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass

from django.core.cache import cache
from django.db import connection
from django.utils import timezone

from config import sql
from quizzes.models import Mastery, Question, Response
from quizzes.practice import adaptive
from quizzes.reference import texts
from quizzes.rulings.verdict import Grade


@dataclass(frozen=True)
class RuleProgress:
    mastery: Mastery
    value: float  # sigmoid(theta - median b)
    title: str = ""  # the rule's section title ("Search" for 701.23b), as its page shows it
    title_language: str = ""

    @property
    def percent(self) -> int:
        return round(self.value * 100)

    @property
    def mastered(self) -> bool:
        return adaptive.is_mastered(self.value, self.mastery.answers)

    @property
    def shown(self) -> tuple:
        """What the page's row of it shows (its rendering's key: page_parts.py)."""
        return (
            self.mastery.rule.number,
            self.title,
            self.title_language,
            self.percent,
            self.mastered,
        )


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


def median_keys(rule_ids) -> list[str]:
    """The cache's keys of the rules' medians: for a page to read them with its other keys."""
    return [_median_key(rule_id) for rule_id in rule_ids]


def median_difficulties(rule_ids, kept: dict | None = None) -> dict[int, float]:
    """The median difficulty of each rule's active questions (0.0 for a rule with none), from
    the cache (or from `kept`, what the page read of `median_keys(rule_ids)` with its other
    keys), with one query for the rules it lacks."""
    wanted = set(rule_ids)
    if kept is None:
        kept = cache.get_many(median_keys(wanted)) if wanted else {}
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
        fresh = {
            rule_id: adaptive.median_difficulty(difficulties.get(rule_id, ()))
            for rule_id in missing
        }
        cache.set_many({_median_key(k): v for k, v in fresh.items()}, MEDIAN_TIMEOUT)
        medians |= fresh
    return medians


def rule_progress(user) -> list[RuleProgress]:
    """Mastery on every rule the learner has answered, weakest first, each with its section
    title (one query, one for the medians not cached; the medians and the rules' titles from
    the cache in one round trip)."""
    masteries = Mastery.objects.with_rule_numbers(user)
    rule_ids = {m.rule_id for m in masteries}
    titles_key = texts.section_titles_key()
    kept = cache.get_many([*median_keys(rule_ids), titles_key]) if masteries else {}
    medians = median_difficulties(rule_ids, kept)
    titles = texts.section_titles(kept.get(titles_key)) if masteries else {}
    progress = [
        RuleProgress(
            m,
            adaptive.mastery(m.theta, medians[m.rule_id]),
            *titles.get(m.rule.number, ("", "")),
        )
        for m in masteries
    ]
    return sorted(progress, key=lambda item: (item.value, item.mastery.rule.number))


WORK_ON = 5  # rules "Rules to work on" lists


def rules_to_work_on(progress: list[RuleProgress]) -> list[RuleProgress]:
    """The weakest rules not yet mastered that the learner got wrong at least once (a rule
    whose parts were all answered right is never one to work on, whatever its mastery)."""
    missed = [item for item in progress if item.mastery.correct < item.mastery.answers]
    return [item for item in missed if not item.mastered][:WORK_ON]


def due_reviews(progress: list[RuleProgress], now=None) -> list[RuleProgress]:
    """The rules in `progress` due for review at `now`, the most overdue first (as `Review now`
    serves them)."""
    now = now or timezone.now()
    due = [item for item in progress if item.mastery.due is not None and item.mastery.due <= now]
    return sorted(due, key=lambda item: (item.mastery.due, item.mastery.rule.number))


def reviews_due(progress: list[RuleProgress], now=None) -> int:
    """How many of the rules in `progress` (every mastery of a learner) are due for review, as
    `Mastery.objects.due()` counts them, from the rows `rule_progress` already read."""
    now = now or timezone.now()
    return sum(1 for item in progress if item.mastery.due is not None and item.mastery.due <= now)


def _day(column: str) -> tuple[str, tuple]:
    """The SQL of a `DateTimeField` column's day in the current time zone. SQLite in UTC: its own
    `date()` of the stored UTC text, exact, where Django's function is Python called per row
    (a millisecond for sixty answers)."""
    zone = timezone.get_current_timezone_name()
    if connection.vendor == "sqlite" and zone == "UTC":
        return f"date({column})", ()
    return connection.ops.datetime_cast_date_sql(column, (), zone)


def accuracy_by_day(user, days: int = 30) -> list[Day]:
    """Answers and right answers per day (in the current time zone) over the last `days`, in a
    hand-written query: the ORM's `TruncDate` grouping cost four times what the database took
    to answer it."""
    since = timezone.now() - datetime.timedelta(days=days)
    day_sql, day_params = _day("created_at")
    rows = sql.rows(
        f"SELECT {day_sql}, COUNT(*), SUM(CASE WHEN correct THEN 1 ELSE 0 END)"
        " FROM quizzes_response WHERE user_id = %s AND created_at >= %s GROUP BY 1 ORDER BY 1",
        [*day_params, user.pk, sql.at(since)],
        prepared=True,
    )
    return [Day(sql.day(day), answers, right) for day, answers, right in rows]


@dataclass(frozen=True)
class Answer:
    """One answer of a learner's history: what the page shows of it."""

    pk: int
    title: str  # the scenario's title as the answer was given (its version's)
    created_at: datetime.datetime


class History:
    """A learner's answers, newest first, for a `Paginator`: counted by the ORM, each page read
    with a hand-written query (the ORM's three-table `select_related` with `only` cost more to build
    than to run); each page's items are their `Grade`s, the answer attached."""

    PAGE = """
    SELECT answer.id, answer.verdict, answer.created_at,
           COALESCE(NULLIF(version.title, ''), scenario.title)
    FROM quizzes_response answer
    JOIN quizzes_question question ON question.id = answer.question_id
    JOIN quizzes_scenario scenario ON scenario.id = question.scenario_id
    LEFT JOIN quizzes_scenarioversion version ON version.id = answer.scenario_version_id
    WHERE answer.user_id = %s
    ORDER BY answer.created_at DESC, answer.id DESC
    LIMIT %s OFFSET %s
    """

    def __init__(self, user) -> None:
        self.user_id = user.pk

    def count(self) -> int:
        return Response.objects.filter(user_id=self.user_id).count()

    def __getitem__(self, window: slice) -> list[Grade]:
        start, stop = window.start or 0, window.stop
        rows = sql.rows(self.PAGE, [self.user_id, stop - start, start], prepared=True)
        return [
            Grade.from_json(sql.document(verdict), Answer(pk, title, sql.moment(created_at)))
            for pk, verdict, created_at, title in rows
        ]


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

"""Results of an instructor's exam as rows (the CSV export): one per finished sitting."""

from __future__ import annotations

import csv
import io
from collections import defaultdict

from django.db.models import Prefetch, QuerySet

from quizzes.models import ExamBlueprint, ExamSitting, SittingRegrade

HEADER = [
    "learner",
    "attempt",
    "started_at",
    "finished_at",
    "minutes_used",
    "extra_minutes",
    "questions",
    "right",
    "score_percent",
    "passed",
    "regraded",
    "score_percent_before_regrade",
]
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def finished_sittings(blueprint: ExamBlueprint) -> QuerySet[ExamSitting]:
    regrades = Prefetch("regrades", queryset=SittingRegrade.objects.order_by("regraded_at", "id"))
    return (
        ExamSitting.objects.filter(blueprint=blueprint, attempt__finished_at__isnull=False)
        .select_related("attempt__user")
        .prefetch_related(regrades)
        .order_by("attempt__user__username", "attempt__started_at")
    )


def _cell(value: object) -> str:
    """A value as a cell no spreadsheet reads as a formula (a username "=1+1")."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def rows(blueprint: ExamBlueprint) -> list[list[str]]:
    table = [HEADER]
    numbers: dict[int, int] = defaultdict(int)
    for sitting in finished_sittings(blueprint):
        attempt = sitting.attempt
        numbers[attempt.user_id] += 1
        regrades = list(sitting.regrades.all())
        used = (attempt.finished_at - attempt.started_at).total_seconds() / 60
        table.append(
            [
                _cell(attempt.user.get_username()),
                str(numbers[attempt.user_id]),
                attempt.started_at.isoformat(timespec="seconds"),
                attempt.finished_at.isoformat(timespec="seconds"),
                f"{used:.1f}",
                str(sitting.extra_minutes),
                str(sitting.question_count),
                str(sitting.right_count or 0),
                str(sitting.score_percent or 0),
                "yes" if sitting.passed else "no",
                "yes" if regrades else "no",
                str(regrades[0].percent_before) if regrades else "",
            ]
        )
    return table


def csv_text(blueprint: ExamBlueprint) -> str:
    out = io.StringIO()
    csv.writer(out).writerows(rows(blueprint))
    return out.getvalue()

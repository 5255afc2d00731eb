"""A candidate's attempt history per exam: each finished sitting of a blueprint (date, score,
passed or not) and the trend, better or worse than the sitting before (issue 23, Build 5).

One query reads every finished sitting of the learner; the sparkline is drawn as SVG points here
(no JavaScript), and its text equivalent is the table beside it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from quizzes.models import ExamSitting

BETTER, WORSE, SAME, FIRST = "better", "worse", "same", "first"
# The sparkline's box: scores 0-100% drawn bottom to top.
WIDTH, HEIGHT, PAD = 120, 32, 3


@dataclass
class Sat:
    """One finished sitting with how its score compares with the sitting before it."""

    sitting: ExamSitting
    change: int | None  # percentage points since the sitting before (None: the first)

    @property
    def trend(self) -> str:
        if self.change is None:
            return FIRST
        return BETTER if self.change > 0 else WORSE if self.change < 0 else SAME

    @property
    def trend_text(self) -> str:
        """The change in words ("8 points better than the previous sitting")."""
        if self.change is None:
            return _("first sitting")
        if self.change == 0:
            return _("the same as the previous sitting")
        points = abs(self.change)
        if self.change > 0:
            return ngettext(
                "%(points)s point better than the previous sitting",
                "%(points)s points better than the previous sitting",
                points,
            ) % {"points": points}
        return ngettext(
            "%(points)s point worse than the previous sitting",
            "%(points)s points worse than the previous sitting",
            points,
        ) % {"points": points}


@dataclass
class History:
    """The finished sittings of one exam, oldest first."""

    title: str
    key: str  # the blueprint's id, or the title of a sitting whose blueprint was deleted
    pass_percent: int
    sat: list[Sat] = field(default_factory=list)

    @property
    def latest(self) -> Sat:
        return self.sat[-1]

    @property
    def newest_first(self) -> list[Sat]:
        return list(reversed(self.sat))

    @property
    def points(self) -> str:
        """The sparkline's SVG polyline points, one per sitting, oldest on the left."""
        count = len(self.sat)
        step = (WIDTH - 2 * PAD) / max(count - 1, 1)
        return " ".join(
            f"{PAD + index * step:.1f},{self._y(entry.sitting.score_percent or 0):.1f}"
            for index, entry in enumerate(self.sat)
        )

    @property
    def pass_y(self) -> str:
        return f"{self._y(self.pass_percent):.1f}"

    @staticmethod
    def _y(percent: int) -> float:
        return HEIGHT - PAD - (HEIGHT - 2 * PAD) * percent / 100

    @property
    def summary(self) -> str:
        """The sparkline in words: the scores oldest first and the latest trend."""
        scores = ", ".join(f"{entry.sitting.score_percent}%" for entry in self.sat)
        return _("Scores, oldest first: %(scores)s; the latest: %(trend)s.") % {
            "scores": scores,
            "trend": self.latest.trend_text,
        }


def histories(user) -> list[History]:
    """Per exam the learner finished, its sittings oldest first with their trend; the exams in
    the order of their latest sitting, newest first. One query."""
    sittings = (
        ExamSitting.objects.owned_by(user)
        .exclude(attempt__finished_at=None)
        .exclude(right_count=None)
        .select_related("attempt")
        .order_by("attempt__started_at", "pk")
    )
    by_exam: dict[str, History] = {}
    for sitting in sittings:
        key = str(sitting.blueprint_id) if sitting.blueprint_id else f"title:{sitting.title}"
        history = by_exam.get(key)
        if history is None:
            history = by_exam[key] = History(sitting.title, key, sitting.pass_percent)
        previous = history.sat[-1].sitting.score_percent if history.sat else None
        score = sitting.score_percent
        change = None if previous is None or score is None else score - previous
        history.sat.append(Sat(sitting, change))
        history.title = sitting.title  # the latest sitting's title
    return sorted(by_exam.values(), key=lambda h: h.latest.sitting.attempt.started_at, reverse=True)


def history_of(user, sitting: ExamSitting) -> History | None:
    """The history of `sitting`'s exam up to and with it (its report shows it)."""
    key = str(sitting.blueprint_id) if sitting.blueprint_id else f"title:{sitting.title}"
    for history in histories(user):
        if history.key == key:
            upto = [entry for entry in history.sat if entry.sitting.attempt.started_at
                    <= sitting.attempt.started_at]  # fmt: skip
            return History(history.title, key, history.pass_percent, upto) if upto else None
    return None

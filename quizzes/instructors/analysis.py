"""Item analysis of a bank's questions, computed in the database with aggregates.

Classical test theory per version: an item is a question as one version of its scenario asked
it (an edit makes a new item; the old version's answers never mix into the new one), with one
response per learner and item (their first: later ones are practice on a question they have
seen the key of):

- facility p = share of right first answers;
- discrimination = the item-rest point-biserial correlation: Pearson's r between the item score
  x (1 right, 0 wrong) and the learner's rest score y, the *share* right of their other first
  answers in the bank: y = (t - x) / (a - 1), t their right first answers there, a all their
  first answers there. Leaving the item out keeps it from correlating with itself (small
  banks); a share, not a count, keeps a learner with 29 of 43 right from outranking one with
  18 of 20 just by answering more. A learner with no other answer has no rest score and is
  left out of r (not of the facility).
- notes ("check the key", "almost everyone ...") only from `MIN_LEARNERS_FOR_NOTES` learners'
  first answers on the item: below that a correlation or a share is noise (two answers made
  "stronger learners do worse" fire on right keys).

One query for the sums: each first response carries its learner's bank totals (correlated
subqueries on the (user, question) index), and the database sums n, Σx and, over the learners
with a rest score, m, Σx, Σy, Σxy and Σy² per item. r follows from those numbers per item; no
response is ever loaded into Python.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.db.models import (
    Case,
    Count,
    F,
    FloatField,
    IntegerField,
    OuterRef,
    Q,
    Subquery,
    Sum,
    When,
)
from django.db.models.functions import Cast, Coalesce
from django.utils.translation import gettext as _

from quizzes.models import Bank, Question, Response, ScenarioVersion

MIN_ANSWERS_FOR_DISCRIMINATION = 2
MIN_LEARNERS_FOR_NOTES = 10  # an item's notes (flags) only from this many learners' answers


@dataclass(frozen=True)
class ItemStats:
    question: Question
    answers: int
    right: int
    discrimination: float | None  # None: too few answers, or no spread to correlate
    version: ScenarioVersion | None = None  # the scenario's version the answers were given on

    @property
    def prompt(self) -> str:
        """The prompt as this version asked it."""
        if self.version is None:
            return self.question.prompt
        return self.version.question_as_given(self.question).prompt

    @property
    def is_current(self) -> bool:
        return self.version is None or self.version.pk == self.question.scenario.current_version_id

    @property
    def facility(self) -> float | None:
        return self.right / self.answers if self.answers else None

    @property
    def too_few_for_notes(self) -> bool:
        """Answered, but by fewer learners than a note needs (one first answer per learner)."""
        return 0 < self.answers < MIN_LEARNERS_FOR_NOTES

    @property
    def flag(self) -> str:
        """A reason to look at the question again, or "" (always "" below the threshold)."""
        if self.answers < MIN_LEARNERS_FOR_NOTES:
            return ""
        if self.discrimination is not None and self.discrimination < 0:
            return _("stronger learners do worse on it: check the key and the wording")
        if self.facility is not None and self.facility >= 0.95:
            return _("almost everyone gets it right")
        if self.facility is not None and self.facility <= 0.2:
            return _("almost everyone gets it wrong")
        return ""


def first_responses(bank: Bank):
    """Each learner's first response to each version of each question of `bank`."""
    return Response.objects.filter(question__bank=bank).first_attempts_per_version()


def _sums(bank: Bank) -> dict[tuple[int, int | None], dict]:
    firsts = first_responses(bank)
    of_learner = firsts.filter(user=OuterRef("user")).values("user")
    right_total = of_learner.filter(correct=True).annotate(total=Count("id")).values("total")
    answered_total = of_learner.annotate(total=Count("id")).values("total")
    t = Coalesce(Subquery(right_total, output_field=IntegerField()), 0)
    a = Coalesce(Subquery(answered_total, output_field=IntegerField()), 0)
    item = Case(When(correct=True, then=1), default=0, output_field=IntegerField())
    # the rest score as a share: right among the learner's other first answers in the bank
    rest = Cast(F("t") - F("x"), FloatField()) / Cast(F("a") - 1, FloatField())
    has_rest = Q(a__gt=1)
    rows = (
        firsts.annotate(t=t, a=a, x=item)
        .annotate(y=Case(When(has_rest, then=rest), default=None, output_field=FloatField()))
        .values("question", "scenario_version")
        .annotate(
            n=Count("id"),
            sum_x=Sum("x"),
            m=Count("id", filter=has_rest),
            rest_x=Sum("x", filter=has_rest),
            sum_y=Sum("y"),
            sum_xy=Sum(Case(When(correct=True, then=F("y")), default=0.0)),
            sum_yy=Sum(F("y") * F("y")),
        )
        .order_by()
    )
    return {(row["question"], row["scenario_version"]): row for row in rows}


def rest_correlation(
    m: int, sum_x: float, sum_y: float, sum_xy: float, sum_yy: float
) -> float | None:
    """Pearson's r between x (0 or 1) and the rest score y, from sums over the m learners who
    have a rest score; None below `MIN_ANSWERS_FOR_DISCRIMINATION` or with no spread."""
    if m < MIN_ANSWERS_FOR_DISCRIMINATION:
        return None
    covariance = m * sum_xy - sum_x * sum_y
    spread_x = m * sum_x - sum_x * sum_x  # Σx² = Σx, as x is 0 or 1
    spread_y = m * sum_yy - sum_y * sum_y
    if spread_x <= 0 or spread_y <= 1e-12:
        return None
    return covariance / math.sqrt(spread_x * spread_y)


def item_analysis(bank: Bank) -> list[ItemStats]:
    """Every active question of the bank, in bank order, one row per version answered (newest
    first; the current version always, answered or not), with its statistics (three queries)."""
    sums = _sums(bank)
    answered = {key[1] for key in sums if key[1] is not None}
    versions = ScenarioVersion.objects.in_bulk(answered) if answered else {}
    by_question: dict[int, list[tuple[int | None, dict]]] = {}
    for (question_id, version_id), row in sums.items():
        by_question.setdefault(question_id, []).append((version_id, row))
    questions = Question.objects.filter(bank=bank, is_active=True).select_related(
        "scenario__current_version"
    )
    items = []
    for question in questions.order_by("scenario__title", "position", "id"):
        current = question.scenario.current_version
        rows = by_question.get(question.pk, [])
        if not any(version_id in (None, current.pk if current else None) for version_id, _ in rows):
            items.append(ItemStats(question, 0, 0, None, current))
        rows.sort(key=lambda pair: _number(versions.get(pair[0])), reverse=True)
        for version_id, row in rows:
            discrimination = rest_correlation(
                row["m"],
                row["rest_x"] or 0,
                row["sum_y"] or 0.0,
                row["sum_xy"] or 0.0,
                row["sum_yy"] or 0.0,
            )
            version = versions.get(version_id, current)
            items.append(ItemStats(question, row["n"], row["sum_x"], discrimination, version))
    return items


def _number(version: ScenarioVersion | None) -> float:
    return version.number if version is not None else math.inf  # unknown: taken as current

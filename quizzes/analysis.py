"""Item analysis of a bank's questions, computed in the database with aggregates.

Classical test theory, one response per learner and question (their first: later ones are
practice on a question they have seen the key of):

- facility p = share of right first answers;
- discrimination = the item-rest point-biserial correlation: Pearson's r between the item score
  x (1 right, 0 wrong) and the learner's rest score y = (right first answers in the bank) - x.
  Leaving the item out of the total keeps it from correlating with itself, which matters in
  small banks.

One query: each first response carries its learner's bank total (a correlated subquery on the
(user, question) index), and the database sums n, Σx, Σt, Σxt and Σt² per question. r follows
from those five numbers per question; no response is ever loaded into Python.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.db.models import Case, Count, F, IntegerField, OuterRef, Subquery, Sum, When
from django.db.models.functions import Coalesce

from quizzes.models import Bank, Question, Response

MIN_ANSWERS_FOR_DISCRIMINATION = 2


@dataclass(frozen=True)
class ItemStats:
    question: Question
    answers: int
    right: int
    discrimination: float | None  # None: too few answers, or no spread to correlate

    @property
    def facility(self) -> float | None:
        return self.right / self.answers if self.answers else None

    @property
    def flag(self) -> str:
        """A reason to look at the question again, or ""."""
        if self.discrimination is not None and self.discrimination < 0:
            return "stronger learners do worse on it: check the key and the wording"
        if self.facility is not None and self.answers >= 5 and self.facility >= 0.95:
            return "almost everyone gets it right"
        if self.facility is not None and self.answers >= 5 and self.facility <= 0.2:
            return "almost everyone gets it wrong"
        return ""


def first_responses(bank: Bank):
    """Each learner's first response to each question of `bank`."""
    return Response.objects.filter(question__bank=bank).first_attempts()


def _sums(bank: Bank) -> dict[int, dict[str, int]]:
    firsts = first_responses(bank)
    learner_total = (
        firsts.filter(user=OuterRef("user"), correct=True)
        .values("user")
        .annotate(total=Count("id"))
        .values("total")
    )
    total = Coalesce(Subquery(learner_total, output_field=IntegerField()), 0)
    item = Case(When(correct=True, then=1), default=0, output_field=IntegerField())
    rows = (
        firsts.annotate(t=total, x=item)
        .values("question")
        .annotate(
            n=Count("id"),
            sum_x=Sum("x"),
            sum_t=Sum("t"),
            sum_xt=Sum(Case(When(correct=True, then=F("t")), default=0)),
            sum_tt=Sum(F("t") * F("t")),
        )
        .order_by()
    )
    return {row["question"]: row for row in rows}


def rest_point_biserial(n: int, sum_x: int, sum_t: int, sum_xt: int, sum_tt: int) -> float | None:
    """Pearson's r between x and y = t - x, from sums over the n respondents (x is 0 or 1)."""
    if n < MIN_ANSWERS_FOR_DISCRIMINATION:
        return None
    sum_y = sum_t - sum_x
    sum_xy = sum_xt - sum_x  # x·(t - x) = x·t - x, as x² = x
    sum_yy = sum_tt - 2 * sum_xt + sum_x
    covariance = n * sum_xy - sum_x * sum_y
    spread_x = n * sum_x - sum_x * sum_x
    spread_y = n * sum_yy - sum_y * sum_y
    if spread_x <= 0 or spread_y <= 0:
        return None
    return covariance / math.sqrt(spread_x * spread_y)


def item_analysis(bank: Bank) -> list[ItemStats]:
    """Every active question of the bank, in bank order, with its statistics (two queries)."""
    sums = _sums(bank)
    questions = Question.objects.filter(bank=bank, is_active=True).select_related("scenario")
    items = []
    for question in questions.order_by("scenario__title", "position", "id"):
        row = sums.get(question.pk)
        if row is None:
            items.append(ItemStats(question, 0, 0, None))
            continue
        discrimination = rest_point_biserial(
            row["n"], row["sum_x"], row["sum_t"], row["sum_xt"], row["sum_tt"]
        )
        items.append(ItemStats(question, row["n"], row["sum_x"], discrimination))
    return items

"""Item analysis of a bank's questions, computed in the database with aggregates.

Classical test theory per version: an item is a question as one version of its scenario asked
it (an edit makes a new item; the old version's answers never mix into the new one), with one
response per learner and item (their first: later ones are practice on a question they have
seen the key of):

- facility p = share of right first answers;
- discrimination = the item-rest point-biserial correlation: Pearson's r between the item score
  x (1 right, 0 wrong) and the learner's rest score y = (right first answers to the bank's
  items) - x.
  Leaving the item out of the total keeps it from correlating with itself, which matters in
  small banks.

One query for the sums: each first response carries its learner's bank total (a correlated
subquery on the (user, question) index), and the database sums n, Σx, Σt, Σxt and Σt² per
item. r follows from those five numbers per item; no response is ever loaded into Python.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.db.models import Case, Count, F, IntegerField, OuterRef, Subquery, Sum, When
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _

from quizzes.models import Bank, Question, Response, ScenarioVersion

MIN_ANSWERS_FOR_DISCRIMINATION = 2


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
    def flag(self) -> str:
        """A reason to look at the question again, or ""."""
        if self.discrimination is not None and self.discrimination < 0:
            return _("stronger learners do worse on it: check the key and the wording")
        if self.facility is not None and self.answers >= 5 and self.facility >= 0.95:
            return _("almost everyone gets it right")
        if self.facility is not None and self.answers >= 5 and self.facility <= 0.2:
            return _("almost everyone gets it wrong")
        return ""


def first_responses(bank: Bank):
    """Each learner's first response to each version of each question of `bank`."""
    return Response.objects.filter(question__bank=bank).first_attempts_per_version()


def _sums(bank: Bank) -> dict[tuple[int, int | None], dict[str, int]]:
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
        .values("question", "scenario_version")
        .annotate(
            n=Count("id"),
            sum_x=Sum("x"),
            sum_t=Sum("t"),
            sum_xt=Sum(Case(When(correct=True, then=F("t")), default=0)),
            sum_tt=Sum(F("t") * F("t")),
        )
        .order_by()
    )
    return {(row["question"], row["scenario_version"]): row for row in rows}


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
            discrimination = rest_point_biserial(
                row["n"], row["sum_x"], row["sum_t"], row["sum_xt"], row["sum_tt"]
            )
            version = versions.get(version_id, current)
            items.append(ItemStats(question, row["n"], row["sum_x"], discrimination, version))
    return items


def _number(version: ScenarioVersion | None) -> float:
    return version.number if version is not None else math.inf  # unknown: taken as current

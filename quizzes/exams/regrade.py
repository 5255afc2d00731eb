"""Regrading: after an instructor corrects a question's key (a new version of its scenario), the
finished sittings of their exam that were graded on an earlier version are scored again.

Each answered item whose scenario has a newer version than the one it was graded on is graded
again, by the engine, on the current version (the learner's own answer, variant seed and order;
an answer that no longer fits the question keeps its verdict). `plan` says what would change and
writes nothing (the preview); `apply` writes it: the items' new verdicts, the sitting's new score,
and a `SittingRegrade` row with the score before and after (the history the learner and the
instructor see). Unanswered items stay wrong; a sitting still running is never touched.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import F, QuerySet

from quizzes.exams.proctor import needed_to_pass
from quizzes.models import ExamBlueprint, ExamItem, ExamSitting, Response, SittingRegrade
from quizzes.practice import answers


@dataclass(frozen=True)
class ItemChange:
    position: int
    before: bool
    after: bool
    version: int  # the scenario version's number graded against


@dataclass
class SittingChange:
    sitting: ExamSitting
    changes: list[ItemChange] = field(default_factory=list)
    stale_items: list[tuple[ExamItem, bool]] = field(default_factory=list)

    @property
    def right_before(self) -> int:
        return self.sitting.right_count or 0

    @property
    def right_after(self) -> int:
        return self.right_before + sum(int(c.after) - int(c.before) for c in self.changes)

    @property
    def passed_after(self) -> bool:
        return self.right_after >= needed_to_pass(
            self.sitting.pass_mark, self.sitting.question_count
        )

    @property
    def percent_before(self) -> int:
        return _percent(self.right_before, self.sitting.question_count)

    @property
    def percent_after(self) -> int:
        return _percent(self.right_after, self.sitting.question_count)


def _percent(right: int, count: int) -> int:
    return round(100 * right / count) if count else 0


def stale_items(blueprint: ExamBlueprint) -> QuerySet[ExamItem]:
    """Answered items of the blueprint's finished sittings graded on a version older than their
    scenario's current one."""
    graded_on = F("scenario_version")
    items = ExamItem.objects.filter(
        sitting__blueprint=blueprint,
        sitting__attempt__finished_at__isnull=False,
        answered_at__isnull=False,
        question__scenario__current_version__isnull=False,
    )
    never_regraded = items.filter(regraded_version__isnull=True).exclude(
        question__scenario__current_version=graded_on
    )
    regraded_earlier = items.filter(regraded_version__isnull=False).exclude(
        question__scenario__current_version=F("regraded_version")
    )
    return (never_regraded | regraded_earlier).select_related(
        "sitting__attempt", "question__scenario__current_version"
    )


def plan(blueprint: ExamBlueprint) -> list[SittingChange]:
    """What a regrade would change, sitting by sitting (only sittings whose score changes or
    whose items need regrading); nothing is written."""
    items = list(stale_items(blueprint).order_by("sitting_id", "position"))
    responses = Response.objects.filter(attempt_id__in={item.sitting_id for item in items})
    graded = {
        (attempt, question): correct
        for attempt, question, correct in responses.values_list(
            "attempt_id", "question_id", "correct"
        )
    }
    by_sitting: dict[int, SittingChange] = {}
    for item in items:
        sitting = item.sitting
        change = by_sitting.setdefault(sitting.pk, SittingChange(sitting))
        before = (
            item.regraded_correct
            if item.regraded_correct is not None
            else graded.get((item.sitting_id, item.question_id), False)
        )
        current = item.question.scenario.current_version
        try:
            verdict = answers.grade(
                item.question, item.answer, item.variant_seed, sitting.attempt.user_id, current
            )
        except answers.AnswerError:
            continue  # the answer does not fit the corrected question: its verdict stands
        after = bool(verdict.correct)
        change.stale_items.append((item, after))
        if after != before:
            change.changes.append(ItemChange(item.position, before, after, current.number))
    return [change for change in by_sitting.values() if change.stale_items]


def apply(blueprint: ExamBlueprint, by) -> list[SittingChange]:
    """Regrade: write the plan. A sitting whose score changes keeps its old score in a
    `SittingRegrade` row; items regraded without a change are marked so, and not offered again."""
    changes = plan(blueprint)
    with transaction.atomic():
        for change in changes:
            for item, after in change.stale_items:
                ExamItem.objects.filter(pk=item.pk).update(
                    regraded_correct=after,
                    regraded_version=item.question.scenario.current_version_id,
                )
            if not change.changes:
                continue
            sitting = change.sitting
            before_right, before_passed = sitting.right_count or 0, bool(sitting.passed)
            after_right, after_passed = change.right_after, change.passed_after
            sitting.right_count, sitting.passed = after_right, after_passed
            sitting.save(update_fields=["right_count", "passed"])
            SittingRegrade.objects.create(
                sitting=sitting,
                regraded_by=by,
                right_before=before_right,
                right_after=after_right,
                passed_before=before_passed,
                passed_after=after_passed,
                changes=[vars(item) for item in change.changes],
            )
    return [change for change in changes if change.changes]

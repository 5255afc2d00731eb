"""Certification practice: blueprints (how many questions per rule area) and exam sittings.

A sitting is an `Attempt` of kind `exam` (its deadline is kept server-side) plus an `ExamSitting`
row that remembers the blueprint it was drawn from and, once finished, its score. `ExamItem`s fix
the sitting's ordered questions and the variant seed each is shown with; the learner's answers are
kept on the items and graded into ordinary `Response`s of the attempt when it finishes.
"""

from __future__ import annotations

import re

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext, ngettext

from quizzes.models.content import given_on_version
from rules.numbers import is_rule_number


def split_rule_prefixes(text: str) -> list[str]:
    """Rule numbers or prefixes written with commas or spaces: "701.23, 701.17a"."""
    return [token.rstrip(".") for token in re.split(r"[\s,]+", text or "") if token]


def rule_is_under(number: str, prefix: str) -> bool:
    """Whether rule `number` is `prefix` or one of its subrules (701.23 covers 701.23b only)."""
    if number == prefix:
        return True
    if not number.startswith(prefix):
        return False
    rest = number[len(prefix) :]
    return rest.startswith(".") or ("." in prefix and rest.isalpha())


class ExamBlueprint(models.Model):
    """What a practice exam asks: questions per rule area, a time limit and a pass mark."""

    slug = models.SlugField(max_length=100, unique=True)
    title = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    time_limit_minutes = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(600)],
        help_text="Minutes to answer in (empty: untimed, as Judge Foundry's exams are).",
    )
    pass_mark = models.FloatField(
        default=0.8,
        validators=[MinValueValidator(0.0), MaxValueValidator(1.0)],
        help_text="The share of questions to get right to pass (0.80 as in judge exams).",
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="exam_blueprints",
        help_text="The instructor who sets this exam (site exams: none).",
    )
    banks = models.ManyToManyField(
        "quizzes.Bank",
        blank=True,
        related_name="blueprints",
        help_text="The banks the questions are drawn from: the owner's own banks or the site's "
        "public ones (see `Bank.objects.usable_in_blueprint_of`).",
    )
    retake_wait_hours = models.PositiveSmallIntegerField(
        default=24,
        validators=[MaxValueValidator(24 * 365)],
        help_text="Hours a learner waits between two starts of this exam (0: no wait).",
    )
    max_sittings = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(1)],
        help_text="Sittings a learner may start in all (empty: no limit).",
    )
    is_active = models.BooleanField(default=True)
    position = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["position", "title"]

    def __str__(self) -> str:
        return self.title

    @property
    def question_count(self) -> int:
        """Questions asked when the bank is deep enough (use with prefetched areas)."""
        return sum(area.count for area in self.areas.all())

    @property
    def pass_percent(self) -> int:
        return round(self.pass_mark * 100)

    @property
    def time_label(self) -> str:
        """ "20 minutes", or "untimed"."""
        minutes = self.time_limit_minutes
        if minutes is None:
            return gettext("untimed")
        return ngettext("%(minutes)s minute", "%(minutes)s minutes", minutes) % {"minutes": minutes}

    @property
    def retake_policy(self) -> str:
        """The retake policy in words: "one start every 24 hours, at most 3 sittings"."""
        hours = self.retake_wait_hours
        parts = (
            [
                ngettext("one start every %(n)s hour", "one start every %(n)s hours", hours)
                % {"n": hours}
            ]
            if hours
            else []
        )
        if self.max_sittings is not None:
            count = self.max_sittings
            sittings = ngettext("at most %(n)s sitting", "at most %(n)s sittings", count)
            parts.append(sittings % {"n": count})
        return ", ".join(parts)


class BlueprintArea(models.Model):
    """One row of a blueprint: `count` questions on the rules `rules` names."""

    blueprint = models.ForeignKey(ExamBlueprint, on_delete=models.CASCADE, related_name="areas")
    position = models.PositiveSmallIntegerField(default=0)
    title = models.CharField(max_length=200)
    rules = models.CharField(
        max_length=300,
        help_text='Rule numbers or prefixes, comma-separated: "701.23" covers 701.23a-701.23k.',
    )
    count = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)])

    class Meta:
        ordering = ["blueprint", "position", "id"]

    def __str__(self) -> str:
        return f"{self.title}: {self.count} ({self.rules})"

    @property
    def rule_prefixes(self) -> list[str]:
        return split_rule_prefixes(self.rules)

    def clean(self) -> None:
        prefixes = self.rule_prefixes
        if not prefixes:
            raise ValidationError({"rules": "Name at least one rule number or prefix."})
        for prefix in prefixes:
            if not is_rule_number(prefix):  # 701.23: a rule and its subrules; 701: a section
                raise ValidationError({"rules": f"{prefix!r} is not a rule number like 701.23."})


class ExamSittingQuerySet(models.QuerySet):
    def owned_by(self, user) -> ExamSittingQuerySet:
        return self.filter(attempt__user=user)

    def unfinished(self) -> ExamSittingQuerySet:
        return self.filter(attempt__finished_at__isnull=True)


class ExamSitting(models.Model):
    """One learner's sitting of a blueprint; the score fields are filled when it finishes."""

    attempt = models.OneToOneField(
        "quizzes.Attempt", on_delete=models.CASCADE, primary_key=True, related_name="exam_sitting"
    )
    blueprint = models.ForeignKey(
        ExamBlueprint, null=True, blank=True, on_delete=models.SET_NULL, related_name="sittings"
    )
    # Copied from the blueprint at the start, so editing it later leaves past sittings alone.
    title = models.CharField(max_length=200)
    pass_mark = models.FloatField()
    time_limit_minutes = models.PositiveSmallIntegerField(null=True, blank=True)  # None: untimed
    question_count = models.PositiveSmallIntegerField(default=0)
    right_count = models.PositiveSmallIntegerField(null=True, blank=True)
    passed = models.BooleanField(null=True, blank=True)
    extra_minutes = models.PositiveSmallIntegerField(
        default=0, help_text="The learner's accommodation when it started (in its deadline)."
    )

    objects = ExamSittingQuerySet.as_manager()

    class Meta:
        ordering = ["-attempt__started_at"]

    def __str__(self) -> str:
        return f"{self.title} by {self.attempt.user}"

    @property
    def finished(self) -> bool:
        return self.attempt.finished_at is not None

    @property
    def score(self) -> float | None:
        if self.right_count is None or not self.question_count:
            return None
        return self.right_count / self.question_count

    @property
    def score_percent(self) -> int | None:
        score = self.score
        return None if score is None else round(score * 100)

    @property
    def pass_percent(self) -> int:
        return round(self.pass_mark * 100)

    @property
    def timed(self) -> bool:
        return self.time_limit_minutes is not None

    @property
    def allowed_minutes(self) -> int | None:
        """The time limit with the learner's accommodation (None: untimed)."""
        if self.time_limit_minutes is None:
            return None
        return self.time_limit_minutes + self.extra_minutes


class SittingQuota(models.Model):
    """A learner's starts of one blueprint. Each start claims this row with one conditional
    UPDATE (see `exams.start`), so two starts at once can't both pass the retake policy."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sitting_quotas"
    )
    blueprint = models.ForeignKey(ExamBlueprint, on_delete=models.CASCADE, related_name="quotas")
    started_count = models.PositiveIntegerField(default=0)
    last_started_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "blueprint"], name="one_quota_per_blueprint")
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.started_count} sittings of {self.blueprint_id}"


class ExamItem(models.Model):
    """The question at one position of a sitting, with the variant seed it is shown with."""

    sitting = models.ForeignKey(ExamSitting, on_delete=models.CASCADE, related_name="items")
    position = models.PositiveSmallIntegerField(help_text="1, 2, ... in the order asked.")
    question = models.ForeignKey(
        "quizzes.Question", on_delete=models.CASCADE, related_name="exam_items"
    )
    variant_seed = models.PositiveIntegerField(default=0)
    scenario_version = given_on_version(
        "The scenario's version drawn: the question, grading and review read it."
    )
    area = models.CharField(max_length=200, blank=True, help_text="The blueprint row it fills.")
    # Kept here until the sitting finishes; only then is it graded into a Response (no verdict
    # exists while the exam runs, so no page can show one).
    answer = models.JSONField(null=True, blank=True)
    answered_at = models.DateTimeField(null=True, blank=True)
    # Set by a regrade (exams/regrade.py): the verdict on the answer in a later version of the
    # scenario, whose key was corrected; None: as graded at the finish (its Response).
    regraded_correct = models.BooleanField(null=True, blank=True)
    regraded_version = given_on_version("The scenario's version the regrade graded against.")

    class Meta:
        ordering = ["sitting", "position"]
        constraints = [
            models.UniqueConstraint(fields=["sitting", "position"], name="one_item_per_position"),
            models.UniqueConstraint(
                fields=["sitting", "question"], name="one_item_per_sitting_and_question"
            ),
        ]

    def __str__(self) -> str:
        return f"Question {self.position} of sitting {self.sitting_id}"


class AccommodationQuerySet(models.QuerySet):
    def of_blueprint_owned_by(self, user) -> AccommodationQuerySet:
        """Accommodations on exams `user` sets: every instructor page looks them up so."""
        return self.filter(blueprint__owner=user) if user.is_authenticated else self.none()


class Accommodation(models.Model):
    """One learner's arrangement on one exam: extra minutes per sitting, extra sittings."""

    blueprint = models.ForeignKey(
        ExamBlueprint, on_delete=models.CASCADE, related_name="accommodations"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="exam_accommodations"
    )
    extra_minutes = models.PositiveSmallIntegerField(default=0, validators=[MaxValueValidator(600)])
    extra_sittings = models.PositiveSmallIntegerField(default=0, validators=[MaxValueValidator(20)])
    updated_at = models.DateTimeField(auto_now=True)

    objects = AccommodationQuerySet.as_manager()

    class Meta:
        ordering = ["blueprint", "user"]
        constraints = [
            models.UniqueConstraint(
                fields=["blueprint", "user"], name="one_accommodation_per_learner"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user}: +{self.extra_minutes} min, +{self.extra_sittings} on {self.blueprint}"


class SittingRegrade(models.Model):
    """A finished sitting scored again after a question's key was corrected: the score before
    and after, and what changed per question. The sitting's own fields hold the new score; the
    rows keep its history."""

    sitting = models.ForeignKey(ExamSitting, on_delete=models.CASCADE, related_name="regrades")
    regraded_at = models.DateTimeField(auto_now_add=True)
    regraded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    right_before = models.PositiveSmallIntegerField()
    right_after = models.PositiveSmallIntegerField()
    passed_before = models.BooleanField()
    passed_after = models.BooleanField()
    # [{"position": 3, "before": false, "after": true, "version": 2}, ...]
    changes = models.JSONField(default=list)

    class Meta:
        ordering = ["sitting", "regraded_at", "id"]

    def __str__(self) -> str:
        return f"Sitting {self.sitting_id}: {self.right_before} -> {self.right_after}"

    @property
    def percent_before(self) -> int:
        count = self.sitting.question_count
        return round(100 * self.right_before / count) if count else 0

    @property
    def percent_after(self) -> int:
        count = self.sitting.question_count
        return round(100 * self.right_after / count) if count else 0

"""Cohorts: an instructor's group of learners, who join with a code and see its shared banks."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

# No 0/O, 1/I/L: a code read aloud or copied from a slide is typed right the first time.
JOIN_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
JOIN_CODE_LENGTH = 8


def new_join_code() -> str:
    return "".join(secrets.choice(JOIN_CODE_ALPHABET) for _ in range(JOIN_CODE_LENGTH))


class CohortQuerySet(models.QuerySet):
    def owned_by(self, user) -> CohortQuerySet:
        """The cohorts `user` teaches: every instructor page looks cohorts up through this."""
        return self.filter(instructor=user) if user.is_authenticated else self.none()


class Cohort(models.Model):
    """A class of learners: they join with `join_code` and practise its banks (shared ones)."""

    name = models.CharField(_("name"), max_length=200)
    instructor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="taught_cohorts"
    )
    join_code = models.CharField(max_length=16, unique=True, default=new_join_code)
    banks = models.ManyToManyField("quizzes.Bank", blank=True, related_name="cohorts")
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        through="CohortMembership",
        blank=True,
        related_name="cohorts",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = CohortQuerySet.as_manager()

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class CohortMembership(models.Model):
    cohort = models.ForeignKey(Cohort, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="cohort_memberships"
    )
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["joined_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["cohort", "user"], name="one_membership_per_cohort")
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.cohort}"


class AssignmentQuerySet(models.QuerySet):
    def for_learner(self, user) -> AssignmentQuerySet:
        """Assignments of the cohorts `user` belongs to, with what they point at; a bank only
        while the learner may still practise it (`Bank.objects.visible_to`)."""
        if not user.is_authenticated:
            return self.none()
        banks = self.model._meta.get_field("bank").related_model.objects
        visible = models.Q(bank__in=banks.visible_to(user).values("pk"))
        return (
            self.filter(cohort__memberships__user=user)
            .filter(visible | models.Q(bank=None, blueprint__is_active=True))
            .select_related("cohort", "bank", "blueprint")
        )


class Assignment(models.Model):
    """A cohort's instructor asks its learners to practise a bank or sit an exam blueprint,
    optionally by a date."""

    cohort = models.ForeignKey(Cohort, on_delete=models.CASCADE, related_name="assignments")
    bank = models.ForeignKey(
        "quizzes.Bank", null=True, blank=True, on_delete=models.CASCADE, related_name="assignments"
    )
    blueprint = models.ForeignKey(
        "quizzes.ExamBlueprint",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="assignments",
    )
    due_on = models.DateField(null=True, blank=True, help_text="Optional: by when.")
    created_at = models.DateTimeField(auto_now_add=True)

    objects = AssignmentQuerySet.as_manager()

    class Meta:
        ordering = [models.F("due_on").asc(nulls_last=True), "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(bank__isnull=False, blueprint__isnull=True)
                | models.Q(bank__isnull=True, blueprint__isnull=False),
                name="assignment_is_a_bank_or_a_blueprint",
            )
        ]

    def __str__(self) -> str:
        return f"{self.cohort}: {self.bank or self.blueprint}"

    @property
    def title(self) -> str:
        return self.bank.title if self.bank_id else self.blueprint.title

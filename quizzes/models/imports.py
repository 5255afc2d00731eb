"""A bank import run in the background (quizzes/instructors/import_jobs.py): the file as sent,
its progress as the worker goes, then its result."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ImportJobQuerySet(models.QuerySet):
    def owned_by(self, user) -> ImportJobQuerySet:
        """The jobs `user` started into banks they own: every page looks jobs up through this."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(user=user, bank__owner=user)


class ImportJob(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    bank = models.ForeignKey("quizzes.Bank", on_delete=models.CASCADE, related_name="import_jobs")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="import_jobs"
    )
    filename = models.CharField(max_length=255)
    content = models.BinaryField(help_text="The file as sent (at most MAX_IMPORT_BYTES).")
    on_existing = models.CharField(max_length=20)
    take_bank_details = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=Status, default=Status.QUEUED)
    phase = models.CharField(max_length=10, blank=True, help_text='"checked" or "saved"')
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    result = models.JSONField(null=True, blank=True, help_text="The report, or the problems.")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    objects = ImportJobQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"Import of {self.filename} into {self.bank_id} ({self.status})"

    @property
    def finished(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.FAILED)

    @property
    def seconds(self) -> float | None:
        if self.started_at is None or self.finished_at is None:
            return None
        return (self.finished_at - self.started_at).total_seconds()

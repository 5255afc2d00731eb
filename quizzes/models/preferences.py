"""A learner's interface language, remembered across devices and log-ins."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class LanguagePreference(models.Model):
    """The language a learner chose with the switcher (one of settings.LANGUAGES)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="language_preference"
    )
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.language}"

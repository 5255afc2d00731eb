"""A token a user's program calls the rulings API with (docs/api.md): kept only as its hash, shown
once when made, revocable; `last_used_at` says whether it is still in use."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

TOKEN_PREFIX = "tutor_"  # tells a Tutor token apart in a secret scanner or a config file
SHOWN_PREFIX_LENGTH = len(TOKEN_PREFIX) + 6  # the start kept in clear, to tell tokens apart
MAX_TOKEN_LENGTH = 100  # a longer Authorization header is no token of ours
LAST_USED_EVERY = timedelta(minutes=1)  # `last_used_at` written at most this often


def digest_of(token: str) -> str:
    """The stored form: SHA-256 (a token is 256 random bits: no salt or slow hash needed)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class ApiTokenQuerySet(models.QuerySet):
    def active(self) -> ApiTokenQuerySet:
        return self.filter(revoked_at__isnull=True, owner__is_active=True)


class ApiToken(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(_("name"), max_length=100, help_text=_("What the token is for."))
    digest = models.CharField(max_length=64, unique=True, editable=False)
    prefix = models.CharField(max_length=SHOWN_PREFIX_LENGTH, editable=False)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True, editable=False)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    objects = ApiTokenQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @classmethod
    def issue(cls, owner, name: str) -> tuple[ApiToken, str]:
        """A new token for `owner`: the row and the token itself, which is never stored."""
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        row = cls.objects.create(
            owner=owner, name=name, digest=digest_of(token), prefix=token[:SHOWN_PREFIX_LENGTH]
        )
        return row, token

    @classmethod
    def owner_of(cls, token: str):
        """The active user `token` belongs to, or None (unknown, revoked, or its owner inactive).
        Notes the use, at most once a minute per token."""
        if not token.startswith(TOKEN_PREFIX) or len(token) > MAX_TOKEN_LENGTH:
            return None
        row = cls.objects.active().select_related("owner").filter(digest=digest_of(token)).first()
        if row is None:
            return None
        now = timezone.now()
        if row.last_used_at is None or now - row.last_used_at > LAST_USED_EVERY:
            cls.objects.filter(pk=row.pk).update(last_used_at=now)
        return row.owner

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None

    def revoke(self) -> None:
        if self.revoked_at is None:
            self.revoked_at = timezone.now()
            self.save(update_fields=["revoked_at"])

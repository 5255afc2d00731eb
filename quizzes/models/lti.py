"""LTI 1.3 (docs/lti.md): what Tutor keeps beside django-lti's own tables (`lti_tool`: platform
registrations, deployments, platform users and contexts, the tool's keys).

- `LtiPlatform`: an administrator's settings for one registration: the origins allowed to frame
  Tutor for its launches (CSP `frame-ancestors`).
- `LtiCohort`: the cohort of one LMS context (a course), so its learners share its banks and its
  instructor sees them.
- `LtiGradeTarget`: where a learner's exam score (or practice progress on a bank) goes back: the
  line item of the resource link they launched it from, with the platform's identity for them
  (`sub`).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


def origin_of(url: str) -> str:
    """`https://moodle.example.org` of `https://moodle.example.org/mod/lti/auth.php`; "" when
    `url` is not an http(s) URL."""
    parts = urlsplit(url.strip())
    if parts.scheme not in {"http", "https"} or not parts.netloc:
        return ""
    return f"{parts.scheme}://{parts.netloc}"


class LtiPlatform(models.Model):
    """Tutor's settings for one registered platform."""

    registration = models.OneToOneField(
        "lti_tool.LtiRegistration", on_delete=models.CASCADE, related_name="tutor_platform"
    )
    frame_origins = models.TextField(
        _("frame origins"),
        blank=True,
        help_text=_(
            "The origins whose pages may show Tutor in a frame after a launch from this "
            "platform, one per line (https://school.instructure.com). Empty: the issuer's origin."
        ),
    )

    class Meta:
        verbose_name = _("LTI platform settings")
        verbose_name_plural = _("LTI platform settings")

    def __str__(self) -> str:
        return str(self.registration)

    def origins(self) -> list[str]:
        given = [origin_of(line) for line in self.frame_origins.split()]
        return [origin for origin in given if origin] or _issuer_origin(self.registration)


def _issuer_origin(registration) -> list[str]:
    origin = origin_of(registration.issuer)
    return [origin] if origin else []


def frame_origins_of(registration) -> list[str]:
    """The origins that may frame Tutor after a launch through `registration`."""
    platform = LtiPlatform.objects.filter(registration=registration).first()
    return platform.origins() if platform else _issuer_origin(registration)


def registered_frame_origins() -> list[str]:
    """The frame origins of every active registration: where a refused launch may be shown."""
    from lti_tool.models import LtiRegistration

    registrations = LtiRegistration.objects.active().select_related("tutor_platform")
    origins: set[str] = set()
    for registration in registrations:
        platform = getattr(registration, "tutor_platform", None)
        origins.update(platform.origins() if platform else _issuer_origin(registration))
    return sorted(origins)


class LtiCohort(models.Model):
    """The cohort of an LMS context: made by the first instructor launched from it."""

    context = models.OneToOneField(
        "lti_tool.LtiContext", on_delete=models.CASCADE, related_name="tutor_cohort"
    )
    cohort = models.OneToOneField(
        "quizzes.Cohort", on_delete=models.CASCADE, related_name="lti_context"
    )

    def __str__(self) -> str:
        return f"{self.context} -> {self.cohort}"


class LtiGradeTarget(models.Model):
    """A line item a learner's results go to: an exam's score when a sitting of `blueprint` by
    `user` ends, or their practice progress on `bank` (`manage.py post_lti_progress`)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="lti_grade_targets"
    )
    blueprint = models.ForeignKey(
        "quizzes.ExamBlueprint",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="lti_grade_targets",
    )
    bank = models.ForeignKey(
        "quizzes.Bank",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="lti_grade_targets",
    )
    lti_user = models.ForeignKey(
        "lti_tool.LtiUser", on_delete=models.CASCADE, related_name="tutor_grade_targets"
    )
    lineitem_url = models.URLField(max_length=1000)
    scopes = models.JSONField(default=list)
    updated_at = models.DateTimeField(auto_now=True)
    posted_at = models.DateTimeField(
        null=True, blank=True, help_text="When practice progress was last posted."
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "lineitem_url"], name="one_target_per_line_item"
            ),
            models.CheckConstraint(
                condition=models.Q(bank__isnull=False, blueprint__isnull=True)
                | models.Q(bank__isnull=True, blueprint__isnull=False),
                name="grade_target_is_a_bank_or_a_blueprint",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.blueprint or self.bank} by {self.user} -> {self.lineitem_url}"

"""Learning: attempts (a practice run or an exam sitting), responses, and mastery per rule.

Practice policy: a learner has at most one open practice attempt. A response is unique per
attempt and question, so when adaptive selection serves a question again that the open attempt
already holds, `Attempt.objects.open_practice_for` closes that attempt and starts a new one.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone

from quizzes.models.content import given_on_version


class AttemptQuerySet(models.QuerySet):
    def owned_by(self, user) -> AttemptQuerySet:
        return self.filter(user=user)

    def latest_open_practice(self, user, question) -> Attempt | None:
        """The learner's latest open practice attempt, `answered_question` saying whether it
        already holds `question` (quizzes/answer_lookup.py reads the same by hand)."""
        answered = Response.objects.filter(attempt=models.OuterRef("pk"), question=question)
        return (
            self.filter(user=user, kind=Attempt.Kind.PRACTICE, finished_at__isnull=True)
            .annotate(answered_question=models.Exists(answered))
            .order_by("-started_at")
            .first()
        )

    def open_practice_for(self, user, question) -> Attempt:
        """The learner's open practice attempt that has not yet answered `question`."""
        attempt = self.latest_open_practice(user, question)
        if attempt and attempt.answered_question:
            attempt.finish()
            attempt = None
        if attempt is None:
            return self.create(user=user, kind=Attempt.Kind.PRACTICE)
        attempt.user = user  # already loaded: spare a query
        return attempt


class Attempt(models.Model):
    """A practice run or an exam sitting; the deadline is kept server-side."""

    class Kind(models.TextChoices):
        PRACTICE = "practice", "Practice"
        EXAM = "exam", "Exam"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="attempts"
    )
    kind = models.CharField(max_length=10, choices=Kind, default=Kind.PRACTICE)
    started_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)

    objects = AttemptQuerySet.as_manager()

    class Meta:
        ordering = ["-started_at"]
        indexes = [models.Index(fields=["user", "kind", "finished_at"])]
        constraints = [
            # One exam at a time: two starts at once can't both open a sitting.
            models.UniqueConstraint(
                fields=["user"],
                condition=models.Q(kind="exam", finished_at__isnull=True),
                name="one_open_exam_per_user",
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} by {self.user} from {self.started_at:%Y-%m-%d %H:%M}"

    def finish(self) -> None:
        self.finished_at = timezone.now()
        self.save(update_fields=["finished_at"])


class PresentationQuerySet(models.QuerySet):
    def owned_by(self, user) -> PresentationQuerySet:
        return self.filter(user=user)

    def served_since(self, moment) -> PresentationQuerySet:
        return self.filter(created_at__gte=moment)


def new_token() -> str:
    return secrets.token_urlsafe(24)


class Presentation(models.Model):
    """A practice question as served to one learner: the variant shown, behind an opaque token.

    The page carries only the random token: no question id, no seed. An answer is accepted only
    from the learner it was shown to, and is graded on exactly what they saw.
    """

    token = models.CharField(max_length=40, unique=True, default=new_token)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="presentations"
    )
    question = models.ForeignKey(
        "quizzes.Question", on_delete=models.CASCADE, related_name="presentations"
    )
    shown = models.JSONField(help_text="The variant as shown: spec, claims in shown order, names.")
    variant = models.ForeignKey(
        "quizzes.Variant",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        help_text="The stored variant served (its engine answers grade the answer).",
    )
    scenario_version = given_on_version("The scenario's version it was served from.")
    filters = models.CharField(
        max_length=200,
        blank=True,
        help_text="The practice filter as a query string (level, rule, bank): Next question's.",
    )
    created_at = models.DateTimeField(default=timezone.now)

    objects = PresentationQuerySet.as_manager()

    class Meta:
        indexes = [models.Index(fields=["user", "-created_at"])]

    def __str__(self) -> str:
        return f"question {self.question_id} shown to {self.user_id}"


class ResponseQuerySet(models.QuerySet):
    def owned_by(self, user) -> ResponseQuerySet:
        return self.filter(user=user)

    def first_attempts(self) -> ResponseQuerySet:
        """Each learner's first response to each question among these; later ones are repeats,
        which neither item analysis nor a first-time score counts."""
        first_ids = (
            self.order_by().values("user", "question").annotate(first_id=models.Min("id"))
        ).values("first_id")
        return self.filter(id__in=first_ids)

    def first_attempts_per_version(self) -> ResponseQuerySet:
        """Each learner's first response to each version of each question among these: an edit
        makes a new item, which the learner meets for the first time."""
        first_ids = (
            self.order_by()
            .values("user", "question", "scenario_version")
            .annotate(first_id=models.Min("id"))
        ).values("first_id")
        return self.filter(id__in=first_ids)

    def with_repeat_flag(self) -> ResponseQuerySet:
        """Each response with `is_repeat`: the learner had answered its question before."""
        earlier = Response.objects.filter(
            user=models.OuterRef("user"), question=models.OuterRef("question"),
            id__lt=models.OuterRef("id"),
        )  # fmt: skip
        return self.annotate(is_repeat=models.Exists(earlier))


class Response(models.Model):
    """One answer to one question in one attempt, with the verdict the engine gave."""

    attempt = models.ForeignKey(Attempt, on_delete=models.CASCADE, related_name="responses")
    question = models.ForeignKey(
        "quizzes.Question", on_delete=models.CASCADE, related_name="responses"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="responses"
    )
    answer = models.JSONField(default=dict)
    verdict = models.JSONField(default=dict)
    correct = models.BooleanField(default=False)
    score = models.FloatField(default=0.0)
    variant_seed = models.PositiveIntegerField(default=0, help_text="0: the scenario as written.")
    scenario_version = given_on_version(
        "The scenario's version answered: feedback and item analysis read it."
    )
    presentation = models.OneToOneField(
        Presentation,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="response",
        help_text="What was shown (practice): a served question is answered once.",
    )
    created_at = models.DateTimeField(default=timezone.now)

    objects = ResponseQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["attempt", "question"], name="one_response_per_attempt_and_question"
            ),
        ]
        indexes = [
            models.Index(fields=["user", "-created_at"]),
            models.Index(fields=["user", "question"]),
        ]

    def __str__(self) -> str:
        return f"{self.user} on question {self.question_id}: {'right' if self.correct else 'wrong'}"


class MasteryQuerySet(models.QuerySet):
    def owned_by(self, user) -> MasteryQuerySet:
        return self.filter(user=user)

    def due(self, now=None) -> MasteryQuerySet:
        return self.filter(due__lte=now or timezone.now())

    def of_rule(self, user, rule) -> Mastery | None:
        """`user`'s mastery of `rule`, if any (a rule page asks it on every visit)."""
        return self.owned_by(user).filter(rule=rule).order_by().first()

    def with_rule_numbers(self, user) -> list[Mastery]:
        """`user`'s masteries, each rule read with its number only: the progress page's rows,
        in no order (the page sorts them by mastery: PostgreSQL's sort by the rules' numbers
        was half its time), without the FSRS card (a JSON document a row, decoded for nothing;
        read if asked)."""
        own = [field.name for field in self.model._meta.concrete_fields]
        shown = [name for name in own if name not in ("fsrs_card", "updated_at")]
        rows = self.owned_by(user).select_related("rule").order_by()
        return list(rows.only(*shown, "rule__number"))


class Mastery(models.Model):
    """A learner's skill on one rule: Elo theta, counts, and the FSRS card for spaced review."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="masteries"
    )
    rule = models.ForeignKey("rules.Rule", on_delete=models.CASCADE, related_name="masteries")
    theta = models.FloatField(default=0.0)
    answers = models.PositiveIntegerField(default=0)
    correct = models.PositiveIntegerField(default=0)
    fsrs_card = models.JSONField(default=dict, blank=True)
    due = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = MasteryQuerySet.as_manager()

    class Meta:
        verbose_name_plural = "masteries"
        ordering = ["rule__number"]
        constraints = [
            models.UniqueConstraint(fields=["user", "rule"], name="one_mastery_per_user_and_rule")
        ]
        indexes = [models.Index(fields=["user", "due"]), models.Index(fields=["user", "theta"])]

    def __str__(self) -> str:
        return f"{self.user} on {self.rule_id}: theta {self.theta:.2f}"

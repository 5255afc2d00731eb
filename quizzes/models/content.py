"""Content: scenarios (spec JSON the engine resolves), questions about their claims, banks."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models


class Bank(models.Model):
    """A set of questions an instructor owns; public banks are open to every learner."""

    class Visibility(models.TextChoices):
        PRIVATE = "private", "Private (owner only)"
        SHARED = "shared", "Shared (owner's cohorts)"
        PUBLIC = "public", "Public"

    slug = models.SlugField(max_length=100, unique=True)
    title = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="banks",
    )
    visibility = models.CharField(
        max_length=10, choices=Visibility, default=Visibility.PRIVATE, db_index=True
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["title"]

    def __str__(self) -> str:
        return self.title


class Scenario(models.Model):
    """A game situation from a real ruling, stored as scenario/1 JSON.

    `spec["expect"]` is the stored, human-written ruling; the engine cross-checks it and
    `engine_status` records whether they agree.
    """

    class EngineStatus(models.TextChoices):
        AGREES = "agrees", "Engine agrees with the stored ruling"
        DISAGREES = "disagrees", "Engine disagrees with the stored ruling"
        NOT_CHECKED = "not_checked", "Not engine-checked (stored ruling only)"
        INVALID = "invalid", "Engine rejects the scenario"

    slug = models.SlugField(max_length=120, unique=True)
    title = models.CharField(max_length=200)
    source = models.CharField(max_length=300, help_text="Where the ruling comes from.")
    spec = models.JSONField(help_text="The scenario as scenario/1 JSON.")
    stored_ruling = models.TextField(
        blank=True, help_text="The ruling in words, as the source gives it."
    )
    rules_exercised = models.ManyToManyField(
        "rules.Rule", blank=True, related_name="scenarios", limit_choices_to={"canonical": None}
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="authored_scenarios",
    )
    version = models.PositiveIntegerField(default=1)
    engine_status = models.CharField(
        max_length=12, choices=EngineStatus, default=EngineStatus.NOT_CHECKED, db_index=True
    )
    engine_report = models.TextField(blank=True, help_text="What the engine said when checked.")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["title"]

    def __str__(self) -> str:
        return self.title

    @property
    def engine_checked(self) -> bool:
        return self.engine_status == self.EngineStatus.AGREES

    def clean(self) -> None:
        from rules.engine import ScenarioError, parse_scenario

        if not isinstance(self.spec, dict):
            raise ValidationError({"spec": "The scenario must be a JSON object."})
        try:
            parse_scenario(self.spec)
        except ScenarioError as error:
            raise ValidationError({"spec": f"spec.{error.path}: {error.message}"}) from error


class Question(models.Model):
    """A question about some claims of a scenario's outcome.

    `claims` lists claim dicts without values (the key is computed by the engine at answer time);
    `kind` says how the learner answers them.
    """

    class Kind(models.TextChoices):
        CARDS = "cards", "Click each card: must / may / cannot be found"
        COUNT_RANGE = "count_range", "How many cards can be found (a range)"
        YES_NO = "yes_no", "Yes or no for each statement"
        MULTIPLE_CHOICE = "multiple_choice", "Which statements are true (several may be)"
        LEGAL_SET = "legal_set", "Pick a legal set of cards to find"
        VALUE = "value", "Choose the value of a claim"

    scenario = models.ForeignKey(Scenario, on_delete=models.CASCADE, related_name="questions")
    bank = models.ForeignKey(Bank, on_delete=models.CASCADE, related_name="questions")
    kind = models.CharField(max_length=20, choices=Kind)
    prompt = models.TextField()
    claims = models.JSONField(
        default=list, help_text="Claim dicts (scenario-format section 3) without values."
    )
    rules = models.ManyToManyField("rules.Rule", blank=True, related_name="questions")
    difficulty = models.FloatField(default=0.0, help_text="Elo difficulty b, learned from answers.")
    answer_count = models.PositiveIntegerField(default=0)
    position = models.PositiveIntegerField(default=0)
    is_active = models.BooleanField(default=True, db_index=True)

    class Meta:
        ordering = ["bank", "position", "id"]
        indexes = [models.Index(fields=["bank", "is_active", "difficulty"])]

    def __str__(self) -> str:
        return f"{self.scenario.title}: {self.get_kind_display()}"

    def clean(self) -> None:
        if not isinstance(self.claims, list) or not all(
            isinstance(claim, dict) and isinstance(claim.get("claim"), str) for claim in self.claims
        ):
            raise ValidationError(
                {"claims": 'Give a list of claim objects, each with a "claim" name.'}
            )
        if any("value" in claim for claim in self.claims):
            raise ValidationError(
                {"claims": "Claims hold no values: the engine computes the answer key."}
            )

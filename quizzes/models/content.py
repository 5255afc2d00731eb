"""Content: scenarios (spec JSON the engine resolves), questions about their claims, banks."""

from __future__ import annotations

import re
from typing import NamedTuple

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.forms.fields import InvalidJSONInput
from django.utils.translation import gettext_lazy as _

from config.inputs import StorableJSONField
from quizzes import limits

RULE_NUMBER = re.compile(r"\b\d{3}(?:\.\d+[a-z]?)?\b")


def _rule_numbers(citation: str | None) -> list[str]:
    """Rule numbers in an engine citation such as "701.23b" or "701.23f, 701.23i"."""
    return RULE_NUMBER.findall(citation or "")


class ScenarioSpecFormField(StorableJSONField):
    """The admin's JSON box for a spec: size and nesting checked before `json.loads` runs."""

    def to_python(self, value):
        if isinstance(value, str) and value.strip():
            try:
                limits.check_text(value)
            except limits.LimitError as error:
                raise ValidationError(str(error), code="limit") from error
        return super().to_python(value)

    def bound_data(self, data, initial):
        """The text shown back in the form: too deeply nested, it is never parsed."""
        if isinstance(data, str) and limits.text_depth(data) > limits.MAX_DEPTH:
            return InvalidJSONInput(data)
        return super().bound_data(data, initial)


class ScenarioSpecField(models.JSONField):
    """A scenario/1 spec: its form field refuses oversized or too deeply nested text."""

    def formfield(self, **kwargs):
        # the spec's own box wins over the admin's generic JSON override
        return super().formfield(**{**kwargs, "form_class": ScenarioSpecFormField})


def card_names(spec) -> set[str]:
    """The card names a scenario/1 spec uses: in its zones (`"Name#label"` or an object's
    `card`), what it casts by name, its history's casts, and its own `cards`."""
    if not isinstance(spec, dict):
        return set()
    names: set[str] = set()
    for zones in (spec.get("zones") or {}).values() if isinstance(spec.get("zones"), dict) else []:
        for entries in zones.values() if isinstance(zones, dict) else []:
            for entry in entries if isinstance(entries, list) else []:
                name = entry.get("card") if isinstance(entry, dict) else entry
                if isinstance(name, str):
                    names.add(name.split("#", 1)[0])
    history = spec.get("history") if isinstance(spec.get("history"), list) else []
    steps = [spec.get("resolve"), *history]
    for step in steps:
        if isinstance(step, dict) and isinstance(step.get("cast"), str):
            names.add(step["cast"])  # a label is no card name: matching no row, it is dropped
    for card in spec.get("cards") if isinstance(spec.get("cards"), list) else []:
        if isinstance(card, dict) and isinstance(card.get("name"), str):
            names.add(card["name"])
    return names


class EngineCheck(NamedTuple):
    status: str
    report: str
    cited_rules: frozenset[str]


class BankQuerySet(models.QuerySet):
    def owned_by(self, user) -> BankQuerySet:
        """The banks `user` owns: every instructor page looks banks up through this."""
        return self.filter(owner=user) if user.is_authenticated else self.none()

    def visible_to(self, user) -> BankQuerySet:
        """Banks a learner may practise from: public ones, their own, and shared banks assigned
        to a cohort they belong to (a subquery, so a bank in two cohorts is not doubled)."""
        public = models.Q(visibility=Bank.Visibility.PUBLIC)
        if not user.is_authenticated:
            return self.filter(public)
        from quizzes.models.cohorts import Cohort

        in_cohort = models.Q(
            visibility=Bank.Visibility.SHARED,
            pk__in=Cohort.banks.through.objects.filter(cohort__members=user).values("bank_id"),
        )
        return self.filter(public | models.Q(owner=user) | in_cohort)

    def usable_in_blueprint_of(self, owner) -> BankQuerySet:
        """Banks an exam set by `owner` may draw from: the owner's own and the site's public
        ones. Never another instructor's: making a bank public does not put it in their exams."""
        site = models.Q(owner=None, visibility=Bank.Visibility.PUBLIC)
        return self.filter(site | models.Q(owner=owner)) if owner is not None else self.filter(site)


class Bank(models.Model):
    """A set of questions an instructor owns; public banks are open to every learner."""

    class Visibility(models.TextChoices):
        PRIVATE = "private", _("Private (owner only)")
        SHARED = "shared", _("Shared (owner's cohorts)")
        PUBLIC = "public", _("Public")

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

    objects = BankQuerySet.as_manager()

    class Meta:
        ordering = ["title"]

    def __str__(self) -> str:
        return self.title


class ScenarioQuerySet(models.QuerySet):
    def in_bank(self, bank: Bank) -> ScenarioQuerySet:
        """Scenarios authored in `bank` or asked about by its questions (seed banks)."""
        asked = Question.objects.filter(bank=bank).values("scenario_id")
        return self.filter(models.Q(bank=bank) | models.Q(pk__in=asked))

    def visible_to(self, user) -> ScenarioQuerySet:
        """Scenarios of banks `user` may practise from (`Bank.objects.visible_to`): authored in
        one, or asked about by an active question of one (seed scenarios)."""
        banks = Bank.objects.visible_to(user).values("pk")
        asked = Question.objects.filter(bank__in=banks, is_active=True).values("scenario_id")
        return self.filter(models.Q(bank__in=banks) | models.Q(pk__in=asked))


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
    spec = ScenarioSpecField(help_text="The scenario as scenario/1 JSON.")
    stored_ruling = models.TextField(
        blank=True, help_text="The ruling in words, as the source gives it."
    )
    stored_expect = models.JSONField(
        default=list,
        blank=True,
        help_text=(
            "Claims the source states that the engine cannot compute yet (a human-written key "
            "only; never used to mark answers)."
        ),
    )
    rules_exercised = models.ManyToManyField(
        "rules.Rule", blank=True, related_name="scenarios", limit_choices_to={"canonical": None}
    )
    cards_named = models.ManyToManyField(
        "rules.Card",
        blank=True,
        related_name="scenarios",
        help_text="The catalog's cards the scenario names (set with the engine check).",
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="authored_scenarios",
    )
    bank = models.ForeignKey(
        Bank,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="scenarios",
        help_text="The bank an instructor authored it in (seed scenarios: none).",
    )
    version = models.PositiveIntegerField(default=1)
    engine_status = models.CharField(
        max_length=12, choices=EngineStatus, default=EngineStatus.NOT_CHECKED, db_index=True
    )
    engine_report = models.TextField(blank=True, help_text="What the engine said when checked.")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = ScenarioQuerySet.as_manager()

    class Meta:
        ordering = ["title"]

    def __str__(self) -> str:
        return self.title

    def clean(self) -> None:
        from rules.cards import catalog_for
        from rules.engine import ScenarioError, parse_scenario

        if not isinstance(self.spec, dict):
            raise ValidationError({"spec": "The scenario must be a JSON object."})
        problem = limits.spec_problem(self.spec)
        if problem:
            raise ValidationError({"spec": problem})
        try:
            parse_scenario(self.spec, catalog_for(self.author_id))
        except ScenarioError as error:
            raise ValidationError({"spec": f"spec.{error.path}: {error.message}"}) from error
        if not isinstance(self.stored_expect, list) or not all(
            isinstance(claim, dict) and isinstance(claim.get("claim"), str)
            for claim in self.stored_expect
        ):
            raise ValidationError(
                {"stored_expect": 'Give a list of claim objects, each with a "claim" name.'}
            )

    def record_engine_check(self, catalog=None, extra_rules: tuple[str, ...] = ()) -> EngineCheck:
        """Run `check_with_engine`, save the status if it changed, link the rules it exercises.

        `extra_rules` are numbers the content cites for claims the engine cannot compute yet
        (`not_checked` scenarios); each resolves through `Rule.objects.resolve_number`.
        """
        from rules.models import Rule

        before = (self.engine_status, self.engine_report)
        check = self.check_with_engine(catalog)
        if (self.engine_status, self.engine_report) != before:
            self.save(update_fields=["engine_status", "engine_report", "updated_at"])
        resolved = Rule.objects.resolve_numbers({*check.cited_rules, *extra_rules})
        rules = {rule.pk: rule for rule in resolved.values()}
        if set(self.rules_exercised.values_list("pk", flat=True)) != set(rules):
            self.rules_exercised.set(rules.values())
        self.link_cards()
        return check

    def link_cards(self) -> None:
        """Link the catalog rows of the cards the spec names (the card browser lists them)."""
        from rules.models import Card

        wanted = set(
            Card.objects.filter(name__in=card_names(self.spec)).values_list("pk", flat=True)
        )
        if set(self.cards_named.values_list("pk", flat=True)) != wanted:
            self.cards_named.set(wanted)

    def check_with_engine(self, catalog=None) -> EngineCheck:
        """Cross-check the stored ruling (`spec["expect"]`) against the engine.

        Sets `engine_status` and `engine_report` (not saved) and returns them with the numbers of
        the rules the computed claims cite. A scenario without `expect` claims is `not_checked`
        (its ruling lives in `stored_ruling`/`stored_expect`); one the engine rejects is
        `invalid`; a stored claim the engine computes differently is `disagrees`: flagged, never
        hidden.
        """
        from rules.cards import catalog_for
        from rules.engine import ScenarioError, check_expectations, evaluate_claim

        catalog = catalog if catalog is not None else catalog_for(self.author_id)
        expect = self.spec.get("expect") or [] if isinstance(self.spec, dict) else []
        cited: set[str] = set()
        problem = limits.spec_problem(self.spec)
        if problem:  # never served (selection skips invalid scenarios)
            self.engine_status = self.EngineStatus.INVALID
            self.engine_report = problem
            return EngineCheck(self.engine_status, self.engine_report, frozenset())
        try:
            mismatches = check_expectations(self.spec, catalog)
        except ScenarioError as error:
            self.engine_status = self.EngineStatus.INVALID
            self.engine_report = f"spec.{error.path}: {error.message}" if error.path else str(error)
            return EngineCheck(self.engine_status, self.engine_report, frozenset())
        for claim in expect:
            question = {key: value for key, value in claim.items() if key != "value"}
            try:
                cited.update(_rule_numbers(evaluate_claim(self.spec, question, catalog).rule))
            except ScenarioError:
                continue  # reported as a mismatch by check_expectations
        stored_only = len(self.stored_expect or [])
        if mismatches:
            self.engine_status = self.EngineStatus.DISAGREES
            self.engine_report = "\n".join(mismatch.message for mismatch in mismatches)
        elif not expect:
            self.engine_status = self.EngineStatus.NOT_CHECKED
            self.engine_report = "No engine-computable claims: the stored ruling stands alone."
        elif stored_only:
            # the paragraph's own point is in stored_expect, which the engine can't compute
            self.engine_status = self.EngineStatus.NOT_CHECKED
            self.engine_report = (
                f"The engine agrees with the {len(expect)} computable claims; {stored_only} stored "
                "claim(s) of the ruling are not engine-checked."
            )
        else:
            self.engine_status = self.EngineStatus.AGREES
            self.engine_report = f"The engine agrees with all {len(expect)} stored claims."
        return EngineCheck(self.engine_status, self.engine_report, frozenset(cited))


class Question(models.Model):
    """A question about some claims of a scenario's outcome.

    `claims` lists claim dicts without values (the key is computed by the engine at answer time);
    `kind` says how the learner answers them.
    """

    class Kind(models.TextChoices):
        CARDS = "cards", _("Mark each card: must, may or can't be found")
        COUNT_RANGE = "count_range", _("How many cards can be found")
        YES_NO = "yes_no", _("True or false, for each statement")
        MULTIPLE_CHOICE = "multiple_choice", _("Which statements are true (several may be)")
        LEGAL_SET = "legal_set", _("Pick a legal set of cards to find")
        VALUE = "value", _("One answer")

    scenario = models.ForeignKey(Scenario, on_delete=models.CASCADE, related_name="questions")
    bank = models.ForeignKey(Bank, on_delete=models.CASCADE, related_name="questions")
    key = models.SlugField(
        max_length=120,
        blank=True,
        help_text="Names the question within its scenario and bank (seed content: generated).",
    )
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
        indexes = [
            models.Index(fields=["bank", "is_active", "difficulty"]),
            # next-question selection walks this out from a target difficulty (selection.py)
            models.Index(fields=["difficulty", "id"], name="question_by_difficulty"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["bank", "scenario", "key"],
                condition=~models.Q(key=""),
                name="unique_question_key",
            )
        ]

    def __str__(self) -> str:
        return f"{self.scenario.title}: {self.get_kind_display()}"

    def clean(self) -> None:
        if (
            not isinstance(self.claims, list)
            or not self.claims
            or not all(
                isinstance(claim, dict) and isinstance(claim.get("claim"), str)
                for claim in self.claims
            )
        ):
            raise ValidationError(
                {"claims": 'Give a non-empty list of claim objects, each with a "claim" name.'}
            )
        if any("value" in claim for claim in self.claims):
            raise ValidationError(
                {"claims": "Claims hold no values: the engine computes the answer key."}
            )
        problem = _kind_problem(self.kind, self.claims)
        if problem:
            raise ValidationError({"claims": problem})


def _kind_problem(kind: str, claims: list[dict]) -> str:
    """Why `claims` do not fit a question of `kind`, or "" when they do (the kind's own rule)."""
    from quizzes.rulings import KINDS

    return KINDS[kind].problem(claims) if kind in KINDS else ""

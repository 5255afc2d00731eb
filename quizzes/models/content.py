"""Content: scenarios (spec JSON the engine resolves), questions about their claims, banks."""

from __future__ import annotations

from typing import NamedTuple

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.forms.fields import InvalidJSONInput
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from config.inputs import StorableJSONField
from quizzes import limits
from rules.models import Card


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


class BankQuerySet(models.QuerySet):
    def owned_by(self, user) -> BankQuerySet:
        """The banks `user` owns (sharing a bank, assigning it to a cohort are the owner's)."""
        return self.filter(owner=user) if user.is_authenticated else self.none()

    def editable_by(self, user) -> BankQuerySet:
        """The banks `user` owns or co-owns: every instructor page looks banks up through this.
        A subquery, so a bank is never doubled."""
        if not user.is_authenticated:
            return self.none()
        shared = self.model.co_owners.through.objects.filter(user=user).values("bank_id")
        return self.filter(models.Q(owner=user) | models.Q(pk__in=shared))

    def visible_to(self, user) -> BankQuerySet:
        """Banks a learner may practise from: public ones, their own, and shared banks assigned
        to a cohort they belong to (a subquery, so a bank in two cohorts is not doubled)."""
        public = models.Q(visibility=Bank.Visibility.PUBLIC)
        if not user.is_authenticated:
            return self.filter(public)
        assigned = self.model.cohorts.through.objects  # Cohort.banks, from the bank's side
        in_cohort = models.Q(
            visibility=Bank.Visibility.SHARED,
            pk__in=assigned.filter(cohort__members=user).values("bank_id"),
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
    title = models.CharField(_("title"), max_length=200)
    description = models.TextField(_("description"), blank=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="banks",
    )
    co_owners = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="co_owned_banks",
        help_text="Instructors the owner shares the bank with: they edit it as the owner does.",
    )
    visibility = models.CharField(
        _("visibility"),
        max_length=10,
        choices=Visibility,
        default=Visibility.PRIVATE,
        db_index=True,
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = BankQuerySet.as_manager()

    class Meta:
        ordering = ["title"]

    def __str__(self) -> str:
        return self.title


class Family(models.Model):
    """A scenario family (quizzes/content/families/*.json, docs/families.md): one situation with
    parameters; its instances are generated scenarios (`Scenario.family`). `level` is the judge
    level it suits, read by whoever tags questions by level."""

    class Level(models.TextChoices):
        # labelled by what each level holds (quizzes/levels.py computes it from the content)
        L1 = "L1", _("L1: one rule at a time")
        L2 = (
            "L2",
            _("L2: one interaction between rules"),
        )
        CORNER = "corner", _("Corner cases: rare rules, or several interactions at once")

    slug = models.SlugField(max_length=80, unique=True)
    title = models.CharField(max_length=200)
    source = models.CharField(max_length=300, blank=True)
    level = models.CharField(max_length=6, choices=Level, db_index=True)
    rules = models.ManyToManyField(
        "rules.Rule", blank=True, related_name="families", limit_choices_to={"canonical": None}
    )
    definition = models.JSONField(help_text="The family file as read (family/1).")

    class Meta:
        ordering = ["slug"]
        verbose_name_plural = "families"

    def __str__(self) -> str:
        return self.title


class ScenarioQuerySet(models.QuerySet):
    def bulk_create(self, objs, *args, **kwargs):
        """Create scenarios and their version 1 in three queries per batch, however many.

        The bulk-friendly path (families of generated scenarios, imports): Django's
        `bulk_create` skips `save()`, so this makes each new scenario's `ScenarioVersion` 1
        with one more INSERT and points `current_version` at it with one UPDATE. Rows the
        database did not return a key for (`ignore_conflicts`: the slug was taken) are found by
        slug, and keep the version they have.
        """
        objs = list(objs)
        created = super().bulk_create(objs, *args, **kwargs)
        missing = [scenario.slug for scenario in objs if scenario.pk is None]
        if missing:  # rows already there (`ignore_conflicts`): theirs, with their version
            rows = self.model.objects.filter(slug__in=missing).values_list(
                "slug", "pk", "current_version_id"
            )
            found = {slug: (pk, version_id) for slug, pk, version_id in rows}
            for scenario in objs:
                if scenario.pk is None and scenario.slug in found:
                    scenario.pk, scenario.current_version_id = found[scenario.slug]
        fresh = [s for s in objs if s.pk is not None and s.current_version_id is None]
        versions = ScenarioVersion.objects.bulk_create(
            ScenarioVersion.of(scenario, scenario.version or 1) for scenario in fresh
        )
        for scenario, version in zip(fresh, versions, strict=True):
            scenario.current_version = version
        self.model.objects.bulk_update(fresh, ["current_version"], batch_size=500)
        return created

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
        AGREES = "agrees", _("Engine agrees with the stored ruling")
        DISAGREES = "disagrees", _("Engine disagrees with the stored ruling")
        NOT_CHECKED = "not_checked", _("Not engine-checked (stored ruling only)")
        INVALID = "invalid", _("Engine rejects the scenario")

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
    family = models.ForeignKey(
        Family,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="scenarios",
        help_text="The family this scenario is a generated instance of (none: written by hand).",
    )
    version = models.PositiveIntegerField(
        default=1, help_text="The number of the current version (`current_version`)."
    )
    current_version = models.OneToOneField(
        "quizzes.ScenarioVersion",
        null=True,
        blank=True,
        editable=False,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The version learners are given now; set by `save()` and `bulk_create`.",
    )
    engine_status = models.CharField(
        max_length=12, choices=EngineStatus, default=EngineStatus.NOT_CHECKED, db_index=True
    )
    engine_report = models.TextField(blank=True, help_text="What the engine said when checked.")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = ScenarioQuerySet.as_manager()

    changed_by = None  # not a field: who is saving it now, for the version it starts

    class Meta:
        ordering = ["title"]

    def __str__(self) -> str:
        return self.title

    # Versions: what learners were given stays as it was.

    def content(self) -> dict:
        """The fields a version freezes (the scenario's questions are frozen with them)."""
        return {name: getattr(self, name) for name in CONTENT_FIELDS}

    def save(self, *args, **kwargs) -> None:
        """Save; a new scenario gets version 1, changed content (spec, title, source, the
        stored ruling) starts the next version, so answers keep the version they were given on.

        `QuerySet.update` and `bulk_update` skip this: change content through `save()`.
        """
        update_fields = kwargs.get("update_fields")
        touches_content = update_fields is None or set(update_fields) & set(CONTENT_FIELDS)
        if self.pk is None or self.current_version_id is None:
            super().save(*args, **kwargs)
            self._set_version(ScenarioVersion.objects.create(**ScenarioVersion.fields_of(self)))
            return
        if touches_content and self.content() != self._content_before():
            self.start_version(save=False)
            if update_fields is not None:
                kwargs["update_fields"] = {*update_fields, "version", "current_version"}
        super().save(*args, **kwargs)

    def _content_before(self) -> dict:
        """The current version's content, read afresh (an edit may have changed `spec` in
        place)."""
        return ScenarioVersion.objects.values(*CONTENT_FIELDS).get(pk=self.current_version_id)

    def start_version(self, save: bool = True) -> ScenarioVersion:
        """End the current version (its questions' kind, prompt and claims frozen into it) and
        start the next with the scenario's content as it is now. Called by `save()` when content
        changed, and by authoring and loading when only the questions change."""
        if self.current_version_id is not None:
            ScenarioVersion.objects.filter(pk=self.current_version_id).update(
                questions={
                    str(pk): {"kind": kind, "prompt": prompt, "claims": claims}
                    for pk, kind, prompt, claims in self.questions.values_list(
                        "pk", "kind", "prompt", "claims"
                    )
                }
            )
        self.version = (
            ScenarioVersion.objects.filter(scenario=self).aggregate(n=models.Max("number"))["n"]
            or 0
        ) + 1
        version = ScenarioVersion.objects.create(**ScenarioVersion.fields_of(self))
        self.current_version = version
        if save:
            super().save(update_fields=["version", "current_version", "updated_at"])
        return version

    def questions_would_change(self, bank: Bank, asked: dict[str, tuple[str, str, list]]) -> bool:
        """Whether asking `asked` (key -> kind, prompt, claims) in `bank` changes what the
        current version asks there: a question's content, a new one, or one withdrawn."""
        rows = Question.objects.filter(bank=bank, scenario=self)
        current = {
            key: (kind, prompt, claims)
            for key, kind, prompt, claims in rows.filter(is_active=True).values_list(
                "key", "kind", "prompt", "claims"
            )
        }
        return current != asked

    def start_version_if_questions_change(
        self, bank: Bank, asked: dict[str, tuple[str, str, list]], since: int | None
    ) -> None:
        """Start the next version before the questions change, unless `save()` already did
        (the current version is no longer `since`)."""
        if self.current_version_id == since and self.questions_would_change(bank, asked):
            self.start_version()

    def _set_version(self, version: ScenarioVersion) -> None:
        self.current_version, self.version = version, version.number
        super().save(update_fields=["current_version", "version"])

    def clean(self) -> None:
        """The shape of the row; whether the engine reads the spec is `rulings.checks`'s."""
        if not isinstance(self.spec, dict):
            raise ValidationError({"spec": "The scenario must be a JSON object."})
        problem = limits.spec_problem(self.spec)
        if problem:
            raise ValidationError({"spec": problem})
        if not isinstance(self.stored_expect, list) or not all(
            isinstance(claim, dict) and isinstance(claim.get("claim"), str)
            for claim in self.stored_expect
        ):
            raise ValidationError(
                {"stored_expect": 'Give a list of claim objects, each with a "claim" name.'}
            )

    def link_cards(self) -> None:
        """Link the catalog rows of the cards the spec names (the card browser lists them): the
        site's and the author's own, as the engine reads them (`rules.cards.catalog_for`)."""
        rows = Card.objects.usable_by(self.author_id).filter(name__in=card_names(self.spec))
        # the author's first, so a site card of the same name replaces theirs
        ordered = sorted(rows.values_list("name", "owner_id", "pk"), key=lambda row: row[1] is None)
        wanted = set({name: pk for name, _, pk in ordered}.values())
        if set(self.cards_named.values_list("pk", flat=True)) != wanted:
            self.cards_named.set(wanted)


CONTENT_FIELDS = ("title", "source", "spec", "stored_ruling", "stored_expect")


def given_on_version(help_text: str) -> models.ForeignKey:
    """The scenario version a presentation, an answer or an exam item was given on (nullable for
    rows older than versions; they read the scenario as it is)."""
    return models.ForeignKey(
        "quizzes.ScenarioVersion",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        help_text=help_text,
    )


class ScenarioVersion(models.Model):
    """One version of a scenario as learners were given it; never changed once made.

    Made by `Scenario.save()` (version 1, and the next one whenever content changes) and by
    `Scenario.objects.bulk_create`. Responses, presentations and exam items point at the version
    they were given on, so feedback, exam reviews and item analysis read that version. The
    questions of the current version are the scenario's `Question` rows; when the next version
    starts, their kind, prompt and claims are frozen into `questions` (by question id).
    """

    scenario = models.ForeignKey(Scenario, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    title = models.CharField(max_length=200)
    source = models.CharField(max_length=300)
    spec = models.JSONField()
    stored_ruling = models.TextField(blank=True)
    stored_expect = models.JSONField(default=list, blank=True)
    questions = models.JSONField(
        default=dict, blank=True, help_text="Frozen when the version ends: id -> kind, claims."
    )
    created_at = models.DateTimeField(default=timezone.now)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Who saved this version (none: seed content, or before this was kept).",
    )

    class Meta:
        ordering = ["scenario", "number"]
        constraints = [
            models.UniqueConstraint(fields=["scenario", "number"], name="one_version_number")
        ]

    def __str__(self) -> str:
        return f"{self.title} (version {self.number})"

    @classmethod
    def fields_of(cls, scenario: Scenario) -> dict:
        return {
            "scenario": scenario,
            "number": scenario.version or 1,
            "changed_by": scenario.changed_by,
            **scenario.content(),
        }

    @classmethod
    def of(cls, scenario: Scenario, number: int) -> ScenarioVersion:
        return cls(**{**cls.fields_of(scenario), "number": number})

    def content(self) -> dict:
        return {name: getattr(self, name) for name in CONTENT_FIELDS}

    def question_as_given(self, question: Question) -> QuestionAsGiven:
        """The question's kind, prompt and claims in this version."""
        frozen = self.questions.get(str(question.pk))
        if frozen is None:  # the current version: the live row
            return QuestionAsGiven(question.kind, question.prompt, question.claims)
        return QuestionAsGiven(frozen["kind"], frozen["prompt"], frozen["claims"])


class QuestionAsGiven(NamedTuple):
    kind: str
    prompt: str
    claims: list


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
        OUTCOME_REASON = "outcome_reason", _("What happens, and why: the outcome with its reason")

    class Level(models.TextChoices):
        # labelled by what each level holds (quizzes/levels.py computes it from the content)
        L1 = "L1", _("L1: one rule at a time")
        L2 = (
            "L2",
            _("L2: one interaction between rules"),
        )
        CORNER = "corner", _("Corner cases: rare rules, or several interactions at once")

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
    topics = models.PositiveIntegerField(
        default=0,
        editable=False,
        help_text="The topics its rules are about, as bits (quizzes/practice/question_topics.py).",
    )
    level = models.CharField(
        max_length=6,
        choices=Level,
        default=Level.L1,
        help_text="The judge level it suits (quizzes/levels.py computes it).",
    )

    class Meta:
        ordering = ["bank", "position", "id"]
        indexes = [
            models.Index(fields=["bank", "is_active", "difficulty"]),
            # practice filtered by level or by bank walks these the same way (selection.py)
            models.Index(fields=["level", "difficulty", "id"], name="question_by_level"),
            models.Index(fields=["bank", "difficulty", "id"], name="question_by_bank"),
            # next-question selection walks this out from a target difficulty (selection.py);
            # it holds every column of the question a walk tests, so a question the walk passes
            # over is never read from the table (a walk that finds nothing passes over them all)
            models.Index(
                fields=["difficulty", "id", "bank", "is_active", "topics", "kind", "scenario"],
                name="question_by_difficulty",
            ),
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

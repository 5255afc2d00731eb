"""Rules of the Comprehensive Rules as stored text, and cards as data."""

from __future__ import annotations

import datetime
import difflib
import re
from collections.abc import Container, Mapping
from dataclasses import dataclass, field

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models, transaction

from rules.engine import ScenarioError
from rules.engine.cards import parse_card_definition

_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"'})
# Texts this close (difflib ratio) are the same rule reworded slightly between editions.
SAME_RULE_RATIO = 0.9


def _normal(text: str) -> str:
    """A rule's text for matching across editions: quotes and spacing don't count."""
    return re.sub(r"\s+", " ", text.translate(_QUOTES)).strip().lower()


@dataclass
class ImportReport:
    """What `RuleQuerySet.import_edition` did: rule numbers per outcome."""

    moved: list[tuple[str, str]] = field(default_factory=list)  # (old number, new number)
    replaced: list[str] = field(default_factory=list)  # summary or older text -> official text
    unchanged: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # current rules the file doesn't have
    conflicts: list[tuple[str, str]] = field(default_factory=list)  # a move blocked by a row


class RuleQuerySet(models.QuerySet):
    def current(self) -> RuleQuerySet:
        """Rules under their current number (not an older edition's or a translation's row)."""
        return self.filter(canonical__isnull=True)

    def resolve_numbers(self, numbers) -> dict[str, Rule]:
        """`resolve_number` for many numbers in three queries: {number: current rule}."""
        wanted = {number.strip().rstrip(".") for number in numbers}
        found = {rule.number: rule for rule in self.current().filter(number__in=wanted)}
        rest = wanted - set(found)
        for alias in RuleAlias.objects.select_related("rule").filter(number__in=rest):
            found.setdefault(alias.number, alias.rule)
        rest = wanted - set(found)
        for row in self.filter(number__in=rest, canonical__isnull=False).select_related(
            "canonical"
        ):
            found.setdefault(row.number, row.canonical)
        return found

    @transaction.atomic
    def import_edition(
        self,
        rules: Mapping[str, str],
        edition_name: str,
        edition_date: datetime.date | None,
        source: str,
        dry_run: bool = False,
    ) -> ImportReport:
        """Take an edition's texts ({number: official text}) as the current English rules.

        A current rule found under its own number with the same text keeps it (the edition is
        updated); one whose text is found under another number has been renumbered: it moves
        there, with everything that points at it (scenarios, questions, mastery, aliases), and
        its old number becomes an alias naming the edition it belonged to. Otherwise the
        file's text at its number replaces the stored one (a labelled summary, or an older
        wording). Nothing is saved with `dry_run`.
        """
        report = ImportReport()
        by_text: dict[str, list[str]] = {}
        for number, text in rules.items():
            by_text.setdefault(_normal(text), []).append(number)
        current = list(self.current().filter(kind=Rule.Kind.RULE, language="en"))
        held = {rule.number: rule for rule in current}
        moves: dict[Rule, str] = {}
        updates: dict[Rule, str] = {}
        for rule in current:
            mine = _normal(rule.text)
            if _normal(rules.get(rule.number, "")) == mine:
                report.unchanged.append(rule.number)
                updates[rule] = rules[rule.number]
                continue
            target = _renumbered(rule, mine, by_text, rules)
            if target is not None:
                moves[rule] = target
            elif rule.number in rules:
                report.replaced.append(rule.number)
                updates[rule] = rules[rule.number]
            else:
                report.missing.append(rule.number)
        for rule, target in list(moves.items()):
            blocker = held.get(target)
            if blocker is not None and blocker not in moves:
                report.conflicts.append((rule.number, target))
                del moves[rule]
        report.moved = sorted((rule.number, target) for rule, target in moves.items())
        if dry_run:
            transaction.set_rollback(True)
            return report
        for rule in moves:  # first out of the way, so two moves can swap numbers
            rule.number = f"~{rule.pk}"
            rule.save(update_fields=["number"])
        for rule, target in moves.items():
            old = next(o for o, t in report.moved if t == target)
            RuleAlias.objects.get_or_create(
                rule=rule, number=old, defaults={"note": _alias_note(old, rule)}
            )
            RuleAlias.objects.filter(rule=rule, number=target).delete()
            rule.number = target
            updates[rule] = rules[target]
        for rule, text in updates.items():
            rule.text = text
            rule.edition_name = edition_name
            rule.edition_date = edition_date
            rule.source = source
            if rule.note.startswith("The engine cites") and "summary" in rule.note:
                rule.note = ""  # the labelled summary is replaced by the official wording
            rule.full_clean(validate_unique=False)
            rule.save()
        return report

    def cited(self, numbers) -> RuleQuerySet:
        """The current rules cited by `numbers`, by current or earlier number, in number order,
        with their aliases and editions."""
        numbers = list(numbers)
        return (
            self.current()
            .filter(models.Q(number__in=numbers) | models.Q(aliases__number__in=numbers))
            .distinct()
            .prefetch_related("aliases", "editions")
            .order_by("number")
        )

    def resolve_number(self, number: str) -> Rule | None:
        """The current rule a number names: itself, an earlier number, or a translation's number,
        in any case (701.23B is 701.23b)."""
        number = number.strip().rstrip(".")
        rule = self.current().filter(number__iexact=number).first()
        if rule:
            return rule
        alias = RuleAlias.objects.select_related("rule").filter(number__iexact=number).first()
        if alias:
            return alias.rule
        edition_row = self.filter(number__iexact=number, canonical__isnull=False).first()
        return edition_row.canonical if edition_row else None

    def section_title(self, rule: Rule) -> str:
        """The title `rule` is shown with, in its own language: its own, else its nearest titled
        heading's (`nearest_heading`: 701.23b "Search", 106.7 "Mana")."""
        return self.section_title_in(rule, rule.language)[0]

    def section_titles_in(self, language: str) -> dict[str, tuple[str, str]]:
        """`section_title_in(rule, language)` of every current rule, in two queries:
        {number: (title, the title's language)}. Rows are read in the model's order, so the
        first titled row of several wins, as in `section_title_in`."""
        current = list(self.current().values_list("number", "title", "language"))
        titled: dict[str, dict[str, str]] = {}  # {language: {number: title}}
        for number, title, rule_language in current:
            if title:
                titled.setdefault(rule_language, {}).setdefault(number, title)
        translated: dict[str, str] = {}
        if language:
            rows = (
                self.filter(canonical__isnull=False, canonical__canonical__isnull=True)
                .filter(language=language)
                .exclude(title="")
                .values_list("canonical__number", "title")
            )
            for number, title in rows:
                translated.setdefault(number, title)
        titles = {}
        for number, title, rule_language in current:
            in_language = titled.get(rule_language, {})
            heading = nearest_heading(number, in_language)
            if language and language != rule_language and heading in translated:
                titles[number] = (translated[heading], language)
            else:
                titles[number] = (title or in_language.get(heading, ""), rule_language)
        return titles

    def section_title_in(self, rule: Rule, language: str) -> tuple[str, str]:
        """`section_title` in `language` where an official translation of the heading gives it
        ("Durchsuchen" for 701.23b in German), else as it is: (title, the title's language).
        One query: the headings' titles and their translations together (none for a titled
        rule read in its own language)."""
        foreign = bool(language) and language != rule.language
        titled = {rule.number: rule.title} if rule.title else {}
        translated: dict[str, str] = {}
        if foreign or not rule.title:
            headings = headings_of(rule.number)
            wanted = models.Q(canonical__isnull=True, number__in=headings, language=rule.language)
            if foreign:
                wanted |= models.Q(
                    canonical__canonical__isnull=True,
                    canonical__number__in=headings,
                    language=language,
                )
            rows = self.filter(wanted).exclude(title="")
            for number, canonical, title in rows.values_list(
                "number", "canonical__number", "title"
            ):
                if canonical is None:
                    titled.setdefault(number, title)
                else:
                    translated.setdefault(canonical, title)
        heading = nearest_heading(rule.number, titled)
        if heading in translated:
            return translated[heading], language
        return titled.get(heading, ""), rule.language


def _renumbered(
    rule: Rule, text: str, by_text: Mapping[str, list[str]], rules: Mapping[str, str]
) -> str | None:
    """The number the file gives this rule's text, when it isn't the rule's own number."""
    if not text or text.startswith("summary, not the rule's wording"):
        return None  # a labelled summary can't be matched by its wording
    exact = [n for n in by_text.get(text, []) if n != rule.number]
    if exact:
        return exact[0]
    matcher = difflib.SequenceMatcher(None, text)
    matcher.set_seq2(_normal(rules.get(rule.number, "")))
    score = max(SAME_RULE_RATIO, matcher.ratio())
    if rule.number in rules and score > SAME_RULE_RATIO:
        return None  # its own number holds a close rewording: not a move
    best = None
    section = rule.number[:2]  # 70x: renumbering stays within a part of the rules
    for number, other in rules.items():
        if number == rule.number or not number.startswith(section):
            continue
        matcher.set_seq2(_normal(other))
        if matcher.real_quick_ratio() > score and matcher.quick_ratio() > score:
            ratio = matcher.ratio()
            if ratio > score:
                best, score = number, ratio
    return best


def number_order(number: str) -> tuple:
    """A rule number as it sorts in the rules: numeric parts as numbers (106.5 before 106.12,
    701.9 before 701.23b); a glossary word first."""
    head, _, tail = number.partition(".")
    digits = "".join(ch for ch in tail if ch.isdigit())
    letters = "".join(ch for ch in tail if ch.isalpha())
    return (int(head) if head.isdigit() else 0, int(digits) if digits else -1, letters)


def headings_of(number: str) -> tuple[str, ...]:
    """The numbers whose title a rule may be shown with, nearest first: itself, the rule its
    letter belongs to, its section (106.12a: 106.12a, 106.12, 106); a glossary word: itself."""
    match = re.fullmatch(r"((\d{3})\.\d+)[a-z]?", number)
    if not match:
        return (number,)
    rule, section = match.groups()
    return tuple(dict.fromkeys((number, rule, section)))


def nearest_heading(number: str, titled: Container[str]) -> str:
    """The number whose title rule `number` is shown with: the first of `headings_of(number)`
    in `titled` (the numbers that have a title); "" when none is. The one place a rule finds
    its heading, for rule pages and the progress page alike."""
    return next((heading for heading in headings_of(number) if heading in titled), "")


def _alias_note(old: str, rule: Rule) -> str:
    when = f", {rule.edition_date:%Y-%m-%d}" if rule.edition_date else ""
    return f"{old} in {rule.edition_name}{when}"[:200]


class Rule(models.Model):
    """One rule's text in one edition and language.

    The current English row is canonical; rows of older editions or other languages point at it
    through `canonical`, and `RuleAlias` lists every number it was printed under.
    """

    class Kind(models.TextChoices):
        RULE = "rule", "Rule"
        GLOSSARY = "glossary", "Glossary entry"

    number = models.CharField(max_length=20, db_index=True)
    title = models.CharField(max_length=200, blank=True)
    text = models.TextField()
    kind = models.CharField(max_length=10, choices=Kind, default=Kind.RULE)
    language = models.CharField(max_length=8, default="en", db_index=True)
    edition_name = models.CharField(max_length=120)
    edition_date = models.DateField(
        null=True, blank=True, help_text="Empty when the source does not date its text."
    )
    source = models.CharField(
        max_length=200, blank=True, help_text="Where this text was taken from (a source file)."
    )
    note = models.TextField(
        blank=True,
        help_text="An editor's note, e.g. where a translation's meaning differs from the rules.",
    )
    canonical = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="editions",
        help_text="The current rule this row is an older or translated edition of.",
    )

    objects = RuleQuerySet.as_manager()

    class Meta:
        ordering = ["number", "language", "-edition_date"]
        constraints = [
            models.UniqueConstraint(
                fields=["number", "language", "edition_name", "kind"], name="unique_rule_edition"
            ),
            # One current rule per number: feedback and mastery look rules up by it.
            models.UniqueConstraint(
                fields=["number", "kind"],
                condition=models.Q(canonical__isnull=True),
                name="unique_current_rule",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.number} ({self.language}, {self.edition_name})"

    @property
    def text_adds_to_title(self) -> bool:
        """False for a section heading whose text is only its title (701.23 "Search")."""
        return self.text.strip().rstrip(".") != self.title.strip().rstrip(".")

    def former_meanings(self) -> models.QuerySet[RuleAlias]:
        """Other rules that were printed under this rule's number in an earlier edition.

        701.17b is Mill's today and was Search's (now 701.23b): a reader who arrives with an old
        citation learns which edition it belongs to instead of reading the wrong rule.
        """
        return (
            RuleAlias.objects.filter(number=self.number)
            .exclude(rule=self)
            .select_related("rule")
            .order_by("rule__number")
        )

    def clean(self) -> None:
        if self.canonical_id and self.canonical.canonical_id:
            raise ValidationError(
                {"canonical": "Point at the current rule itself, not at another edition's row."}
            )
        if self.canonical_id and self.canonical_id == self.pk:
            raise ValidationError({"canonical": "A rule cannot be an edition of itself."})


class RuleAlias(models.Model):
    """A number a current rule was printed under in an earlier edition (701.23b was 701.14b)."""

    rule = models.ForeignKey(Rule, on_delete=models.CASCADE, related_name="aliases")
    number = models.CharField(max_length=20, db_index=True)
    note = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["rule", "number"]
        constraints = [
            models.UniqueConstraint(fields=["rule", "number"], name="unique_rule_alias"),
        ]

    def __str__(self) -> str:
        return f"{self.number} → {self.rule.number}"


class CardQuerySet(models.QuerySet):
    def site(self) -> CardQuerySet:
        """The site's cards (loaded from the files or added in the admin): usable everywhere."""
        return self.filter(owner=None)

    def owned_by(self, user) -> CardQuerySet:
        """The cards `user` made in the app's card form: every edit looks cards up here."""
        return self.filter(owner=user) if user.is_authenticated else self.none()

    def usable_by(self, owner_id: int | None) -> CardQuerySet:
        """The cards a scenario by `owner_id` may name: the site's and the owner's own (None: a
        site scenario, the site's only). Never another instructor's: names are theirs alone."""
        if owner_id is None:
            return self.site()
        return self.filter(models.Q(owner=None) | models.Q(owner_id=owner_id))


class Card(models.Model):
    """A card's definition as data (scenario-format section 2) with its localised names.

    A name is unique among the site's cards and among each instructor's own: two instructors may
    each have a card of one name, and neither learns of the other's (the card form refuses only
    the catalog's names and their look-alikes, which everyone can read)."""

    name = models.CharField(max_length=200)
    definition = models.JSONField(help_text="The card as data: see docs/engine.md.")
    localized_names = models.JSONField(
        default=dict, blank=True, help_text='Names by language code, e.g. {"de": "..."}.'
    )
    type_line = models.CharField(max_length=200, blank=True, editable=False)
    oracle = models.TextField(blank=True, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="cards",
        help_text="The instructor who made it (none: a site card, usable in every scenario).",
    )
    # With the row count, the catalog's generation (rules/cards.py): a save is seen at once.
    updated_at = models.DateTimeField(auto_now=True, db_index=True)

    objects = CardQuerySet.as_manager()

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                fields=["name"], condition=models.Q(owner=None), name="site_card_name_unique"
            ),
            models.UniqueConstraint(fields=["owner", "name"], name="card_name_unique_per_owner"),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        if not isinstance(self.localized_names, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in self.localized_names.items()
        ):
            raise ValidationError(
                {"localized_names": 'Give an object of language codes to names: {"de": "..."}.'}
            )
        try:
            parsed = parse_card_definition(self.definition, "definition")
        except ScenarioError as error:
            raise ValidationError({"definition": str(error)}) from error
        if parsed.name != self.name:
            raise ValidationError(
                {"definition": f"definition.name is {parsed.name!r}, the card is {self.name!r}."}
            )

    def save(self, *args, **kwargs) -> None:
        definition = self.definition if isinstance(self.definition, dict) else {}
        self.oracle = definition.get("oracle", "")
        self.type_line = _type_line(definition)
        super().save(*args, **kwargs)


def _type_line(definition: dict) -> str:
    left = " ".join([*definition.get("supertypes", []), *definition.get("types", [])])
    subtypes = " ".join(definition.get("subtypes", []))
    return f"{left} — {subtypes}" if subtypes else left

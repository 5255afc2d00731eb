"""The app's card form: an instructor's own card, read by the engine as any catalog card."""

from __future__ import annotations

import json
import re
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from config.inputs import likenesses, plain_name
from quizzes import limits
from quizzes.rulings import checks, names
from quizzes.rulings.cards import (
    CARD_TYPES,
    SUPERTYPES,
    ScenarioError,
    catalog_names,
    is_catalog_card,
    parse_card_definition,
)
from quizzes.templatetags.quizzes_extras import english
from rules.models import Card

ABILITY_KEYS = (
    "spell",
    "targets",
    "activated",
    "triggered",
    "static",
    "keywords",
    "alt_cost",
    "power",
    "toughness",
    "loyalty",
    "colors",
)
MANA_COST = re.compile(r"(?:\{[0-9A-Z/]{1,5}\})*")
# The card types' names in the reader's language (the card's type line stays as printed).
TYPE_NAMES = {
    "Artifact": pgettext_lazy("card type", "Artifact"),
    "Battle": pgettext_lazy("card type", "Battle"),
    "Creature": pgettext_lazy("card type", "Creature"),
    "Enchantment": pgettext_lazy("card type", "Enchantment"),
    "Instant": pgettext_lazy("card type", "Instant"),
    "Kindred": pgettext_lazy("card type", "Kindred"),
    "Land": pgettext_lazy("card type", "Land"),
    "Planeswalker": pgettext_lazy("card type", "Planeswalker"),
    "Sorcery": pgettext_lazy("card type", "Sorcery"),
    "Tribal": pgettext_lazy("card type", "Tribal"),
    "Basic": pgettext_lazy("supertype", "Basic"),
    "Legendary": pgettext_lazy("supertype", "Legendary"),
    "Snow": pgettext_lazy("supertype", "Snow"),
    "World": pgettext_lazy("supertype", "World"),
    "Ongoing": pgettext_lazy("supertype", "Ongoing"),
}
# Control characters other than tab and newline: never stored in a card's text.
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def _plain(value: str, label: str) -> str:
    value = value.replace("\r\n", "\n").strip()
    if CONTROL.search(value):
        raise ValidationError(_("%(field)s contains control characters.") % {"field": label})
    return value


def _type_choices(names) -> list[tuple[str, Any]]:
    return [(name, TYPE_NAMES.get(name, name)) for name in sorted(names)]


class CardForm(forms.Form):
    # A card's name, types and texts are in English, as the catalog's are: marked lang="en".
    name = forms.CharField(
        label=gettext_lazy("Name"),
        max_length=limits.MAX_CARD_NAME_LENGTH,
        widget=forms.TextInput(attrs={"lang": "en"}),
    )
    mana_cost = forms.CharField(
        label=gettext_lazy("Mana cost"),
        max_length=limits.MAX_MANA_COST_LENGTH,
        required=False,
        help_text=gettext_lazy("In braces, e.g. {1}{G} or {X}{U}{U}; empty for a land."),
    )
    supertypes = forms.MultipleChoiceField(
        label=gettext_lazy("Supertypes"),
        choices=_type_choices(SUPERTYPES),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    types = forms.MultipleChoiceField(
        label=gettext_lazy("Types"),
        choices=_type_choices(CARD_TYPES),
        widget=forms.CheckboxSelectMultiple,
    )
    subtypes = forms.CharField(
        label=gettext_lazy("Subtypes"),
        max_length=limits.MAX_TYPE_WORDS_LENGTH,
        required=False,
        widget=forms.TextInput(attrs={"lang": "en"}),
        help_text=gettext_lazy("Separated by spaces, e.g. Forest or Human Wizard."),
    )
    oracle = forms.CharField(
        label=gettext_lazy("Oracle text"),
        max_length=limits.MAX_ORACLE_LENGTH,
        required=False,
        widget=forms.Textarea(attrs={"rows": 4, "lang": "en"}),
    )
    abilities = forms.CharField(
        label=gettext_lazy("Abilities (the engine's vocabulary)"),
        required=False,
        max_length=limits.MAX_ABILITIES_BYTES,
        widget=forms.Textarea(
            attrs={"rows": 10, "class": "code", "spellcheck": "false", "lang": "en"}
        ),
        help_text=gettext_lazy(
            "A JSON object with any of: spell, targets, activated, triggered, static, "
            'keywords, alt_cost, power, toughness, loyalty, colors (docs/engine.md, "Cards as '
            'data"), e.g. {"spell": [{"draw": 2}]}.'
        ),
    )

    def __init__(self, *args, owner, instance: Card | None = None, **kwargs) -> None:
        if instance is not None and "initial" not in kwargs:
            kwargs["initial"] = initial_of(instance.definition)
        super().__init__(*args, **kwargs)
        self.owner = owner
        self.instance = instance
        self.parsed = None
        if instance is not None:
            self.fields["name"].disabled = True
            self.fields["name"].help_text = _("Scenarios name the card, so its name stays.")

    def save(self) -> Card:
        """Store the card as the owner's, then re-check their scenarios that name it (an edit can
        change their ruling: a disagreement is flagged, never hidden)."""
        card = self.instance or Card(owner=self.owner, name=self.cleaned_data["name"])
        card.definition = self.cleaned_data["definition"]
        card.full_clean()
        card.save()
        for scenario in card.scenarios.filter(author=self.owner):
            checks.record_engine_check(scenario)
        return card

    def clean_name(self) -> str:
        if self.instance is not None:
            return self.instance.name  # scenarios name it: its name stays (the field is disabled)
        name = plain_name(self.cleaned_data["name"], _("The name"))
        if "#" in name:
            raise ValidationError(_("A card name cannot contain # (it starts a label)."))
        if Card.objects.owned_by(self.owner).filter(name=name).exists():
            raise ValidationError(_("You already have a card named %(name)r.") % {"name": name})
        if is_catalog_card(name) or Card.objects.site().filter(name=name).exists():
            raise ValidationError(_("%(name)r is already a card in the catalog.") % {"name": name})
        if (card := catalog_look_alike(name)) is not None:
            raise ValidationError(
                _("%(name)r looks like %(card)r, a card in the catalog: choose another name.")
                % {"name": name, "card": card}
            )
        if (
            self.instance is None
            and Card.objects.owned_by(self.owner).count() >= limits.MAX_CARDS_PER_OWNER
        ):
            raise ValidationError(
                _("You have %(count)d cards, the limit.") % {"count": limits.MAX_CARDS_PER_OWNER}
            )
        return name

    def clean_mana_cost(self) -> str:
        cost = self.cleaned_data["mana_cost"].strip().upper()
        if not MANA_COST.fullmatch(cost):
            raise ValidationError(_("Write the cost in braces, e.g. {2}{G}{G}."))
        return cost

    def clean_subtypes(self) -> list[str]:
        words = _plain(self.cleaned_data["subtypes"], _("The subtypes")).replace(",", " ").split()
        return [word[:1].upper() + word[1:] for word in words]

    def clean_oracle(self) -> str:
        return _plain(self.cleaned_data["oracle"], _("The Oracle text"))

    def clean_abilities(self) -> dict[str, Any]:
        text = self.cleaned_data["abilities"].strip()
        if not text:
            return {}
        try:
            value = limits.load_json(text, limits.MAX_ABILITIES_BYTES, "abilities")
        except limits.LimitError as error:
            raise ValidationError(str(error)) from error
        except json.JSONDecodeError as error:
            where = f"line {error.lineno} column {error.colno}"
            raise ValidationError(f"{where}: malformed JSON: {error.msg}") from error
        if not isinstance(value, dict):
            raise ValidationError(_('Give a JSON object, e.g. {"spell": [{"draw": 2}]}.'))
        unknown = sorted(set(value) - set(ABILITY_KEYS))
        if unknown:
            raise ValidationError(
                _("Unknown key(s) %(unknown)s; accepted: %(accepted)s.")
                % {"unknown": unknown, "accepted": list(ABILITY_KEYS)}
            )
        return value

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        definition = definition_of(data)
        try:
            self.parsed = parse_card_definition(definition, "card")
        except ScenarioError as error:
            field = "types" if error.path.endswith((".types", ".supertypes")) else "abilities"
            path = error.path.split(")", 1)[-1].lstrip(".") or "card"
            self.add_error(field, f"{path}: {error.message}")
            return data
        data["definition"] = definition
        return data


def catalog_look_alike(name: str) -> str | None:
    """The catalog's card that `name` passes for (config.inputs.likenesses), by its English name
    or by one the site shows it under in another language, or None. Only the catalog is searched
    (the file's cards and the site's), which everyone may read: another instructor's cards are
    theirs alone to name."""
    shown = [(card, [card, *names.translations(card).values()]) for card in catalog_names()]
    for card, localized in Card.objects.site().values_list("name", "localized_names"):
        shown.append((card, [card, *(localized.values() if isinstance(localized, dict) else ())]))
    wanted = likenesses(name)
    for card, card_names in shown:
        if any(not wanted.isdisjoint(likenesses(words)) for words in card_names):
            return card
    return None


def definition_of(data: dict[str, Any]) -> dict[str, Any]:
    """The card as data (docs/engine.md) from the form's cleaned fields."""
    definition: dict[str, Any] = {"name": data["name"], "types": list(data["types"])}
    for key in ("mana_cost", "supertypes", "subtypes", "oracle"):
        if data.get(key):
            definition[key] = list(data[key]) if isinstance(data[key], list) else data[key]
    return definition | data.get("abilities", {})


def initial_of(definition: dict[str, Any]) -> dict[str, Any]:
    """The form's fields for a stored definition (the inverse of `definition_of`)."""
    abilities = {key: definition[key] for key in ABILITY_KEYS if key in definition}
    return {
        "name": definition.get("name", ""),
        "mana_cost": definition.get("mana_cost", ""),
        "supertypes": definition.get("supertypes", []),
        "types": definition.get("types", []),
        "subtypes": " ".join(definition.get("subtypes", [])),
        "oracle": definition.get("oracle", ""),
        "abilities": json.dumps(abilities, indent=2, ensure_ascii=False) if abilities else "",
    }


def engine_reading(parsed) -> list[str]:
    """What the engine reads in a parsed card, line by line (the card form's preview): the
    frame in the reader's language, the engine's own vocabulary in English (marked so)."""
    lines = [
        format_html(
            "{}; {}",
            english(parsed.type_line),
            _("mana value %(value)s") % {"value": parsed.mana_value},
        )
    ]
    if parsed.colors:
        lines.append(format_html("{} {}", _("Colors:"), english(", ".join(parsed.colors))))
    if parsed.keywords:
        words = ", ".join(f"{k} {v}".strip() for k, v in parsed.keywords.items())
        lines.append(format_html("{} {}", _("Keywords:"), english(words)))
    if parsed.spell:
        words = "; ".join(_instruction(i) for i in parsed.spell)
        lines.append(format_html("{} {}", _("When it resolves:"), english(words)))
    for index, ability in enumerate(parsed.activated):
        cost = f"{ability.cost}: " if ability.cost else ""
        words = "; ".join(_instruction(i) for i in ability.effect)
        label = _("Activated ability %(index)s:") % {"index": index}
        lines.append(format_html("{} {}", label, english(f"{cost}{words}")))
    for ability in parsed.triggered:
        label = _("Triggered (%(when)s):") % {"when": ability.when or _("event")}
        words = "; ".join(_instruction(i) for i in ability.effect)
        lines.append(format_html("{} {}", label, english(words)))
    for static in parsed.static:
        kind = static.kind.replace("_", " ")
        lines.append(format_html("{} {}", _("Static ability:"), english(kind)))
    if len(lines) == 1 and not parsed.oracle:
        lines.append(_("No abilities: the engine reads it as a card with characteristics only."))
    return lines


def _instruction(instruction) -> str:
    spec = instruction.spec if isinstance(instruction.spec, dict) else {}
    words = instruction.verb.replace("_", " ")
    wanted = spec.get("filter")
    if hasattr(wanted, "describe"):
        count = spec.get("count")
        how_many = "" if count in (None, 1) else f"{str(count).replace('_', ' ')} × "
        words += f" for {how_many}{wanted.describe()}"
    return words

"""What a search looks for, in the reader's language: the engine words it in English
(`Filter.describe`, kept as a `Phrase`); this words it again from the phrase's filter, with the
game's terms (docs/glossary.md). English is the engine's own text."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.utils import translation
from django.utils.translation import gettext, pgettext_lazy

from quizzes.rulings.names import localized
from quizzes.rulings.type_lines import TYPES as TYPE_LINE_WORDS
from rules.engine.reasons import AND, OR, Phrase

COLORS = {
    "W": pgettext_lazy("card color", "white"),
    "U": pgettext_lazy("card color", "blue"),
    "B": pgettext_lazy("card color", "black"),
    "R": pgettext_lazy("card color", "red"),
    "G": pgettext_lazy("card color", "green"),
}
SUPERTYPES = {
    "Basic": pgettext_lazy("supertype", "basic"),
    "Legendary": pgettext_lazy("supertype", "legendary"),
    "Snow": pgettext_lazy("supertype", "snow"),
}
TYPES = {
    "Land": pgettext_lazy("card type", "land"),
    "Creature": pgettext_lazy("card type", "creature"),
    "Artifact": pgettext_lazy("card type", "artifact"),
    "Enchantment": pgettext_lazy("card type", "enchantment"),
    "Instant": pgettext_lazy("card type", "instant"),
    "Sorcery": pgettext_lazy("card type", "sorcery"),
    "Planeswalker": pgettext_lazy("card type", "planeswalker"),
    "Battle": pgettext_lazy("card type", "battle"),
}
SUBTYPES = {  # the others (creature types) are printed alike
    "Forest": pgettext_lazy("subtype", "Forest"),
    "Island": pgettext_lazy("subtype", "Island"),
    "Plains": pgettext_lazy("subtype", "Plains"),
    "Swamp": pgettext_lazy("subtype", "Swamp"),
    "Mountain": pgettext_lazy("subtype", "Mountain"),
    "Equipment": pgettext_lazy("subtype", "Equipment"),
}


def description(phrase: Phrase) -> str:
    """`phrase` in the active language: with its article, or after its count."""
    if (translation.get_language() or "en").startswith("en"):
        return str(phrase)
    words = _words(phrase.filter)
    count = phrase.count
    if count is None:  # one card (`Phrase.of`: never "with different names")
        return gettext("a %(description)s") % {"description": words}
    if count == "all":
        return gettext("all %(description)s") % {"description": words}
    if count == "any_number":
        return gettext("any number of %(description)s") % {"description": words}
    if phrase.up_to:
        return gettext("up to %(count)s %(description)s") % {"count": count, "description": words}
    return gettext("%(count)s %(description)s") % {"count": count, "description": words}


def _words(wanted: Any) -> str:
    """The filter's words without an article, as `Filter._describe` builds them in English."""
    if not wanted.has_quality:
        return gettext("card")
    if wanted.different_names:
        plain = replace(wanted, different_names=False)
        if not _other_quality(wanted):
            return gettext("cards with different names")
        return gettext("%(description)s, each with a different name") % {
            "description": _words(plain)
        }
    text = _kinds(wanted)
    if wanted.name:
        text = gettext("card named %(card)s") % {"card": localized(wanted.name)}
    if wanted.same_name_as == "target":
        text = gettext("card with the same name as the target card")
    elif wanted.same_name_as:
        text = gettext("card with the same name as the chosen card")
    if wanted.mana_value is not None:
        low, high = wanted.mana_value
        values = {"description": text, "low": low, "high": high}
        text = (
            gettext("%(description)s with mana value %(low)s") % values
            if low == high
            else gettext("%(description)s with mana value %(low)s to %(high)s") % values
        )
    for op, bound in wanted.mana_value_x:
        values = {"description": text, "bound": bound}
        text = {
            "lt": gettext("%(description)s with mana value less than %(bound)s"),
            "gt": gettext("%(description)s with mana value greater than %(bound)s"),
            "lte": gettext("%(description)s with mana value %(bound)s or less"),
            "gte": gettext("%(description)s with mana value %(bound)s or greater"),
        }.get(op, gettext("%(description)s with mana value %(bound)s")) % values
    if wanted.keywords:
        keywords = gettext(AND).join(wanted.keywords)  # keywords keep their printed names
        text = gettext("%(description)s with %(keywords)s") % {
            "description": text,
            "keywords": keywords,
        }
    if wanted.exclude:
        text = gettext("%(description)s other than a %(other)s") % {
            "description": text,
            "other": _words(wanted.exclude),
        }
    return text


def _kinds(wanted: Any) -> str:
    """Colors, supertypes, subtypes and types: "basic land card", "Forest card or Island card"."""
    if wanted.any_of and not (wanted.colors or wanted.supertypes or wanted.types):
        return gettext(OR).join(_words(part) for part in wanted.any_of)
    if not (wanted.colors or wanted.supertypes or wanted.subtypes or wanted.types):
        return gettext("card")
    kinds = " ".join(
        part
        for part in (
            _or(SUBTYPES, wanted.subtypes),
            _or(TYPES, wanted.types),
        )
        if part
    )
    supertypes = " ".join(str(SUPERTYPES.get(s, s)) for s in _printed_order(wanted))
    if compound := _printed_compound(wanted):  # "Standardland", not "Standard Land"
        supertypes, kinds = "", compound
    text = gettext("%(colors)s %(supertypes)s %(kinds)s card") % {
        "colors": " ".join(str(COLORS[c]) for c in wanted.colors),
        "supertypes": supertypes,
        "kinds": kinds,
    }
    # A word left out leaves its space: "Karte ( Land)" is "Karte (Land)".
    return " ".join(text.split()).replace("( ", "(").replace(" )", ")").replace(" ()", "")


def _supertype_order(supertype: str) -> int:
    """As printed: "Basic Snow Land", "Legendary Snow Creature"."""
    order = ("Basic", "Legendary", "Snow")
    return order.index(supertype) if supertype in order else len(order)


def _printed_order(wanted: Any) -> tuple[str, ...]:
    """English keeps the filter's order; German and Italian read the supertypes as printed."""
    if translation.get_language() in (None, "en"):
        return tuple(wanted.supertypes)
    return tuple(sorted(wanted.supertypes, key=_supertype_order))


def _printed_compound(wanted: Any) -> str:
    """German prints supertype and type as one word ("Standardland", "verschneites
    Standardland"): that word for a filter of supertypes and one type, no subtype."""
    if translation.get_language() != "de" or not wanted.supertypes or wanted.subtypes:
        return ""
    if len(wanted.types) != 1:
        return ""
    key = " ".join((*sorted(wanted.supertypes, key=_supertype_order), *wanted.types))
    printed = TYPE_LINE_WORDS["de"].get(key, "")
    return printed[:1].lower() + printed[1:] if " " in printed else printed


def _or(words: dict[str, Any], names: tuple[str, ...]) -> str:
    return gettext(OR).join(str(words.get(name, name)) for name in names)


def _other_quality(wanted: Any) -> bool:
    return replace(wanted, different_names=False).has_quality

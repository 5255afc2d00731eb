"""The engine's reasons in the reader's language.

A `rules.engine.reasons.Reason` carries its English message id and parameters; this says it in
the active language: the message through the catalog (ngettext for a count), then each
parameter by its name (rules/engine/reasons.py): card names localised (`names.localized`),
zone words and phrases and other engine words translated, what a search looks for worded again
(`descriptions`), nested reasons said in turn, lists joined. Anything
that is not a Reason (a reason stored with an answer, already in the language it was given
in) is returned as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import get_language, gettext, ngettext

from quizzes.rulings.claims import mana_words
from quizzes.rulings.descriptions import description
from quizzes.rulings.names import localized
from rules.engine.reasons import (
    WORDS,
    ZONE_WORDS,
    Phrase,
    Reason,
    clause,
    phrases_of,
    separator,
)


@dataclass(frozen=True)
class Said:
    """A reason already said in each language the site speaks (a stored variant's)."""

    texts: Mapping[str, str]

    def text(self) -> str:
        language = (get_language() or "en").split("-")[0]
        return self.texts.get(language) or self.texts.get("en", "")


def say(reason: Any) -> str:
    """`reason` in the active language ("" for none)."""
    if isinstance(reason, Said):
        return reason.text()
    if not isinstance(reason, Reason):
        return str(reason or "")
    params = {name: _value(name, value) for name, value in reason.params.items()}
    if reason.plural is not None:
        text = ngettext(reason.message, reason.plural, reason.params["count"])
    else:
        text = gettext(reason.message)
    return text % params if params else text


def _value(name: str, value: Any) -> Any:
    if isinstance(value, Reason):
        text = say(value)
        return clause(text) if name.startswith("clause") else text
    if isinstance(value, Phrase):
        return description(value)
    if type(value) is tuple:
        return gettext(separator(name)).join(str(_value(name, item)) for item in value)
    if name.startswith(("card", "source")):
        return localized(value)
    if name.startswith("mana"):
        return mana_words(value)  # "{U} or {G}" joined in the reader's language
    phrases = phrases_of(name)
    if phrases is not None:  # "onto the battlefield", "in exile"
        return gettext(phrases[value]) if value in phrases else value
    if name.startswith("zone"):
        return gettext(ZONE_WORDS[value]) if value in ZONE_WORDS else value
    if name.startswith("word"):
        return gettext(WORDS[value]) if value in WORDS else value
    return value

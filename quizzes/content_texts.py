"""The site's own content in the reader's language: scenario titles, sources and stored rulings,
the families' titles and sources, bank titles and descriptions, exam titles and areas.

The catalogs are data, one per language (quizzes/content/localized_texts/<language>.json):
`texts` maps the exact original text to its translation, said once for every place it shows;
`templates` maps a family's instance-title template ("${tutor} with a library of few cards") to
its translation, matched against a generated title as a pattern, the captured card names put
back in the reader's language (`rulings.names.localized`); a title that is only a card's name
("${tutor}") is that card's name in the reader's language. A text the catalog lacks (an
instructor's own, or a seed text since edited) stays as written, marked lang="en".
`en.json` translates the few seed texts written in German or Italian; a text it lists is not
English, so it is never marked so.

Read once per process, like the card names, so a page costs no query for them.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from django.utils import translation
from django.utils.html import conditional_escape, format_html

from quizzes.rulings.names import localized
from quizzes.rulings.variants import rename_words

TEXTS_DIR = Path(__file__).resolve().parent / "content" / "localized_texts"
PLACEHOLDER = re.compile(r"\$\{([a-z][a-z0-9_]*)\}")  # as in a family's templates


@dataclass(frozen=True)
class TextCatalog:
    texts: dict[str, str]
    templates: tuple[tuple[re.Pattern[str], str], ...]


def _pattern(template: str) -> re.Pattern[str]:
    """A title template as a pattern capturing each `${name}`."""
    pieces = PLACEHOLDER.split(template)  # literal, name, literal, name, ...
    return re.compile(
        "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)" for i, p in enumerate(pieces))
    )


@functools.cache
def catalog(language: str) -> TextCatalog:
    try:
        raw = json.loads((TEXTS_DIR / f"{language}.json").read_text(encoding="utf-8"))
    except FileNotFoundError:
        raw = {}
    templates = tuple((_pattern(k), v) for k, v in raw.get("templates", {}).items())
    return TextCatalog(dict(raw.get("texts", {})), templates)


def _language(language: str | None) -> str:
    return (language or translation.get_language() or "en").split("-")[0]


def translated(text: str, language: str | None = None) -> str | None:
    """`text` in `language` (default: the active one), or None when the catalog lacks it."""
    language = _language(language)
    found = catalog(language)
    if text in found.texts:
        return found.texts[text]
    for pattern, template in found.templates:
        if match := pattern.fullmatch(text):
            return PLACEHOLDER.sub(lambda p: localized(match[p[1]], language), template)
    name = localized(text, language)  # a title that is a card's name ("${tutor}")
    return name if name != text else None


def is_english(text: str) -> bool:
    """Whether an untranslated `text` is English (all content is, but what en.json translates)."""
    return text not in catalog("en").texts


def shows_in_english(text: str, language: str | None = None) -> bool:
    """Whether `text` shows as its English original on a page in `language`: to mark lang="en"."""
    language = _language(language)
    return language != "en" and is_english(text) and translated(text, language) is None


def _local_names(names: Mapping[str, str], language: str) -> dict[str, str]:
    """A variant's renames as they read in a translation: the card names in `language`."""
    return {localized(old, language): localized(new, language) for old, new in names.items()}


def shown(text: str, names: Mapping[str, str] | None = None, language: str | None = None) -> str:
    """`text` (a title, a source) as HTML in the reader's language, with a variant's `names`
    (English card or player name -> the one shown); untranslated English marked lang="en"."""
    if not text:
        return text
    names, language = names or {}, _language(language)
    found = translated(text, language)
    if found is not None:
        return conditional_escape(rename_words(found, _local_names(names, language)))
    if shows_in_english(text, language):
        return format_html('<span lang="en">{}</span>', rename_words(text, names))
    return conditional_escape(rename_words(text, names))


@dataclass(frozen=True)
class StoredRuling:
    """A scenario's ruling as its source words it, to show: `text` in the reader's language when
    Tutor has a translation (then `original` holds the source's words), else the original."""

    text: str
    original: str = ""
    english: bool = False  # `text` (or `original`, when set) is English

    @classmethod
    def of(
        cls, text: str, names: Mapping[str, str] | None = None, language: str | None = None
    ) -> StoredRuling | None:
        if not text:
            return None
        names, language = names or {}, _language(language)
        found = translated(text, language)
        original = rename_words(text, names)
        if found is None:
            return cls(original, english=shows_in_english(text, language))
        return cls(rename_words(found, _local_names(names, language)), original, is_english(text))

"""Card names in the reader's language, from the content's localised names
(quizzes/content/localized_names.json, which load_content also stores on each `Card` for the
admin). A card without a name in that language keeps its English name, as printed cards do.

Read once per process from the file, so a page costs no query for them.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

from django.utils import translation

NAMES_FILE = Path(__file__).resolve().parent.parent / "content" / "localized_names.json"


@functools.cache
def _names() -> dict[str, dict[str, str]]:
    try:
        return json.loads(NAMES_FILE.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}


def localized(name: str, language: str | None = None) -> str:
    """`name` in `language` (default: the active one), or `name` itself when it has none."""
    language = (language or translation.get_language() or "en").split("-")[0]
    if language == "en":
        return name
    return _names().get(name, {}).get(language, name)


def has_translation(name: str, language: str | None = None) -> bool:
    language = (language or translation.get_language() or "en").split("-")[0]
    return language == "en" or language in _names().get(name, {})


def translations(name: str) -> dict[str, str]:
    """`name` in every language the content names it in ({"de": ..., "it": ...})."""
    return dict(_names().get(name, {}))

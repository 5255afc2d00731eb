"""English words for the engine's texts: a count with its noun ("1 card", "3 cards"), an article."""

from __future__ import annotations


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """`count` with `noun`, or its plural (`nouns`, default noun + "s")."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"


def with_article(text: str) -> str:
    """ "an instant card", "a basic land card": the article English puts before a description."""
    return f"{'an' if text[:1].lower() in 'aeiou' else 'a'} {text}"

"""Words for the engine's reasons: a count with its noun ("1 card", "3 cards")."""

from __future__ import annotations


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """`count` with `noun`, or its plural (`nouns`, default noun + "s")."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"

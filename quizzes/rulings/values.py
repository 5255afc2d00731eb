"""Claim values: the one comparison every grader, generator and export uses."""

from __future__ import annotations

from typing import Any


def plain(value: Any) -> Any:
    """Tuples as lists, recursively: how values look once stored as JSON."""
    if isinstance(value, tuple | list):
        return [plain(item) for item in value]
    return value


def same(computed: Any, given: Any) -> bool:
    """Does an answer's value equal the computed one? A bool is never a number; 1 equals 1.0."""
    computed, given = plain(computed), plain(given)
    if isinstance(computed, bool) or isinstance(given, bool):
        return type(computed) is type(given) and computed == given
    if isinstance(computed, int | float) and isinstance(given, int | float):
        return computed == given
    if isinstance(computed, list) and isinstance(given, list):
        return len(computed) == len(given) and all(
            same(a, b) for a, b in zip(computed, given, strict=True)
        )
    return type(computed) is type(given) and computed == given


def undetermined(value: Any) -> bool:
    """A value the rules leave to a choice ("if_searched", "tapped or untapped", "{B} or {R}"):
    never a statement, and as an answer worded "depends on …"."""
    return value == "if_searched" or (isinstance(value, str) and " or " in value)

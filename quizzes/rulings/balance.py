"""Statements whose words don't give their key away (issue 26, item 5).

A statement "… is untapped" was false 46 of 46 times: the seed content's true values are
skewed (a land tapped for mana ends tapped), so the value a false statement names is one a true
statement rarely does. `quizzes/content/true_values.json` counts, per claim, the true values the
seed content asks (`python manage.py audit_questions --true-values` writes it). From it:
- a claim of a few values is stated less often the commoner its value (`stated_share`), so each
  value is about as often named true as false, and a claim of nearly one value never;
- a false statement names a value drawn as the content's true values fall (`distractor_weight`),
  so "exactly 0 cards" is a distractor too, not only a key.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from quizzes.rulings.values import plain

TRUE_VALUES = Path(__file__).resolve().parent.parent / "content" / "true_values.json"
LEAST_STATED = 0.2  # a claim is never stated less often than this (a question keeps statements)
NEARLY_CONSTANT = 0.9  # share of one true value from which a claim is never a statement
NEARLY_CONSTANT_FROM = 5  # ... when the content asks it at least this often


def value_key(value: Any) -> str:
    return json.dumps(plain(value), sort_keys=True)


@functools.cache
def true_values() -> dict[str, dict[str, int]]:
    """Per claim, how many times the seed content asks it with each true value."""
    try:
        return json.loads(TRUE_VALUES.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}


def counts_of(claim: str) -> Mapping[str, int]:
    return true_values().get(claim, {})


def stated_share(claim: str, value: Any, domain: list[Any]) -> float:
    """How often a claim with true `value` is made a statement. A claim the content nearly
    always gives one value (a land tapped for mana ends tapped) is never one: its value would
    be its key. Of a finite `domain`, the rarest value's count among those the content gives,
    over this value's (at least LEAST_STATED): each value about as often true as false."""
    counts = counts_of(claim)
    total = sum(counts.values())
    if total >= NEARLY_CONSTANT_FROM and max(counts.values()) >= NEARLY_CONSTANT * total:
        return 0.0
    keys = {value_key(option) for option in domain} | {value_key(value)}
    seen = [counts[key] for key in keys if counts.get(key)]
    own = counts.get(value_key(value), 0)
    if not domain or len(seen) < 2 or not own:
        return 1.0
    return min(1.0, max(LEAST_STATED, min(seen) / own))


def distractor_weight(claim: str, option: Any) -> int:
    """How likely a false statement names `option`: as often as the content's keys do (+1)."""
    return counts_of(claim).get(value_key(option), 0) + 1


def seen_values(claim: str) -> list[Any]:
    """The true values the seed content gives `claim`, as values."""
    return [json.loads(key) for key in counts_of(claim)]

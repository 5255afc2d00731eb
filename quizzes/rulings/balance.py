"""Statements whose words don't give their key away (issue 26, item 4).

A statement "… is untapped" was false 46 of 46 times: the seed content's true values are
skewed (a land tapped for mana ends tapped), so the value a false statement names is one a true
statement rarely does. `quizzes/content/true_values.json` counts, per claim, the true values the
seed content asks (`python manage.py audit_questions --true-values` writes it). A statement names
a value `v` truly as often as the content has `v` for its key and the coin says true; falsely as
often as a claim with another key is made false and names `v`. Each value is as often named true
as false when:
- every value is stated about as often as all the others together at most (`stated_share`): a
  value the content gives more often than all others (a search "must" be made) is stated only
  as often as the others are, and a claim of nearly one value never;
- a false statement names each value as often as that value is named true (`distractor_weight`):
  the flow from each key to the values its false statements name is balanced, in and out, by
  iterative proportional fitting over the pairs a claim finds plausible (numbers within 3).
So "exactly 0 cards" is a distractor as often as a key, and "only the top 1 card", never a key
in the content, is never a distractor either.
"""

from __future__ import annotations

import contextlib
import functools
import json
from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from quizzes.rulings.values import plain, undetermined

TRUE_VALUES = Path(__file__).resolve().parent.parent / "content" / "true_values.json"
NEARLY_CONSTANT = 0.9  # share of one true value from which a claim is never a statement
NEARLY_CONSTANT_FROM = 5  # ... when the content asks it at least this often
FITTING_ROUNDS = 100
CUTS = 20  # rounds of cutting what can't be balanced

Near = Callable[[Any, Any], bool]
_UNBALANCED: ContextVar[bool] = ContextVar("unbalanced", default=False)


def value_key(value: Any) -> str:
    return json.dumps(plain(value), sort_keys=True)


@functools.cache
def true_values() -> dict[str, dict[str, float]]:
    """Per claim, how often the seed content draws a statement from each true value."""
    try:
        return json.loads(TRUE_VALUES.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}


@contextlib.contextmanager
def unbalanced() -> Iterator[None]:
    """Within it, balance acts as if the counts file were empty (every claim stated, every
    plausible false value named): what decides which instances a family keeps
    (instances.py), so the counts the audit writes from them don't change them."""
    token = _UNBALANCED.set(True)
    try:
        yield
    finally:
        _UNBALANCED.reset(token)


def _counts() -> dict[str, dict[str, float]]:
    return {} if _UNBALANCED.get() else true_values()


def counts_of(claim: str) -> Mapping[str, float]:
    """The content's true values of `claim` a statement may name (none left to a choice)."""
    return {
        key: count
        for key, count in _counts().get(claim, {}).items()
        if count > 0 and not undetermined(json.loads(key))
    }


def balanced(claim: str) -> bool:
    """Does the content give `claim` two values or more to balance (a claim it never asks is
    not balanced: an instructor's, drawn as before)?"""
    return len(counts_of(claim)) >= 2


def any_values(one: Any, other: Any) -> bool:
    return True


def stated_share(claim: str, value: Any, near: Near = any_values) -> float:
    """How often a claim with true `value` is made a statement (true or false by a coin). A
    claim the content gives one value, or nearly only one (a land tapped for mana ends tapped),
    is never one: its value would be its key; nor a value the content never gives (no false
    statement names it). A value the content gives more often than the values `near` it can
    balance (all others together, at most) is stated only as often."""
    if claim not in _counts():
        return 1.0  # a claim the seed content never asks: nothing to balance it by
    counts = counts_of(claim)
    total = sum(counts.values())
    if not balanced(claim) or (
        total >= NEARLY_CONSTANT_FROM and max(counts.values()) >= NEARLY_CONSTANT * total
    ):
        return 0.0
    own = counts.get(value_key(value), 0)  # none: no false statement names it, nor may a true
    return _fitted(claim, near)[0].get(value_key(value), 0.0) / own if own else 0.0


@functools.cache
def _fitted(claim: str, near: Near) -> tuple[dict[str, float], dict[tuple[str, str], float]]:
    """Per value of `claim`, how many of its claims are stated; per (true value, value named),
    how many false statements name it, among values `near` each other. Balanced: a coin makes
    as many true statements of a value as false ones of its claims, so each value's stated
    claims send out as many false statements as name it (iterative proportional fitting, a
    value's stated claims cut to what the values near it can balance)."""
    counts = counts_of(claim)
    total = sum(counts.values())
    stated = {key: float(min(count, total - count)) for key, count in counts.items()}
    keys = sorted(stated)
    pairs = [(u, v) for u in keys for v in keys if u != v and near(json.loads(u), json.loads(v))]
    flow = dict.fromkeys(pairs, 1.0)
    for _ in range(CUTS):
        for _ in range(FITTING_ROUNDS):
            sent, named = _fit(flow, stated)
        cut = {key: min(stated[key], sent.get(key, 0.0), named.get(key, 0.0)) for key in keys}
        if all(abs(cut[key] - stated[key]) <= 1e-3 * (1 + stated[key]) for key in keys):
            break
        stated = cut
    return stated, flow


def _fit(
    flow: dict[tuple[str, str], float], stated: Mapping[str, float]
) -> tuple[dict[str, float], dict[str, float]]:
    """One round of fitting `flow` to `stated`, by rows then columns: what each value then
    sends out and what names it."""
    sums: dict[str, float] = {}
    for end in (0, 1):  # rows (each true value's false statements), then columns
        sums = {}
        for pair, amount in flow.items():
            sums[pair[end]] = sums.get(pair[end], 0.0) + amount
        for pair in flow:
            if sums[pair[end]]:
                flow[pair] *= stated[pair[end]] / sums[pair[end]]
    sent: dict[str, float] = {}
    named: dict[str, float] = {}
    for (u, v), amount in flow.items():
        sent[u] = sent.get(u, 0.0) + amount
        named[v] = named.get(v, 0.0) + amount
    return sent, named


def distractor_weight(claim: str, value: Any, option: Any, near: Near) -> float:
    """How likely a false statement of `claim` (true `value`) names `option`. Balanced: by the
    fitted flow, zero for a value the content never gives (it would always be false). Too
    little content: as often as the content's keys are `option` (+1)."""
    counts = counts_of(claim)
    if not balanced(claim):
        return counts.get(value_key(option), 0) + 1.0
    key, named = value_key(value), value_key(option)
    stated, flow = _fitted(claim, near)
    if key not in counts:  # a key the content didn't give: the values as often as they're keys
        return stated.get(named, 0.0)
    return flow.get((key, named), 0.0)


def seen_values(claim: str) -> list[Any]:
    """The true values the seed content gives `claim`, as values."""
    return [json.loads(key) for key in counts_of(claim)]

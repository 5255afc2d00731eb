"""A conclusion with its citation: the building block of every claim."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Verdict:
    """A computed value, the rule that decides it (e.g. "701.23b") and a one-sentence reason."""

    value: Any
    rule: str
    reason: str


def merge_values(values: list[str]) -> str:
    """Combine must/may/cannot across branches: unanimous values stay, anything else is "may"."""
    unique = set(values)
    return values[0] if len(unique) == 1 else "may"

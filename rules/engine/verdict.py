"""A conclusion with its citation: the building block of every claim."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, init=False)
class Verdict:
    """A computed value, the rule that decides it (e.g. "701.23b") and a one-sentence reason."""

    value: Any
    rule: str
    reason: str

    def __init__(self, value: Any, rule: str, reason: str) -> None:
        # Thousands are built per big board: writing the instance dict skips the frozen
        # dataclass's three guarded object.__setattr__ calls. Still frozen afterwards.
        fields = self.__dict__
        fields["value"] = value
        fields["rule"] = rule
        fields["reason"] = reason


def merge_values(values: list[str]) -> str:
    """Combine must/may/cannot across branches: unanimous values stay, anything else is "may"."""
    unique = set(values)
    return values[0] if len(unique) == 1 else "may"

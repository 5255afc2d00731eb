"""What the engine hands back: claim results, the outcome, mismatches and choice verdicts."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ClaimResult:
    """One claim's computed value with its rule (e.g. "701.23b") and a plain-language reason."""

    claim: str
    subject: Mapping[str, Any]
    value: Any
    rule: str
    reason: str

    @classmethod
    def fast(
        cls, claim: str, subject: Mapping[str, Any], value: Any, rule: str, reason: str
    ) -> ClaimResult:
        """Build without the frozen __init__'s per-field setattr (hundreds per big board)."""
        result = object.__new__(cls)
        fields = result.__dict__
        fields["claim"] = claim
        fields["subject"] = subject
        fields["value"] = value
        fields["rule"] = rule
        fields["reason"] = reason
        return result

    def to_json(self) -> dict[str, Any]:
        """{"claim": ..., <subject keys>, "value": ..., "rule": ..., "reason": ...}."""
        return {
            "claim": self.claim,
            **self.subject,
            "value": self.value,
            "rule": self.rule,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class Outcome:
    """Every claim computed for a scenario plus the plain-language steps of the resolution."""

    claims: tuple[ClaimResult, ...]
    explanation: tuple[str, ...]

    def find(self, claim: str, **subject: Any) -> ClaimResult | None:
        """The first `claim` whose subject includes `subject`, e.g. find("finds", card="gy")."""
        for result in self.claims:
            if result.claim == claim and all(
                result.subject.get(k) == v for k, v in subject.items()
            ):
                return result
        return None

    def to_json(self) -> dict[str, Any]:
        """{"claims": [...], "explanation": [...]}."""
        return {"claims": [c.to_json() for c in self.claims], "explanation": list(self.explanation)}


@dataclass(frozen=True)
class Mismatch:
    """An `expect` entry the engine disagrees with; computed is None if it failed to evaluate."""

    expected: Mapping[str, Any]
    computed: ClaimResult | None
    message: str

    def to_json(self) -> dict[str, Any]:
        """Plain JSON for reports."""
        return {
            "expected": dict(self.expected),
            "computed": self.computed.to_json() if self.computed else None,
            "message": self.message,
        }


@dataclass(frozen=True)
class ChoiceVerdict:
    """Is a set of cards a legal set to find? With the deciding rule and a one-sentence reason."""

    legal: bool
    rule: str
    reason: str

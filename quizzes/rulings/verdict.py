"""A checked answer: each part with what was asked, what the learner said, and the ruling."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from rules.numbers import numbers_in


@dataclass(frozen=True)
class Part:
    """One checked part of an answer: what was asked, what the learner said, the ruling."""

    question: str
    given: str
    expected: str
    right: bool
    rule: str
    reason: str
    fact: str = ""  # for a false statement: what is true instead

    @property
    def rule_numbers(self) -> list[str]:
        return numbers_in(self.rule)


@dataclass(frozen=True)
class Grade:
    parts: tuple[Part, ...]
    correct: bool
    score: float
    response: Any = field(default=None, compare=False)

    @classmethod
    def of(cls, parts: list[Part]) -> Grade:
        right = sum(part.right for part in parts)
        score = right / len(parts) if parts else 0.0
        return cls(tuple(parts), correct=bool(parts) and right == len(parts), score=score)

    def to_json(self) -> dict[str, Any]:
        return {
            "parts": [asdict(part) for part in self.parts],
            "correct": self.correct,
            "score": self.score,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], response: Any = None) -> Grade:
        known = Part.__dataclass_fields__
        parts = tuple(
            Part(**{key: value for key, value in part.items() if key in known})
            for part in data.get("parts", [])
        )
        return cls(parts, bool(data.get("correct")), float(data.get("score", 0.0)), response)

    @property
    def rule_numbers(self) -> list[str]:
        numbers: list[str] = []
        for part in self.parts:
            for number in part.rule_numbers:
                if number not in numbers:
                    numbers.append(number)
        return numbers

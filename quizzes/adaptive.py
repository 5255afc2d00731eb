"""The adaptive model's maths (docs: ../shared/DESIGN.md, "Adaptive practice"). Pure functions.

Elo-style: a learner has skill theta per rule, a question has difficulty b. The predicted chance
of a right answer is P = sigmoid(theta - b); after a first attempt both move by K(n)(correct - P)
in opposite directions, K shrinking with the number of answers already seen.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from statistics import median

TARGET_SUCCESS = 0.7
MASTERED_AT = 0.9
MASTERED_AFTER = 5


def sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    z = math.exp(x)
    return z / (1.0 + z)


def logit(p: float) -> float:
    return math.log(p / (1.0 - p))


def k_factor(answers_seen: int) -> float:
    """K(n) = 1 / (1 + 0.05 n): big steps at first, smaller as evidence accumulates."""
    return 1.0 / (1.0 + 0.05 * answers_seen)


def predicted_success(theta: float, difficulty: float) -> float:
    return sigmoid(theta - difficulty)


def updated_theta(theta: float, difficulty: float, correct: bool, answers_seen: int) -> float:
    return theta + k_factor(answers_seen) * (float(correct) - predicted_success(theta, difficulty))


def updated_difficulty(theta: float, difficulty: float, correct: bool, answers_seen: int) -> float:
    return difficulty - k_factor(answers_seen) * (
        float(correct) - predicted_success(theta, difficulty)
    )


def target_difficulty(theta: float, target: float = TARGET_SUCCESS) -> float:
    """The difficulty b at which sigmoid(theta - b) equals the target success rate."""
    return theta - logit(target)


def mastery(theta: float, difficulties: Iterable[float]) -> float:
    """sigmoid(theta - median b of the rule's questions); b = 0 when the rule has none."""
    values = list(difficulties)
    return sigmoid(theta - (median(values) if values else 0.0))


def is_mastered(mastery_value: float, answers: int) -> bool:
    return mastery_value >= MASTERED_AT and answers >= MASTERED_AFTER

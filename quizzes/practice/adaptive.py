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


def mastery(theta: float, median_difficulty: float) -> float:
    """A learner's mastery of a rule: sigmoid(theta - the median b of the rule's questions)."""
    return sigmoid(theta - median_difficulty)


def median_difficulty(difficulties: Iterable[float]) -> float:
    """The median b of a rule's questions; 0 when the rule has none."""
    values = list(difficulties)
    return median(values) if values else 0.0


def is_mastered(mastery_value: float, answers: int) -> bool:
    return mastery_value >= MASTERED_AT and answers >= MASTERED_AFTER


# A new question's difficulty before anyone has answered it (Elo then learns the real one):
# more claims to judge, more zones to look through, more players and a harder way of answering
# make it harder. Rough weights on the logit scale, so a fresh learner (target -0.85) starts on
# the plainest questions and the bank is not served in id order.
KIND_PRIOR = {
    "value": -0.4,
    "yes_no": -0.2,
    "cards": 0.0,
    "count_range": 0.2,
    "multiple_choice": 0.3,
    "legal_set": 0.4,
    "outcome_reason": 0.3,
}
PER_CLAIM, PER_ZONE, PER_PLAYER = 0.25, 0.1, 0.3
PRIOR_BOUND = 2.0


def prior_difficulty(kind: str, claims: list, spec: dict) -> float:
    """The starting difficulty b of a question of `kind` asking `claims` about `spec`."""
    players = len(spec.get("players") or [])
    zones = sum(
        1
        for player_zones in (spec.get("zones") or {}).values()
        if isinstance(player_zones, dict)
        for cards in player_zones.values()
        if cards
    )
    estimate = (
        KIND_PRIOR.get(kind, 0.0)
        + PER_CLAIM * (len(claims) - 1)
        + PER_ZONE * (zones - 2)
        + PER_PLAYER * (players - 2)
    )
    return round(max(-PRIOR_BOUND, min(PRIOR_BOUND, estimate)), 2)

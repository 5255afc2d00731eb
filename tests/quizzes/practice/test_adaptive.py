from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from quizzes.practice import adaptive

reals = st.floats(min_value=-8, max_value=8, allow_nan=False)


def test_k_factor_starts_at_one_and_shrinks():
    assert adaptive.k_factor(0) == 1.0
    assert adaptive.k_factor(20) == 0.5
    assert adaptive.k_factor(10) > adaptive.k_factor(11)


def test_predicted_success_is_half_when_skill_meets_difficulty():
    assert adaptive.predicted_success(1.5, 1.5) == 0.5


def test_target_difficulty_gives_seventy_percent():
    assert math.isclose(adaptive.predicted_success(0.3, adaptive.target_difficulty(0.3)), 0.7)


@given(reals, reals, st.integers(min_value=0, max_value=500))
def test_right_answer_raises_skill_and_lowers_difficulty(theta, b, n):
    assert adaptive.updated_theta(theta, b, True, n) > theta
    assert adaptive.updated_difficulty(theta, b, True, n) < b


@given(reals, reals, st.integers(min_value=0, max_value=500))
def test_wrong_answer_lowers_skill_and_raises_difficulty(theta, b, n):
    assert adaptive.updated_theta(theta, b, False, n) < theta
    assert adaptive.updated_difficulty(theta, b, False, n) > b


def test_update_is_k_times_surprise():
    # P = 0.5, correct: theta moves by K(0) * 0.5
    assert adaptive.updated_theta(0.0, 0.0, True, 0) == 0.5
    assert adaptive.updated_theta(0.0, 0.0, True, 20) == 0.25


def test_mastery_uses_the_median_difficulty():
    assert adaptive.mastery(1.0, adaptive.median_difficulty([0.0, 1.0, 50.0])) == 0.5
    assert adaptive.mastery(0.0, adaptive.median_difficulty([])) == 0.5


def test_mastered_needs_both_level_and_evidence():
    assert adaptive.is_mastered(0.95, 5)
    assert not adaptive.is_mastered(0.95, 4)
    assert not adaptive.is_mastered(0.85, 50)


@given(st.floats(min_value=-700, max_value=700))
def test_sigmoid_is_stable_and_bounded(x):
    assert 0.0 <= adaptive.sigmoid(x) <= 1.0


def board(players: int, zones_each: int) -> dict:
    zone_names = ["library", "hand", "graveyard", "battlefield", "exile"][:zones_each]
    return {
        "players": [f"P{n}" for n in range(players)],
        "zones": {f"P{n}": {zone: ["Island"] for zone in zone_names} for n in range(players)},
    }


CLAIM = {"claim": "finds", "card": "x"}


def test_a_prior_grows_with_claims_zones_and_players():
    plain = adaptive.prior_difficulty("cards", [CLAIM], board(2, 1))
    assert adaptive.prior_difficulty("cards", [CLAIM] * 3, board(2, 1)) > plain
    assert adaptive.prior_difficulty("cards", [CLAIM], board(2, 3)) > plain
    assert adaptive.prior_difficulty("cards", [CLAIM], board(4, 1)) > plain


def test_a_prior_depends_on_how_the_question_is_answered():
    spec = board(2, 2)
    assert adaptive.prior_difficulty("value", [CLAIM], spec) < adaptive.prior_difficulty(
        "legal_set", [CLAIM], spec
    )


@given(
    kind=st.sampled_from(sorted(adaptive.KIND_PRIOR)),
    claims=st.integers(1, 40),
    players=st.integers(0, 8),
    zones=st.integers(0, 5),
)
def test_a_prior_stays_within_its_bounds(kind, claims, players, zones):
    prior = adaptive.prior_difficulty(kind, [CLAIM] * claims, board(players, zones))
    assert -adaptive.PRIOR_BOUND <= prior <= adaptive.PRIOR_BOUND

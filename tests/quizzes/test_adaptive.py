from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from quizzes import adaptive

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
    assert adaptive.mastery(1.0, [0.0, 1.0, 50.0]) == 0.5
    assert adaptive.mastery(0.0, []) == 0.5


def test_mastered_needs_both_level_and_evidence():
    assert adaptive.is_mastered(0.95, 5)
    assert not adaptive.is_mastered(0.95, 4)
    assert not adaptive.is_mastered(0.85, 50)


@given(st.floats(min_value=-700, max_value=700))
def test_sigmoid_is_stable_and_bounded(x):
    assert 0.0 <= adaptive.sigmoid(x) <= 1.0

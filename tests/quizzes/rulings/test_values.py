"""One value comparison for every grader, generator and export."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from quizzes.rulings.values import same

scalars = st.one_of(st.booleans(), st.integers(-5, 5), st.text(max_size=3), st.none())


def test_a_whole_number_equals_its_float():
    assert same(1, 1.0) and same([0, 4], (0.0, 4))


def test_a_bool_is_never_a_number():
    assert not same(True, 1) and not same(0, False) and not same([True], [1])


def test_a_string_is_not_a_number():
    assert not same("3", 3)


@given(st.lists(scalars, max_size=4))
def test_a_value_equals_itself_as_a_list_or_a_tuple(values):
    assert same(values, tuple(values)) and same(tuple(values), values)


@given(scalars, scalars)
def test_the_comparison_is_symmetric(a, b):
    assert same(a, b) == same(b, a)

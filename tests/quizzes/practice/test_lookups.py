"""`AnyOf`: a column among a list of ids, sent as one parameter, on either database."""

from __future__ import annotations

import pytest

from quizzes.models import Question
from quizzes.practice.lookups import AnyOf
from tests.quizzes.conftest import make_question

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("start_here", [True, False])
def test_any_of_keeps_the_listed_ids_and_exclude_keeps_the_others(scenario, bank, start_here):
    first, second, third = (make_question(scenario, bank) for _ in range(3))
    listed = AnyOf("id", {first.pk, third.pk}, start_here=start_here)
    assert set(Question.objects.filter(listed)) == {first, third}
    assert set(Question.objects.exclude(listed)) == {second}


def test_an_empty_list_matches_nothing(scenario, bank):
    question = make_question(scenario, bank)
    assert not Question.objects.filter(AnyOf("id", [])).exists()
    assert list(Question.objects.exclude(AnyOf("id", []))) == [question]

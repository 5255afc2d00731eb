"""bench.selection builds its bank and measures what it says (the timing itself is bench-only):
the queries of one pick, and plans that never read the whole question table."""

from __future__ import annotations

import random

import pytest
from django.db import connection

from bench import selection as bench
from quizzes.models import Question, Response

pytestmark = pytest.mark.django_db


@pytest.fixture
def built():
    rng = random.Random(1)
    rules, bank, scenarios, fresh, seasoned = bench.setup_base(rng)
    bench.grow_bank(bank, rules, scenarios, 0, 600, rng)
    bench.answer_some(seasoned, rules, rng, count=40)
    return rules, fresh, seasoned


def test_the_bank_and_the_answers_are_built(built):
    assert Question.objects.count() == 600
    assert Question.rules.through.objects.count() == 600
    assert Response.objects.count() == 40


@pytest.mark.parametrize("who", ["fresh", "seasoned"])
def test_a_pick_takes_two_queries_and_walks_an_index(built, who):
    rules, fresh, seasoned = built
    measured = bench.time_case(fresh if who == "fresh" else seasoned, None, 2, with_plans=True)
    # a learner with answers: this bank's rules are of no topic of the study plan
    # (quizzes/practice/topics.py), so a missing topic is looked for first, in vain: the mix's
    # first wish, asked in the same query as the next (was a query of its own: 3)
    assert measured["queries"] == 2
    assert len(measured["plans"]) == 2
    if connection.vendor == "sqlite":  # PostgreSQL may scan 600 rows by cost: bench at 100k
        assert not measured["question_scan"]
        assert any("question_by_difficulty" in query["plan"] for query in measured["plans"])

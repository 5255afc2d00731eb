"""bench.imports builds the file it times from the seed content, and the file imports (the
timing itself is bench-only: `python -m bench.imports`)."""

from __future__ import annotations

import json

import pytest

from bench import imports as bench
from quizzes.instructors import interchange
from quizzes.models import Question, Scenario
from quizzes.practice import question_topics
from tests.factories import BankFactory, RuleFactory

pytestmark = pytest.mark.django_db


def test_the_bench_file_imports_in_bulk(instructor, django_assert_max_num_queries):
    content = bench.bank_file(12)
    assert len(json.loads(content)["scenarios"]) == 12
    bank = BankFactory(owner=instructor)
    plan = interchange.check_import(instructor, bank, content, "bench.json")
    # bulk: not a query per scenario or question (the variants: what is stored, the versions,
    # and the rows in batches)
    with django_assert_max_num_queries(24):
        report = interchange.do_import(instructor, bank, plan)
    assert len(report.created) == 12 == Scenario.objects.filter(bank=bank).count()
    assert all(s.current_version.number == 1 for s in Scenario.objects.filter(bank=bank))
    assert Question.objects.filter(bank=bank).count() >= 12


def test_imported_questions_come_with_their_topics(instructor):
    """An import links rules in bulk, with no signal: each question's topics are written with
    it (quizzes/practice/question_topics.py), so there is nothing left to store."""
    for number in [f"701.23{letter}" for letter in "abcdefghijk"] + ["701.24a", "701.24b"]:
        RuleFactory(number=number)  # what the file's questions cite, so they link rules
    bank = BankFactory(owner=instructor)
    plan = interchange.check_import(instructor, bank, bench.bank_file(4), "bench.json")
    interchange.do_import(instructor, bank, plan)
    assert Question.objects.filter(bank=bank).exclude(topics=0).exists()
    assert question_topics.store() == 0

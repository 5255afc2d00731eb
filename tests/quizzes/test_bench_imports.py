"""bench.imports builds the file it times from the seed content, and the file imports (the
timing itself is bench-only: `python -m bench.imports`)."""

from __future__ import annotations

import json

import pytest

from bench import imports as bench
from quizzes.instructors import interchange
from quizzes.models import Question, Scenario
from tests.factories import BankFactory

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

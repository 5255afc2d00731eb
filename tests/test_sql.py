"""config/sql.py: what hand-written queries read back is what the ORM gives, on either database."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.utils import timezone

from config import sql
from quizzes.models import Mastery
from tests.factories import QuestionFactory, RuleFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_dates_flags_and_documents_read_back_as_the_orm_gives_them():
    user, rule = UserFactory(), RuleFactory()
    due = timezone.now().replace(microsecond=123456)
    Mastery.objects.create(user=user, rule=rule, fsrs_card={"state": 2}, due=due)
    row = sql.first(
        "SELECT due, fsrs_card, user_id = %s FROM quizzes_mastery WHERE due >= %s",
        [user.pk, sql.at(due)],
    )
    assert sql.moment(row[0]) == due and timezone.is_aware(sql.moment(row[0]))
    assert sql.document(row[1]) == {"state": 2}
    assert sql.flag(row[2]) is True
    assert sql.moment(None) is None and sql.flag(None) is None
    assert sql.day("2026-12-01") == datetime.date(2026, 12, 1)


def test_placeholders_for_none_match_nothing():
    QuestionFactory()
    assert sql.placeholders([1, 2]) == "%s, %s"
    empty = f"SELECT COUNT(*) FROM quizzes_question WHERE id IN ({sql.placeholders([])})"
    assert sql.first(empty) == (0,)


def test_statistics_are_refreshed_after_a_load_on_postgresql(django_assert_num_queries):
    QuestionFactory.create_batch(3)
    with django_assert_num_queries(1 if connection.vendor == "postgresql" else 0):
        sql.refresh_statistics()
    if connection.vendor == "postgresql":  # the planner now knows the rows are there
        (rows,) = sql.first("SELECT reltuples FROM pg_class WHERE relname = 'quizzes_question'")
        assert rows >= 3

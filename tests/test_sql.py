"""config/sql.py: what hand-written queries read back is what the ORM gives, on either database."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.utils import timezone

from config import sql
from quizzes.models import Mastery, Presentation
from quizzes.practice.selection_sql import learner_rows
from tests.factories import (
    BankFactory,
    QuestionFactory,
    RuleFactory,
    ScenarioFactory,
    UserFactory,
)
from tests.quizzes.conftest import land_tutor_spec, make_question

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


def test_an_insert_stores_what_create_stores(db):
    user = UserFactory()
    question = make_question(ScenarioFactory(spec=land_tutor_spec()), BankFactory())
    moment = timezone.now() - datetime.timedelta(minutes=3)
    values = {
        "user": user,
        "question": question,
        "scenario_version_id": None,
        "shown": {"spec": {"players": ["Alice"]}, "claims": [{"claim": "shuffles"}], "seed": 4},
        "filters": "level=L2",
        "created_at": moment,
    }
    created = Presentation.objects.create(token="by-the-orm", **values)
    inserted = Presentation(token="by-hand", **values)
    sql.insert(inserted)
    assert inserted.pk is not None and inserted.pk != created.pk
    assert not inserted._state.adding
    stored = {
        row.pop("token"): row
        for row in Presentation.objects.values(
            "token", "user_id", "question_id", "shown", "scenario_version_id", "filters",
            "created_at",
        )
    }  # fmt: skip
    assert stored["by-hand"] == stored["by-the-orm"]
    assert Presentation.objects.get(pk=inserted.pk).token == "by-hand"


def test_an_insert_fills_the_defaults(db):
    """The token and the moment a presentation gets by default, as `create` would give them."""
    presentation = Presentation(
        user=UserFactory(),
        question=make_question(ScenarioFactory(spec=land_tutor_spec()), BankFactory()),
        shown={},
    )
    sql.insert(presentation)
    stored = Presentation.objects.get(pk=presentation.pk)
    assert stored.token == presentation.token and len(stored.token) >= 32
    assert stored.created_at == presentation.created_at


def test_a_prepared_query_reads_back_as_an_unprepared_one(django_assert_num_queries):
    user, rule = UserFactory(), RuleFactory()
    due = timezone.now().replace(microsecond=654321)
    Mastery.objects.create(user=user, rule=rule, fsrs_card={"state": 1}, due=due)
    query = "SELECT due, fsrs_card, theta, user_id = %s FROM quizzes_mastery WHERE due >= %s"
    params = [user.pk, sql.at(due)]
    with django_assert_num_queries(2) as captured:
        unprepared = sql.first(query, params)
        prepared = sql.first(query, params, prepared=True)
    assert prepared == unprepared
    assert sql.moment(prepared[0]) == due and sql.document(prepared[1]) == {"state": 1}
    # the query log shows the prepared query with its values, as any other query
    logged = captured.captured_queries[1]["sql"]
    assert logged == captured.captured_queries[0]["sql"] and str(user.pk) in logged
    assert sql.rows(query, params, prepared=True) == [unprepared]
    if connection.vendor == "postgresql":  # parsed and planned once, on the server
        statements = sql.rows("SELECT statement FROM pg_prepared_statements")
        assert any("FROM quizzes_mastery WHERE due >= $2" in text for (text,) in statements)


def test_a_prepared_query_is_planned_once():
    """A prepared query is planned the first time and that plan reused (generic), never
    planned again for each run's values (PostgreSQL's own choice, custom plans, planned the
    learner's rows on every page). SQLite prepares nothing: the runs only agree there."""
    user = UserFactory()
    Mastery.objects.create(user=user, rule=RuleFactory(), fsrs_card={}, due=timezone.now())
    runs = [learner_rows(user.pk, 150, (2, 4), timezone.now(), 30) for _ in range(8)]
    assert all(run == runs[0] for run in runs) and any(r.source == "mastery" for r in runs[0])
    if connection.vendor == "postgresql":
        plans = sql.rows(
            "SELECT generic_plans, custom_plans FROM pg_prepared_statements"
            " WHERE statement LIKE '%%ROW_NUMBER()%%'"
        )
        assert plans == [(8, 0)]


def test_a_prepared_statement_runs_in_the_callers_transaction():
    from django.db import transaction

    user, rule = UserFactory(), RuleFactory()
    Mastery.objects.create(user=user, rule=rule, fsrs_card={}, due=timezone.now())
    update = "UPDATE quizzes_mastery SET answers = answers + 1 WHERE user_id = %s"
    with pytest.raises(RuntimeError), transaction.atomic():
        assert sql.run(update, [user.pk], prepared=True) == 1
        raise RuntimeError("rolled back")
    assert Mastery.objects.get(user=user).answers == 0  # rolled back with the transaction
    assert sql.run(update, [user.pk], prepared=True) == 1
    assert Mastery.objects.get(user=user).answers == 1

"""config/model_rows.py: an instance read from hand-written SQL is the one the ORM makes."""

from __future__ import annotations

import pytest

from config import sql
from config.model_rows import Columns
from quizzes.models import Question, Scenario
from tests.factories import BankFactory, ScenarioFactory
from tests.quizzes.conftest import land_tutor_spec, make_question

pytestmark = pytest.mark.django_db


def test_an_instance_read_by_hand_is_the_orms():
    scenario = ScenarioFactory(spec=land_tutor_spec(), engine_status="agrees")
    question = make_question(scenario, BankFactory(), difficulty=0.25, is_active=False)
    for model, pk in ((Question, question.pk), (Scenario, scenario.pk)):
        columns = Columns(model, "t")
        row = sql.first(f"SELECT {columns.sql} FROM {model._meta.db_table} t WHERE t.id = %s", [pk])
        by_hand, by_orm = columns.read(row), model.objects.get(pk=pk)
        for field in model._meta.concrete_fields:
            assert getattr(by_hand, field.attname) == getattr(by_orm, field.attname), field.name
        assert not by_hand._state.adding and by_hand == by_orm


def test_skipped_columns_are_deferred_and_an_unmatched_join_reads_none():
    scenario = ScenarioFactory(spec=land_tutor_spec())
    columns = Columns(Scenario, "s", skip=("spec",))
    query = (
        f'SELECT {columns.sql} FROM (SELECT 1 AS one) x LEFT JOIN "quizzes_scenario" s'
        ' ON s."id" = %s'
    )
    read = columns.read(sql.first(query, [scenario.pk]))
    assert "spec" in read.get_deferred_fields() and read.spec == scenario.spec  # read on use
    assert columns.read(sql.first(query, [scenario.pk + 1000])) is None

"""config/sql.py's model helpers read and store rows as the ORM does, on either database."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from config import sql
from quizzes.models import Presentation, Question, Scenario
from tests.factories import BankFactory, ScenarioFactory, UserFactory
from tests.quizzes.conftest import land_tutor_spec, make_question

pytestmark = pytest.mark.django_db


def test_an_instance_read_by_hand_is_the_orms(db):
    scenario = ScenarioFactory(spec=land_tutor_spec(), engine_status="agrees")
    question = make_question(scenario, BankFactory(), difficulty=0.25, is_active=False)
    for model, pk in ((Question, question.pk), (Scenario, scenario.pk)):
        query = f"SELECT {sql.columns(model, 't')} FROM {model._meta.db_table} t WHERE t.id = %s"
        row = sql.first(query, [pk])
        by_hand, by_orm = sql.instance(model, row), model.objects.get(pk=pk)
        for field in model._meta.concrete_fields:
            assert getattr(by_hand, field.attname) == getattr(by_orm, field.attname), field.name
        assert not by_hand._state.adding and by_hand == by_orm


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

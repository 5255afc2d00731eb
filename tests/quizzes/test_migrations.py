"""The versions migration gives rows that predate it their scenario's version: each scenario's
content becomes its current version, and what was answered, served or drawn points at it."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.factories import simple_spec

BEFORE = [("quizzes", "0008_question_by_difficulty")]
AFTER = [("quizzes", "0009_scenario_versions")]


@pytest.mark.django_db(transaction=True)
def test_existing_rows_get_their_scenarios_version():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    apps = executor.loader.project_state(BEFORE).apps
    user = apps.get_model("auth", "User").objects.create(username="old-learner")
    bank = apps.get_model("quizzes", "Bank").objects.create(slug="old", title="Old")
    scenario = apps.get_model("quizzes", "Scenario").objects.create(
        slug="old-one", title="Old one", source="s", spec=simple_spec("old-one"), version=3
    )
    question = apps.get_model("quizzes", "Question").objects.create(
        scenario=scenario, bank=bank, kind="value", prompt="?", claims=[]
    )
    attempt = apps.get_model("quizzes", "Attempt").objects.create(user=user)
    apps.get_model("quizzes", "Response").objects.create(
        attempt=attempt, question=question, user=user
    )

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)
    apps = executor.loader.project_state(AFTER).apps
    migrated = apps.get_model("quizzes", "Scenario").objects.get(slug="old-one")
    version = migrated.current_version
    assert (version.number, version.spec, version.title) == (3, simple_spec("old-one"), "Old one")
    response = apps.get_model("quizzes", "Response").objects.get()
    assert response.scenario_version_id == version.pk

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())  # back to the latest for the suite

"""Migrations run in a straight line: one leaf per app and no merge migrations (nothing had been
deployed when they were squashed into fresh initial ones, so a new branch starts from the leaf)."""

from __future__ import annotations

from importlib import import_module
from io import StringIO

import pytest
from django.core.cache import caches
from django.core.management import call_command
from django.db import connection
from django.db.migrations.loader import MigrationLoader

APPS = ("rules", "quizzes")
CACHE_TABLES = import_module("quizzes.migrations.0002_cache_tables")


def test_each_app_has_one_line_of_migrations():
    graph = MigrationLoader(None).graph  # the files only, no database
    for app in APPS:
        leaves = graph.leaf_nodes(app)
        assert len(leaves) == 1, leaves
        for key, node in graph.nodes.items():
            if key[0] == app:
                same_app = [parent for parent in node.dependencies if parent[0] == app]
                assert len(same_app) <= 1, f"{key} merges {same_app}"


def tables() -> set[str]:
    return set(connection.introspection.table_names())


@pytest.mark.django_db(transaction=True)
def test_migrate_alone_makes_the_database_cache_table_once(settings):
    """Caches sharing one table (as the throttles, the shared values and LTI's launches do
    without Redis): `migrate` makes it, says nothing of a table that "already exists", and a
    second run of the migration's step leaves the table and its rows alone. Every database cache
    of the settings is pointed at the test's own table: unwinding the migration drops the tables
    it names, and the other tests' table must outlive this one."""
    table = {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "t_cache"}
    settings.CACHES = {
        alias: table if "DatabaseCache" in cache["BACKEND"] else cache
        for alias, cache in settings.CACHES.items()
    } | {"throttle": table, "shared": table}
    before = tables()
    try:
        call_command("migrate", "quizzes", "0001", verbosity=0)
        assert "t_cache" not in tables()
        out = StringIO()
        call_command("migrate", "quizzes", verbosity=1, stdout=out)
        assert "t_cache" in tables()
        assert "already exists" not in out.getvalue()
        caches["throttle"].set("kept", 1)
        with connection.schema_editor() as editor:
            CACHE_TABLES.create_cache_tables(None, editor)
        assert caches["shared"].get("kept") == 1
    finally:
        with connection.schema_editor() as editor:
            CACHE_TABLES.drop_cache_tables(None, editor)
    assert "t_cache" not in tables()
    assert before <= tables()  # e.g. the throttles' table, which the other tests log in through

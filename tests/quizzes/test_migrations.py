"""Migrations run in a straight line: one leaf per app and no merge migrations (nothing had been
deployed when they were squashed into fresh initial ones, so a new branch starts from the leaf)."""

from __future__ import annotations

from django.db.migrations.loader import MigrationLoader

APPS = ("rules", "quizzes")


def test_each_app_has_one_line_of_migrations():
    graph = MigrationLoader(None).graph  # the files only, no database
    for app in APPS:
        leaves = graph.leaf_nodes(app)
        assert len(leaves) == 1, leaves
        for key, node in graph.nodes.items():
            if key[0] == app:
                same_app = [parent for parent in node.dependencies if parent[0] == app]
                assert len(same_app) <= 1, f"{key} merges {same_app}"

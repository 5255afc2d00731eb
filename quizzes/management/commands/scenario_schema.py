"""`manage.py scenario_schema [--write]`: the scenario/1 JSON Schema (quizzes/rulings/schema.py);
`--write` puts it in static/api/scenario-1.json, the published file a test holds to it."""

from __future__ import annotations

import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

from quizzes.rulings.schema import SCHEMA_ID, scenario_schema

PUBLISHED = Path(settings.BASE_DIR) / "static" / "api" / SCHEMA_ID


def schema_text() -> str:
    return json.dumps(scenario_schema(), indent=2, ensure_ascii=False) + "\n"


class Command(BaseCommand):
    help = "Print the scenario/1 JSON Schema, or --write it to static/api/scenario-1.json."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser) -> None:
        parser.add_argument("--write", action="store_true", help=f"write {PUBLISHED.name}")

    def handle(self, *args, write: bool, **options) -> None:
        if write:
            PUBLISHED.parent.mkdir(parents=True, exist_ok=True)
            PUBLISHED.write_text(schema_text(), encoding="utf-8")
            self.stdout.write(f"wrote {PUBLISHED.relative_to(settings.BASE_DIR)}")
        else:
            self.stdout.write(schema_text(), ending="")

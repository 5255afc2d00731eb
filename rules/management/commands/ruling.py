"""`manage.py ruling FILE.json [--check]`: print the engine's ruling for a scenario.

Pure: it reads a file and calls rules.engine; it never touches the database.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from rules.engine import ScenarioError, check_expectations, parse_scenario, ruling_report


class Command(BaseCommand):
    help = "Compute the ruling for a scenario/1 JSON file; --check compares it with `expect`."
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="path to a scenario/1 JSON file")
        parser.add_argument(
            "--check", action="store_true", help="exit non-zero naming each `expect` mismatch"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        try:
            spec = json.loads(path.read_text(encoding="utf-8"))
        except OSError as error:
            raise CommandError(f"{path}: can't read the file ({error.strerror})") from error
        except json.JSONDecodeError as error:
            raise CommandError(f"{path}: malformed JSON: {error}") from error
        try:
            scenario = parse_scenario(spec)
            report = ruling_report(scenario)  # what the rulings API answers too (docs/api.md)
            mismatches = check_expectations(scenario) if options["check"] else []
        except ScenarioError as error:
            raise CommandError(f"{path}: {error}") from error
        self.stdout.write(json.dumps(report, indent=2, ensure_ascii=False))
        if not options["check"]:
            return
        for mismatch in mismatches:
            self.stderr.write(f"MISMATCH {mismatch.message}")
        if mismatches:
            raise CommandError(
                f"{path.name}: {len(mismatches)} of {len(scenario.expect)} expected claim(s) "
                "disagree"
            )
        self.stdout.write(f"OK {path.name}: all {len(scenario.expect)} expected claim(s) agree")

"""List every scenario whose stored ruling the engine disagrees with (or rejects); exit 1 if any."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from quizzes import authoring
from quizzes.models import Bank, Scenario


class Command(BaseCommand):
    help = (
        "Check every scenario (or those of one bank) with the engine as it is now; list each one "
        "the engine disagrees with or rejects, with every mismatch. Exits 1 when any is flagged."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--bank", help="Only the scenarios of the bank with this slug.")

    def handle(self, *args, bank: str | None, **options) -> None:
        scenarios = Scenario.objects.order_by("slug")
        if bank:
            found = Bank.objects.filter(slug=bank).first()
            if found is None:
                raise CommandError(f"No bank with the slug {bank!r}.")
            scenarios = Scenario.objects.in_bank(found).order_by("slug")
        entries = authoring.lint(scenarios)
        for entry in entries:
            self.stdout.write(f"FLAGGED {entry.scenario.slug} ({entry.status})")
            for problem in entry.problems:
                self.stdout.write(f"  {problem}")
        checked = scenarios.count()
        if entries:
            raise CommandError(
                f"{len(entries)} of {checked} scenario(s) flagged by the engine.", returncode=1
            )
        self.stdout.write(f"{checked} scenario(s) checked: the engine agrees with every one.")

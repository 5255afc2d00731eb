"""List every scenario whose stored ruling the engine disagrees with (or rejects); exit 1 if any.
Spells cast when the rules don't allow are listed as warnings, which don't fail the command."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from quizzes.instructors import lint
from quizzes.models import Bank, Scenario


class Command(BaseCommand):
    help = (
        "Check every scenario (or those of one bank) with the engine as it is now; list each one "
        "the engine disagrees with or rejects, with every mismatch, and warn of each spell cast "
        "when the rules don't allow. Exits 1 when any is flagged (warnings alone don't)."
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
        entries = lint.lint(scenarios)
        flagged = [entry for entry in entries if entry.flagged]
        for entry in entries:
            if entry.flagged:
                self.stdout.write(f"FLAGGED {entry.scenario.slug} ({entry.status})")
            for problem in entry.problems:
                self.stdout.write(f"  {problem}")
            for warning in entry.warnings:
                self.stdout.write(
                    f"WARNING {entry.scenario.slug} ({warning.path}, CR {warning.rule}): "
                    f"{warning.reason}"
                )
        checked = scenarios.count()
        if flagged:
            raise CommandError(
                f"{len(flagged)} of {checked} scenario(s) flagged by the engine.", returncode=1
            )
        self.stdout.write(f"{checked} scenario(s) checked: the engine agrees with every one.")

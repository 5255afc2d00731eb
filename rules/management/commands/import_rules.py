"""`manage.py import_rules FILE.txt`: take the Comprehensive Rules text file as the current rules.

The file is the one Wizards of the Coast publishes ("These rules are effective as of ...",
the contents, the numbered rules, the glossary). Each rule's official wording replaces the
stored text (a labelled summary, or an older edition's), renumbered rules are found by their
text and moved with their citations and aliases, and the command reports what moved.
"""

from __future__ import annotations

import datetime
import re
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from rules.models import ImportReport, Rule

RULE_LINE = re.compile(r"^(\d{3}\.\d+[a-z]?)\.?\s+(.+)$")
EFFECTIVE = re.compile(r"effective as of (\w+ \d{1,2}, \d{4})", re.IGNORECASE)


def read_rules_text(text: str) -> tuple[datetime.date | None, dict[str, str]]:
    """The effective date and {number: text} of a Comprehensive Rules text file.

    A rule's text runs to the next blank line or rule ("Example:" lines are part of it); the
    contents list sections without sub-numbers and the glossary has none, so neither is read.
    """
    match = EFFECTIVE.search(text)
    date = datetime.datetime.strptime(match.group(1), "%B %d, %Y").date() if match else None
    rules: dict[str, str] = {}
    number = None
    seen_rules = False
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            number = None
            continue
        if seen_rules and line in ("Glossary", "Credits"):
            break
        found = RULE_LINE.match(line)
        if found:
            number, body = found.groups()
            rules[number] = body
            seen_rules = True
        elif number is not None:
            rules[number] += "\n" + line
    return date, rules


def _decode(data: bytes) -> str:
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise CommandError("the file is neither UTF-8 nor Windows-1252 text")


class Command(BaseCommand):
    help = "Import the Comprehensive Rules text file: official texts, effective date, renumbering."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the Comprehensive Rules as a .txt file")
        parser.add_argument("--edition", default="", help='a name such as "Edge of Eternities"')
        parser.add_argument("--dry-run", action="store_true", help="report without saving")

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        try:
            text = _decode(path.read_bytes())
        except OSError as error:
            raise CommandError(f"{path}: {error.strerror}") from error
        date, rules = read_rules_text(text)
        if not rules:
            raise CommandError(f"{path.name}: no numbered rules found (is it the CR text file?)")
        when = f"effective {date:%Y-%m-%d}" if date else "undated"
        name = f"Comprehensive Rules {when}" + (
            f" ({options['edition']})" if options["edition"] else ""
        )
        report = Rule.objects.import_edition(
            rules,
            name,
            date,
            f"Comprehensive Rules text file ({path.name})",
            dry_run=options["dry_run"],
        )
        self._print(name, len(rules), report, options["dry_run"])

    def _print(self, name: str, read: int, report: ImportReport, dry_run: bool) -> None:
        out = self.stdout.write
        out(f"{name}: {read} rules read{' (dry run: nothing saved)' if dry_run else ''}")
        for old, new in report.moved:
            out(f"moved: {old} -> {new} (citations and aliases follow; {old} is now an alias)")
        out(f"official text replaces the stored one: {len(report.replaced)}")
        for number in report.replaced:
            out(f"  {number}")
        out(f"unchanged: {len(report.unchanged)}")
        if report.missing:
            out(f"not in this file, kept as they are: {', '.join(report.missing)}")
        for old, new in report.conflicts:
            out(f"CONFLICT: {old} reads like {new}, but {new} is another current rule; not moved")

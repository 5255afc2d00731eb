"""Generate questions from the scenario families (docs/families.md), idempotently."""

from __future__ import annotations

import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from config import sql
from quizzes.loading import CONTENT_DIR, ContentError
from quizzes.loading.generated import generate
from quizzes.loading.read import GENERATED_BANK
from quizzes.models import Question


class Command(BaseCommand):
    help = (
        "Expand every scenario family into engine-ruled scenarios and questions in the generated "
        "bank (run load_content first). The same seed gives the same questions; a second run "
        "changes nothing."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--content-dir", type=Path, default=CONTENT_DIR)
        parser.add_argument("--seed", type=int, default=settings.TUTOR_FAMILY_SEED)
        parser.add_argument("--per-family", type=int, default=settings.TUTOR_FAMILY_INSTANCES)

    def handle(self, *args, content_dir: Path, seed: int, per_family: int, **options) -> None:
        if per_family < 1:
            raise CommandError("--per-family must be 1 or more")
        start = time.monotonic()
        bar = _Bar(self.stdout) if self.stdout.isatty() else None
        try:
            report = generate(content_dir, seed, per_family, progress=bar.step if bar else None)
        except ContentError as error:
            raise CommandError(f"Nothing generated. {error}") from error
        if bar:
            bar.done()
        sql.refresh_statistics()
        write_summary(self.stdout, report, time.monotonic() - start)


def write_summary(out, report, seconds: float) -> None:
    """The counts both commands print."""
    active = Question.objects.filter(bank__slug=GENERATED_BANK["slug"], is_active=True)
    rules = active.values("rules").exclude(rules=None).distinct().count()
    out.write(
        f"families: {len(report.expansions)}, instances: {report.instances}, "
        f"questions: {active.count()} active in {GENERATED_BANK['slug']}, "
        f"rules: {rules}, in {seconds:.1f} s"
    )
    changes = [
        f"{model} {status} {count}"
        for (model, status), count in sorted(report.load.changes.items())
        if status != "unchanged" and count
    ]
    out.write("generated changes: " + (", ".join(changes) or "none"))


class _Bar:
    """A progress bar on a terminal: families expanded of all."""

    WIDTH = 30

    def __init__(self, out) -> None:
        self.out = out

    def step(self, done: int, total: int, family: str) -> None:
        filled = self.WIDTH * done // max(total, 1)
        bar = "#" * filled + "-" * (self.WIDTH - filled)
        self.out.write(f"\r[{bar}] {done}/{total} {family[:40]:40}", ending="")
        self.out.flush()

    def done(self) -> None:
        self.out.write("")

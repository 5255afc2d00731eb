"""Large imports in the background (django-tasks, the database backend; docs/deployment.md): the
request stores the file in an `ImportJob` and returns at once, a worker (`manage.py db_worker`)
runs `interchange.checking` then `.saving`, writing the job's progress as it goes; the page
polls it (htmx, or a refresh link without script).

All-or-nothing holds as in the request: the save is one transaction. Its progress is written
from a connection of its own on PostgreSQL, so the page sees it while the transaction is open;
SQLite has one writer at a time, so there the save shows its progress when it ends (the check,
the engine's long part, shows it as it goes on both).
"""

from __future__ import annotations

import json
import logging
from typing import Any

from django.db import DatabaseError, connection, connections
from django.utils import timezone
from django.utils.translation import gettext as _

from quizzes import limits
from quizzes.instructors import interchange
from quizzes.models import ImportJob

# Files with this many scenarios or more are imported in the background; smaller ones stream.
BACKGROUND_FROM = 50
PROGRESS_EVERY = 10  # a progress write every this many scenarios (and at each phase's end)


def scenario_count(content: bytes) -> int:
    """How many scenarios a Tutor JSON file holds (0 for anything else: it streams, and the
    streamed page reports its problems)."""
    try:
        data = json.loads(content)
    except (ValueError, UnicodeDecodeError):
        return 0
    scenarios = data.get("scenarios") if isinstance(data, dict) else data
    return len(scenarios) if isinstance(scenarios, list) else 0


def runs_in_background(content: bytes) -> bool:
    return scenario_count(content) >= BACKGROUND_FROM


def jobs_of(user, bank):
    return ImportJob.objects.owned_by(user).filter(bank=bank)


def do_store(user, bank, content: bytes, filename: str, on_existing: str, details: bool):
    """The job, stored to be queued (`quizzes.tasks.start_import`)."""
    return ImportJob.objects.create(
        bank=bank,
        user=user,
        filename=filename[:255],
        content=content[: limits.MAX_IMPORT_BYTES],
        on_existing=on_existing,
        take_bank_details=details,
        total=scenario_count(content),
    )


class _Progress:
    """Writes a job's progress: on its own connection inside the save's transaction
    (PostgreSQL), else on the task's."""

    def __init__(self, job: ImportJob) -> None:
        self.job = job
        self.side = None

    def write(self, **fields: Any) -> None:
        if not connection.in_atomic_block:
            ImportJob.objects.filter(pk=self.job.pk).update(**fields)
            return
        if connection.vendor != "postgresql":
            return  # SQLite: one writer at a time; the save's end writes it
        if self.side is None:
            self.side = connections.create_connection("default")
        sets = ", ".join(f'"{name}" = %s' for name in fields)
        with self.side.cursor() as cursor:
            cursor.execute(
                f'UPDATE "{ImportJob._meta.db_table}" SET {sets} WHERE "id" = %s',
                [*fields.values(), self.job.pk],
            )

    def close(self) -> None:
        if self.side is not None:
            self.side.close()


def _steps(work, progress: _Progress):
    while True:
        try:
            phase, done, total = next(work)
        except StopIteration as finished:
            return finished.value
        if done == total or done % PROGRESS_EVERY == 0:
            progress.write(phase=phase, done=done, total=total)


def _scenario(scenario) -> dict:
    return {
        "title": scenario.title,
        "get_engine_status_display": str(scenario.get_engine_status_display()),
        "version": scenario.version,
    }


def run(job_id: int) -> None:
    """The worker's part: check, save, keep the result on the job."""
    job = ImportJob.objects.select_related("bank", "user").get(pk=job_id)
    if job.status != ImportJob.Status.QUEUED:
        return  # run already (a task delivered twice)
    job.started_at = timezone.now()
    ImportJob.objects.filter(pk=job.pk).update(
        status=ImportJob.Status.RUNNING, started_at=job.started_at
    )
    progress = _Progress(job)
    result: dict[str, Any]
    status = ImportJob.Status.DONE
    try:
        checks = interchange.checking(
            job.user, job.bank, bytes(job.content), job.filename, on_existing=job.on_existing
        )
        plan = _steps(checks, progress)
        saving = interchange.saving(job.user, job.bank, plan, job.take_bank_details)
        report = _steps(saving, progress)
    except interchange.InterchangeError as error:
        problems = [str(problem) for problem in error.problems]
        status, result = ImportJob.Status.FAILED, {"problems": problems, "more": error.more}
    except DatabaseError as error:
        refused = _("The database refused the import: %(error)s") % {"error": error}
        status, result = ImportJob.Status.FAILED, {"problems": [refused], "more": 0}
    else:
        result = {
            "created": [_scenario(scenario) for scenario in report.created],
            "updated": [_scenario(scenario) for scenario in report.updated],
            "renamed": [list(pair) for pair in report.renamed],
            "bank_details": report.bank_details,
        }
    finally:
        progress.close()
    ImportJob.objects.filter(pk=job.pk).update(
        status=status, result=result, finished_at=timezone.now(), content=b""
    )
    logging.getLogger("tutor.content").info(
        "import job %s: %s", job.pk, status, extra={"bank": job.bank.slug, "user": job.user_id}
    )


def result_context(job: ImportJob) -> dict:
    """The result template's context (`_import_result.html`) once the job has finished."""
    if not job.finished or job.result is None:
        return {}
    if job.status == ImportJob.Status.FAILED:
        return {"problems": job.result.get("problems", []), "more": job.result.get("more", 0)}
    return {"report": job.result}

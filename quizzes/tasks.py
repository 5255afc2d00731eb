"""Background tasks (django-tasks; run by `manage.py db_worker`, docs/deployment.md)."""

from __future__ import annotations

from django.db import transaction
from django_tasks import task

from quizzes.instructors import import_jobs


@task()
def run_import(job_id: int) -> None:
    """A large bank import (quizzes/instructors/import_jobs.py)."""
    import_jobs.run(job_id)


def start_import(user, bank, content: bytes, filename: str, on_existing: str, details: bool):
    """Store a large import and queue it once the request's transaction commits."""
    job = import_jobs.do_store(user, bank, content, filename, on_existing, details)
    transaction.on_commit(lambda: run_import.enqueue(job.pk))
    return job

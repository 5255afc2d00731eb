"""Background tasks (django-tasks; run by `manage.py db_worker`, docs/deployment.md)."""

from __future__ import annotations

from django_tasks import task

from quizzes.instructors import import_jobs


@task()
def run_import(job_id: int) -> None:
    """A large bank import (quizzes/instructors/import_jobs.py)."""
    import_jobs.run(job_id)

"""Large imports in the background (issue 24, item 7): the request stores the job and returns;
a worker imports; the page shows the progress, then the result."""

from __future__ import annotations

import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from quizzes.instructors import import_jobs
from quizzes.models import ImportJob, Scenario
from tests.quizzes.instructor_fixtures import document

pytestmark = pytest.mark.django_db(transaction=True)

DATABASE_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


def upload(count: int, broken: int | None = None) -> SimpleUploadedFile:
    documents = [document(f"s-{index}") for index in range(count)]
    if broken is not None:
        documents[broken]["zones"] = {"Alice": {"library": ["Islnd"]}}
    body = json.dumps({"format": "tutor-bank/1", "scenarios": documents}).encode()
    return SimpleUploadedFile("big.json", body, "application/json")


def test_a_large_import_returns_at_once_and_a_worker_runs_it(teacher_client, own_bank, settings):
    settings.TASKS = DATABASE_TASKS
    count = import_jobs.BACKGROUND_FROM
    reply = teacher_client.post(
        reverse("bank_import", args=[own_bank.slug]), {"file": upload(count)}
    )
    job = ImportJob.objects.get()
    assert reply.status_code == 302 and reply.url == reverse(
        "bank_import_job", args=["week-1", job.pk]
    )
    assert job.status == ImportJob.Status.QUEUED and job.total == count
    assert not Scenario.objects.exists(), "nothing imported in the request"
    page = teacher_client.get(reply.url).content.decode()
    assert "Waiting for a worker" in page and 'hx-trigger="every 1s"' in page
    assert ">Refresh</a>" in page  # without script

    call_command("db_worker", "--batch", "--no-startup-delay", stdout=io.StringIO())
    job.refresh_from_db()
    assert job.status == ImportJob.Status.DONE and job.done == count and job.seconds is not None
    assert Scenario.objects.filter(bank=own_bank).count() == count
    assert job.content == b"" or bytes(job.content) == b"", "the file is not kept once imported"
    fragment = teacher_client.get(reply.url, headers={"hx-request": "true"}).content.decode()
    assert f"{count} new scenarios" in fragment and "every 1s" not in fragment


def test_a_bad_large_file_imports_nothing_and_says_why(teacher_client, own_bank):
    """ImmediateBackend (the tests' setting): the job runs within the request."""
    url = reverse("bank_import", args=[own_bank.slug])
    reply = teacher_client.post(url, {"file": upload(import_jobs.BACKGROUND_FROM, broken=7)})
    job = ImportJob.objects.get()
    assert job.status == ImportJob.Status.FAILED
    page = teacher_client.get(reply.url).content.decode()
    assert "Nothing was imported" in page and "scenarios[7].zones.Alice.library[0]" in page
    assert not Scenario.objects.exists()


def test_a_small_file_still_streams(teacher_client, own_bank):
    reply = teacher_client.post(reverse("bank_import", args=[own_bank.slug]), {"file": upload(2)})
    assert reply.streaming and not ImportJob.objects.exists()


def test_another_instructors_job_is_not_found(teacher_client, own_bank, other_instructor, client):
    teacher_client.post(reverse("bank_import", args=[own_bank.slug]), {"file": upload(50)})
    job = ImportJob.objects.get()
    client.force_login(other_instructor)
    assert client.get(reverse("bank_import_job", args=[own_bank.slug, job.pk])).status_code == 404

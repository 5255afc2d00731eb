"""Issue #24 item 7 in a browser: a large bank file is imported in the background. The request
returns at once to a page with a progress bar; a worker runs the job (here the database
backend's worker, called from the test); the page, polling with htmx, shows the report without
a reload. Without script the Refresh link does the same."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from quizzes.instructors import import_jobs
from quizzes.models import ImportJob, Scenario
from tests.browser.conftest import serious_violations
from tests.browser.test_import_journey import upload
from tests.browser.test_instructor_journey import bank, log_in  # noqa: F401
from tests.quizzes.instructor_fixtures import document

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

COUNT = import_jobs.BACKGROUND_FROM


def test_a_large_import_in_the_background(page, live_server, bank, tmp_path, settings):  # noqa: F811
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    log_in(page, live_server.url)
    data = [document(f"big-{index}") for index in range(COUNT)]
    upload(page, live_server.url, tmp_path, "big.json", data)
    page.wait_for_url("**/banks/week-1/import/*/")
    page.screenshot(path="/tmp/exams24-shots/9-import-queued.png", full_page=True)
    status = page.get_by_role("status")
    assert "Waiting for a worker" in status.inner_text()
    assert page.locator("#job-progress progress").count() == 1
    assert Scenario.objects.filter(bank=bank).count() == 1, "nothing imported by the request"
    assert serious_violations(page) == [], "import queued"
    page.evaluate("window.stillTheSamePage = true")

    call_command("db_worker", "--batch", "--no-startup-delay", stdout=io.StringIO())
    assert ImportJob.objects.get().status == ImportJob.Status.DONE
    page.get_by_role("status").filter(has_text=f"{COUNT} new scenarios").wait_for()
    assert page.evaluate("window.stillTheSamePage") is True, "htmx brought the result"
    assert Scenario.objects.filter(bank=bank).count() == COUNT + 1
    assert serious_violations(page) == [], "import done"
    page.screenshot(path="/tmp/exams24-shots/10-import-done.png", full_page=True)


def test_the_refresh_link_without_script(chromium, live_server, bank, tmp_path, settings):  # noqa: F811
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    context = chromium.new_context(java_script_enabled=False)
    page = context.new_page()
    try:
        log_in(page, live_server.url)
        path = tmp_path / "big.json"
        path.write_text(json.dumps([document(f"big-{index}") for index in range(COUNT)]))
        page.goto(f"{live_server.url}/banks/week-1/import/")
        page.get_by_label("Bank file (JSON)").set_input_files(str(path))
        page.get_by_role("button", name="Import").click()
        page.wait_for_url("**/banks/week-1/import/*/")
        call_command("db_worker", "--batch", "--no-startup-delay", stdout=io.StringIO())
        page.get_by_role("link", name="Refresh").click()
        page.get_by_role("status").filter(has_text=f"{COUNT} new scenarios").wait_for()
    finally:
        context.close()

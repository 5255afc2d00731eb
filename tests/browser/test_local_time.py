"""The exam clock's deadline in the viewer's own time zone, to the second (static/js)."""

from __future__ import annotations

import datetime
import re

import pytest

from quizzes.models import Attempt
from tests.factories import UserFactory

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("content"),  # the seed content (tests/browser/conftest.py)
]


@pytest.fixture
def tokyo_page(chromium):
    context = chromium.new_context(timezone_id="Asia/Tokyo", locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def start_an_exam(page, live_server):
    """A candidate logged in on `page`, at the first question of the quick check."""
    UserFactory(username="candidate", password="a-long-pass-9")
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill("candidate")
    page.get_by_label("Password").fill("a-long-pass-9")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_load_state()
    page.goto(f"{live_server.url}/exams/")
    page.get_by_role("button", name=re.compile("Start Searching")).click()
    page.wait_for_url(re.compile(r".*/exams/\d+/q/1/$"))
    return page


def test_the_deadline_shows_in_local_time_with_seconds(tokyo_page, live_server):
    page = start_an_exam(tokyo_page, live_server)
    deadline = Attempt.objects.get(kind="exam").deadline
    in_tokyo = deadline.astimezone(datetime.timezone(datetime.timedelta(hours=9)))
    shown = page.locator("#exam-clock time").inner_text()
    assert shown.startswith(in_tokyo.strftime("%H:%M:%S")), shown
    assert "UTC" not in shown


def test_when_an_exam_was_sat_shows_in_local_time(tokyo_page, live_server):
    """The report and the list of past exams gave the start in UTC with no zone ("03 Dec 2026
    09:37" for a candidate in New York; found walking an exam)."""
    page = start_an_exam(tokyo_page, live_server)
    page.goto(page.url.split("/q/")[0] + "/")
    page.get_by_role("button", name="Finish the exam").click()
    page.wait_for_load_state()
    started = Attempt.objects.get(kind="exam").started_at
    in_tokyo = started.astimezone(datetime.timezone(datetime.timedelta(hours=9)))
    clock = (in_tokyo.strftime("%H:%M"), in_tokyo.strftime("%I:%M"))  # 24 or 12 hours
    report = page.locator("main .eyebrow time").inner_text()
    page.goto(f"{live_server.url}/exams/")
    listed = page.locator("main table time").first.inner_text()
    for shown in (report, listed):  # in the page's language: "December 4, 2026 at 03:12 AM GMT+9"
        assert f"{in_tokyo:%B} {in_tokyo.day}, {in_tokyo.year}" in shown, shown
        assert any(time in shown for time in clock) and "GMT+9" in shown, shown
        assert "UTC" not in shown

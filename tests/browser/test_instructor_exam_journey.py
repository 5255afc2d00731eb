"""Issue #24's exam "Done when", in one real browser journey: an instructor makes an exam from
their own bank, assigns it to a cohort and gives one learner extra time; that learner sits it
(a wrong answer, by the key as it stood); the instructor corrects the key in the scenario's
JSON (version 2), previews the regrade and confirms it; the learner's report says so, the
cohort page shows the exam met, and the results CSV carries the regraded score and the old one.
Screenshots go to $SCREENSHOTS (default /tmp/exams24-shots) to be looked at."""

from __future__ import annotations

import copy
import csv
import io
import json
import os
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from quizzes.instructors import cohorts, saving
from quizzes.models import Bank, ExamSitting, SittingRegrade
from tests.browser.conftest import serious_violations
from tests.browser.test_instructor_cohort_versions import PASSWORD, log_in, nav
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(os.environ.get("SCREENSHOTS", "/tmp/exams24-shots"))
# Rampant Growth finds a basic land card: as first written the Bolt can't be found ("cannot").
DOCUMENT = {
    "format": "scenario/1",
    "id": "rampant-bolt",
    "title": "Rampant Growth and a Bolt",
    "source": "CR 701.23a",
    "players": ["Alice", "Nadia"],
    "cards": [],
    "zones": {"Alice": {"library": ["Island#i1", "Lightning Bolt#b1"]}},
    "history": [],
    "resolve": {"cast": "Rampant Growth", "by": "Alice"},
    "expect": [{"claim": "finds", "card": "b1", "value": "cannot"}],
    "stored_ruling": "Rampant Growth finds only a basic land card.",
}


def corrected() -> str:
    """The instructor meant a Swamp there: the key becomes "may find"."""
    document = copy.deepcopy(DOCUMENT)
    document["zones"]["Alice"]["library"] = ["Island#i1", "Swamp#b1"]
    document["expect"] = [{"claim": "finds", "card": "b1", "value": "may"}]
    document["stored_ruling"] = "Rampant Growth may find the Swamp, a basic land card."
    return json.dumps(document, indent=2)


@pytest.fixture
def people(content, settings):
    settings.QUIZZES_VARIANTS = False  # the board as written
    with open("/dev/null", "w") as quiet:
        call_command("make_instructor", "mentor", "--password", PASSWORD, stdout=quiet)
    mentor = get_user_model().objects.get(username="mentor")
    bank = Bank.objects.create(slug="week-2", title="Week 2: searches", owner=mentor)
    checked = saving.check_save_scenario(mentor, bank, json.dumps(DOCUMENT))
    saving.do_save_scenario(mentor, bank, checked)
    cohort = cohorts.do_create_cohort(mentor, "Thursday mentees")
    for name in ("ann", "ben"):
        cohorts.do_join(UserFactory(username=name, password=PASSWORD), cohort)
    SHOTS.mkdir(parents=True, exist_ok=True)


def shot(page, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def make_the_exam(page) -> None:
    nav(page, "Exams you set")
    page.get_by_role("link", name="New exam").click()
    page.get_by_label("Title").fill("Week 2 check")
    page.get_by_label("Week 2: searches").check()
    page.get_by_label("Questions").fill("1")
    page.get_by_label("Time limit (minutes)").fill("10")
    page.get_by_label("Pass mark (%)").fill("100")
    page.get_by_label("Sittings allowed (empty: no limit)").fill("1")
    page.get_by_label("Hours between two starts").fill("0")
    assert serious_violations(page) == [], "exam form"
    shot(page, "1-exam-form")
    page.get_by_role("button", name="Save the exam").click()
    page.get_by_role("heading", name="Week 2 check").wait_for()
    page.get_by_label("Cohort", exact=True).select_option(label="Thursday mentees")
    page.get_by_role("button", name="Assign the exam").click()
    page.locator(".assignments", has_text="Thursday mentees").wait_for()
    page.get_by_label("Learner", exact=True).select_option(label="ann")
    page.get_by_label("Extra minutes per sitting").fill("15")
    page.get_by_role("button", name="Save the accommodation").click()
    page.locator(".accommodations", has_text="ann: 15 extra minutes").wait_for()
    assert serious_violations(page) == [], "exam page"
    shot(page, "2-exam-page")


def sit_the_exam(page, base: str) -> None:
    log_in(page, base, "ann")
    nav(page, "Exams")
    exam = page.locator(".exam-blueprint", has_text="Week 2 check")
    exam.get_by_role("button", name="Start").click()
    page.wait_for_url("**/q/1/")
    # 10 minutes and ann's 15 more
    assert "25 minutes left" in page.locator(".exam-bar").inner_text()
    shot(page, "3-learner-question")
    page.locator(".board fieldset.marks label.mark-may").first.click()  # wrong, by the old key
    page.get_by_role("button", name="Save my answer").click()
    page.get_by_role("button", name="Finish the exam").click()
    page.get_by_role("heading", name="Your score: 0%").wait_for()


def correct_the_key(page) -> None:
    nav(page, "Banks")
    page.get_by_role("link", name="Week 2: searches").click()
    page.get_by_role("link", name="Rampant Growth and a Bolt").click()
    page.locator(".json-panel summary").click()
    page.locator("#id_document").fill(corrected())
    with page.expect_response(lambda reply: reply.request.method == "POST") as saving_:
        page.get_by_role("button", name="Save the JSON").click()
    assert saving_.value.status == 302, page.locator("[role=alert]").all_inner_texts()
    page.wait_for_url("**/?saved=1")


def regrade(page) -> None:
    nav(page, "Exams you set")
    page.get_by_role("link", name="Week 2 check").click()
    preview = page.locator(".regrade-preview")
    text = preview.inner_text()
    assert "ann" in text and "Question 1: wrong → right" in text
    assert "0%" in text and "100% (passed)" in text
    assert not SittingRegrade.objects.exists(), "a preview changes nothing"
    shot(page, "4-regrade-preview")
    preview.get_by_role("button", name="Regrade these sittings").click()
    page.get_by_role("status").filter(has_text="Regraded: 1 sitting").wait_for()
    assert "was 0%, now 100%" in page.locator(".exam-results").inner_text()
    assert serious_violations(page) == [], "regraded"
    shot(page, "5-regraded")


def test_an_exam_made_sat_corrected_and_regraded(chromium, live_server, people):
    base = live_server.url
    contexts = [chromium.new_context(viewport={"width": 1200, "height": 900}) for _ in range(2)]
    mentor, ann = (context.new_page() for context in contexts)
    for page in (mentor, ann):
        page.set_default_timeout(15_000)
    try:
        log_in(mentor, base, "mentor")
        make_the_exam(mentor)
        sit_the_exam(ann, base)
        sitting = ExamSitting.objects.get(attempt__user__username="ann")
        assert sitting.extra_minutes == 15 and sitting.right_count == 0

        correct_the_key(mentor)
        regrade(mentor)

        ann.reload()
        ann.locator(".regrade-note", has_text="it is now 100%").wait_for()
        assert "Your score: 100%" in ann.locator("h1").inner_text()
        assert "of 25 min used" in ann.locator(".stats").inner_text()
        shot(ann, "6-learner-report")
        ann.get_by_role("link", name="Question 1: Rampant Growth and a Bolt").click()
        ann.locator(".regrade-note", has_text="right by the corrected version").wait_for()

        # the cohort page: ann has met the exam, ben has not sat it
        nav(mentor, "Cohorts")
        mentor.get_by_role("link", name="Thursday mentees").click()
        rows = mentor.locator(".instructor-table tbody tr")
        assert "passed (1 of 1)" in rows.filter(has_text="ann").inner_text()
        assert "not sat yet" in rows.filter(has_text="ben").inner_text()
        shot(mentor, "7-cohort")

        # the results CSV, downloaded as the instructor would
        nav(mentor, "Exams you set")
        mentor.get_by_role("link", name="Week 2 check").click()
        with mentor.expect_download() as download:
            mentor.get_by_role("link", name="Results (CSV)").click()
        text = Path(download.value.path()).read_text()
        rows = list(csv.DictReader(io.StringIO(text)))
        assert len(rows) == 1
        row = rows[0]
        assert row["learner"] == "ann" and row["attempt"] == "1"
        assert row["passed"] == "yes" and row["score_percent"] == "100"
        assert row["regraded"] == "yes" and row["score_percent_before_regrade"] == "0"
        assert row["extra_minutes"] == "15" and float(row["minutes_used"]) < 25

        # the paper quiz: no navigation printed, card texts open, the key after the questions
        mentor.get_by_role("link", name="Print a draw as a paper quiz").click()
        mentor.emulate_media(media="print")
        assert not mentor.locator(".site-header").is_visible()
        closed = mentor.locator(".print-quiz details:not([open])").count()
        assert closed == 0
        shot(mentor, "8-paper-quiz")
        assert mentor.locator(".answer-key", has_text="may").count() == 1
    finally:
        for context in contexts:
            context.close()

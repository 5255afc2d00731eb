"""An instructor takes a colleague's Moodle XML into a bank in a browser: a file with a question
Tutor can't take is refused naming it, nothing saved; Moodle's own fixture imports, and its
questions are answered with the key shown only after; axe finds no serious violations."""

from __future__ import annotations

from pathlib import Path

import pytest

from quizzes.models import ImportedQuestion
from tests.browser.conftest import serious_violations
from tests.browser.test_instructor_journey import bank, log_in  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FIXTURES = Path(__file__).parents[1] / "quizzes" / "instructors" / "moodle_fixtures"


def upload(page, name: str) -> None:
    page.get_by_label("Moodle XML file").set_input_files(str(FIXTURES / name))
    page.get_by_role("button", name="Import").click()
    page.wait_for_load_state()


def test_import_moodle_xml_and_practise_it(page, live_server, bank):  # noqa: F811
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/banks/week-1/")
    assert page.locator("main a[href$='/moodle.xml']").count() >= 1
    page.get_by_role("link", name="Moodle XML: import, and what the export leaves out").click()
    page.wait_for_url("**/banks/week-1/moodle/")
    assert serious_violations(page) == [], "Moodle page"

    upload(page, "categories_reverse_order.xml")
    alert = page.get_by_role("alert")
    assert "Nothing was imported" in alert.inner_text()
    assert "Tau Question: essay questions are not imported" in alert.inner_text()
    assert not ImportedQuestion.objects.exists()
    assert serious_violations(page) == [], "Moodle import problems"

    upload(page, "old_format_file.xml")
    page.wait_for_url("**/practice/banks/week-1/imported/?added=2")
    assert "2 questions imported." in page.get_by_role("status").inner_text()
    page.get_by_role("link", name="Pi Question").click()
    assert page.locator(".imported-key").count() == 0  # no key before the answer
    assert serious_violations(page) == [], "imported question"
    page.get_by_label("True").check()
    page.get_by_role("button", name="Answer").click()
    page.wait_for_load_state()
    assert "Your mark: 100%" in page.get_by_role("status").inner_text()
    assert page.locator(".imported-key").inner_text().startswith("true")
    assert serious_violations(page) == [], "imported question answered"

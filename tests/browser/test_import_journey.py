"""An instructor imports a bank file in a browser: every problem listed, nothing saved; then a
good file with the progress bar and the report, the bank keeping its title unless asked to take
the file's; axe finds no serious violations."""

from __future__ import annotations

import json

import pytest

from quizzes.models import Bank, Scenario
from tests.browser.conftest import serious_violations
from tests.browser.test_instructor_journey import bank, log_in  # noqa: F401
from tests.quizzes.instructor_fixtures import document

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def upload(page, base_url: str, tmp_path, name: str, data, take_title: bool = False) -> None:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    page.goto(f"{base_url}/banks/week-1/import/")
    page.get_by_label("Bank file (JSON)").set_input_files(str(path))
    if take_title:
        page.get_by_label("Take the bank's title and description from the file").check()
    page.get_by_role("button", name="Import").click()
    page.wait_for_load_state()


def test_import_a_bank_file(page, live_server, bank, tmp_path):  # noqa: F811
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/banks/week-1/import/")
    assert page.get_by_label("Replace that scenario", exact=False).is_checked()
    assert serious_violations(page) == [], "import form"

    bad = [document("one", title=""), document("two", zones={"Alice": {"library": ["Islnd"]}})]
    upload(page, live_server.url, tmp_path, "bad.json", bad)
    alert = page.get_by_role("alert")
    assert "Nothing was imported" in alert.inner_text()
    assert "bad.json: scenarios[0].title" in alert.inner_text()
    assert "bad.json: scenarios[1].zones.Alice.library[0]" in alert.inner_text()
    assert Scenario.objects.filter(bank__slug="week-1").count() == 1
    assert serious_violations(page) == [], "import problems"

    good = {
        "format": "tutor-bank/1",
        "bank": {"title": "Week 1, imported", "description": "From a file."},
        "scenarios": [document(f"new-{n}") for n in range(3)] + [document("tutor-three")],
    }
    upload(page, live_server.url, tmp_path, "good.json", good)
    status = page.get_by_role("status")
    assert "3 new scenarios, 1 replaced" in status.inner_text()
    bar = page.locator(".import-step progress")
    assert bar.count() >= 2 and page.locator(".import-step:visible").count() == 1
    assert page.locator(".import-step:visible").inner_text().endswith("4 of 4 saved")
    assert Bank.objects.get(slug="week-1").title == "Week 1: searching"  # not asked to take it
    assert serious_violations(page) == [], "import report"

    assert page.locator(".eyebrow:visible").inner_text() == "Week 1: searching"

    upload(page, live_server.url, tmp_path, "good.json", good, take_title=True)
    assert "now the file's: Week 1, imported" in page.get_by_role("status").inner_text()
    assert Bank.objects.get(slug="week-1").title == "Week 1, imported"
    header = page.locator(".eyebrow:visible")  # the page's header names the bank as it is now
    assert header.inner_text() == "Week 1, imported"
    heading = page.get_by_role("heading", name="Import scenarios")
    assert header.bounding_box()["y"] < heading.bounding_box()["y"]
    assert serious_violations(page) == [], "import report, the bank renamed"

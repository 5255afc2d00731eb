"""An instructor in a browser: open a bank, edit a scenario's JSON, watch the engine's preview
update without a reload, save; axe finds no serious violations on the bank and authoring pages."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Group

from config import roles
from quizzes.instructors import cohorts, saving
from quizzes.models import Bank, Scenario
from tests.browser.conftest import serious_violations
from tests.factories import BankFactory, UserFactory
from tests.quizzes.instructor_fixtures import text

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def bank(transactional_db):
    teacher = UserFactory(username="teacher", password="a-long-pass-9", is_staff=True)
    teacher.groups.add(Group.objects.create(name=roles.INSTRUCTORS_GROUP))
    bank = BankFactory(
        owner=teacher, slug="week-1", title="Week 1: searching", visibility=Bank.Visibility.SHARED
    )
    document = saving.check_save_scenario(teacher, bank, text("tutor-three"))
    saving.do_save_scenario(teacher, bank, document)
    return bank


def log_in(page, base_url: str) -> None:
    page.goto(f"{base_url}/accounts/login/")
    page.get_by_label("Username").fill("teacher")
    page.get_by_label("Password").fill("a-long-pass-9")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_load_state()


def test_edit_a_scenario_with_the_live_preview(page, live_server, bank):
    log_in(page, live_server.url)
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Banks").click()
    page.wait_for_url("**/banks/")
    page.get_by_role("link", name="Week 1: searching").click()
    page.wait_for_url("**/banks/week-1/")
    assert serious_violations(page) == [], "bank page"

    page.get_by_role("link", name="Demonic Tutor with three cards").click()
    page.wait_for_url("**/banks/week-1/scenarios/tutor-three/")
    preview = page.locator("#preview")
    assert "The engine agrees with the stored ruling" in preview.inner_text()
    assert serious_violations(page) == [], "authoring page"

    page.evaluate("window.stillTheSamePage = true")
    page.get_by_text("The scenario as JSON").click()  # the JSON beside the builder
    editor = page.get_by_label("Scenario JSON (scenario/1)")
    original = editor.input_value()
    broken = original.replace('"Island#i1"', '"Islnd#i1"')
    editor.fill(broken)
    page.locator("#preview", has_text="zones.Alice.library[0]").wait_for()
    assert "unknown card 'Islnd'" in preview.inner_text()
    assert editor.input_value() == broken  # nothing lost

    disagreeing = re.sub(r'"value": "yes"', '"value": "no"', original)
    editor.fill(disagreeing)
    page.locator("#preview", has_text="The engine disagrees").wait_for()
    assert "Stored: no; engine: yes" in preview.inner_text()
    assert page.evaluate("window.stillTheSamePage") is True  # htmx swapped, no reload
    assert serious_violations(page) == [], "authoring page with a disagreement"

    page.get_by_role("button", name="Save the scenario").click()
    page.wait_for_url("**/scenarios/tutor-three/?saved=1")
    assert "Saved (version 2)" in page.locator(".saved-note").inner_text()
    scenario = Scenario.objects.get(slug="tutor-three")
    assert scenario.engine_status == Scenario.EngineStatus.DISAGREES
    assert scenario.spec["expect"][0]["value"] == "no"


def test_the_instructors_tables_scroll_on_a_phone_not_the_page(chromium, live_server, bank):
    # found walking at 390 px: the banks table (536 px) and the cohort's learners table (642 px)
    # pushed the whole page sideways, header and footer left behind at the screen's width
    teacher = bank.owner
    cohort = cohorts.do_create_cohort(teacher, "Spring L1 class with a long name")
    cohorts.do_assign_banks(cohort, Bank.objects.filter(pk=bank.pk))
    cohorts.do_join(UserFactory(username="a-learner-with-a-long-username"), cohort)
    context = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    phone = context.new_page()
    log_in(phone, live_server.url)
    for path in ("/banks/", "/banks/week-1/", "/cohorts/", f"/cohorts/{cohort.pk}/"):
        phone.goto(f"{live_server.url}{path}")
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390 + 1, path
    assert serious_violations(phone) == [], "the cohort page on a phone"
    context.close()


def test_the_builders_fields_are_styled_like_every_other_field(page, live_server, bank):
    # found walking the builder: its inputs have no type attribute, so input[type=text] missed
    # them: 13 px text in 21 px boxes beside the 16 px, 44 px selects of the same form
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/banks/week-1/scenarios/new/")
    size = "el => [getComputedStyle(el).fontSize, el.getBoundingClientRect().height]"
    for field in ("#b-title", "#b-player-0", "#b-zone-0-library-0", "#b-choice-value-new"):
        font, height = page.locator(field).evaluate(size)
        assert font == page.locator("#b-active").evaluate(size)[0], field
        assert height >= 44, field

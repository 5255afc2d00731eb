"""The practice filter in a real browser: chosen with the keyboard, carried on by Next question
after an htmx answer; axe finds no serious violation with it open, on a desktop and on a phone;
a cohort's learner practises an assigned bank from the home page."""

from __future__ import annotations

import pytest

from quizzes.instructors import cohorts
from quizzes.models import Bank, Presentation
from tests.browser.conftest import serious_violations
from tests.browser.test_journey import answer_on_the_board, seeded  # noqa: F401
from tests.factories import BankFactory, UserFactory
from tests.quizzes.conftest import land_tutor_spec, make_question

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(page, live_server, username: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill("correct-horse-battery")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_load_state()


def test_choose_a_level_with_the_keyboard_and_keep_it(page, live_server, seeded):  # noqa: F811
    UserFactory(username="filterer")
    log_in(page, live_server, "filterer")
    page.goto(f"{live_server.url}/practice/")
    page.locator(".practice-filter summary").focus()
    page.keyboard.press("Enter")  # opens the filter
    page.get_by_label("Level").focus()
    page.get_by_label("Level").select_option("L2")
    page.get_by_role("button", name="Practise these").press("Enter")
    page.wait_for_url("**/practice/?level=L2**")
    assert serious_violations(page) == [], "practice page with the filter open"
    for _ in range(3):
        assert Presentation.objects.latest("created_at", "id").question.level == "L2"
        answer_on_the_board(page)
        page.get_by_role("button", name="Check my answer").click()
        page.locator("#feedback .feedback").wait_for()
        page.locator("#next-question").click()
        page.wait_for_url("**/practice/?level=L2**")


def test_the_filter_fits_a_phone(chromium, live_server, seeded):  # noqa: F811
    UserFactory(username="phone")
    context = chromium.new_context(viewport={"width": 375, "height": 740}, is_mobile=True)
    phone = context.new_page()
    log_in(phone, live_server, "phone")
    phone.goto(f"{live_server.url}/practice/?level=L1")
    assert serious_violations(phone) == []
    assert phone.evaluate("document.documentElement.scrollWidth") <= 375 + 1
    context.close()


def test_practise_an_assigned_bank_from_the_home_page(page, live_server):
    teacher = UserFactory(username="teacher")
    learner = UserFactory(username="member")
    bank = BankFactory(owner=teacher, title="Week 1", visibility=Bank.Visibility.SHARED)
    from tests.factories import ScenarioFactory

    for index in range(3):
        spec = land_tutor_spec(f"week-1-{index}")
        make_question(ScenarioFactory(slug=f"week-1-{index}", spec=spec), bank)
    cohort = cohorts.do_create_cohort(teacher, "Tuesday")
    cohorts.do_join(learner, cohort)
    cohorts.do_assign(cohort, bank=bank)
    log_in(page, live_server, "member")
    page.goto(f"{live_server.url}/")
    assert serious_violations(page) == [], "home page with an assignment"
    page.locator("a.button", has_text="Practise this bank").first.click()
    page.wait_for_url(f"**/practice/?bank={bank.slug}")
    assert Presentation.objects.latest("created_at", "id").question.bank == bank

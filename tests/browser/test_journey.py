"""Sign up, answer ten questions by clicking on the board, watch progress change."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from quizzes.models import Mastery, Question, Response
from tests.browser.conftest import serious_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BOARD_KINDS = [Question.Kind.CARDS, Question.Kind.LEGAL_SET]
ENGINE_WORDS = re.compile(
    r"\b[a-z]+(?:_[a-z0-9]+)+\b|\b[A-Z][a-z]+\.(?:library|hand|graveyard)\.\d+\b"
)


@pytest.fixture
def seeded(content):
    # The journey answers by clicking on the board: keep the questions answered that way.
    Question.objects.exclude(kind__in=BOARD_KINDS).update(is_active=False)
    assert Question.objects.filter(is_active=True).count() >= 2


def answer_on_the_board(page) -> None:
    marks = page.locator(".board fieldset.marks")
    if marks.count():
        for index in range(marks.count()):
            marks.nth(index).locator("label.mark-may").click()
    else:
        page.locator(".board label.card-pick:visible").first.click()


def sign_up(page, live_server, username: str) -> None:
    """A new learner signed up through the form, landing on practice."""
    page.goto(f"{live_server.url}/accounts/signup/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill("a-long-pass-9")
    page.get_by_label("Password confirmation").fill("a-long-pass-9")
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url("**/practice/")


def test_learner_journey(page, live_server, seeded):
    sign_up(page, live_server, "journey")

    page.goto(f"{live_server.url}/progress/")
    assert "No answers yet" in page.content()
    page.goto(f"{live_server.url}/practice/")
    assert serious_violations(page) == [], "question page"

    for number in range(10):
        assert not ENGINE_WORDS.findall(page.inner_text("main")), "the question in plain words"
        page.evaluate("window.tutorMarker = 'still here'")
        answer_on_the_board(page)
        page.get_by_role("button", name="Check my answer").click()
        page.locator("#feedback .feedback").wait_for()
        assert page.evaluate("window.tutorMarker") == "still here", "feedback without a reload"
        assert page.locator("#feedback-title").inner_text().startswith(("Right!", "Not quite"))
        assert page.evaluate("document.activeElement.id") == "feedback-title", "focus moves"
        assert not ENGINE_WORDS.findall(page.inner_text("#feedback")), "the ruling in plain words"
        if number == 0:
            assert serious_violations(page) == [], "feedback page"
        page.locator("#next-question").click()
        page.wait_for_load_state()

    assert Response.objects.filter(user__username="journey").count() == 10
    assert Mastery.objects.filter(user__username="journey").exists()
    page.goto(f"{live_server.url}/progress/")
    assert page.locator(".stat").first.inner_text().startswith("10")
    assert page.locator(".mastery-list li").count() >= 1
    assert serious_violations(page) == [], "progress page"


def test_phone_layout_has_no_serious_violations(chromium, live_server, seeded):
    context = chromium.new_context(viewport={"width": 375, "height": 740}, is_mobile=True)
    phone = context.new_page()
    phone.goto(f"{live_server.url}/")
    assert serious_violations(phone) == []
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 375 + 1, "no horizontal scrolling on a phone"
    context.close()


def test_an_answer_sent_back_with_errors_keeps_the_keyboard_at_the_error(page, live_server, seeded):
    """An upside-down range comes back beside its field, and focus goes there, not to <body>
    (the swapped form took the focused button with it; found walking the app)."""
    Question.objects.update(is_active=False)
    Question.objects.filter(kind=Question.Kind.COUNT_RANGE).update(is_active=True)
    sign_up(page, live_server, "ranges")
    page.get_by_label("At least").fill("3")
    page.get_by_label("At most").fill("0")
    page.get_by_role("button", name="Check my answer").click()
    page.locator("#answer-form .errors").wait_for()
    # Focus moves once htmx has settled the swap, a moment after the errors appear: wait for it.
    expect(page.locator('#answer-form input[name="high"]')).to_be_focused()
    assert page.locator("#feedback .feedback").count() == 0, "not graded"


def test_a_board_card_has_one_frame(page, live_server, seeded):
    """The card page's framed `.card-face` style once reached the board too: each card drew a
    second, misaligned border inside its own (found walking the app)."""
    sign_up(page, live_server, "frames")
    face = page.locator(".board .card-face").first
    assert face.evaluate("el => getComputedStyle(el).borderTopStyle") == "none"
    card = page.locator(".board .card").first
    assert card.evaluate("el => getComputedStyle(el).borderTopStyle") == "solid"

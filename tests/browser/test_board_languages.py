"""Issue 23: a German learner's board names a card without an official German name in English,
marked lang="en" with a visible mark; the cards that have one, their type lines and the board's
notes are German (a spell named in a card's notes is marked as its card is)."""

from __future__ import annotations

import pytest

from quizzes.rulings.names import has_translation, translations
from rules.models import Card
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def seeded(content):
    UserFactory(username="lernende", password="a-long-pass-9")


def test_a_german_board_marks_the_names_left_in_english(chromium, live_server, seeded):
    context = chromium.new_context(locale="de-DE", viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/accounts/login/")
    page.locator("input[name=username]").fill("lernende")
    page.locator("input[name=password]").fill("a-long-pass-9")
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()
    german = {translations(name).get("de") for name in Card.objects.values_list("name", flat=True)}
    english = translated = 0
    for _ in range(3):  # layers boards: Titanic Growth, Twisted Image, Diminish have no German name
        page.goto(f"{live_server.url}/practice/?plan=topic-layers")
        assert page.locator("html").get_attribute("lang") == "de"
        names = page.locator(".board .card-face .card-name")
        for index in range(names.count()):
            name = names.nth(index)
            text = name.inner_text().strip()
            mark = name.evaluate("e => getComputedStyle(e, '::after').content")
            if name.get_attribute("lang") is None:  # a German name: no mark
                translated += 1
                assert text in german, text
                assert mark in ("none", "normal"), text
            else:  # a name with no German one: English, marked
                english += 1
                assert name.get_attribute("lang") == "en", text
                assert not has_translation(text, "de"), text
                assert "EN" in mark, (text, mark)
        # a card's notes name the spells that resolved targeting it: marked like their cards
        for badge in page.locator(".board .card-face .badge").all():
            for inner in badge.locator("[lang]").all():
                assert inner.get_attribute("lang") == "en"
                assert not has_translation(inner.inner_text().strip(), "de")
        assert "loyalty" not in page.locator(".board").inner_text()
        assert "Creature —" not in page.locator(".board").evaluate(
            """b => { const c = b.cloneNode(true);
                c.querySelectorAll('[lang="en"]').forEach(e => e.remove()); return c.innerText; }"""
        )
    assert english and translated, (english, translated)
    context.close()

"""An instructor in a browser, without typing JSON: makes a card, builds a scenario around it
in the builder (card-name completion, a card moved with the keyboard), watches the engine's
ruling update live, ticks the claims to ask and saves it to their bank."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import Group

from config import roles
from quizzes.models import Bank, Question, Scenario
from rules.models import Card
from tests.browser.conftest import serious_violations
from tests.browser.test_instructor_journey import log_in
from tests.factories import BankFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FIND_GROVE = {"claim": "finds", "card": "g1", "value": "cannot"}


@pytest.fixture
def bank(transactional_db):
    teacher = UserFactory(username="teacher", password="a-long-pass-9")
    teacher.groups.add(Group.objects.create(name=roles.INSTRUCTORS_GROUP))
    return BankFactory(
        owner=teacher, slug="week-2", title="Week 2: lands", visibility=Bank.Visibility.SHARED
    )


def until(page, condition, seconds: float = 10) -> None:
    """Poll `condition` (page.wait_for_function evaluates strings, which the CSP forbids)."""
    for _ in range(int(seconds * 10)):
        if condition():
            return
        page.wait_for_timeout(100)
    raise AssertionError("the page never got there")


def grove_position(page) -> int:
    library = json.loads(page.locator("#id_document").input_value())["zones"]["Alice"]["library"]
    return library.index("Grove of Study#g1")


def make_the_grove_card(page) -> None:
    """A card, in the card form: a nonbasic Forest (no abilities to write)."""
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Cards").click()
    page.get_by_role("link", name="New card").click()
    page.get_by_label("Name").fill("Grove of Study")
    page.get_by_label("Land", exact=True).check()
    page.get_by_label("Subtypes").fill("Forest")
    page.get_by_label("Oracle text").fill("({T}: Add {G}.)")
    page.locator("#reading", has_text="Land — Forest; mana value 0").wait_for()
    assert serious_violations(page) == [], "card form"
    page.get_by_role("button", name="Save the card").click()
    page.get_by_role("heading", name="Grove of Study").wait_for()


def test_card_then_scenario_without_json(page, live_server, bank):
    log_in(page, live_server.url)

    make_the_grove_card(page)
    card = Card.objects.get(name="Grove of Study")
    assert card.owner == bank.owner

    # A scenario around it, in the builder.
    page.goto(f"{live_server.url}/banks/week-2/scenarios/new/")
    page.evaluate("window.stillTheSamePage = true")
    assert serious_violations(page) == [], "builder"
    page.get_by_label("Title", exact=True).fill("Rampant Growth and a nonbasic Forest")
    page.get_by_label("Id", exact=True).fill("rampant-grove")
    alice = page.get_by_role("group", name="Alice's zones")
    new_card = alice.get_by_label("Add a card to library (top first)")
    assert new_card.get_attribute("list") == "card-names"  # completion from the catalog
    assert page.locator('#card-names option[value="Grove of Study"]').count() == 1
    new_card.fill("Grove of Study#g1")
    new_card.press("Tab")
    page.locator("#preview", has_text="Grove of Study").wait_for()

    # Move it to the top with the keyboard: focus stays on its button, the move is announced.
    page.get_by_role("button", name="Move Grove of Study#g1 up").focus()
    for position in (2, 1, 0):
        page.keyboard.press("Enter")  # on the focused button, wherever the card now is
        page.locator("#builder-status", has_text=f"position {position + 1} of 4").wait_for()
        until(page, lambda position=position: grove_position(page) == position)
        until(
            page,
            lambda: page.evaluate("() => document.activeElement.dataset.move") in ("up", "down"),
        )

    # What resolves: Rampant Growth, which finds only a basic land card.
    what = page.get_by_label("What (a card's name or label; for a draw, the player)")
    what.fill("Rampant Growth")
    what.press("Tab")
    page.locator("#preview", has_text="Alice casts Rampant Growth").wait_for()
    assert page.evaluate("window.stillTheSamePage") is True  # htmx, no reload

    # Ask this: the Grove can't be found; drop the starter's count, which no longer holds.
    ticks = page.locator("#builder input[name='b-ask']")
    for index in range(ticks.count()):
        tick = ticks.nth(index)
        claim = json.loads(tick.get_attribute("value"))
        wanted = claim in (FIND_GROVE, {"claim": "shuffles", "player": "Alice", "value": "yes"})
        if tick.is_checked() != wanted:
            tick.click()
            page.wait_for_load_state("networkidle")
    page.locator("#preview", has_text="The engine agrees with the stored ruling").wait_for()
    sent = json.loads(page.locator("#id_document").input_value())
    assert FIND_GROVE in sent["expect"]
    assert serious_violations(page) == [], "builder with a live ruling"

    page.get_by_role("button", name="Save the scenario").click()
    page.wait_for_url("**/scenarios/rampant-grove/?saved=1")
    scenario = Scenario.objects.get(slug="rampant-grove")
    assert scenario.bank == bank and scenario.engine_status == Scenario.EngineStatus.AGREES
    assert FIND_GROVE in scenario.spec["expect"]
    assert scenario.spec["zones"]["Alice"]["library"][0] == "Grove of Study#g1"
    assert Question.objects.filter(bank=bank, scenario=scenario, is_active=True).exists()
    assert list(card.scenarios.all()) == [scenario]  # the card's page lists it


def test_typing_over_a_selected_field_as_the_builder_comes_back(page, live_server, bank):
    """The builder's re-render (another field's change) can arrive while a field's whole text is
    selected to be typed over: the typed text replaces it, as it would without the re-render."""
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/banks/week-2/scenarios/new/")
    held = []  # the preview's reply waits until the field is selected

    def hold(route):
        held.append(route)

    page.route("**/scenarios/new/preview/", hold)
    page.get_by_label("Title", exact=True).fill("Rampant Growth and a nonbasic Forest")
    scenario_id = page.get_by_label("Id", exact=True)
    scenario_id.focus()  # the title's change goes out
    until(page, lambda: bool(held))
    scenario_id.evaluate("field => field.select()")
    page.evaluate("window.swaps = 0; document.addEventListener('htmx:afterSettle', () => swaps++)")
    held[0].continue_()
    page.unroute("**/scenarios/new/preview/")
    until(page, lambda: page.evaluate("window.swaps") > 0)
    assert page.evaluate("document.activeElement.id") == "b-id"  # a new field, focused again
    page.keyboard.type("rampant-grove")
    assert scenario_id.input_value() == "rampant-grove"

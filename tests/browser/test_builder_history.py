"""An instructor builds an Archive Trap scenario with an earlier search in its history (Nadia
cracked a Polluted Delta this turn) in the builder, without touching JSON: once with JavaScript
(htmx sends each change; a half-filled step or choice is kept), once without (every button
posts the page). Screenshots of both go to the test's temporary folder."""

from __future__ import annotations

import json

import pytest

from quizzes.models import Scenario
from tests.browser.conftest import serious_violations
from tests.browser.test_authoring_without_json import bank, until  # noqa: F401 (a fixture)
from tests.browser.test_instructor_journey import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TRAP_FREE = {"claim": "alt_cost_available", "card": "trap", "player": "Alice", "value": True}
NADIA_SEARCHED = {"claim": "searched_library_this_turn", "player": "Nadia", "value": "yes"}
WANTED = (TRAP_FREE, NADIA_SEARCHED)
FETCHED = [{"activate": "delta", "by": "Nadia"}]


def sent(page) -> dict:
    return json.loads(page.locator("#id_document").input_value())


def add_card(page, player: str, zone: str, entry: str, javascript: bool) -> None:
    field = page.get_by_role("group", name=f"{player}'s zones").get_by_label(
        f"Add a card to {zone}"
    )
    field.fill(entry)
    if javascript:
        field.press("Tab")  # its change sends the builder
        page.locator("#preview .board", has_text=entry.split("#")[0]).first.wait_for()
    else:
        update(page)


def update(page) -> None:
    page.get_by_role("button", name="Update the preview", exact=True).last.click()
    page.wait_for_load_state()


def tick_only_the_wanted(page, javascript: bool) -> None:
    """Tick the two claims to ask and untick the rest (the starter's, which no longer hold),
    one at a time: with JavaScript each tick sends the builder, which comes back re-rendered."""
    while True:
        ticks = page.locator("#builder input[name='b-ask']").evaluate_all(
            "ticks => ticks.map(tick => [tick.value, tick.checked])"
        )
        wrong = next(
            (value for value, checked in ticks if checked != (json.loads(value) in WANTED)), None
        )
        if wrong is None:
            return
        page.locator(f"#builder input[name='b-ask'][value={json.dumps(wrong)}]").click()
        if javascript:
            page.wait_for_load_state("networkidle")


def build_archive_trap(page, base_url: str, javascript: bool, shots) -> None:
    log_in(page, base_url)
    page.goto(f"{base_url}/banks/week-2/scenarios/new/")
    page.get_by_label("Title", exact=True).fill("Archive Trap after a fetch land")
    page.get_by_label("Id", exact=True).fill("trap-after-delta")
    page.get_by_label("Source of the ruling", exact=True).fill("Archive Trap rulings")
    if not javascript:
        update(page)
    add_card(page, "Alice", "hand", "Archive Trap#trap", javascript)
    add_card(page, "Nadia", "graveyard", "Polluted Delta#delta", javascript)  # the board now
    for entry in ("Island#n1", "Swamp#n2", "Island#n3"):
        add_card(page, "Nadia", "library", entry, javascript)

    # Earlier this turn, field by field: Step, What, Tab, By, as an instructor types it.
    page.locator("#b-step-verb-new").select_option("activate")
    page.locator("#b-step-what-new").fill("delta")
    page.locator("#b-step-what-new").press("Tab")
    if javascript:
        page.locator("#b-step-by-new").fill("Nadia")
        page.get_by_role("button", name="Add the step").click()
        until(page, lambda: sent(page)["history"] == FETCHED)
    else:
        update(page)  # half filled: kept as a row, not yet in the scenario without its player
        assert page.locator("#b-step-what-0").input_value() == "delta"
        assert sent(page)["history"] == [{"activate": "delta"}]
        page.locator("#b-step-by-0").fill("Nadia")
        update(page)
        assert sent(page)["history"] == FETCHED
    assert page.locator("#b-step-verb-0").input_value() == "activate"
    assert page.locator("#b-step-by-0").input_value() == "Nadia"
    shots("history", "#b-step-add")

    # What resolves: Alice casts Archive Trap at Nadia.
    page.get_by_label("How", exact=True).select_option("cast")
    page.get_by_label("What (a card's name or label; for a draw, the player)").fill("trap")
    page.locator("#b-resolve-by").fill("Alice")
    page.locator("#b-resolve-targets").fill("Nadia")
    page.locator("#b-resolve-targets").press("Tab")
    if javascript:
        until(page, lambda: sent(page).get("resolve", {}).get("targets") == ["Nadia"])
    else:
        update(page)

    # The choice: its Player typed first, then something else changes the builder.
    page.locator("#b-choice-player-new").fill("Alice")
    if javascript:
        page.get_by_label("The ruling in words").fill("Nadia searched: Archive Trap is free.")
        page.get_by_label("The ruling in words").press("Tab")
        page.locator("#b-choice-player-0").wait_for()
    else:
        update(page)
    assert page.locator("#b-choice-player-0").input_value() == "Alice"  # kept, half filled
    page.locator("#b-choice-key-0").fill("alt_cost")
    page.locator("#b-choice-value-0").fill("true")
    page.locator("#b-choice-value-0").press("Tab")
    if javascript:
        until(page, lambda: sent(page)["resolve"].get("choices") == {"Alice": {"alt_cost": True}})
    else:
        update(page)
    assert sent(page)["resolve"]["choices"] == {"Alice": {"alt_cost": True}}
    assert sent(page)["history"] == FETCHED

    tick_only_the_wanted(page, javascript)
    if not javascript:
        update(page)
    page.locator("#preview", has_text="The engine agrees with the stored ruling").wait_for()
    shots("choices", "#b-choice-add")
    shots("ticked", "#preview-status")
    if javascript:  # axe runs in the page
        assert serious_violations(page) == [], "the builder with a history"

    page.get_by_role("button", name="Save the scenario").click()
    page.wait_for_url("**/scenarios/trap-after-delta/?saved=1")
    shots("saved")
    scenario = Scenario.objects.get(slug="trap-after-delta")
    assert scenario.spec["history"] == FETCHED
    assert scenario.spec["zones"]["Nadia"]["graveyard"] == ["Polluted Delta#delta"]
    assert scenario.spec["resolve"] == {
        "cast": "trap",
        "by": "Alice",
        "targets": ["Nadia"],
        "choices": {"Alice": {"alt_cost": True}},
    }
    assert sorted(scenario.spec["expect"], key=str) == sorted(WANTED, key=str)
    assert scenario.engine_status == Scenario.EngineStatus.AGREES


@pytest.fixture
def shots(tmp_path):
    def take(page, javascript: bool):
        def shot(name: str, near: str = "") -> None:
            """The viewport, scrolled to the part `near` names (a full page is too tall to read)."""
            page.wait_for_load_state("networkidle")  # the builder's last reply is in
            if near:
                # at once, with no wait for the part to be "stable" (a reply may re-render it)
                page.locator(near).first.evaluate("part => part.scrollIntoView({block: 'center'})")
            way = "js" if javascript else "nojs"
            page.screenshot(path=str(tmp_path / f"builder-{way}-{name}.png"))

        return shot

    return take


def test_archive_trap_with_a_history_with_javascript(page, live_server, bank, shots):  # noqa: F811
    page.goto(live_server.url)
    build_archive_trap(page, live_server.url, True, shots(page, True))


def test_archive_trap_with_a_history_without_javascript(
    chromium,
    live_server,
    bank,  # noqa: F811
    shots,
):
    context = chromium.new_context(
        viewport={"width": 1200, "height": 900}, java_script_enabled=False
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        build_archive_trap(page, live_server.url, False, shots(page, False))
    finally:
        context.close()

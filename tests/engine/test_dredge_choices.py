"""Fixed dredge choices on a draw (702.52a/b) and their misuse, and card-entry synonyms."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from rules.engine import ScenarioError, evaluate_claim, parse_scenario

SCENARIO = Path(__file__).parent / "redteam_scenarios" / "r2-dredge-troll-exact-six.json"


def troll_draw(**choices) -> dict:
    spec = json.loads(SCENARIO.read_text())
    spec["expect"] = []
    if choices:
        spec["resolve"] = {"draw": "Nadia", "choices": {"Nadia": choices}}
    return spec


def test_dredging_mills_n_and_returns_the_card():
    spec = troll_draw(dredge="troll")
    assert evaluate_claim(spec, {"claim": "mills", "player": "Nadia"}).value == 6
    assert evaluate_claim(spec, {"claim": "zone_after", "card": "troll"}).value == "hand"


def test_declining_dredge_is_a_normal_draw():
    spec = troll_draw(dredge=False)
    assert evaluate_claim(spec, {"claim": "zone_after", "card": "l1"}).value == "hand"
    assert evaluate_claim(spec, {"claim": "zone_after", "card": "troll"}).value == "graveyard"


def test_dredging_a_card_without_dredge_is_an_error():
    spec = troll_draw(dredge="l1")
    with pytest.raises(ScenarioError) as error:
        evaluate_claim(spec, {"claim": "zone_after", "card": "l1"})
    assert "dredge" in str(error.value)


def test_dredging_with_too_short_a_library_is_an_error_citing_702_52b():
    spec = troll_draw(dredge="troll")
    spec["zones"]["Nadia"]["library"].pop()
    with pytest.raises(ScenarioError) as error:
        evaluate_claim(spec, {"claim": "zone_after", "card": "troll"})
    assert "702.52b" in str(error.value)


def test_summoning_sick_is_control_since_the_controllers_turn_began():
    # 302.6: "under its controller's control continuously since their most recent turn began".
    elves = {"card": "Llanowar Elves", "label": "e", "summoning_sick": True}
    spec = {
        "format": "scenario/1",
        "id": "elves",
        "title": "Llanowar Elves",
        "source": "CR 302.6",
        "players": ["Alice", "Nadia"],
        "cards": [],
        "zones": {"Alice": {"battlefield": [elves]}},
        "history": [],
        "resolve": {"activate": "e", "by": "Alice"},
        "expect": [],
    }
    assert evaluate_claim(spec, {"claim": "mana_produced", "card": "e"}).value == ""
    # Arrived during an opponent's turn: not "entered this turn", still sick.
    earlier = copy.deepcopy(spec)
    earlier["zones"]["Alice"]["battlefield"][0]["entered_this_turn"] = False
    verdict = evaluate_claim(earlier, {"claim": "mana_produced", "card": "e"})
    assert (verdict.value, verdict.rule) == ("", "302.6")
    assert "this turn" not in verdict.reason
    contradictory = copy.deepcopy(spec)
    contradictory["zones"]["Alice"]["battlefield"][0].update(
        {"entered_this_turn": True, "summoning_sick": False}
    )
    with pytest.raises(ScenarioError) as error:
        parse_scenario(contradictory)
    assert "zones.Alice.battlefield[0].summoning_sick" in str(error.value)

"""Known gaps closed: split destinations, Opposition Agent, X in mana-value filters, intervening-if.

Every file in `gap_scenarios/` is a probe written from the Comprehensive Rules and the cards'
Gatherer rulings (never from the engine's output); the unit tests check the choice shapes and
the errors that name the field.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from rules.engine import ScenarioError, check_expectations, evaluate_claim, resolve

HERE = Path(__file__).resolve().parent
PROBES = HERE / "gap_scenarios"


def _probes() -> list[Path]:
    return sorted(PROBES.glob("*.json"))


def _load(name: str) -> dict[str, Any]:
    return json.loads((PROBES / f"{name}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", _probes(), ids=lambda path: path.stem)
def test_gap_probe(path: Path) -> None:
    spec = json.loads(path.read_text(encoding="utf-8"))
    mismatches = check_expectations(spec)
    assert not mismatches, "\n".join(str(m) for m in mismatches)


# ---------------------------------------------------------------- 1. split destinations


def _cultivate(choices: dict[str, Any] | None = None) -> dict[str, Any]:
    spec = copy.deepcopy(_load("cultivate-split-open"))
    spec["expect"] = []
    if choices is not None:
        spec["resolve"]["choices"] = choices
    return spec


def test_split_with_both_found_cards_fixed() -> None:
    spec = _cultivate({"Alice": {"find": ["f1", "i1"], "hand": ["f1"]}})
    outcome = resolve(spec)
    assert outcome.find("zone_after", card="f1").value == "hand"
    assert outcome.find("zone_after", card="i1").value == "battlefield"
    assert outcome.find("zone_after", card="i1").rule == "608.2c"


def test_one_found_card_goes_onto_the_battlefield() -> None:
    # Gatherer ruling (2010-08-15): find only one basic land card and it goes onto the battlefield.
    outcome = resolve(_cultivate({"Alice": {"find": ["i1"]}}))
    assert outcome.find("zone_after", card="i1").value == "battlefield"


@pytest.mark.parametrize(
    ("decisions", "field"),
    [
        ({"find": ["f1", "i1"], "battlefield": ["f1", "i1"]}, "choices.Alice.battlefield"),
        ({"find": ["f1", "i1"], "battlefield": ["f2"]}, "choices.Alice.battlefield"),
        ({"find": ["i1"], "hand": ["i1"]}, "choices.Alice.hand"),
        ({"find": ["f1", "i1"], "battlefield": "f1"}, "resolve.choices.Alice.battlefield"),
    ],
)
def test_illegal_splits_are_rejected_naming_the_field(decisions: dict, field: str) -> None:
    with pytest.raises(ScenarioError) as error:
        resolve(_cultivate({"Alice": decisions}))
    assert error.value.path == field


def test_a_given_find_replaces_the_steps_split() -> None:
    spec = _cultivate({"Alice": {"find": ["f1", "i1"], "battlefield": ["f1"]}})
    claim = {"claim": "zone_after", "card": "f2", "given": {"Alice": {"find": ["f2", "i1"]}}}
    assert evaluate_claim(spec, claim).value == "battlefield or hand"


# ---------------------------------------------------------------- 2. Opposition Agent


def _agent_board(spell: str) -> dict[str, Any]:
    return {
        "format": "scenario/1",
        "players": ["Nadia", "Alice"],
        "zones": {
            "Alice": {"battlefield": ["Opposition Agent#agent"]},
            "Nadia": {"hand": [f"{spell}#spell"], "library": ["Forest#n1", "Island#n2"]},
        },
        "resolve": {"cast": "spell", "by": "Nadia"},
    }


def test_agent_exiles_cards_a_split_search_finds() -> None:
    spec = _agent_board("Cultivate")
    spec["resolve"]["choices"] = {"Alice": {"find": ["n1", "n2"]}}
    outcome = resolve(spec)
    assert outcome.find("zone_after", card="n1").value == "exile"
    assert outcome.find("zone_after", card="n2").value == "exile"
    assert outcome.find("zone_after", card="n1").rule == "611.3"
    assert outcome.find("decision_order").value == ["Alice"]
    assert outcome.find("decision_order").rule == "723.5"


def test_agent_exiled_card_is_out_of_reach_of_the_rest_of_the_effect() -> None:
    # Ruling: "If such an effect refers to the found cards, it can't see them in exile."
    spec = _agent_board("Vampiric Tutor")
    spec["resolve"]["choices"] = {"Nadia": {"find": ["n2"]}}
    outcome = resolve(spec)
    assert outcome.find("zone_after", card="n2").value == "exile"
    assert outcome.find("shuffles", player="Nadia").value == "yes"


def test_agent_controller_cannot_find_outside_the_search_description() -> None:
    spec = _agent_board("Cultivate")
    spec["zones"]["Nadia"]["library"].append("Blood Crypt#crypt")
    spec["resolve"]["choices"] = {"Alice": {"find": ["crypt"]}}
    with pytest.raises(ScenarioError) as error:
        resolve(spec)
    assert error.value.path == "choices.Nadia.find"


def test_agent_does_not_control_its_own_controller() -> None:
    spec = _agent_board("Cultivate")
    spec["zones"]["Alice"]["hand"] = ["Cultivate#mine"]
    spec["zones"]["Alice"]["library"] = ["Plains#a1"]
    spec["resolve"] = {"cast": "mine", "by": "Alice", "choices": {"Alice": {"find": ["a1"]}}}
    outcome = resolve(spec)
    assert outcome.find("zone_after", card="a1").value == "battlefield"
    assert outcome.find("decision_order").value == ["Alice"]


# ---------------------------------------------------------------- 3. mana value and X


def test_x_not_fixed_keeps_every_value_open() -> None:
    spec = copy.deepcopy(_load("green-suns-zenith-x"))
    del spec["resolve"]["x"]
    spec["expect"] = []
    outcome = resolve(spec)
    assert outcome.find("finds", card="elves").value == "may"
    assert outcome.find("finds", card="goyf").value == "may"
    assert outcome.find("finds", card="censor").value == "cannot"
    assert outcome.find("finds", card="cult").value == "cannot"


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda s: s["resolve"].__setitem__("x", -1), "resolve.x"),
        (
            lambda s: s["resolve"].__setitem__("choices", {"Alice": {"x": "3"}}),
            "resolve.choices.Alice.x",
        ),
        (
            lambda s: s.__setitem__(
                "cards",
                [
                    {
                        "name": "Odd Zenith",
                        "types": ["Sorcery"],
                        "spell": [{"search": {"for": {"filter": {"mana_value": {"below": "X"}}}}}],
                    }
                ],
            ),
            "cards[0] (Odd Zenith).spell[0].search.for.filter.mana_value.below",
        ),
    ],
)
def test_bad_x_is_rejected_naming_the_field(change: Any, field: str) -> None:
    spec = copy.deepcopy(_load("green-suns-zenith-x"))
    change(spec)
    with pytest.raises(ScenarioError) as error:
        resolve(spec)
    assert error.value.path == field


def test_mana_value_comparisons_with_numbers() -> None:
    from rules.engine.cards import parse_filter

    assert parse_filter({"mana_value": {"lt": 3}}, "f").mana_value == (0, 2)
    assert parse_filter({"mana_value": {"gte": 2, "lte": 4}}, "f").mana_value == (2, 4)
    assert parse_filter({"mana_value": "X"}, "f").mana_value_x == (("eq", "X"),)
    assert parse_filter({"mana_value": {"min": 0}}, "f").has_quality


# ---------------------------------------------------------------- 4. intervening "if"


def test_knight_with_equal_lands_does_nothing() -> None:
    spec = copy.deepcopy(_load("knight-of-the-white-orchid"))
    spec["expect"] = []
    spec["zones"]["Alice"]["battlefield"].append("Forest")
    searches = evaluate_claim(spec, {"claim": "searches", "player": "Alice"})
    assert (searches.value, searches.rule) == ("cannot", "603.4")
    assert evaluate_claim(spec, {"claim": "shuffles", "player": "Alice"}).value == "no"
    assert evaluate_claim(spec, {"claim": "zone_after", "card": "p1"}).value == "library"


def test_lands_are_counted_by_controller() -> None:
    spec = copy.deepcopy(_load("land-tax-condition-false"))
    spec["expect"] = []
    # Alice's Plains is now controlled by Nadia: Nadia 3, Alice 1.
    spec["zones"]["Alice"]["battlefield"][1] = {"card": "Plains", "controller": "Nadia"}
    outcome = resolve(spec)
    assert outcome.find("searches", player="Alice").value == "may"


@pytest.mark.parametrize(
    ("ability", "field"),
    [
        ({"when": "upkeep", "if": "you_control_a_swamp", "effect": []}, "triggered[0].if"),
        ({"cost": "{T}", "if": "opponent_controls_more_lands", "effect": []}, "activated[0].if"),
    ],
)
def test_unknown_or_misplaced_conditions_are_rejected(ability: dict, field: str) -> None:
    kind = "triggered" if "when" in ability else "activated"
    spec = copy.deepcopy(_load("land-tax-condition-false"))
    spec["cards"] = [{"name": "Odd Tax", "types": ["Enchantment"], kind: [ability]}]
    with pytest.raises(ScenarioError) as error:
        resolve(spec)
    assert error.value.path == f"cards[0] (Odd Tax).{field}"

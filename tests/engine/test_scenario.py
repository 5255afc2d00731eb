"""Bad input is rejected with a ScenarioError naming the field (path) and why (message)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.engine import ScenarioError, evaluate_claim, parse_scenario, resolve

from .builders import card, cast, claim, run_ruling_command, scenario, search_spell

REPO = Path(__file__).resolve().parents[2]


def _error(spec: dict) -> ScenarioError:
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(spec)
    return caught.value


def _tutor_spec() -> dict:
    return scenario(
        zones={"Alice": {"library": ["Island#island"]}}, resolve=cast("Demonic Tutor", "Alice")
    )


# ---------------------------------------------------------------- unknown names and labels


def test_an_unknown_card_name_is_named_with_its_place() -> None:
    error = _error(
        scenario(
            zones={"Alice": {"library": ["Island", "Black Lotus Xyz"]}},
            resolve=cast("Demonic Tutor", "Alice"),
        )
    )
    assert error.path == "zones.Alice.library[1]"
    assert "Black Lotus Xyz" in error.message


def test_an_unknown_target_label_is_rejected() -> None:
    error = _error(
        scenario(
            zones={"Nadia": {"battlefield": ["Howling Mine#mine"]}},
            resolve=cast("Splinter", "Alice", targets=["nosuchlabel"]),
        )
    )
    assert error.path.startswith("resolve.targets")
    assert "nosuchlabel" in error.message


def test_an_unknown_label_in_a_claim_is_rejected() -> None:
    with pytest.raises(ScenarioError) as caught:
        evaluate_claim(_tutor_spec(), claim("finds", card="nosuchlabel"))
    assert "nosuchlabel" in str(caught.value)


def test_an_unknown_player_in_a_claim_is_rejected() -> None:
    with pytest.raises(ScenarioError) as caught:
        evaluate_claim(_tutor_spec(), claim("searches", player="Zed"))
    assert "Zed" in str(caught.value)


def test_an_unknown_label_in_expect_is_rejected_by_resolve() -> None:
    spec = _tutor_spec()
    spec["expect"] = [{"claim": "finds", "card": "ghost", "value": "may"}]
    with pytest.raises(ScenarioError) as caught:
        resolve(spec)
    assert caught.value.path.startswith("expect")
    assert "ghost" in caught.value.message


def test_an_unknown_claim_name_is_rejected() -> None:
    with pytest.raises(ScenarioError) as caught:
        evaluate_claim(_tutor_spec(), {"claim": "teleports", "player": "Alice"})
    assert "teleports" in str(caught.value)


def test_an_unknown_claim_in_expect_names_its_index() -> None:
    spec = _tutor_spec()
    spec["expect"] = [
        {"claim": "searches", "player": "Alice", "value": "must"},
        {"claim": "teleports", "player": "Alice", "value": True},
    ]
    with pytest.raises(ScenarioError) as caught:
        resolve(spec)
    assert "expect[1]" in caught.value.path


def test_an_unknown_player_in_zones_is_rejected() -> None:
    error = _error(scenario(zones={"Zed": {"library": []}}, resolve=cast("Demonic Tutor", "Alice")))
    assert error.path == "zones.Zed"


def test_an_active_player_who_is_not_playing_is_rejected() -> None:
    error = _error(scenario(active="Zed", resolve=cast("Demonic Tutor", "Alice")))
    assert error.path == "active"


def test_a_duplicate_label_is_rejected() -> None:
    error = _error(
        scenario(
            zones={"Alice": {"library": ["Island#twin"], "hand": ["Swamp#twin"]}},
            resolve=cast("Demonic Tutor", "Alice"),
        )
    )
    assert "twin" in error.message


# ---------------------------------------------------------------- zones


def test_a_zone_that_does_not_exist_is_named() -> None:
    error = _error(
        scenario(zones={"Alice": {"sideboard": ["Island"]}}, resolve=cast("Demonic Tutor", "Alice"))
    )
    assert error.path == "zones.Alice.sideboard"
    assert "sideboard" in error.message


def test_a_zone_that_is_not_a_list_is_rejected() -> None:
    error = _error(
        scenario(zones={"Alice": {"library": "Island"}}, resolve=cast("Demonic Tutor", "Alice"))
    )
    assert error.path == "zones.Alice.library"


# ---------------------------------------------------------------- card definitions


def test_types_given_as_a_string_is_a_malformed_definition() -> None:
    bad = {"name": "Stringy Bear", "mana_cost": "{1}{G}", "types": "Creature", "oracle": ""}
    error = _error(
        scenario(
            cards=[bad],
            zones={"Alice": {"hand": ["Stringy Bear"]}},
            resolve=cast("Demonic Tutor", "Alice"),
        )
    )
    assert error.path.startswith("cards[0]")
    assert "types" in error.path or "types" in error.message


def test_an_unknown_card_type_is_rejected() -> None:
    bad = card("Odd Thing", types=["Gizmo"])
    error = _error(scenario(cards=[bad], resolve=cast("Demonic Tutor", "Alice")))
    assert error.path.startswith("cards[0]")
    assert "Gizmo" in error.message


def test_an_unknown_instruction_key_is_rejected() -> None:
    bad = card("Odd Spell", types=["Sorcery"], spell=[{"teleport": {"who": "you"}}])
    error = _error(scenario(cards=[bad], resolve=cast("Odd Spell", "Alice")))
    assert error.path.startswith("cards[0]")
    assert "spell[0]" in error.path


def test_an_unknown_key_in_a_card_definition_is_rejected() -> None:
    bad = card("Odd Card", types=["Creature"], flavour="spooky")
    error = _error(scenario(cards=[bad], resolve=cast("Demonic Tutor", "Alice")))
    assert "flavour" in error.message


def test_an_unknown_search_zone_is_rejected() -> None:
    bad = search_spell(
        "Odd Tutor", {"search": {"who": "you", "zones": ["sideboard"], "for": {"count": 1}}}
    )
    error = _error(scenario(cards=[bad], resolve=cast("Odd Tutor", "Alice")))
    assert error.path.endswith("zones")
    assert "sideboard" in error.message


def test_an_unknown_filter_key_is_rejected() -> None:
    bad = search_spell(
        "Odd Tutor",
        {
            "search": {
                "who": "you",
                "zones": ["library"],
                "for": {"count": 1, "filter": {"colour": "red"}},
            }
        },
    )
    error = _error(scenario(cards=[bad], resolve=cast("Odd Tutor", "Alice")))
    assert "filter" in error.path
    assert "colour" in error.message


def test_a_card_without_a_name_is_rejected() -> None:
    error = _error(
        scenario(cards=[{"types": ["Creature"]}], resolve=cast("Demonic Tutor", "Alice"))
    )
    assert error.path == "cards[0].name"


# ---------------------------------------------------------------- steps, targets, choices


def test_a_fact_of_an_unknown_kind_is_rejected() -> None:
    error = _error(
        scenario(
            history=[{"fact": "drew_seven", "player": "Alice"}],
            resolve=cast("Demonic Tutor", "Alice"),
        )
    )
    assert error.path == "history[0].fact"


def test_a_target_of_the_wrong_kind_is_rejected() -> None:
    spec = scenario(
        zones={"Nadia": {"battlefield": ["Howling Mine#mine"]}},
        resolve=cast("Lobotomy", "Alice", targets=["mine"]),
    )
    with pytest.raises(ScenarioError) as caught:
        resolve(spec)
    assert caught.value.path.startswith("resolve.targets")


def test_a_find_choice_that_is_not_findable_is_rejected() -> None:
    spec = scenario(
        zones={"Alice": {"library": ["Island#island"], "graveyard": ["Swamp#gy"]}},
        resolve=cast("Demonic Tutor", "Alice", choices={"Alice": {"find": ["gy"]}}),
    )
    with pytest.raises(ScenarioError) as caught:
        resolve(spec)
    assert "gy" in caught.value.message


def test_an_unknown_format_is_rejected() -> None:
    spec = _tutor_spec()
    spec["format"] = "scenario/9"
    assert _error(spec).path == "format"


def test_a_scenario_must_be_an_object() -> None:
    with pytest.raises(ScenarioError):
        parse_scenario(["not", "a", "scenario"])  # type: ignore[arg-type]


# ---------------------------------------------------------------- the ruling command


def test_the_ruling_command_rejects_malformed_json(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "scenario/1", "players": ["Alice",', encoding="utf-8")
    completed = run_ruling_command(str(broken))
    assert completed.returncode != 0
    assert "json" in (completed.stdout + completed.stderr).lower()


def test_the_ruling_command_names_an_unknown_card(tmp_path: Path) -> None:
    spec = scenario(
        zones={"Alice": {"library": ["Nonexistent Card"]}}, resolve=cast("Demonic Tutor", "Alice")
    )
    path = tmp_path / "unknown.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    completed = run_ruling_command(str(path))
    assert completed.returncode != 0
    output = completed.stdout + completed.stderr
    assert "zones.Alice.library[0]" in output
    assert "Nonexistent Card" in output


def test_the_ruling_command_check_fails_on_a_wrong_expectation(tmp_path: Path) -> None:
    spec = _tutor_spec()
    spec["expect"] = [{"claim": "searches", "player": "Alice", "value": "cannot"}]
    path = tmp_path / "wrong.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    completed = run_ruling_command("--check", str(path))
    assert completed.returncode != 0
    assert "searches" in completed.stdout + completed.stderr


def test_the_ruling_command_check_passes_a_shared_example() -> None:
    example = REPO.parent / "shared/spec/examples/demonic-tutor.json"
    completed = run_ruling_command("--check", str(example))
    assert completed.returncode == 0, completed.stdout + completed.stderr

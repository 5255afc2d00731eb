"""The contract (shared/spec/scenario-format.md), item by item, as an outside author would use it.

Every file in `contract_scenarios/` is a probe of one part of the contract, its `expect` values
derived from the Comprehensive Rules and the cards' official rulings (never from the engine's
output). The unit tests below check that bad input named in section 1 is rejected with an error
naming the field, and the command line of section 4.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rules.engine import ScenarioError, check_expectations, evaluate_claim, parse_scenario, resolve

from .builders import run_ruling_command

HERE = Path(__file__).resolve().parent
PROBES = HERE / "contract_scenarios"
REPO = HERE.parents[1]


def _probes() -> list[Path]:
    return sorted(PROBES.glob("*.json"))


def _load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def test_there_are_contract_probes() -> None:
    assert len(_probes()) >= 40


@pytest.mark.parametrize("path", _probes(), ids=lambda path: path.stem)
def test_contract_probe(path: Path) -> None:
    mismatches = check_expectations(_load(path))
    assert mismatches == [], "\n".join(f"  - {m.message}" for m in mismatches)


@pytest.mark.parametrize("path", _probes(), ids=lambda path: path.stem)
def test_contract_probe_is_well_formed(path: Path) -> None:
    spec = _load(path)
    assert spec["format"] == "scenario/1"
    assert spec["id"] == path.stem
    assert spec["source"].strip()
    assert spec["expect"]


# ---------------------------------------------------------------- bad input (section 1)


def _base(**changes: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "format": "scenario/1",
        "id": "bad-input",
        "title": "bad input",
        "source": "tests",
        "players": ["Alice", "Nadia"],
        "cards": [],
        "zones": {
            "Alice": {"hand": ["Archive Trap#trap"]},
            "Nadia": {"battlefield": ["Grizzly Bears#bears"], "library": ["Island#ni"]},
        },
        "history": [],
        "resolve": {"cast": "trap", "by": "Alice", "targets": ["Nadia"]},
        "expect": [],
    }
    spec.update(changes)
    return spec


def _error(spec: dict[str, Any]) -> ScenarioError:
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(spec)
        resolve(spec)
    return caught.value


def test_the_base_scenario_is_valid() -> None:
    assert resolve(_base()).find("mills", player="Nadia").value == 1


def test_an_unknown_card_names_the_entry_and_the_card() -> None:
    error = _error(_base(zones={"Nadia": {"library": ["Islnd"]}}))
    assert error.path == "zones.Nadia.library[0]"
    assert "Islnd" in str(error)


def test_an_unknown_card_cast_by_name_names_the_step() -> None:
    error = _error(_base(resolve={"cast": "Demonic Tutr", "by": "Alice"}))
    assert error.path == "resolve.cast"
    assert "Demonic Tutr" in str(error)


def test_an_unknown_label_in_targets_names_the_target() -> None:
    error = _error(_base(resolve={"cast": "trap", "by": "Alice", "targets": ["nobody"]}))
    assert error.path == "resolve.targets[0]"
    assert "nobody" in str(error)


def test_an_unknown_label_to_activate_names_the_step() -> None:
    error = _error(_base(resolve={"activate": "wilds", "by": "Alice"}))
    assert error.path == "resolve.activate"
    assert "wilds" in str(error)


def test_an_unknown_label_in_a_claim_names_the_claim() -> None:
    spec = _base(expect=[{"claim": "zone_after", "card": "ghost", "value": "hand"}])
    with pytest.raises(ScenarioError) as caught:
        resolve(spec)
    assert "zone_after" in caught.value.path
    assert "ghost" in str(caught.value)
    (mismatch,) = check_expectations(spec)
    assert "ghost" in mismatch.message


def test_an_unknown_label_in_choices_names_the_choice() -> None:
    spec = _base(
        resolve={"cast": "Demonic Tutor", "by": "Nadia", "choices": {"Nadia": {"find": ["zz"]}}}
    )
    error = _error(spec)
    assert error.path == "resolve.choices.Nadia.find"


def test_an_unknown_zone_names_the_zone() -> None:
    error = _error(_base(zones={"Alice": {"sideboard": ["Island"]}}))
    assert error.path == "zones.Alice.sideboard"
    assert "sideboard" in str(error)


def test_a_zones_entry_for_an_unknown_player_is_rejected() -> None:
    error = _error(_base(zones={"Bob": {"hand": ["Island"]}}))
    assert error.path == "zones.Bob"


def test_a_repeated_label_is_rejected() -> None:
    error = _error(_base(zones={"Alice": {"hand": ["Island#x"], "library": ["Swamp#x"]}}))
    assert error.path == "zones.Alice.library[0]"
    assert "'x'" in str(error)


def test_a_card_target_where_a_player_is_needed_is_rejected() -> None:
    error = _error(_base(resolve={"cast": "trap", "by": "Alice", "targets": ["bears"]}))
    assert error.path == "resolve.targets[0]"
    assert "bears" in str(error)


def test_a_player_target_where_a_permanent_is_needed_is_rejected() -> None:
    error = _error(_base(resolve={"cast": "Path to Exile", "by": "Alice", "targets": ["Nadia"]}))
    assert error.path == "resolve.targets[0]"


def test_a_permanent_target_that_does_not_match_the_filter_is_rejected() -> None:
    zones = {"Nadia": {"battlefield": ["Island#land"]}}
    spec = _base(zones=zones, resolve={"cast": "Splinter", "by": "Alice", "targets": ["land"]})
    error = _error(spec)
    assert error.path == "resolve.targets[0]"
    assert "Island" in str(error)


def test_targeting_yourself_as_the_opponent_is_rejected() -> None:
    error = _error(_base(resolve={"cast": "trap", "by": "Alice", "targets": ["Alice"]}))
    assert error.path == "resolve.targets[0]"
    assert "opponent" in str(error)


def test_a_history_target_of_the_wrong_kind_names_the_history_step() -> None:
    history = [{"cast": "Path to Exile", "by": "Alice", "targets": ["Nadia"]}]
    error = _error(_base(history=history))
    assert error.path == "history[0].targets[0]"


def test_a_history_target_that_has_since_moved_is_accepted() -> None:
    # `zones` is the board now: the creature Path to Exile exiled earlier is in exile.
    zones = {"Alice": {"hand": ["Archive Trap#trap"]}, "Nadia": {"exile": ["Grizzly Bears#b"]}}
    history = [{"cast": "Path to Exile", "by": "Alice", "targets": ["b"]}]
    outcome = resolve(_base(zones=zones, history=history))
    assert outcome.find("alt_cost_available", card="trap", player="Alice").value is True


def test_an_unknown_card_key_names_the_card_and_key() -> None:
    cards = [{"name": "Odd Card", "types": ["Instant"], "flavour": "x"}]
    error = _error(_base(cards=cards))
    assert "Odd Card" in error.path
    assert "flavour" in str(error)


def test_an_unknown_search_who_names_the_field() -> None:
    card = {
        "name": "Odd Tutor",
        "types": ["Sorcery"],
        "spell": [{"search": {"who": "everyone", "zones": ["library"]}}],
    }
    error = _error(_base(cards=[card]))
    assert error.path.endswith("spell[0].search.who")


def test_an_unknown_claim_is_reported_by_check() -> None:
    (mismatch,) = check_expectations(_base(expect=[{"claim": "wins", "value": True}]))
    assert "wins" in mismatch.message


def test_an_illegal_given_choice_is_reported_naming_the_rule() -> None:
    zones = {"Nadia": {"graveyard": ["Howling Mine#gy"], "battlefield": ["Howling Mine#mine"]}}
    claim = {"claim": "zone_after", "card": "gy", "given": {"Alice": {"find": []}}, "value": "x"}
    step = {"cast": "Splinter", "by": "Alice", "targets": ["mine"]}
    spec = _base(zones=zones, resolve=step, expect=[claim])
    with pytest.raises(ScenarioError) as caught:
        evaluate_claim(spec, claim)
    assert "701.23b" in str(caught.value)


def test_nothing_is_half_loaded() -> None:
    good = _base()
    bad = _base(zones={"Alice": {"hand": ["Archive Trap#trap", "Nope"]}})
    with pytest.raises(ScenarioError):
        parse_scenario(bad)
    assert parse_scenario(good).state.card("trap") is not None


# ---------------------------------------------------------------- the command line (section 4)


def test_the_command_prints_every_claim_with_its_citation() -> None:
    completed = run_ruling_command(str(PROBES / "extract-opponents-library.json"))
    assert completed.returncode == 0, completed.stderr
    report = json.loads(completed.stdout)
    assert report["id"] == "extract-opponents-library"
    assert report["claims"] and all(c["rule"] and c["reason"] for c in report["claims"])
    assert report["explanation"]


def test_check_exits_zero_when_every_claim_agrees() -> None:
    completed = run_ruling_command("--check", str(PROBES / "extract-opponents-library.json"))
    assert completed.returncode == 0, completed.stderr


def test_check_exits_non_zero_naming_each_mismatch(tmp_path: Path) -> None:
    spec = _base(
        expect=[
            {"claim": "mills", "player": "Nadia", "value": 13},
            {"claim": "alt_cost_available", "card": "trap", "player": "Alice", "value": True},
        ]
    )
    path = tmp_path / "wrong.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    completed = run_ruling_command("--check", str(path))
    assert completed.returncode != 0
    output = completed.stdout + completed.stderr
    assert "mills" in output
    assert "alt_cost_available" in output


def test_malformed_json_is_rejected_by_the_command(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"format": "scenario/1", "players": [', encoding="utf-8")
    completed = run_ruling_command("--check", str(path))
    assert completed.returncode != 0
    assert "malformed json" in (completed.stdout + completed.stderr).lower()


def test_bad_input_through_the_command_names_the_field(tmp_path: Path) -> None:
    path = tmp_path / "bad-zone.json"
    path.write_text(json.dumps(_base(zones={"Alice": {"deck": ["Island"]}})), encoding="utf-8")
    completed = run_ruling_command("--check", str(path))
    assert completed.returncode != 0
    assert "zones.Alice.deck" in completed.stdout + completed.stderr


def test_a_one_player_claim_may_name_its_player_either_way():
    spec = json.loads((REPO / "quizzes/content/scenarios/splinter-howling-mine.json").read_text())
    by_searcher = evaluate_claim(spec, {"claim": "found_count", "searcher": "Alice"})
    by_player = evaluate_claim(spec, {"claim": "found_count", "player": "Alice"})
    assert by_player.value == by_searcher.value == [1, 4]
    assert evaluate_claim(spec, {"claim": "searched_portion", "searcher": "Alice"}).value == (
        "library"
    )

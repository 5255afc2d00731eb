"""Red-team acceptance cases written by an outside author (a judge) from real cards' Oracle text,
their official rulings and the Comprehensive Rules, before reading the engine.

Each file in `redteam_scenarios/` is a scenario/1 document; its `expect` values come from the
rules, never from the engine's output. Two readings of the contract they exposed are documented
in docs/engine.md: a `subtypes` filter lists alternatives ("an Island or Swamp card"), and a
naming choice may be written as the card's name (`{"name": "Lightning Bolt"}`).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.engine import ScenarioError, check_expectations, parse_scenario, resolve
from rules.engine.cards import CardDefinition, parse_filter

CASES = Path(__file__).resolve().parent / "redteam_scenarios"


def _cases() -> list[Path]:
    return sorted(CASES.glob("*.json"))


def test_there_are_redteam_cases() -> None:
    assert len(_cases()) >= 30


@pytest.mark.parametrize("path", _cases(), ids=lambda path: path.stem)
def test_redteam_case(path: Path) -> None:
    spec = json.loads(path.read_text(encoding="utf-8"))
    scenario = parse_scenario(spec)
    assert scenario.expect, f"{path.name} has no expectations"
    mismatches = check_expectations(scenario)
    assert not mismatches, "\n".join(m.message for m in mismatches)


def _cranial(name: str) -> dict:
    spec = json.loads((CASES / "cranial-extraction-4p.json").read_text(encoding="utf-8"))
    spec["resolve"]["choices"] = {"Alice": {"name": name}}
    return spec


@pytest.mark.parametrize(
    ("name", "message"),
    [("Lightning Blot", "unknown card name"), ("Island", "is not a")],
)
def test_a_named_card_must_exist_and_fit_the_description(name: str, message: str) -> None:
    with pytest.raises(ScenarioError, match=message) as error:
        resolve(_cranial(name))
    assert error.value.path == "choices.Alice.name"


def test_subtypes_list_alternatives() -> None:
    wanted = parse_filter({"subtypes": ["Island", "Swamp"]}, "filter")
    assert wanted.describe() == "Island or Swamp card"
    island = CardDefinition(name="Island", types=("Land",), subtypes=("Island",))
    forest = CardDefinition(name="Forest", types=("Land",), subtypes=("Forest",))
    assert wanted.matches(island, {})
    assert not wanted.matches(forest, {})

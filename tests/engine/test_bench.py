"""A smoke test of `python -m bench.engine`: it runs and reports; speed is measured, not tested."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import engine as bench_engine
from rules.engine import parse_scenario, resolve
from rules.engine.state import GameState


def test_the_generated_four_player_scenario_is_valid_and_large() -> None:
    scenario = parse_scenario(bench_engine.explorer_four_players())
    assert len(scenario.state.players) == 4
    assert len(scenario.state.cards) >= 4 * (60 + 15 + 20)


def test_the_generated_scenarios_are_deterministic() -> None:
    assert bench_engine.cases() == bench_engine.cases()


def test_the_bench_reports_every_case_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_engine.main(["--repetitions", "3", "--warmup", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    cases = {row["case"] for row in report["results"]}
    assert {"splinter-large", "explorer-4p"} <= cases
    for row in report["results"]:
        assert row["resolve_dict"]["median_us"] > 0
        assert row["resolve_parsed"]["p95_us"] > 0
        assert row["ratio_resolve_to_json_loads"] > 0
    sections = {row["case"]: row for row in report["sections"]}
    assert sections["sba-board"]["checks"] == 2
    assert sections["dredge-leyline"]["exiled"] == 5
    assert sections["sba-counters-draw"]["draw"] is True
    assert sections["casting-order"]["pairs"] == 12 * 11
    assert sections["combat-board"]["steps"] == 2
    assert {"sba-claims", "casting-order"} <= cases
    assert all(row["median_us"] > 0 for row in sections.values())


def test_the_bench_prints_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_engine.main(["--repetitions", "2", "--warmup", "0"]) == 0
    assert "explorer-4p" in capsys.readouterr().out


SCENARIO_FILES = sorted((Path(__file__).resolve().parent / "scenarios").glob("*.json"))


@pytest.mark.parametrize(
    "spec",
    [bench_engine.explorer_four_players(), bench_engine.splinter_large()]
    + [json.loads(path.read_text(encoding="utf-8")) for path in SCENARIO_FILES],
)
def test_the_parsers_fast_indexes_match_the_general_ones(spec: dict) -> None:
    """The parser indexes cards while reading them (GameState.indexed); the result must be what
    building the state from its cards computes, and resolving from the dict or the parsed
    scenario must give the same outcome."""
    scenario = parse_scenario(spec)
    state = scenario.state
    rebuilt = GameState(state.players, state.active, state.cards, state.life, state.listed)
    assert state == rebuilt
    assert state._by_label == rebuilt._by_label
    assert list(state._by_zone.items()) == list(rebuilt._by_zone.items())
    assert state.permanents() == tuple(c for c in state.cards if c.zone == "battlefield")
    assert resolve(spec).to_json() == resolve(scenario).to_json()

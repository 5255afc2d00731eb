"""A smoke test of `python -m bench.engine`: it runs and reports; speed is measured, not tested."""

from __future__ import annotations

import json

import pytest

from bench import engine as bench_engine
from rules.engine import parse_scenario


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


def test_the_bench_prints_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_engine.main(["--repetitions", "2", "--warmup", "0"]) == 0
    assert "explorer-4p" in capsys.readouterr().out

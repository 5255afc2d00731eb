"""Every scenario file, ours and the shared acceptance cases, agrees with its `expect` claims.

The files are written from the official rulings, never from the engine's output; a failure here
is a disagreement to settle against the rules, not an expectation to adjust.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.engine import check_expectations

OUR_SCENARIOS = Path(__file__).resolve().parent / "scenarios"
SHARED_EXAMPLES = Path(__file__).resolve().parents[2].parent / "shared/spec/examples"


def _files(directory: Path) -> list[Path]:
    return sorted(directory.glob("*.json")) if directory.is_dir() else []


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _describe(mismatches: list) -> str:
    return "\n".join(f"  - {mismatch}" for mismatch in mismatches)


def test_shared_examples_are_present() -> None:
    assert SHARED_EXAMPLES.is_dir(), f"acceptance cases not found at {SHARED_EXAMPLES}"
    assert len(_files(SHARED_EXAMPLES)) >= 12, (
        f"expected the 12 acceptance cases in {SHARED_EXAMPLES}"
    )


def test_at_least_24_scenarios_of_our_own() -> None:
    assert len(_files(OUR_SCENARIOS)) >= 24


@pytest.mark.parametrize("path", _files(OUR_SCENARIOS), ids=lambda path: path.stem)
def test_our_scenario(path: Path) -> None:
    mismatches = check_expectations(_load(path))
    assert mismatches == [], f"{path.name} disagrees with its ruling:\n{_describe(mismatches)}"


@pytest.mark.parametrize("path", _files(SHARED_EXAMPLES), ids=lambda path: path.stem)
def test_shared_example(path: Path) -> None:
    mismatches = check_expectations(_load(path))
    assert mismatches == [], f"{path.name} disagrees with its ruling:\n{_describe(mismatches)}"


@pytest.mark.parametrize("path", _files(OUR_SCENARIOS), ids=lambda path: path.stem)
def test_our_scenario_is_well_formed(path: Path) -> None:
    spec = _load(path)
    assert spec["format"] == "scenario/1"
    assert spec["id"] == path.stem
    assert spec["source"].strip()
    assert spec["expect"], "a scenario without expected claims checks nothing"

"""The card catalog: every definition parses, and the catalog's cards rule as a judge would.

`catalog_scenarios/` holds one small scenario per card with a search, mill, dredge, mana or
prohibition ability; each `expect` claim is written from the card's Oracle text, its official
rulings and the Comprehensive Rules, never from the engine's output. A failure is a
disagreement to settle against the rules, not an expectation to adjust.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rules.engine import check_expectations, default_catalog, parse_card_definition
from rules.engine.cards import CATALOG_DIR, load_catalog_dir

HERE = Path(__file__).resolve().parent
CATALOG_SCENARIOS = HERE / "catalog_scenarios"
OUR_SCENARIOS = HERE / "scenarios"
SHARED_EXAMPLES = HERE.parents[1].parent / "shared/spec/examples"


def _files(directory: Path) -> list[Path]:
    return sorted(directory.glob("*.json")) if directory.is_dir() else []


def _load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


CATALOG_FILES = _files(CATALOG_DIR)
SCENARIO_FILES = _files(CATALOG_SCENARIOS)
NAMING_FILES = [*_files(SHARED_EXAMPLES), *_files(OUR_SCENARIOS), *SCENARIO_FILES]


# ---------------------------------------------------------------- the catalog parses


def test_the_catalog_loads_without_duplicates() -> None:
    catalog = load_catalog_dir()
    assert len(catalog) == len(default_catalog())
    raw_names = [item["name"] for path in CATALOG_FILES for item in _load(path)]
    assert len(raw_names) == len(set(raw_names)), "a card is defined twice"


@pytest.mark.parametrize("path", CATALOG_FILES, ids=lambda path: path.name)
def test_every_card_in_the_file_parses(path: Path) -> None:
    raw = _load(path)
    assert isinstance(raw, list) and raw, f"{path.name} must be a non-empty list"
    for index, item in enumerate(raw):
        definition = parse_card_definition(item, f"{path.name}[{index}]")
        assert definition.name in default_catalog()
        assert definition.types, definition.name


def test_nonbasic_dual_lands_are_not_basic() -> None:
    """Fetchland filters read land types; a Tropical Island is a Forest Island, not basic."""
    catalog = default_catalog()
    for name in ("Tropical Island", "Breeding Pool", "Underground Sea", "Watery Grave"):
        definition = catalog.get(name)
        assert definition is not None and "Basic" not in definition.supertypes
        assert len(definition.subtypes) == 2
    for name in ("Snow-Covered Forest", "Snow-Covered Island"):
        definition = catalog.get(name)
        assert definition is not None
        assert set(definition.supertypes) == {"Basic", "Snow"}


# ---------------------------------------------------------------- scenarios of catalog cards


def test_there_are_catalog_scenarios() -> None:
    assert len(SCENARIO_FILES) >= 40


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=lambda path: path.stem)
def test_catalog_scenario_is_well_formed(path: Path) -> None:
    spec = _load(path)
    assert spec["format"] == "scenario/1"
    assert spec["id"] == path.stem
    assert spec["source"].strip()
    assert spec["expect"], "a scenario without expected claims checks nothing"
    assert not spec.get("cards") or all(
        card["name"] not in default_catalog() for card in spec["cards"]
    ), "a catalog scenario must use the catalog's own definitions"


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=lambda path: path.stem)
def test_catalog_scenario_agrees_with_its_ruling(path: Path) -> None:
    mismatches = check_expectations(_load(path))
    described = "\n".join(f"  - {mismatch}" for mismatch in mismatches)
    assert mismatches == [], f"{path.name} disagrees with its ruling:\n{described}"


# ---------------------------------------------------------------- every named card resolves


def _card_name(entry: Any) -> str:
    name = entry["card"] if isinstance(entry, dict) else entry
    return name.split("#", 1)[0]


def _named_cards(spec: dict) -> Iterator[tuple[str, str]]:
    """(where, name) for every card a scenario names: zone entries and steps cast by name."""
    labels: set[str] = set()
    for player, zones in spec.get("zones", {}).items():
        for zone, entries in zones.items():
            for index, entry in enumerate(entries):
                if isinstance(entry, dict) and entry.get("label"):
                    labels.add(entry["label"])
                elif isinstance(entry, str) and "#" in entry:
                    labels.add(entry.split("#", 1)[1])
                yield f"zones.{player}.{zone}[{index}]", _card_name(entry)
    steps = [spec.get("resolve") or {}, *spec.get("history", [])]
    for index, step in enumerate(steps):
        where = "resolve" if index == 0 else f"history[{index - 1}]"
        cast = step.get("cast") if isinstance(step, dict) else None
        generated = isinstance(cast, str) and cast.split(".", 1)[0] in spec.get("players", ())
        if cast and cast not in labels and not generated:
            yield f"{where}.cast", cast


@pytest.mark.parametrize("path", NAMING_FILES, ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_every_named_card_resolves(path: Path) -> None:
    spec = _load(path)
    local = {card["name"] for card in spec.get("cards", [])}
    catalog = default_catalog()
    missing = [
        f"{where}: {name}"
        for where, name in _named_cards(spec)
        if name not in local and name not in catalog
    ]
    assert missing == [], f"{path.name} names cards neither local nor in the catalog: {missing}"

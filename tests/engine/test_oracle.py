"""The catalog's cards as printed today: each card's Oracle text is held to a recorded copy
(tests/engine/oracle_reference.json, with the date it was checked and its source), and the
numbers and states the data encodes agree with the words of that text."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rules.engine.cards import CATALOG_DIR
from rules.engine.filters import parse_filter

REFERENCE = json.loads((Path(__file__).parent / "oracle_reference.json").read_text("utf-8"))
RAW_CARDS = {
    item["name"]: item
    for path in sorted(CATALOG_DIR.glob("*.json"))
    for item in json.loads(path.read_text("utf-8"))
}
NUMBERS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


def test_the_reference_says_when_and_where_it_was_checked() -> None:
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", REFERENCE["checked"])
    assert REFERENCE["source"]


def test_every_catalog_card_has_a_reference_text_and_no_other_card_does() -> None:
    assert sorted(RAW_CARDS) == sorted(REFERENCE["cards"])


@pytest.mark.parametrize("name", sorted(RAW_CARDS))
def test_the_catalog_text_is_todays_oracle_text(name: str) -> None:
    assert RAW_CARDS[name].get("oracle", "") == REFERENCE["cards"][name]


def _walk(node: Any) -> Iterator[tuple[str, Any]]:
    """Every (key, value) pair anywhere in a card's JSON."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield key, value
            yield from _walk(value)
    elif isinstance(node, list):
        for item in node:
            yield from _walk(item)


def _bound(word: str) -> int | str:
    if word == "X":
        return word
    return NUMBERS[word.lower()] if word.lower() in NUMBERS else int(word)


def _said_bounds(oracle: str) -> set[tuple[Any, Any]]:
    """The mana-value bounds the text states, as (numeric range, comparisons with X)."""
    said = set()
    for m in re.finditer(r"mana value (X|\w+) or less", oracle):
        said.add(("lte", _bound(m.group(1))))
    for m in re.finditer(r"mana value less than (X|\w+)", oracle):
        said.add(("lt", _bound(m.group(1))))
    for m in re.finditer(r"mana value (X|\w+) or greater", oracle):
        said.add(("gte", _bound(m.group(1))))
    for m in re.finditer(r"mana value greater than (X|\w+)", oracle):
        said.add(("gt", _bound(m.group(1))))
    for m in re.finditer(r"mana value equal to (X|\w+)", oracle):
        said.add(("eq", "X" if DERIVED.search(oracle) else _bound(m.group(1))))
    for m in re.finditer(r"mana value (X|\d+)(?! or)\b", oracle):
        said.add(("eq", _bound(m.group(1))))
    return {_normal(op, bound) for op, bound in said}


DERIVED = re.compile(r"(?:X is|equal to) (\w+) plus the sacrificed creature's mana value")


@pytest.mark.parametrize(
    "name", sorted(n for n, c in RAW_CARDS.items() if DERIVED.search(c.get("oracle", "")))
)
def test_a_value_derived_from_the_sacrificed_creature_is_encoded_as_the_text_says(
    name: str,
) -> None:
    card = RAW_CARDS[name]
    plus = _bound(DERIVED.search(card["oracle"]).group(1))
    derived = [value for key, value in _walk(card) if key == "x_is"]
    assert derived == [{"sacrificed_mana_value_plus": plus}]
    sacrifices = [value for key, value in _walk(card) if key in ("additional_cost", "cost")]
    assert any("Sacrifice a creature" in cost for cost in sacrifices)


def test_an_additional_cost_in_the_text_is_encoded() -> None:
    for name, card in RAW_CARDS.items():
        m = re.search(r"As an additional cost to cast this spell, (.+?)\.", card.get("oracle", ""))
        assert (m.group(1).capitalize() if m else "") == card.get("additional_cost", ""), name


def _normal(op: str, bound: int | str) -> tuple[Any, Any]:
    parsed = parse_filter({"mana_value": {op: bound}}, "oracle")
    return parsed.mana_value, parsed.mana_value_x


def _encoded_bounds(card: dict[str, Any]) -> set[tuple[Any, Any]]:
    encoded = set()
    for key, value in _walk(card):
        if key == "mana_value" and value is not None:
            parsed = parse_filter({"mana_value": value}, "card")
            encoded.add((parsed.mana_value, parsed.mana_value_x))
    return encoded


@pytest.mark.parametrize(
    "name", sorted(n for n, c in RAW_CARDS.items() if "mana value" in c.get("oracle", ""))
)
def test_mana_value_bounds_are_the_ones_the_text_states(name: str) -> None:
    """ "X or less" is lte, "less than X" is lt: an off-by-one in the data is a wrong card."""
    card = RAW_CARDS[name]
    assert _encoded_bounds(card) == _said_bounds(card["oracle"])


def _searches(card: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for key, value in _walk(card):
        if key == "search" and isinstance(value, dict):
            yield value


SEARCH_ONTO_BATTLEFIELD = re.compile(r"[Ss]earch[^.]*onto the battlefield")


@pytest.mark.parametrize(
    "name", sorted(n for n, c in RAW_CARDS.items() if SEARCH_ONTO_BATTLEFIELD.search(c["oracle"]))
)
def test_a_search_puts_lands_onto_the_battlefield_tapped_when_the_text_says_so(name: str) -> None:
    card = RAW_CARDS[name]
    says_tapped = bool(re.search(r"onto the battlefield tapped", card["oracle"]))
    to_battlefield = [s for s in _searches(card) if s.get("put") == "battlefield"]
    assert to_battlefield
    assert {bool(s.get("tapped")) for s in to_battlefield} == {says_tapped}


@pytest.mark.parametrize(
    "name",
    sorted(
        n
        for n, c in RAW_CARDS.items()
        if re.search(r"target [^.]*(?:an opponent|you) control", c.get("oracle", ""))
        and any(key == "targets" for key, _ in _walk(c))
    ),
)
def test_a_target_an_opponent_controls_is_encoded_as_the_text_says(name: str) -> None:
    card = RAW_CARDS[name]
    said = re.search(r"target [^.]*(an opponent|you) control", card["oracle"]).group(1)
    targets = [t for key, value in _walk(card) if key == "targets" for t in value]
    assert {t.get("controller") for t in targets} == {
        "opponent" if said == "an opponent" else "you"
    }


@pytest.mark.parametrize(
    "name", sorted(n for n, c in RAW_CARDS.items() if "and/or" in c.get("oracle", ""))
)
def test_and_or_between_zones_is_a_choice_of_zones(name: str) -> None:
    card = RAW_CARDS[name]
    says = bool(re.search(r"(?:library|graveyard|hand) and/or", card["oracle"]))
    searches = [s for s in _searches(card) if len(s.get("zones", ["library"])) > 1]
    assert not says or searches
    assert all(bool(s.get("choose_zones")) == says for s in searches)

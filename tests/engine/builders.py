"""Small builders for scenario/1 dicts, so each test states only what it is about."""

from __future__ import annotations

import copy
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

Spec = dict[str, Any]

BASIC_LAND_FILTER: dict[str, Any] = {"supertypes": ["Basic"], "types": ["Land"]}


def scenario(
    *,
    resolve: dict[str, Any],
    zones: dict[str, dict[str, list[Any]]] | None = None,
    players: tuple[str, ...] | list[str] = ("Alice", "Nadia"),
    active: str | None = None,
    cards: list[dict[str, Any]] | tuple[dict[str, Any], ...] = (),
    history: list[dict[str, Any]] | tuple[dict[str, Any], ...] = (),
    expect: list[dict[str, Any]] | tuple[dict[str, Any], ...] = (),
    scenario_id: str = "test-scenario",
    title: str = "A scenario built by a test",
    source: str = "tests/engine",
) -> Spec:
    """A complete scenario/1 dict; `active` is left out when not given (first player)."""
    spec: Spec = {
        "format": "scenario/1",
        "id": scenario_id,
        "title": title,
        "source": source,
        "players": list(players),
        "cards": [copy.deepcopy(card) for card in cards],
        "zones": copy.deepcopy(zones or {}),
        "history": [copy.deepcopy(step) for step in history],
        "resolve": copy.deepcopy(resolve),
        "expect": [copy.deepcopy(item) for item in expect],
    }
    if active is not None:
        spec["active"] = active
    return spec


def cast(
    card: str,
    by: str,
    targets: list[str] | None = None,
    choices: dict[str, Any] | None = None,
) -> dict[str, Any]:
    step: dict[str, Any] = {"cast": card, "by": by}
    if targets is not None:
        step["targets"] = list(targets)
    if choices is not None:
        step["choices"] = choices
    return step


def activate(label: str, by: str, choices: dict[str, Any] | None = None) -> dict[str, Any]:
    step: dict[str, Any] = {"activate": label, "by": by}
    if choices is not None:
        step["choices"] = choices
    return step


def trigger(label: str, event: str = "dies") -> dict[str, Any]:
    return {"trigger": label, "event": event}


def draw(player: str) -> dict[str, Any]:
    return {"draw": player}


def searched_fact(player: str) -> dict[str, Any]:
    """The turn record that Archive Trap reads: this player searched their library."""
    return {"fact": "searched_library", "player": player}


def claim(name: str, **subject: Any) -> dict[str, Any]:
    """A claim without a value, for `evaluate_claim`."""
    return {"claim": name, **subject}


def expect(name: str, value: Any, **subject: Any) -> dict[str, Any]:
    """A claim with its expected value, for a scenario's `expect`."""
    return {"claim": name, **subject, "value": value}


def card(
    name: str,
    *,
    types: list[str],
    mana_cost: str = "",
    supertypes: list[str] | None = None,
    subtypes: list[str] | None = None,
    oracle: str = "",
    **abilities: Any,
) -> dict[str, Any]:
    """A local card definition in the catalog's form (section 2 of the contract)."""
    definition: dict[str, Any] = {
        "name": name,
        "mana_cost": mana_cost,
        "types": list(types),
        "oracle": oracle,
    }
    if supertypes:
        definition["supertypes"] = list(supertypes)
    if subtypes:
        definition["subtypes"] = list(subtypes)
    definition.update(abilities)
    return definition


def vanilla(name: str, types: tuple[str, ...] = ("Instant",), mana_cost: str = "{1}") -> dict:
    """A card with no abilities, for filling zones with distinct names."""
    return card(name, types=list(types), mana_cost=mana_cost)


def search(
    *,
    who: str = "you",
    zones: tuple[str, ...] | list[str] = ("library",),
    count: int | str = 1,
    up_to: bool = False,
    card_filter: dict[str, Any] | None = None,
    may: bool = False,
    reveal: bool = False,
    put: str = "hand",
    whose: str | None = None,
) -> dict[str, Any]:
    """A `search` instruction."""
    body: dict[str, Any] = {
        "who": who,
        "zones": list(zones),
        "for": {"count": count, "up_to": up_to, "filter": card_filter},
        "put": put,
    }
    if may:
        body["may"] = True
    if reveal:
        body["reveal"] = True
    if whose is not None:
        body["whose"] = whose
    return {"search": body}


def shuffle(whose: str = "searcher", *, if_searched: bool = False) -> dict[str, Any]:
    instruction: dict[str, Any] = {"shuffle": whose}
    if if_searched:
        instruction["if_searched"] = True
    return instruction


def search_spell(
    name: str,
    *instructions: dict[str, Any],
    types: tuple[str, ...] = ("Sorcery",),
    oracle: str = "",
) -> dict[str, Any]:
    """An instant or sorcery whose spell is the given instructions."""
    return card(name, types=list(types), mana_cost="{1}", oracle=oracle, spell=list(instructions))


def tutor_spell(
    name: str = "Test Tutor",
    *,
    count: int | str = 1,
    up_to: bool = False,
    card_filter: dict[str, Any] | None = None,
    may: bool = False,
    reveal: bool = False,
    zones: tuple[str, ...] = ("library",),
    shuffle_after: bool = True,
) -> dict[str, Any]:
    """'[You may] search your library for ..., put it into your hand, then shuffle.'"""
    instructions = [
        search(
            count=count, up_to=up_to, card_filter=card_filter, may=may, reveal=reveal, zones=zones
        )
    ]
    if shuffle_after:
        instructions.append(shuffle("you", if_searched=may))
    return search_spell(name, *instructions)


def labels(prefix: str, count: int) -> list[str]:
    return [f"{prefix}{index}" for index in range(1, count + 1)]


def named(name: str, label: str) -> str:
    return f"{name}#{label}"


REPO = Path(__file__).resolve().parents[2]


def run_ruling_command(*args: str) -> subprocess.CompletedProcess[str]:
    """`manage.py ruling ARGS` in a subprocess, as a user runs it."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings_test"}
    return subprocess.run(
        [sys.executable, "manage.py", "ruling", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )

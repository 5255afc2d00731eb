"""Continuous effects that change searching: prohibitions (101.2) and replacements (614.1)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .state import GameState


@dataclass(frozen=True)
class ActiveEffect:
    """A static ability in force: its kind, spec, controller and the card it comes from."""

    kind: str
    spec: Mapping[str, Any]
    controller: str
    source_label: str
    source_name: str


def battlefield_effects(state: GameState) -> tuple[ActiveEffect, ...]:
    """Search-related static abilities of every permanent on the battlefield (CR 611.3)."""
    return tuple(
        ActiveEffect(static.kind, static.spec, card.controller, card.label, card.name)
        for card in state.permanents()
        for static in card.definition.static
        if static.kind != "other"
    )


def _applies_to_player(effect: ActiveEffect, player: str) -> bool:
    who = effect.spec["who"]
    if who == "all":
        return True
    if who == "you":
        return player == effect.controller
    return player != effect.controller


def prohibitions_on(
    effects: tuple[ActiveEffect, ...], searcher: str, library_owner: str, cause_controller: str
) -> tuple[ActiveEffect, ...]:
    """Prohibitions that stop `searcher` searching `library_owner`'s library for this cause."""
    found = []
    for effect in effects:
        if effect.kind != "search_prohibition" or not _applies_to_player(effect, searcher):
            continue
        if effect.spec["libraries"] == "own" and library_owner != searcher:
            continue
        if effect.spec["caused_by"] == "searcher" and cause_controller != searcher:
            continue
        found.append(effect)
    return tuple(found)


def portion_limit(
    effects: tuple[ActiveEffect, ...], searcher: str
) -> tuple[int, ActiveEffect] | None:
    """The smallest "search the top N instead" replacement that applies to `searcher` (701.23f)."""
    best: tuple[int, ActiveEffect] | None = None
    for effect in effects:
        if effect.kind == "search_replacement" and _applies_to_player(effect, searcher):
            top = effect.spec["top"]
            if best is None or top < best[0]:
                best = (top, effect)
    return best


def search_controller(effects: tuple[ActiveEffect, ...], searcher: str) -> ActiveEffect | None:
    """The effect whose controller controls `searcher` while they search their own library.

    Opposition Agent: "You control your opponents while they're searching their libraries." With
    several, the one that entered the battlefield most recently wins (its Gatherer ruling; later
    player-controlling effects overwrite earlier ones): the later one in the board's listing.
    """
    found = None
    for effect in effects:
        if effect.kind == "search_control" and effect.controller != searcher:
            found = effect
    return found

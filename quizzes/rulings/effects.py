"""What a board holds that changes how searches and mana work: the kinds of the static
abilities of the cards on the battlefield (a Mindcensor's replacement, a Stranglehold's
prohibition), read from the engine's parsed cards (the one door: quizzes/levels.py asks here)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine import ScenarioError, parse_scenario


def static_effects(spec: Mapping[str, Any], catalog=None) -> frozenset[str]:
    """The static ability kinds (`search_replacement`, `search_prohibition`, ...) of the cards on
    the battlefield of `spec`; empty when the engine cannot read the scenario."""
    try:
        scenario = parse_scenario(spec, catalog)
    except ScenarioError:
        return frozenset()
    return frozenset(
        ability.kind
        for card in scenario.state.cards
        if card.zone == "battlefield"
        for ability in card.definition.static
    )

"""Claims on the steps of a turn (rules/engine/turn_claims.py) asked only of steps the board can
have: a combat in which no creature attacks has no declare blockers or combat damage step
(506.1), so those steps are asked only where the active player has a creature to attack with."""

from __future__ import annotations

from typing import Any

import pytest

from rules.engine import evaluate_claim
from rules.engine.errors import ScenarioError
from rules.engine.turn_claims import ATTACKED_STEPS

CLAIMS: list[dict[str, Any]] = [
    {"claim": "priority_in_step"},
    {"claim": "turn_based_actions"},
    {"claim": "priority_first"},
    {"claim": "may_cast_now", "card": "bolt", "stack": 0},
]


# An illustrative creature with haste: the catalog has none.
HASTY = {
    "name": "Hasty Scout",
    "mana_cost": "{R}",
    "types": ["Creature"],
    "power": "1",
    "toughness": "1",
    "oracle": "Haste",
    "keywords": ["haste"],
}


def _turn(*nadias: str) -> dict[str, Any]:
    return {
        "format": "scenario/1",
        "cards": [HASTY],
        "id": "a-turn",
        "title": "A turn of Nadia's",
        "source": "CR 506.1",
        "players": ["Nadia", "Olek"],
        "active": "Nadia",
        "zones": {
            "Nadia": {"battlefield": [*nadias, "Mountain"], "hand": ["Lightning Bolt#bolt"]},
            "Olek": {"battlefield": ["Grizzly Bears"]},
        },
    }


@pytest.mark.parametrize("step", ATTACKED_STEPS)
@pytest.mark.parametrize("claim", CLAIMS, ids=lambda claim: claim["claim"])
def test_no_blockers_or_damage_step_when_the_active_player_has_no_creature(step, claim):
    """Olek's Grizzly Bears can't attack in Nadia's turn: her combat skips both steps."""
    with pytest.raises(ScenarioError, match="506.1"):
        evaluate_claim(_turn(), {**claim, "step": step})


@pytest.mark.parametrize("step", ATTACKED_STEPS)
@pytest.mark.parametrize("claim", CLAIMS, ids=lambda claim: claim["claim"])
def test_the_steps_are_asked_when_a_creature_of_hers_could_attack(step, claim):
    assert evaluate_claim(_turn("Serra Angel"), {**claim, "step": step}).value is not None


@pytest.mark.parametrize("step", ATTACKED_STEPS)
def test_in_the_first_turn_only_a_creature_with_haste_could_have_attacked(step):
    """302.6: in the game's first turn no creature has been Nadia's since the turn began."""
    claim = {"claim": "turn_based_actions", "step": step, "first_turn": True}
    with pytest.raises(ScenarioError, match="302.6"):
        evaluate_claim(_turn("Serra Angel"), claim)
    assert evaluate_claim(_turn("Hasty Scout"), claim).value == step

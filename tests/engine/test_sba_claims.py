"""The state-based-action claims' reasons say what the check did (rules/engine/sba_claims.py),
read as a judge reads them: no rule left out of "none applies", none stretched past its text."""

from __future__ import annotations

from typing import Any

from django.utils import translation

from quizzes.rulings.reasons import say
from rules.engine import evaluate_claim


def _board(*nadias: Any) -> dict[str, Any]:
    return {
        "format": "scenario/1",
        "id": "sba-claims",
        "title": "A board checked for state-based actions",
        "source": "CR 704.3",
        "players": ["Nadia", "Olek"],
        "state_based_actions": True,
        "zones": {"Nadia": {"battlefield": [*nadias, "Forest"]}, "Olek": {"battlefield": []}},
    }


def _reason(spec: dict[str, Any], claim: dict[str, Any]) -> str:
    with translation.override("en"):
        return say(evaluate_claim(spec, claim).reason)


def test_counters_coming_off_are_a_state_based_action_that_removes_no_permanent():
    """704.5q applies to Birds of Paradise (a +1/+1 and a -1/-1 counter come off), so the
    reason may not say that no state-based action applies: it says none removes a permanent."""
    birds = {"card": "Birds of Paradise", "label": "birds", "counters": {"+1/+1": 2, "-1/-1": 1}}
    spec = _board(birds)
    assert evaluate_claim(spec, {"claim": "sba_performed", "card": "birds"}).value == (
        "counters_removed"
    )
    reason = _reason(spec, {"claim": "permanents_left", "player": "Nadia"})
    assert "No state-based action applies" not in reason
    assert reason == (
        "No state-based action removes a permanent, so Nadia still controls 2 permanents."
    )


def test_the_rules_named_for_permanents_left_are_those_that_removed_one():
    """Memnite with a -1/-1 counter goes (704.5f) while the Birds' counters come off (704.5q):
    the reason names 704.5f as the rule that removed a permanent, and never calls 704.5q so."""
    memnite = {"card": "Memnite", "label": "memnite", "counters": {"-1/-1": 1}}
    birds = {"card": "Birds of Paradise", "label": "birds", "counters": {"+1/+1": 2, "-1/-1": 1}}
    reason = _reason(_board(memnite, birds), {"claim": "permanents_left", "player": "Nadia"})
    assert "(those that remove permanents here: 704.5f)" in reason
    assert reason.endswith("Nadia then controls 2 permanents.")


def test_deathtouch_destroys_only_a_creature_with_toughness_above_zero():
    """704.5h: 'If a creature has toughness greater than 0, and it's been dealt damage by a
    source with deathtouch ...': the reason says so, never 'whatever its toughness'."""
    ornithopter = {
        "card": "Ornithopter",
        "label": "thopter",
        "damage": 1,
        "deathtouch_damage": True,
    }
    result = evaluate_claim(_board(ornithopter), {"claim": "sba_performed", "card": "thopter"})
    assert (result.value, result.rule) == ("destroyed", "704.5h")
    reason = _reason(_board(ornithopter), {"claim": "sba_performed", "card": "thopter"})
    assert "whatever its toughness" not in reason
    assert reason.startswith("Ornithopter has toughness greater than 0 and was dealt damage")


def test_a_player_losing_in_a_draw_for_two_reasons_is_told_both():
    """Olek at 0 life who also drew from an empty library loses for 704.5a and 704.5b; Nadia's
    poison makes it a draw. The reason named 704.5a alone, as if the draw didn't count."""
    spec = {
        **_board(),
        "life": {"Olek": 0},
        "poison": {"Nadia": 10},
        "drew_from_empty_library": ["Olek"],
    }
    result = evaluate_claim(spec, {"claim": "player_loses", "player": "Olek"})
    assert result.value == "draw"
    reason = _reason(spec, {"claim": "player_loses", "player": "Olek"})
    assert reason.startswith("Olek loses the game (704.5a, 704.5b), and so does every other")

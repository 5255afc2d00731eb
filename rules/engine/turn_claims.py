"""Claims on turn structure and priority (500-514, 117, 703), read off the scenario: its players
in turn order, its active player, the cards in hand; the step, the stack's size and whether an
ability waits in the cleanup step are the claim's own keys (the scenario format has no step).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import ScenarioError
from .reasons import because
from .scenario import Scenario
from .turns import (
    STEPS,
    may_cast_now,
    priority_first,
    priority_in_step,
    turn_based_actions,
)
from .verdict import Verdict

# Steps a combat has only when a creature attacks (506.1: skipped when none is declared).
ATTACKED_STEPS = ("declare_blockers", "combat_damage")


def _step(
    scenario: Scenario, subject: Mapping[str, Any], claim: str, first_turn: bool = False
) -> str:
    step = subject["step"]
    if step not in STEPS:
        raise ScenarioError(f"claim {claim}.step", f"unknown step {step!r}; use one of {STEPS}")
    if step in ATTACKED_STEPS and not _could_attack(scenario, first_turn):
        raise ScenarioError(
            f"claim {claim}.step",
            "the active player has no creature that could have attacked, so the combat has no "
            "declare blockers or combat damage step (506.1; 302.6 in the game's first turn)",
        )
    return str(step)


def _could_attack(scenario: Scenario, first_turn: bool) -> bool:
    """Does the active player control a creature the board lets attack? In the game's first
    turn none has been theirs since the turn began (302.6) unless it has haste."""
    return any(
        "Creature" in card.definition.types
        and (not first_turn or "haste" in card.definition.keyword_names)
        for card in scenario.state.permanents_controlled_by(scenario.state.active)
    )


def _flag(subject: Mapping[str, Any], key: str, claim: str) -> bool:
    value = subject.get(key, False)
    if not isinstance(value, bool):
        raise ScenarioError(f"claim {claim}.{key}", "must be true or false")
    return value


def _waiting(subject: Mapping[str, Any], claim: str) -> bool:
    waiting = _flag(subject, "waiting", claim)
    if waiting and subject["step"] != "cleanup":
        raise ScenarioError(f"claim {claim}.waiting", "is said of the cleanup step only (514.3a)")
    return waiting


def _no_priority_reason(rule: str, active: str):
    if rule == "502.4":
        return because("priority_none_untap")
    return because("priority_none_cleanup", active=active)


def priority_in_step_verdict(scenario: Scenario, subject: Mapping[str, Any]) -> Verdict:
    step = _step(scenario, subject, "priority_in_step")
    active = scenario.state.active
    ruling = priority_in_step(step, _waiting(subject, "priority_in_step"))
    if not ruling.value:
        return Verdict(False, ruling.rule, _no_priority_reason(ruling.rule, active))
    key = "priority_cleanup_waiting" if ruling.rule == "514.3a" else "priority_step"
    return Verdict(True, ruling.rule, because(key, active=active))


def turn_based_actions_verdict(scenario: Scenario, subject: Mapping[str, Any]) -> Verdict:
    first_turn = _flag(subject, "first_turn", "turn_based_actions")
    step = _step(scenario, subject, "turn_based_actions", first_turn)
    players = len(scenario.state.players)
    if step == "beginning_of_combat" and players > 2:
        raise ScenarioError(
            "claim turn_based_actions.step",
            "in a multiplayer game the beginning of combat depends on the variant's options "
            "(507.1); ask it of a two-player game",
        )
    active = scenario.state.active
    sagas = any(
        "Saga" in card.definition.subtypes and card.controller == active
        for card in scenario.state.permanents()
    )
    ruling = turn_based_actions(step, players=players, first_turn=first_turn, sagas=sagas)
    reason = because(f"tba_{ruling.value}", active=active)
    return Verdict(ruling.value, ruling.rule, reason)


def priority_first_verdict(scenario: Scenario, subject: Mapping[str, Any]) -> Verdict:
    step = _step(scenario, subject, "priority_first")
    after = subject.get("after", "begins")
    if after not in ("begins", "resolves", "cast"):
        raise ScenarioError("claim priority_first.after", "use begins, resolves or cast")
    caster = str(subject.get("player", ""))
    if after == "cast" and not caster:
        raise ScenarioError("claim priority_first.player", "after a cast, name the caster")
    waiting = _waiting(subject, "priority_first")
    active = scenario.state.active
    ruling = priority_first(step, active, after=after, caster=caster, waiting=waiting)
    if ruling.value == "":
        if after != "begins":
            raise ScenarioError(
                "claim priority_first.after",
                "nothing is cast or resolves in a step without priority (502.4, 514.3)",
            )
        return Verdict("", ruling.rule, _no_priority_reason(ruling.rule, active))
    if after == "begins":
        key = "priority_cleanup_waiting" if ruling.rule == "514.3a" else "priority_step"
        return Verdict(active, ruling.rule, because(key, active=active))
    if after == "resolves":
        return Verdict(active, ruling.rule, because("priority_after_resolution", active=active))
    return Verdict(caster, ruling.rule, because("priority_after_cast", player=caster))


def may_cast_now_verdict(scenario: Scenario, subject: Mapping[str, Any]) -> Verdict:
    step = _step(scenario, subject, "may_cast_now")
    card = scenario.state.card(subject["card"])
    player = str(subject.get("player", card.owner))
    stack = subject.get("stack", 0)
    if not isinstance(stack, int) or isinstance(stack, bool) or stack < 0:
        raise ScenarioError("claim may_cast_now.stack", "must be a number of objects, 0 or more")
    definition = card.definition
    if set(definition.types) <= {"Land"}:
        raise ScenarioError("claim may_cast_now.card", f"{card.name} is a land: played, not cast")
    waiting = _waiting(subject, "may_cast_now")
    if not priority_in_step(step, waiting).value and stack:
        raise ScenarioError(
            "claim may_cast_now.stack",
            "the stack is empty in a step without priority (nothing is cast or resolves then)",
        )
    if waiting and not stack:
        raise ScenarioError(
            "claim may_cast_now.stack",
            "an ability waiting in the cleanup step is put on the stack before anyone gets "
            "priority (514.3a): give a stack of 1 or more",
        )
    active = scenario.state.active
    timing = may_cast_now(
        definition.types,
        step=step,
        player=player,
        active=active,
        stack=stack,
        flash="flash" in definition.keyword_names,
        waiting=waiting,
    )
    if timing.why == "no_priority":
        return Verdict(False, timing.rule, _no_priority_reason(timing.rule, active))
    reason = because(f"cast_{timing.why}", card=card.name, player=player, active=active)
    return Verdict(timing.allowed, timing.rule, reason)

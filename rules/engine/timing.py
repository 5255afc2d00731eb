"""Casting timing: a spell the scenario has cast at a time the rules don't allow.

A warning about the board as written, never part of the outcome: the engine still rules such a
scenario (some acceptance cases are such boards). The scenario format has no phases and no
stack, so the one thing checked exactly is whose turn it is.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import CardDefinition
from .reasons import Reason, because
from .scenario import Scenario, Step, definition_of

# The card types whose spells only the active player may cast (in a main phase, with an empty
# stack) and the rule saying so for each, with its reason's message.
SORCERY_TIMING = {
    "Artifact": ("301.1", "out_of_turn_artifact"),
    "Creature": ("302.1", "out_of_turn_creature"),
    "Enchantment": ("303.1", "out_of_turn_enchantment"),
    "Planeswalker": ("306.1", "out_of_turn_planeswalker"),
    "Sorcery": ("307.1", "out_of_turn_sorcery"),
    "Battle": ("310.1", "out_of_turn_battle"),
}


@dataclass(frozen=True)
class TimingFinding:
    """A spell cast when its type doesn't allow: `path` is the step ("resolve", "history[0]")."""

    path: str
    card: str
    caster: str
    active: str
    rule: str
    reason: Reason


def sorcery_timing(definition: CardDefinition) -> tuple[str, str] | None:
    """(rule, message) limiting a spell of this card to its caster's own main phase, or None.

    Flash (702.8a) lifts the limit; an instant is cast whenever its caster has priority (304.1);
    a land is played, never cast (305.9). Of several types (an artifact creature) the first
    written is cited: each says the same.
    """
    types = definition.types
    if "flash" in definition.keyword_names or "Instant" in types or "Land" in types:
        return None
    return next((SORCERY_TIMING[t] for t in types if t in SORCERY_TIMING), None)


def timing_findings(scenario: Scenario) -> tuple[TimingFinding, ...]:
    """Each spell cast this turn (history, then the resolving step) at sorcery timing by a player
    who is not the active player. The model holds no effect that lets a spell be cast as though
    it had flash, so the keyword is the only exception."""
    active = scenario.state.active
    steps = [(f"history[{i}]", step) for i, step in enumerate(scenario.history)]
    steps.append(("resolve", scenario.resolve))
    findings = []
    for path, step in steps:
        if not isinstance(step, Step) or step.kind != "cast" or step.by == active:
            continue
        _, definition = definition_of(scenario, step)
        timing = sorcery_timing(definition)
        if timing is None:
            continue
        rule, message = timing
        reason = because(message, player=step.by, card=definition.name, active=active)
        findings.append(TimingFinding(path, definition.name, step.by, active, rule, reason))
    return tuple(findings)

"""Claims on power and toughness (613.4), read off the scenario's board into layers.py's data.

- A creature's printed power and toughness ("*" counts 0 until its characteristic-defining
  ability applies in 7a).
- A permanent's `pt_effect` (Glorious Anthem: creatures you control get +1/+1, 7c; Tarmogoyf's
  characteristic-defining ability, 7a) has the timestamp of the permanent (613.7a); permanents
  are taken as having entered in the order the board lists them, all before this turn's spells.
- A creature's `effects`: the spells that resolved targeting it this turn, in that order
  (613.7b: each effect's timestamp is when it was created).
- Its +1/+1 and -1/-1 counters modify in 7c (613.4c).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .errors import ScenarioError
from .layers import (
    SUBLAYER_RULES,
    Creature,
    LayerResult,
    PTEffect,
    apply_layer7,
    card_types_among,
    counter_effects,
)
from .reasons import Reason, because
from .scenario import Scenario
from .state import CardInstance
from .verdict import Verdict

SPELL_TIMESTAMPS = 1000  # this turn's spells come after every permanent on the board


def printed(value: str) -> int:
    """A printed power or toughness as a number before 7a: "2" is 2, "*" is 0, "1+*" is 1."""
    match = re.fullmatch(r"(-?\d+)?\+?\*?", value.strip())
    if not value.strip() or match is None:
        raise ScenarioError("power_toughness", f"can't read a printed value {value!r}")
    return int(match.group(1)) if match.group(1) else 0


def _creatures(scenario: Scenario) -> list[CardInstance]:
    return [c for c in scenario.state.permanents() if "Creature" in c.definition.types]


def _static_effect(
    source: CardInstance, spec: Mapping[str, Any], timestamp: int, scenario: Scenario
) -> PTEffect:
    creatures = _creatures(scenario)
    if spec["affects"] == "self":
        applies = frozenset({source.label})
    else:  # creatures_you_control
        applies = frozenset(c.label for c in creatures if c.controller == source.controller)
    power, toughness = spec.get("power"), spec.get("toughness")
    if spec["sublayer"] == "7a":  # Tarmogoyf: card types among cards in all graveyards
        graveyards = [c.definition.types for c in scenario.state.cards if c.zone == "graveyard"]
        count = card_types_among(graveyards)
        power, toughness = count + (power or 0), count + (toughness or 0)
    return PTEffect(source.label, spec["sublayer"], timestamp, applies, power, toughness)


def board_effects(scenario: Scenario) -> tuple[list[Creature], list[PTEffect]]:
    """The board's creatures and every layer 7 effect on them, with their timestamps."""
    creatures = _creatures(scenario)
    effects: list[PTEffect] = []
    for timestamp, permanent in enumerate(scenario.state.permanents()):
        spec = permanent.definition.pt_effect
        if spec is not None and spec["affects"] != "target":
            effects.append(_static_effect(permanent, spec, timestamp, scenario))
    spells = 0
    for creature in creatures:
        effects.extend(counter_effects(creature.label, creature.counters))
        for label in creature.effects:
            spell = scenario.state.card(label)
            assert spell is not None and spell.definition.pt_effect is not None  # parsed so
            spec = spell.definition.pt_effect
            spells += 1
            effects.append(
                PTEffect(
                    label,
                    spec["sublayer"],
                    SPELL_TIMESTAMPS + spells,
                    frozenset({creature.label}),
                    spec.get("power"),
                    spec.get("toughness"),
                )
            )
    base = [
        Creature(
            c.label,
            c.name,
            printed(c.definition.power or "0"),
            printed(c.definition.toughness or "0"),
            c.controller,
        )
        for c in creatures
    ]
    return base, effects


def layer_result(scenario: Scenario) -> LayerResult:
    creatures, effects = board_effects(scenario)
    return apply_layer7(creatures, effects)


def _creature(scenario: Scenario, subject: Mapping[str, Any], claim: str) -> CardInstance:
    card = scenario.state.card(subject["card"])
    if card is None or card.zone != "battlefield" or "Creature" not in card.definition.types:
        raise ScenarioError(f"claim {claim}.card", "must be a creature on the battlefield")
    return card


def _pt(pt: tuple[int, int]) -> str:
    return f"{pt[0]}/{pt[1]}"


def _step_reason(scenario: Scenario, step: Any) -> Reason:
    pt = _pt(step.after)
    if step.source in ("+1/+1", "-1/-1"):
        card = scenario.state.card(step.label)
        assert card is not None
        return because(
            "pt_step_counters", count=card.counters[step.source], kind=step.source, pt=pt
        )
    source = scenario.state.card(step.source)
    name = source.name if source is not None else step.source
    key = "pt_step_waited" if step.waited_for else "pt_step"
    return because(key, source=name, layer=step.sublayer, rule=SUBLAYER_RULES[step.sublayer], pt=pt)


def _pt_verdict(scenario: Scenario, subject: Mapping[str, Any], claim: str) -> Verdict:
    card = _creature(scenario, subject, claim)
    creatures, effects = board_effects(scenario)
    result = apply_layer7(creatures, effects)
    steps = result.steps(card.label)
    pt = result.of(card.label)
    value = pt[0] if claim == "power" else pt[1]
    if not steps:
        return Verdict(value, "613.1", because("pt_unchanged", card=card.name, pt=_pt(pt)))
    reason = because(
        "pt_layers",
        card=card.name,
        base=f"{card.definition.power}/{card.definition.toughness}",
        clause_steps=tuple(_step_reason(scenario, step) for step in steps),
        pt=_pt(pt),
    )
    # The deciding rule: the last sublayer that changed this creature.
    return Verdict(value, SUBLAYER_RULES[steps[-1].sublayer], reason)


def power_verdict(scenario: Scenario, subject: Mapping[str, Any]) -> Verdict:
    return _pt_verdict(scenario, subject, "power")


def toughness_verdict(scenario: Scenario, subject: Mapping[str, Any]) -> Verdict:
    return _pt_verdict(scenario, subject, "toughness")


def effect_layer_verdict(scenario: Scenario, subject: Mapping[str, Any]) -> Verdict:
    """The sublayer the effect of `source` (a permanent, or a spell that resolved) applies in."""
    source = scenario.state.card(subject["source"])
    if source is None or source.definition.pt_effect is None:
        raise ScenarioError(
            "claim effect_layer.source", "must be a card that changes power or toughness"
        )
    sublayer = source.definition.pt_effect["sublayer"]
    reason = because(f"layer_{sublayer}", source=source.name)
    return Verdict(sublayer, SUBLAYER_RULES[sublayer], reason)

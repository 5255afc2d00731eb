"""Claims on a spell's total cost (601.2f) and on what an event triggers (603), read off the
scenario's board into casting.py's and triggering.py's data."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .casting import (
    STEP_INDEX,
    CostChange,
    SpellFacts,
    casting_step_order,
    parse_mana_cost,
    total_cost,
)
from .errors import ScenarioError
from .reasons import because
from .scenario import Scenario
from .state import CardInstance
from .triggering import Event, Permanent, TriggeredAbility, trigger_order, triggers_on_event
from .verdict import Verdict

# The catalog's cost_modifier "spells" words as the spell types they name or exclude.
_SPELLS = {
    "all": (frozenset(), frozenset()),
    "creature": (frozenset({"Creature"}), frozenset()),
    "noncreature": (frozenset(), frozenset({"Creature"})),
    "instant_sorcery": (frozenset({"Instant", "Sorcery"}), frozenset()),
}
# The catalog's trigger events that a creature dying triggers, as (watches, types).
_DIES_EVENTS = {"dies": ("self", frozenset()), "creature_dies": ("any", frozenset({"Creature"}))}


def _change(source: CardInstance, spec: Mapping[str, Any], caster: str) -> CostChange:
    types, excluded = _SPELLS[spec["spells"]]
    who = spec["who"]
    # "you": its controller's spells; "opponents": everyone else's (only the caster matters).
    only = {"you": source.controller, "opponents": caster if caster != source.controller else "-"}
    return CostChange(
        source.name,
        amount=spec["amount"],
        spell_types=types,
        excluded_types=excluded,
        only_caster=only.get(who, ""),
    )


def _changes(scenario: Scenario, caster: str) -> list[tuple[CardInstance, CostChange]]:
    return [
        (permanent, _change(permanent, static.spec, caster))
        for permanent in scenario.state.permanents()
        for static in permanent.definition.static
        if static.kind == "cost_modifier"
    ]


def _spell(card: CardInstance, caster: str) -> SpellFacts:
    return SpellFacts(
        frozenset(card.definition.types), frozenset(card.definition.colors), caster=caster
    )


def total_cost_verdict(scenario: Scenario, subject: Mapping[str, Any]) -> Verdict:
    card = scenario.state.card(subject["card"])
    caster = subject.get("player", card.owner)
    cost = card.definition.mana_cost or "{0}"
    result = total_cost(
        _spell(card, caster),
        parse_mana_cost(cost),
        changes=[c for _, c in _changes(scenario, caster)],
    )
    total = result.cost.text()
    sources = tuple(source for source, _ in result.applied)
    if not sources:
        return Verdict(total, "601.2f", because("total_cost_plain", card=card.name, total=total))
    return Verdict(
        total,
        "601.2f",
        because("total_cost_changed", card=card.name, cost=cost, sources=sources, total=total),
    )


def cost_change_verdict(scenario: Scenario, subject: Mapping[str, Any]) -> Verdict:
    card = scenario.state.card(subject["card"])
    source = scenario.state.card(subject["source"])
    if source is None:
        raise ScenarioError("claim cost_change_applies.source", "no card has that label")
    caster = subject.get("player", card.owner)
    changes = [c for permanent, c in _changes(scenario, caster) if permanent.label == source.label]
    if not changes:
        raise ScenarioError(
            "claim cost_change_applies.source",
            f"{source.name} is not a permanent that changes what spells cost",
        )
    applies = any(c.applies_to(_spell(card, caster)) for c in changes)
    key = "cost_change_applies" if applies else "cost_change_not_applies"
    return Verdict(applies, "601.2f", because(key, source=source.name, card=card.name))


def _permanent(card: CardInstance) -> Permanent:
    abilities = []
    for ability in card.definition.triggered:
        if ability.when not in _DIES_EVENTS:
            continue
        if ability.condition:
            raise ScenarioError(
                "claim", f"{card.name}'s dies trigger has a condition this claim doesn't model"
            )
        watches, types = _DIES_EVENTS[ability.when]
        if watches == "any" and "another creature dies" in card.definition.oracle.lower():
            watches = "another"  # Ob Nixilis: "Whenever another creature dies"
        abilities.append(TriggeredAbility("dies", watches=watches, types=types))
    return Permanent(
        card.label, card.controller, frozenset(card.definition.types), tuple(abilities)
    )


def _dying(scenario: Scenario, labels: Any, claim: str) -> tuple[list[Permanent], Event]:
    if not isinstance(labels, (list, tuple)) or not labels:
        raise ScenarioError(f"claim {claim}.dies", "must be a list of creature labels")
    board = [_permanent(card) for card in scenario.state.permanents()]
    by_label = {p.label: p for p in board}
    dying = []
    for label in labels:
        if label not in by_label or "Creature" not in by_label[label].types:
            raise ScenarioError(
                f"claim {claim}.dies", f"{label!r} is not a creature on the battlefield"
            )
        dying.append(by_label[label])
    return board, Event("dies", tuple(dying))


def triggers_on_event_verdict(scenario: Scenario, subject: Mapping[str, Any]) -> Verdict:
    """How many times the card's abilities trigger when the listed creatures die together."""
    card = scenario.state.card(subject["card"])
    board, event = _dying(scenario, subject["dies"], "triggers_on_event")
    found = [t for t in triggers_on_event(board, [], event).triggered if t.source == card.label]
    reason = because("triggers_look_back", card=card.name, count=len(found))
    return Verdict(len(found), "603.10a", reason)


def trigger_order_verdict(scenario: Scenario, subject: Mapping[str, Any]) -> Verdict:
    """Whose triggered abilities resolve first: the players in resolution order (603.3b)."""
    board, event = _dying(scenario, subject["dies"], "trigger_order")
    found = triggers_on_event(board, [], event).triggered
    order = trigger_order(found, scenario.state.apnap_order)
    players: list[str] = []
    for trigger in order.resolves:
        if trigger.controller not in players:
            players.append(trigger.controller)
    return Verdict(
        players,
        "603.3b",
        because("trigger_order_apnap", active=scenario.state.active, players=tuple(players)),
    )


# A step that only some spells have, and how the card shows that it has it (601.2b-d).
_STEP_NEEDS = {
    "choose_mode": (
        "modal",
        lambda c: "choose one" in c.oracle.lower() or "choose two" in c.oracle.lower(),
    ),
    "reveal_splice": ("splice", lambda c: "splice onto" in c.oracle.lower()),
    "announce_alternative_or_additional_costs": (
        "an additional or alternative cost",
        lambda c: (
            bool(c.alt_cost)
            or any(w in c.oracle for w in ("Kicker", "Buyback", "As an additional cost"))
        ),
    ),
    "announce_x": ("{X} in its cost", lambda c: "{X}" in c.mana_cost),
    "choose_targets": ("a target", lambda c: "target" in c.oracle.lower()),
    "divide_effect": ("an effect divided as its caster chooses", lambda c: "divided" in c.oracle),
}


def casting_step_order_verdict(scenario: Scenario, subject: Mapping[str, Any]) -> Verdict:
    """Which of two steps of casting the card comes first (601.2a-i)."""
    card = scenario.state.card(subject["card"])
    steps = subject["steps"]
    where = "claim casting_step_order.steps"
    if not isinstance(steps, (list, tuple)) or len(steps) != 2:
        raise ScenarioError(where, "must name two casting steps")
    for step in steps:
        if step not in STEP_INDEX:
            raise ScenarioError(
                where, f"{step!r} is no casting step; use one of {sorted(STEP_INDEX)}"
            )
        needs = _STEP_NEEDS.get(step)
        if needs is not None and not needs[1](card.definition):
            raise ScenarioError(where, f"{card.name} has no {needs[0]}, so it has no step {step!r}")
    try:
        order = casting_step_order(steps[0], steps[1])
    except ValueError as error:
        raise ScenarioError(where, str(error)) from None
    if order.same_rule:
        raise ScenarioError(where, f"both steps are choices of {order.rules[0]}: ask another pair")
    return Verdict(
        order.first,
        f"{order.rules[0]}, {order.rules[1]}",
        because(
            "casting_step_first",
            card=card.name,
            first=because(f"step_{order.first}"),
            first_rule=order.rules[0],
            second=because(f"step_{order.second}"),
            second_rule=order.rules[1],
        ),
    )

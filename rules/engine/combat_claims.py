"""Claims on combat damage (510 and the combat keywords), read off a scenario's board.

The creatures in combat are the battlefield's card objects with `"combat": "attacking"` and
`"combat": "blocking"`; a blocker names its attacker with `"blocks": LABEL`. Every attacker
attacks the active player's opponent (a two-player game). Power and toughness are the printed
ones plus +1/+1 and -1/-1 counters; `damage` is damage already marked. Keywords are the card's
(first strike, double strike, deathtouch, trample, lifelink, indestructible).

A claim whose answer turns on how a player divides damage (an attacker blocked by two or more
creatures, 510.1c, or a trampler with damage to spare, 702.19b) is refused, except
`trample_to_player_at_most`, which asks exactly that bound.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from .combat import (
    FIRST_STRIKE,
    KEYWORDS,
    Combat,
    CombatChoiceNeeded,
    CombatOutcome,
    Fighter,
    damage_steps,
    resolve,
    trample_excess_at_most,
)
from .errors import ScenarioError
from .reasons import because
from .scenario import Scenario
from .verdict import Verdict


def _entries(scenario: Scenario) -> Iterator[tuple[str, Mapping[str, Any]]]:
    zones = scenario.spec.get("zones", {}) if isinstance(scenario.spec, Mapping) else {}
    for player_zones in zones.values():
        for entry in (player_zones or {}).get("battlefield", []) or []:
            if isinstance(entry, Mapping) and entry.get("label"):
                yield str(entry["label"]), entry


def _number(printed: str, label: str) -> int:
    if not printed.lstrip("-").isdigit():
        raise ScenarioError(f"combat.{label}", f"can't read a printed value {printed!r}")
    return int(printed)


def combat_of(scenario: Scenario) -> Combat:
    """The scenario's attackers and blockers as combat.py reads them."""
    entries = dict(_entries(scenario))
    active = scenario.state.active
    others = [p for p in scenario.state.players if p != active]
    if len(others) != 1:
        raise ScenarioError("players", "combat claims are asked of a two-player game")
    attackers: list[Fighter] = []
    blockers: list[Fighter] = []
    for card in scenario.state.permanents():
        if card.combat not in ("attacking", "blocking"):
            continue
        definition = card.definition
        counters = card.counters or {}
        shift = counters.get("+1/+1", 0) - counters.get("-1/-1", 0)
        entry = entries.get(card.label, {})
        blocks = str(entry.get("blocks", ""))
        if (card.combat == "blocking") != bool(blocks):
            raise ScenarioError(
                f"zones.{card.label}.blocks",
                "a blocking creature, and only one, names its attacker",
            )
        fighter = Fighter(
            card.label,
            card.name,
            card.controller,
            _number(definition.power or "0", card.label) + shift,
            _number(definition.toughness or "0", card.label) + shift,
            frozenset(definition.keyword_names & KEYWORDS),
            blocks,
            int(entry.get("damage", 0)),
        )
        (attackers if card.combat == "attacking" else blockers).append(fighter)
    if not attackers:
        raise ScenarioError("zones", "no creature is attacking")
    for fighter in attackers:
        if fighter.controller != active:
            raise ScenarioError(
                f"zones.{fighter.label}", "attacks, so the active player controls it"
            )
    life = {name: scenario.state.life_total(name) for name in scenario.state.players}
    return Combat(tuple(attackers), tuple(blockers), others[0], life)


def outcome_of(scenario: Scenario, claim: str, lethal_first: bool = False) -> CombatOutcome:
    """The combat's outcome. `lethal_first` for claims on creatures only: a trampler's single
    blocker is assigned at least lethal damage whatever its controller chooses (702.19b), so
    what happens to the creatures doesn't turn on the choice; life totals do."""
    key = f"_combat_outcome_{lethal_first}"
    found = scenario.__dict__.get(key)
    if found is None:
        try:
            found = resolve(combat_of(scenario), lethal_first=lethal_first)
        except CombatChoiceNeeded as exc:
            raise ScenarioError(
                f"claim {claim}", f"the answer turns on a player's choice: {exc}"
            ) from exc
        scenario.__dict__[key] = found
    return found


def _fighter(combat: Combat, label: str, claim: str) -> Fighter:
    found = next((f for f in combat.attackers + combat.blockers if f.label == label), None)
    if found is None:
        raise ScenarioError(f"claim {claim}.card", "must be an attacking or blocking creature")
    return found


def combat_damage_steps_verdict(scenario: Scenario, subject: Mapping[str, Any]) -> Verdict:
    """How many combat damage steps the phase has: two when some attacker or blocker has first
    strike or double strike (510.4), else one."""
    combat = combat_of(scenario)
    fighters = combat.attackers + combat.blockers
    steps = damage_steps(fighters)
    if len(steps) == 1:
        return Verdict(1, "510.4", because("combat_steps_one"))
    striker = next(f for f in fighters if f.strikes_first)
    rule = "510.4, 702.4b" if striker.has("double strike") else "510.4, 702.7b"
    return Verdict(2, rule, because("combat_steps_two", card=striker.name))


def combat_destroyed_verdict(scenario: Scenario, subject: Mapping[str, Any]) -> Verdict:
    """After which combat damage step state-based actions destroy the creature ("first_strike"
    or "regular"), or "survives"."""
    combat = combat_of(scenario)
    fighter = _fighter(combat, subject["card"], "combat_destroyed")
    outcome = outcome_of(scenario, "combat_destroyed", lethal_first=True)
    step = outcome.destroyed_in(fighter.label)
    taken = outcome.dealt_to(fighter.label)
    sources = {d.source for s in outcome.steps for d in s.dealt if d.target == fighter.label}
    keyword_rules = []
    if len(outcome.steps) == 2:
        keyword_rules.append("510.4")
    by_label = {f.label: f for f in combat.attackers + combat.blockers}
    if any(by_label[s].has("deathtouch") for s in sources):
        keyword_rules.append("702.2b")
    if not step:
        rules = ", ".join(["510.2", *keyword_rules, "704.3"])
        if fighter.has("indestructible") and taken >= fighter.toughness:
            rules = ", ".join(["510.2", *keyword_rules, "702.12b"])
        return Verdict(
            "survives",
            rules,
            because("combat_survives", card=fighter.name, count=taken, rules=rules),
        )
    sba_rule = outcome.destroy_rule(fighter.label)
    trampled = any(
        d.target == fighter.label and d.rule == "702.19b" for s in outcome.steps for d in s.dealt
    )
    if trampled:
        keyword_rules.append("702.19b")
    rules = ", ".join(["510.2", *keyword_rules, sba_rule])
    if trampled:
        reason = because("combat_destroyed_trampled", card=fighter.name, rules=rules)
        return Verdict(step, rules, reason)
    if step == FIRST_STRIKE:
        taken = sum(d.amount for d in outcome.steps[0].dealt if d.target == fighter.label)
    return Verdict(
        step,
        rules,
        because(f"combat_destroyed_{step}", card=fighter.name, count=taken, rules=rules),
    )


def trample_to_player_at_most_verdict(scenario: Scenario, subject: Mapping[str, Any]) -> Verdict:
    """The most combat damage the attacker can assign to the defending player in the first step
    it assigns damage: its power less lethal damage to each creature blocking it (702.19b; 1 is
    lethal from a source with deathtouch, 702.2c); without trample a blocked creature assigns
    none to the player (510.1c)."""
    combat = combat_of(scenario)
    attacker = _fighter(combat, subject["card"], "trample_to_player_at_most")
    if attacker.blocks:
        raise ScenarioError("claim trample_to_player_at_most.card", "must be an attacking creature")
    blockers = tuple(b for b in combat.blockers if b.blocks == attacker.label)
    if not blockers:
        raise ScenarioError("claim trample_to_player_at_most.card", "must be blocked")
    if not attacker.strikes_first and any(b.strikes_first for b in blockers):
        # Its blockers may die or deal damage before it assigns: ask a simpler board.
        raise ScenarioError(
            "claim trample_to_player_at_most.card", "a blocker strikes first: ask combat_destroyed"
        )
    marked = {b.label: b.damage for b in blockers}
    most = trample_excess_at_most(attacker, blockers, marked) if attacker.has("trample") else 0
    rules = ["510.1c"]
    if attacker.has("trample"):
        rules = ["702.19b", *(["702.2c"] if attacker.has("deathtouch") else [])]
    rule = ", ".join(rules)
    return Verdict(
        most,
        rule,
        because(
            "combat_trample_most",
            card=attacker.name,
            power=attacker.power,
            count=most,
            player=combat.defender,
            rules=rule,
        ),
    )


def life_after_combat_verdict(scenario: Scenario, subject: Mapping[str, Any]) -> Verdict:
    """The player's life total once every combat damage step is done (510.2, 120.3a; a
    lifelinker's controller gains, 702.15b)."""
    player = subject["player"]
    combat = combat_of(scenario)
    outcome = outcome_of(scenario, "life_after_combat")
    if player not in outcome.life:
        raise ScenarioError("claim life_after_combat.player", f"{player} isn't in the game")
    before = combat.life.get(player, 20)
    rules = ["510.2"]
    if any(d.target == player for s in outcome.steps for d in s.dealt):
        rules.append("120.3a")
    fighters = {f.label: f for f in combat.attackers + combat.blockers}
    if any(
        fighters[d.source].has("lifelink") and fighters[d.source].controller == player
        for s in outcome.steps
        for d in s.dealt
    ):
        rules.append("702.15b")
    rule = ", ".join(rules)
    count = outcome.life[player]
    return Verdict(
        count,
        rule,
        because("combat_life", player=player, before=before, count=count, rules=rule),
    )

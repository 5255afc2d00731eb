"""Which triggered abilities an event triggers (603.2), with the look-back of leaves-the-
battlefield abilities (603.10a), the intervening "if" clause (603.4) and the APNAP order in
which triggered abilities go on the stack, each player ordering their own (603.3b).

Pure data: the permanents before and after an event, the event, the facts a condition reads.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

# Events whose triggers look back in time: they see the game as it was just before (603.10a).
LOOK_BACK_EVENTS = frozenset({"dies", "leaves_battlefield", "sacrificed"})


@dataclass(frozen=True)
class Condition:
    """An intervening "if" (603.4): the fact `fact` of `player` is at least/at most `value`."""

    fact: str  # "life", "cards_in_hand", "creatures"
    player: str
    at_least: int | None = None
    at_most: int | None = None

    def holds(self, facts: Mapping[str, Mapping[str, int]]) -> bool:
        value = facts.get(self.player, {}).get(self.fact, 0)
        if self.at_least is not None and value < self.at_least:
            return False
        return self.at_most is None or value <= self.at_most


@dataclass(frozen=True)
class TriggeredAbility:
    """ "Whenever [watched] [event], ..." on a permanent, e.g. Blood Artist: dies, any creature."""

    event: str  # "dies", "leaves_battlefield", "enters", "cast"
    watches: str = "self"  # "self", "another", "any"
    types: frozenset[str] = frozenset()  # the watched object's types; empty = any
    controlled_by: str = "any"  # "you", "opponent", "any": who controls the watched object
    condition: Condition | None = None


@dataclass(frozen=True)
class Permanent:
    label: str
    controller: str
    types: frozenset[str]
    abilities: tuple[TriggeredAbility, ...] = ()


@dataclass(frozen=True)
class Event:
    """One game event: `kind` happened to each object in `objects` (simultaneously)."""

    kind: str
    objects: tuple[Permanent, ...]


@dataclass(frozen=True)
class Trigger:
    source: str
    controller: str
    event_object: str
    ability: TriggeredAbility = field(compare=False)


@dataclass(frozen=True)
class TriggerResult:
    triggered: tuple[Trigger, ...]
    not_triggered: tuple[tuple[str, str, str], ...]  # (source, event object, rule why not)
    rule: str


def _watches(ability: TriggeredAbility, source: Permanent, obj: Permanent) -> bool:
    if ability.watches == "self" and obj.label != source.label:
        return False
    if ability.watches == "another" and obj.label == source.label:
        return False
    if ability.types and not ability.types & obj.types:
        return False
    if ability.controlled_by == "you":
        return obj.controller == source.controller
    if ability.controlled_by == "opponent":
        return obj.controller != source.controller
    return True


def triggers_on_event(
    before: Sequence[Permanent],
    after: Sequence[Permanent],
    event: Event,
    facts: Mapping[str, Mapping[str, int]] | None = None,
) -> TriggerResult:
    """Every ability the event triggers, once per matching object.

    Leaves-the-battlefield events are checked against the permanents as they were just before
    (603.10a): a creature that dies with others still sees them die. Other events are checked
    against the permanents after the event (603.2). An ability with an intervening "if" clause
    triggers only if its condition holds now (603.4).
    """
    look_back = event.kind in LOOK_BACK_EVENTS
    rule = "603.10a" if look_back else "603.2"
    triggered: list[Trigger] = []
    skipped: list[tuple[str, str, str]] = []
    for source in before if look_back else after:
        for ability in source.abilities:
            if ability.event != event.kind:
                continue
            for obj in event.objects:
                if not _watches(ability, source, obj):
                    continue
                if ability.condition and not ability.condition.holds(facts or {}):
                    skipped.append((source.label, obj.label, "603.4"))
                    continue
                triggered.append(Trigger(source.label, source.controller, obj.label, ability))
    return TriggerResult(tuple(triggered), tuple(skipped), rule)


@dataclass(frozen=True)
class StackOrder:
    """Bottom to top as put on the stack, and the order they resolve in (top first)."""

    put_on_stack: tuple[Trigger, ...]
    rule: str = "603.3b"

    @property
    def resolves(self) -> tuple[Trigger, ...]:
        return tuple(reversed(self.put_on_stack))


def trigger_order(
    triggers: Sequence[Trigger],
    apnap: Sequence[str],
    chosen: Mapping[str, Sequence[int]] | None = None,
) -> StackOrder:
    """APNAP (603.3b): the active player puts all theirs on the stack first, in an order they
    choose, then each other player in turn order; so the last player's resolve first.

    `chosen[player]` lists indexes into that player's own triggers (in the order given) in the
    order that player puts them on the stack; missing means as given.
    """
    chosen = chosen or {}
    order: list[Trigger] = []
    for player in apnap:
        own = [t for t in triggers if t.controller == player]
        picks = list(chosen.get(player, range(len(own))))
        if sorted(picks) != list(range(len(own))):
            raise ValueError(f"{player} must order each of their {len(own)} triggers once")
        order.extend(own[i] for i in picks)
    strays = [t for t in triggers if t.controller not in apnap]
    if strays:
        raise ValueError(f"{strays[0].controller} is not in the turn order")
    return StackOrder(tuple(order))


def resolves_on_resolution(
    trigger: Trigger, facts: Mapping[str, Mapping[str, int]]
) -> tuple[bool, str]:
    """An intervening "if" is checked again as the ability resolves (603.4); if it no longer
    holds, the ability does nothing."""
    condition = trigger.ability.condition
    return (condition is None or condition.holds(facts)), "603.4"

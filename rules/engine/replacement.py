"""Replacement effects on one event (614, 616): which apply, who chooses, in what order.

Pure: an event and the replacement effects in play in, the modified event out, with every
effect applied, the player who chose and the rule behind each step.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .errors import ScenarioError


@dataclass(frozen=True)
class Event:
    """One event that would happen: a card moving between zones ("move"), a draw ("draw").

    `player` is the affected player of a draw; `card`, `owner` and `controller` describe the
    affected object of a move (controller is "" for a card that isn't a permanent)."""

    kind: str
    player: str = ""
    card: str = ""
    owner: str = ""
    controller: str = ""
    from_zone: str = ""
    to_zone: str = ""
    details: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Replacement:
    """A replacement effect: the event it watches for and what it becomes instead (614.1).

    `watches` keys: kind, to_zone, from_zone, card, whose ("any", "you", "opponent": whose
    card or whose draw, read from the effect's controller). `becomes` names the fields of the
    event that change. `self_replacement` marks an effect of a resolving spell or ability that
    replaces part of its own effect (616.1a)."""

    name: str
    controller: str
    watches: Mapping[str, str]
    becomes: Mapping[str, Any]
    self_replacement: bool = False
    # Dredge can't replace a draw unless the library holds at least this many cards (702.52b).
    needs_library: int = 0
    # "you may ... instead" (dredge): the affected player may decline it.
    optional: bool = False

    def applies_to(self, event: Event, library_sizes: Mapping[str, int]) -> bool:
        """Whether this effect would modify the event as it now stands."""
        for key in ("kind", "to_zone", "from_zone", "card"):
            wanted = self.watches.get(key)
            if wanted is not None and getattr(event, key) != wanted:
                return False
        whose = self.watches.get("whose", "any")
        affected = event.player if event.kind == "draw" else event.owner
        if whose == "you" and affected != self.controller:
            return False
        if whose == "opponent" and affected == self.controller:
            return False
        return library_sizes.get(event.player or event.owner, 0) >= self.needs_library

    def apply(self, event: Event) -> Event:
        details = {**event.details, **dict(self.becomes.get("details", {}))}
        changes = {k: v for k, v in self.becomes.items() if k != "details"}
        return replace(event, details=details, **changes)


@dataclass(frozen=True)
class Step:
    """One effect applied: the effects it was chosen among, and the rule that limited them."""

    applied: str
    candidates: tuple[str, ...]
    rule: str
    event: Event


@dataclass(frozen=True)
class ReplacementOutcome:
    """The event as it finally happens, who chose the order, and each step."""

    original: Event
    final: Event
    chooser: str
    steps: tuple[Step, ...]

    @property
    def order(self) -> tuple[str, ...]:
        return tuple(step.applied for step in self.steps)

    @property
    def replaced(self) -> bool:
        return bool(self.steps)


def chooser_of(event: Event) -> str:
    """616.1: the affected player, or the affected object's controller (its owner if it has
    no controller)."""
    if event.kind == "draw":
        return event.player
    return event.controller or event.owner


Choice = Callable[[str, tuple[Replacement, ...]], Replacement]


def first_listed(_chooser: str, candidates: tuple[Replacement, ...]) -> Replacement:
    """The default choice: the first candidate in the order the effects were given."""
    return candidates[0]


def prefer(order: Sequence[str]) -> Choice:
    """A chooser who applies the named effects in this order when given the choice."""

    def choose(_chooser: str, candidates: tuple[Replacement, ...]) -> Replacement:
        for name in order:
            for effect in candidates:
                if effect.name == name:
                    return effect
        return candidates[0]

    return choose


def apply_replacements(
    event: Event,
    effects: Sequence[Replacement],
    choose: Choice = first_listed,
    library_sizes: Mapping[str, int] | None = None,
    declined: Collection[str] = (),
) -> ReplacementOutcome:
    """Apply replacement effects to one event until none is left to apply (616.1).

    Self-replacement effects must be chosen first (616.1a); otherwise any applicable effect may
    be chosen (616.1e). An optional effect named in `declined` is not applied. Each effect gets
    only one opportunity to affect the event or the events
    that replace it (614.5), so the loop ends after at most len(effects) steps."""
    sizes = library_sizes or {}
    names = [effect.name for effect in effects]
    if len(set(names)) != len(names):
        raise ScenarioError("replacements", f"effects need distinct names: {names}")
    forced = [e.name for e in effects if e.name in declined and not e.optional]
    if forced:
        raise ScenarioError("declined", f"only an optional effect may be declined: {forced}")
    chooser = chooser_of(event)
    used: set[str] = set(declined)
    steps: list[Step] = []
    current = event
    while True:
        applicable = tuple(
            e for e in effects if e.name not in used and e.applies_to(current, sizes)
        )
        if not applicable:
            break
        own = tuple(e for e in applicable if e.self_replacement)
        candidates, rule = (own, "616.1a") if own else (applicable, "616.1e")
        chosen = choose(chooser, candidates)
        if chosen not in candidates:
            offered = [c.name for c in candidates]
            raise ScenarioError("choice", f"{chosen.name} is not among {offered}")
        used.add(chosen.name)
        current = chosen.apply(current)
        steps.append(Step(chosen.name, tuple(c.name for c in candidates), rule, current))
    return ReplacementOutcome(event, current, chooser, tuple(steps))


def mill_events(player: str, cards: Sequence[str]) -> tuple[Event, ...]:
    """Milling moves each card from its owner's library to the graveyard (701.17a); each move
    is an event a graveyard replacement can modify."""
    return tuple(
        Event("move", card=card, owner=player, from_zone="library", to_zone="graveyard")
        for card in cards
    )


def graveyard_to_exile(name: str, controller: str, whose: str = "any") -> Replacement:
    """Rest in Peace ("If a card or token would be put into a graveyard from anywhere, exile
    it instead.") with whose="any"; Leyline of the Void (an opponent's graveyard) with
    whose="opponent"."""
    return Replacement(
        name,
        controller,
        {"kind": "move", "to_zone": "graveyard", "whose": whose},
        {"to_zone": "exile"},
    )


def dredge(card: str, owner: str, amount: int) -> Replacement:
    """Dredge N: "If you would draw a card, you may mill N cards instead. If you do, return
    this card from your graveyard to your hand." (702.52a); only with N cards in the library
    (702.52b)."""
    return Replacement(
        f"dredge {card}",
        owner,
        {"kind": "draw", "whose": "you"},
        {"kind": "dredge", "details": {"mill": amount, "returns": card}},
        needs_library=amount,
        optional=True,
    )

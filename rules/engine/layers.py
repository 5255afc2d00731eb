"""Layer 7: power and toughness (CR 613.4), in its four sublayers.

Pure: creatures with their power and toughness before layer 7 and the continuous effects that
change them in, each creature's power and toughness out, with every effect's sublayer as the
reason it applied where it did.

- 613.4a Layer 7a: characteristic-defining abilities that define power and/or toughness
  (Tarmogoyf).
- 613.4b Layer 7b: effects that set power and/or toughness to a specific number or value, and
  effects that refer to base power and/or toughness ("has base power and toughness 1/1").
- 613.4c Layer 7c: effects and counters that modify power and/or toughness without setting it
  (Giant Growth, Glorious Anthem, +1/+1 and -1/-1 counters).
- 613.4d Layer 7d: effects that switch a creature's power and toughness (Twisted Image).

Within a sublayer effects apply in timestamp order (613.7), unless one depends on another
(613.8a): it then waits until just after all those it depends on have applied; effects in a
dependency loop apply in timestamp order (613.8b). The dependency modelled is the one layer 7
can have between two effects of one sublayer: applying the other changes *what the effect applies
to* (an effect for "each creature with power 2 or less" and another that changes power). An
effect from a characteristic-defining ability never depends on one that isn't, nor the reverse
(613.8a(c)).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from . import filters

SUBLAYERS = ("7a", "7b", "7c", "7d")
SUBLAYER_RULES = {"7a": "613.4a", "7b": "613.4b", "7c": "613.4c", "7d": "613.4d"}
# The card types (205.2a) that count for Tarmogoyf ("card types among cards in all graveyards"):
# the engine's, less "Tribal", Kindred's former name, which the catalog reads but no card has now.
CARD_TYPES = filters.CARD_TYPES - {"Tribal"}
# Counters that change power and toughness (122.1a), as (power, toughness) each.
PT_COUNTERS = {"+1/+1": (1, 1), "-1/-1": (-1, -1)}


@dataclass(frozen=True)
class Creature:
    """A creature with its power and toughness before layer 7 (printed, or 0 for a '*')."""

    label: str
    name: str
    power: int
    toughness: int
    controller: str = ""


@dataclass(frozen=True)
class PTEffect:
    """One continuous effect (or the counters of one kind on one creature) in layer 7.

    `applies_to`: the labels of the creatures it may apply to; `power_at_most` narrows that to
    those whose power, when the effect applies, is at most that number ("each creature with
    power 2 or less"). 7a and 7b effects set (`power` / `toughness`, None leaves it alone), 7c
    effects add (`power` / `toughness` are the changes), 7d effects switch (no numbers).
    """

    source: str
    sublayer: str
    timestamp: int
    applies_to: frozenset[str]
    power: int | None = None
    toughness: int | None = None
    power_at_most: int | None = None
    counters: bool = False  # the counters of `source` kind ("+1/+1") on the creature

    def __post_init__(self) -> None:
        if self.sublayer not in SUBLAYERS:
            raise ValueError(f"sublayer must be one of {SUBLAYERS}, not {self.sublayer!r}")

    @property
    def rule(self) -> str:
        return SUBLAYER_RULES[self.sublayer]

    @property
    def cda(self) -> bool:
        """From a characteristic-defining ability (613.4a, 604.3)."""
        return self.sublayer == "7a"


@dataclass(frozen=True)
class Applied:
    """One effect applied to one creature: its power and toughness before and after."""

    source: str
    sublayer: str
    label: str
    before: tuple[int, int]
    after: tuple[int, int]
    waited_for: tuple[str, ...] = ()  # the effects it depended on (613.8b)


@dataclass(frozen=True)
class LayerResult:
    """Each creature's power and toughness after layer 7, and the effects in the order applied."""

    pt: Mapping[str, tuple[int, int]]
    applied: tuple[Applied, ...]
    # Per sublayer, the sources in the order they applied (timestamps and dependency).
    order: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def of(self, label: str) -> tuple[int, int]:
        return self.pt[label]

    def steps(self, label: str) -> tuple[Applied, ...]:
        return tuple(a for a in self.applied if a.label == label)


def counter_effects(
    label: str, counters: Mapping[str, int], timestamp: int = 0
) -> tuple[PTEffect, ...]:
    """A creature's +1/+1 and -1/-1 counters as 7c effects (613.4c: counters modify)."""
    effects = []
    for kind, count in sorted(counters.items()):
        if kind in PT_COUNTERS and count:
            p, t = PT_COUNTERS[kind]
            effects.append(
                PTEffect(
                    kind,
                    "7c",
                    timestamp,
                    frozenset({label}),
                    power=p * count,
                    toughness=t * count,
                    counters=True,
                )
            )
    return tuple(effects)


def card_types_among(types_of_cards: Iterable[Iterable[str]]) -> int:
    """The number of card types among the cards (Tarmogoyf counts its graveyards this way)."""
    found: set[str] = set()
    for types in types_of_cards:
        found |= CARD_TYPES & set(types)
    return len(found)


def _targets(effect: PTEffect, pt: Mapping[str, tuple[int, int]]) -> frozenset[str]:
    """The creatures the effect applies to now (613.8a(b): 'what it applies to')."""
    found = {label for label in effect.applies_to if label in pt}
    if effect.power_at_most is not None:
        found = {label for label in found if pt[label][0] <= effect.power_at_most}
    return frozenset(found)


def _apply_one(effect: PTEffect, power: int, toughness: int) -> tuple[int, int]:
    if effect.sublayer in ("7a", "7b"):
        return (
            power if effect.power is None else effect.power,
            toughness if effect.toughness is None else effect.toughness,
        )
    if effect.sublayer == "7c":
        return power + (effect.power or 0), toughness + (effect.toughness or 0)
    return toughness, power  # 7d switches


def _apply(
    effect: PTEffect, pt: dict[str, tuple[int, int]], waited: tuple[str, ...] = ()
) -> list[Applied]:
    done = []
    for label in sorted(_targets(effect, pt)):
        before = pt[label]
        pt[label] = _apply_one(effect, *before)
        done.append(Applied(effect.source, effect.sublayer, label, before, pt[label], waited))
    return done


def depends_on(effect: PTEffect, other: PTEffect, pt: Mapping[str, tuple[int, int]]) -> bool:
    """613.8a: same sublayer, applying `other` would change what `effect` applies to (or what it
    does to those things), and both or neither come from characteristic-defining abilities."""
    if effect is other or effect.sublayer != other.sublayer or effect.cda != other.cda:
        return False
    if effect.power_at_most is None:  # what it applies to is fixed: nothing can change it
        return False
    # What it does to the things it applies to doesn't change in layer 7 (a setting, modifying
    # or switching effect does the same whatever came before): only a conditional effect's reach,
    # over the creatures both may apply to.
    limit = effect.power_at_most
    for label in effect.applies_to & other.applies_to:
        before = pt.get(label)
        if before is None or (other.power_at_most is not None and before[0] > other.power_at_most):
            continue  # not a creature here, or one `other` doesn't reach
        after = _apply_one(other, *before)
        if (before[0] <= limit) != (after[0] <= limit):
            return True
    return False


def order_sublayer(
    effects: Sequence[PTEffect], pt: Mapping[str, tuple[int, int]]
) -> list[tuple[PTEffect, tuple[str, ...]]]:
    """The order the sublayer's effects apply in, each with the effects it waited for.

    613.7: timestamp order; 613.8b: an effect that depends on others waits until just after they
    have all applied; a dependency loop is ignored and its effects apply in timestamp order.
    """
    waiting = sorted(effects, key=lambda e: e.timestamp)
    if all(e.power_at_most is None for e in waiting):  # no effect can depend on another
        return [(e, ()) for e in waiting]
    state = dict(pt)
    order: list[tuple[PTEffect, tuple[str, ...]]] = []
    waited: dict[int, set[str]] = {}
    while waiting:
        chosen = None
        for effect in waiting:  # earliest first
            blockers = (
                [o for o in waiting if depends_on(effect, o, state)]
                if effect.power_at_most is not None  # only a conditional effect can wait
                else []
            )
            if blockers:
                waited.setdefault(id(effect), set()).update(o.source for o in blockers)
                continue
            chosen = effect
            break
        if chosen is None:  # every one waits for another: a loop, timestamp order (613.8b)
            chosen = waiting[0]
        waiting.remove(chosen)
        _apply(chosen, state)
        order.append((chosen, tuple(sorted(waited.get(id(chosen), ())))))
    return order


def apply_layer7(creatures: Iterable[Creature], effects: Iterable[PTEffect]) -> LayerResult:
    """Every creature's power and toughness with layer 7's effects applied (613.4)."""
    pt = {c.label: (c.power, c.toughness) for c in creatures}
    by_sublayer: dict[str, list[PTEffect]] = {s: [] for s in SUBLAYERS}
    for effect in effects:
        by_sublayer[effect.sublayer].append(effect)
    applied: list[Applied] = []
    order: dict[str, tuple[str, ...]] = {}
    for sublayer in SUBLAYERS:  # 613.4: 7a, then 7b, then 7c, then 7d
        ordered = order_sublayer(by_sublayer[sublayer], pt)
        order[sublayer] = tuple(e.source for e, _ in ordered)
        for effect, waited in ordered:
            applied.extend(_apply(effect, pt, waited))
    return LayerResult(dict(pt), tuple(applied), order)

"""A spell's total cost (601.2f): mana cost or alternative cost, plus additional costs and
cost increases, minus cost reductions, each change applying only to the spells it names.

Pure data in, data out: which changes apply to a spell, what the locked-in total is, and the
order of the casting steps (601.2a-i) that a question may ask about.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

COLORS = ("W", "U", "B", "R", "G", "C")
_SYMBOL = re.compile(r"\{([^}]+)\}")
# The casting steps in the order the rules require (601.2a to 601.2i), each with its rule. The
# choices of 601.2b are made in the order that rule lists them; each later sub-rule waits for
# every earlier one to be done.
CASTING_STEPS = (
    ("move_to_stack", "601.2a"),
    ("choose_mode", "601.2b"),
    ("reveal_splice", "601.2b"),
    ("announce_alternative_or_additional_costs", "601.2b"),
    ("announce_x", "601.2b"),
    ("choose_targets", "601.2c"),
    ("divide_effect", "601.2d"),
    ("check_legality", "601.2e"),
    ("determine_total_cost", "601.2f"),
    ("activate_mana_abilities", "601.2g"),
    ("pay_total_cost", "601.2h"),
    ("becomes_cast", "601.2i"),
)
STEP_RULE = dict(CASTING_STEPS)
STEP_INDEX = {step: index for index, (step, _) in enumerate(CASTING_STEPS)}


@dataclass(frozen=True)
class ManaCost:
    """Generic mana plus the colored symbols, e.g. {2}{W}{U} -> generic 2, colored ("W", "U")."""

    generic: int = 0
    colored: tuple[str, ...] = ()

    @property
    def mana_value(self) -> int:
        return self.generic + len(self.colored)

    def plus(self, other: ManaCost) -> ManaCost:
        return ManaCost(self.generic + other.generic, _sorted(self.colored + other.colored))

    def text(self) -> str:
        """Printed form; an empty cost is {0} (601.2f)."""
        generic = f"{{{self.generic}}}" if self.generic or not self.colored else ""
        return generic + "".join(f"{{{c}}}" for c in self.colored)


def _sorted(colored: Sequence[str]) -> tuple[str, ...]:
    return tuple(sorted(colored, key=COLORS.index))


def parse_mana_cost(text: str) -> ManaCost:
    """ "{2}{W}{U}" -> ManaCost(2, ("W", "U")). Hybrid and X symbols aren't modelled here."""
    generic, colored = 0, []
    for symbol in _SYMBOL.findall(text):
        if symbol.isdigit():
            generic += int(symbol)
        elif symbol in COLORS:
            colored.append(symbol)
        else:
            raise ValueError(f"mana symbol {{{symbol}}} is not modelled in total costs")
    return ManaCost(generic, _sorted(colored))


@dataclass(frozen=True)
class SpellFacts:
    """What a cost change looks at: the spell's card types, colors and who casts it."""

    types: frozenset[str]
    colors: frozenset[str] = frozenset()
    caster: str = ""


@dataclass(frozen=True)
class CostChange:
    """One effect that increases or reduces what spells cost.

    `amount` is generic mana ({1} more: +1, {1} less: -1); `colored` is a colored reduction
    such as "{W} less". `spell_types`/`excluded_types`/`colors` say which spells it taxes or
    discounts (Thalia: excluded Creature), `only_caster` limits it to its controller's spells
    (Goblin Electromancer), empty means every player's (Thalia, Helm of Awakening).
    """

    source: str
    amount: int = 0
    colored: tuple[str, ...] = ()
    spell_types: frozenset[str] = frozenset()  # any of these; empty = any spell
    excluded_types: frozenset[str] = frozenset()  # none of these ("noncreature")
    colors: frozenset[str] = frozenset()
    only_caster: str = ""

    @property
    def is_increase(self) -> bool:
        return self.amount > 0

    def applies_to(self, spell: SpellFacts) -> bool:
        if self.spell_types and not self.spell_types & spell.types:
            return False
        if self.excluded_types & spell.types:
            return False
        if self.colors and not self.colors & spell.colors:
            return False
        return not self.only_caster or self.only_caster == spell.caster


@dataclass(frozen=True)
class TotalCost:
    """The locked-in total (601.2f) and, in order, what each applied change did to it."""

    cost: ManaCost
    applied: tuple[tuple[str, str], ...]  # (source, "+{1}" / "-{1}" / "no effect")
    ignored: tuple[str, ...]  # sources whose change doesn't apply to this spell
    rule: str = "601.2f"


def total_cost(
    spell: SpellFacts,
    base: ManaCost,
    additional: Sequence[ManaCost] = (),
    changes: Sequence[CostChange] = (),
) -> TotalCost:
    """Base (mana or alternative cost) + additional costs + increases - reductions (601.2f).

    Increases are added before reductions so that a reduction may take off what a tax added
    (Thalia's {1} on a spell also discounted by Helm of Awakening cancels out). A generic
    reduction takes off generic mana only and never a colored requirement; the total can't go
    below {0}.
    """
    cost = base
    for extra in additional:
        cost = cost.plus(extra)
    applied: list[tuple[str, str]] = []
    ignored = [c.source for c in changes if not c.applies_to(spell)]
    relevant = [c for c in changes if c.applies_to(spell)]
    for change in [c for c in relevant if c.is_increase]:
        cost = cost.plus(ManaCost(change.amount))
        applied.append((change.source, f"+{{{change.amount}}}"))
    for change in [c for c in relevant if not c.is_increase]:
        before = cost
        cost = _reduce(cost, change)
        applied.append((change.source, _difference(before, cost)))
    return TotalCost(cost, tuple(applied), tuple(ignored))


def _reduce(cost: ManaCost, change: CostChange) -> ManaCost:
    generic = max(0, cost.generic + min(change.amount, 0))
    colored = list(cost.colored)
    for color in change.colored:
        if color in colored:
            colored.remove(color)
        elif generic:
            generic -= 1  # "{W} less" on a spell without {W} reduces generic instead
    return ManaCost(generic, _sorted(colored))


def _difference(before: ManaCost, after: ManaCost) -> str:
    taken = before.mana_value - after.mana_value
    return f"-{taken}" if taken else "no effect"


def cost_change_applies(change: CostChange, spell: SpellFacts) -> bool:
    """Does this increase or reduction change this spell's total cost? (601.2f)."""
    return change.applies_to(spell)


@dataclass(frozen=True)
class StepOrder:
    """Which of two casting steps comes first, and the rules that place them (601.2)."""

    first: str
    second: str
    rules: tuple[str, str]

    @property
    def same_rule(self) -> bool:
        """Both are choices of one sub-rule (601.2b), made in the order it lists them."""
        return self.rules[0] == self.rules[1]


def casting_step_order(step: str, other: str) -> StepOrder:
    """Which of two steps of casting a spell comes first (601.2a-i)."""
    for name in (step, other):
        if name not in STEP_INDEX:
            raise ValueError(f"unknown casting step {name!r}; use one of {sorted(STEP_INDEX)}")
    if step == other:
        raise ValueError("two different casting steps are compared")
    first, second = sorted((step, other), key=STEP_INDEX.__getitem__)
    return StepOrder(first, second, (STEP_RULE[first], STEP_RULE[second]))


def decided_before(step: str) -> tuple[str, ...]:
    """Every step already done when `step` is taken (601.2: the steps are taken in order)."""
    return tuple(name for name, _ in CASTING_STEPS[: STEP_INDEX[step]])

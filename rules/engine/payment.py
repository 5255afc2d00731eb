"""Paying costs on a board: whether each `CostPart` can be paid now, and with which cards.

The resolver pays them and `can_activate` asks the same questions (602.2b: costs are paid in
full or the ability isn't activated).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .costs import CostPart, activation_zone
from .errors import ScenarioError
from .reasons import because
from .state import CardInstance, GameState
from .verdict import Verdict


@dataclass
class CostCheck:
    """Whether a cost can be paid and, per choosing part, the cards that could pay it."""

    blocked: Verdict | None = None
    options: list[tuple[CostPart, list[CardInstance]]] = field(default_factory=list)
    # A part the engine doesn't model: whether the cost can be paid isn't known (118.3).
    unmodelled: CostPart | None = None

    def refuse_unmodelled(self, card: CardInstance, where: str) -> None:
        """Nothing may rest on a part the engine can't pay or check: refuse, naming it."""
        if self.blocked is None and self.unmodelled is not None:
            raise ScenarioError(
                where,
                f"{card.name}'s cost part \u201c{self.unmodelled.text}\u201d isn't modelled, so "
                "whether the cost can be paid (118.3) isn't known; write it with the cost parts "
                "docs/engine.md lists",
            )


def check_cost(
    state: GameState, card: CardInstance, parts: tuple[CostPart, ...], controller: str
) -> CostCheck:
    """Can `controller` pay every part now (107.5, 107.6, 302.6, 118.3, 119.4)?"""
    check = CostCheck()
    zone = activation_zone(parts)
    if card.zone != zone:
        reason = (
            because("works_on_battlefield", card=card.name)
            if zone == "battlefield"
            else because("works_in_zone", card=card.name, zone=zone)
        )
        check.blocked = Verdict(False, "602.2", reason)
        return check
    creature = "Creature" in card.definition.types
    sick = card.sick and creature and "haste" not in card.definition.keyword_names
    for part in parts:
        if part.kind == "tap" and card.tapped:
            check.blocked = Verdict(False, "107.5", because("already_tapped", card=card.name))
        elif part.kind == "untap" and not card.tapped:
            check.blocked = Verdict(False, "107.6", because("already_untapped", card=card.name))
        elif part.kind in ("tap", "untap") and sick:
            symbol = "{T}" if part.kind == "tap" else "{Q}"
            check.blocked = Verdict(
                False,
                "302.6",
                because("summoning_sick", card=card.name, cost=symbol),
            )
        elif part.kind == "pay_life" and state.life_total(controller) < part.count:
            check.blocked = Verdict(
                False,
                "119.4",
                because(
                    "too_little_life",
                    player=controller,
                    life=state.life_total(controller),
                    amount=part.count,
                ),
            )
        elif part.kind == "remove_counters" and card.counters.get(part.counter, 0) < part.count:
            check.blocked = Verdict(
                False,
                "118.3",
                because(
                    "too_few_counters",
                    card=card.name,
                    counters=because(
                        "counters", count=card.counters.get(part.counter, 0), kind=part.counter
                    ),
                    amount=part.count,
                ),
            )
        elif part.kind == "mill" and (controller, "library") in state.listed:
            size = len(state.cards_in(controller, "library"))
            if size < part.count:  # a player can't mill more cards than they have (701.17b)
                check.blocked = _too_few(part, controller, size, "701.17b")
        elif part.kind == "other" and check.unmodelled is None:
            check.unmodelled = part
        elif part.chooses:
            usable = eligible(state, card, part, controller)
            # A zone the scenario doesn't write is undescribed, not empty: not held against it.
            if len(usable) < part.count and (controller, part.zone) in state.listed:
                check.blocked = _too_few(part, controller, len(usable), "118.3")
            check.options.append((part, usable))
        if check.blocked is not None:
            return check
    return check


def eligible(
    state: GameState, card: CardInstance, part: CostPart, controller: str
) -> list[CardInstance]:
    """The cards `controller` could use to pay a choosing part."""
    if part.zone == "battlefield":
        pool = [c for c in state.permanents() if c.controller == controller]
    else:
        pool = list(state.cards_in(controller, part.zone))
    usable = []
    for other in pool:
        if part.kind == "tap_other" and other.tapped:
            continue  # "tap an untapped creature you control"
        if card.zone == "stack" and other.label == card.label:
            continue  # the spell paying its own cost is on the stack (601.2a), not in hand
        if part.other and other.label == card.label:
            continue  # "another": not the source
        if part.filter is not None and not part.filter.matches(other.definition, _NO_NAMES):
            continue
        usable.append(other)
    return usable


_NO_NAMES: Mapping[str, Any] = {}


def _too_few(part: CostPart, player: str, size: int, rule: str) -> Verdict:
    """The cost can't be paid: it needs more cards than `player` has where it takes them."""
    return Verdict(
        False,
        rule,
        because(
            "too_few_for_cost",
            cost=part.text,
            cards=because("cards", count=part.count),
            player=player,
            size=size,
        ),
    )

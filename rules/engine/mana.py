"""Mana a permanent could produce (CR 106.7) as a least fixpoint; undefined types (106.5)."""

from __future__ import annotations

from collections.abc import Mapping

from .cards import MANA_SYMBOLS, Ability
from .costs import CostPart
from .errors import ScenarioError
from .payment import check_cost
from .reasons import because
from .state import CardInstance, GameState
from .verdict import Verdict

# CR 305.6: a land with a basic land type has that type's intrinsic mana ability.
BASIC_LAND_MANA = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}
COLORS = frozenset("WUBRG")
INTRINSIC_COST = (CostPart("tap", "{T}", self_only=True),)  # "{T}: Add [mana]" (305.6)


def mana_abilities(card: CardInstance) -> tuple[Ability, ...]:
    """The card's explicit mana abilities (605.1a)."""
    return tuple(a for a in card.definition.activated if a.is_mana_ability)


def _intrinsic(card: CardInstance) -> frozenset[str]:
    return frozenset(BASIC_LAND_MANA[s] for s in card.definition.subtypes if s in BASIC_LAND_MANA)


def _ability_types(
    ability: Ability, card: CardInstance, state: GameState, known: Mapping[str, frozenset[str]]
) -> frozenset[str]:
    types: set[str] = set()
    for instruction in ability.effect:
        if instruction.verb != "add_mana":
            continue
        mana = instruction.spec["mana"]
        if "fixed" in mana:
            types |= set(mana["fixed"])
        elif "one_of" in mana:
            types |= set(mana["one_of"])
        elif "any_combination" in mana:
            types |= COLORS
        elif "could_produce" in mana:
            controllers = (
                {card.controller}
                if mana["could_produce"] == "you"
                else set(state.opponents(card.controller))
            )
            for other in state.permanents():
                if other.controller in controllers and "Land" in other.definition.types:
                    types |= known.get(other.label, frozenset())
            if mana["kind"] == "color":
                types &= COLORS
    return frozenset(types)


def could_produce(state: GameState) -> dict[str, frozenset[str]]:
    """For every permanent, the types of mana it could produce: the least fixpoint (106.7).

    Sets only grow and there are six mana types, so the iteration always ends; a Reflecting Pool
    that can only copy itself or other Reflecting Pools stays empty.
    """
    permanents = state.permanents()
    known: dict[str, frozenset[str]] = {c.label: _intrinsic(c) for c in permanents}
    changed = True
    while changed:
        changed = False
        for card in permanents:
            types = known[card.label]
            for ability in mana_abilities(card):
                types = types | _ability_types(ability, card, state, known)
            if types != known[card.label]:
                known[card.label] = types
                changed = True
    return known


def format_mana(types: frozenset[str], fixed: tuple[str, ...] | None = None) -> str:
    """ "{G}", "{C}{C}", or "{W} or {U}" (in WUBRGC order); "" for no mana."""
    if fixed:
        return "".join(f"{{{s}}}" for s in fixed)
    return " or ".join(f"{{{s}}}" for s in MANA_SYMBOLS if s in types)


def mana_produced(state: GameState, card: CardInstance, chosen: str | None = None) -> Verdict:
    """What activating `card`'s mana ability produces, with replacement effects applied."""
    verdict = _base_mana_produced(state, card, chosen)
    if not verdict.value or not _taps_for_mana(card):
        return verdict
    factor = 1
    sources = []
    for other in state.permanents():
        for static in other.definition.static:
            if static.kind != "mana_replacement":
                continue
            who = static.spec["who"]
            if who == "all" or (who == "you") == (card.controller == other.controller):
                factor *= static.spec["factor"]
                sources.append(other.name)
    if factor == 1 or not verdict.value.startswith("{"):
        return verdict
    options = verdict.value.split(" or ")
    value = " or ".join(option * factor for option in options)
    return Verdict(
        value,
        "106.12b",
        because("mana_multiplied", clause=verdict.reason, sources=tuple(sources), factor=factor),
    )


def _taps_for_mana(card: CardInstance) -> bool:
    """106.12: tapping for mana is activating a mana ability with {T} in its cost."""
    abilities = mana_abilities(card)
    return not abilities or "{T}" in abilities[0].cost


def _base_mana_produced(state: GameState, card: CardInstance, chosen: str | None) -> Verdict:
    abilities = mana_abilities(card)
    intrinsic = _intrinsic(card)
    if not abilities and not intrinsic:
        return Verdict("", "605.1a", because("no_mana_ability", card=card.name))
    # A mana ability that can't be activated produces no mana: {T} on a tapped permanent
    # (107.5), {Q} on an untapped one (107.6), a creature not controlled since its
    # controller's most recent turn began (302.6), a cost that can't be paid (118.3, 119.4).
    parts = abilities[0].cost_parts if abilities else INTRINSIC_COST
    check = check_cost(state, card, parts, card.controller)
    check.refuse_unmodelled(card, "claim mana_produced")
    blocked = check.blocked
    if blocked is not None:
        return Verdict("", blocked.rule, because("produces_no_mana", clause=blocked.reason))
    if intrinsic and not abilities:
        return _pick(
            card,
            intrinsic,
            None,
            chosen,
            "305.6",
            because("intrinsic_mana", card=card.name),
        )
    ability = abilities[0]
    mana = next(i.spec["mana"] for i in ability.effect if i.verb == "add_mana")
    if "fixed" in mana:
        return Verdict(
            format_mana(frozenset(), mana["fixed"]), "106.1", because("fixed_mana", card=card.name)
        )
    if "could_produce" in mana:
        known = could_produce(state)
        types = _ability_types(ability, card, state, known)
        whose = "yours" if mana["could_produce"] == "you" else "opponents"
        if not types:
            return Verdict(
                "", "106.7", because(f"no_land_could_produce_{whose}", word=mana["kind"])
            )
        return _pick(
            card,
            types,
            None,
            chosen,
            "106.7",
            because(f"could_produce_{whose}", card=card.name, word=mana["kind"]),
        )
    if "any_combination" in mana:
        return Verdict(
            f"{mana['any_combination']} mana in any combination of colors",
            "106.1",
            because("controller_picks_colors"),
        )
    return _pick(
        card,
        frozenset(mana["one_of"]),
        None,
        chosen,
        "106.1",
        because("one_of_these_types", card=card.name),
    )


def _pick(
    card: CardInstance,
    types: frozenset[str],
    fixed: tuple[str, ...] | None,
    chosen: str | None,
    rule: str,
    reason: str,
) -> Verdict:
    if chosen is not None:
        symbol = chosen.strip("{}").upper()
        if symbol not in types:
            raise ScenarioError(
                "choices.mana",
                f"{card.name} can't produce {{{symbol}}} "
                f"(it could produce {format_mana(types) or 'nothing'}; {rule})",
            )
        return Verdict(f"{{{symbol}}}", rule, reason)
    return Verdict(format_mana(types, fixed), rule, reason)

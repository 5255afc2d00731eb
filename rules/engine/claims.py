"""Claims (section 3 of the contract): each computed with its value, rule and reason."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from .combat_claims import (
    combat_damage_steps_verdict,
    combat_destroyed_verdict,
    life_after_combat_verdict,
    trample_to_player_at_most_verdict,
)
from .errors import ScenarioError
from .layer_claims import effect_layer_verdict, power_verdict, toughness_verdict
from .mana import BASIC_LAND_MANA, INTRINSIC_COST, mana_produced
from .outcome import ClaimResult
from .payment import check_cost
from .reasons import because
from .resolver import Resolution, TurnRecord
from .sba_claims import (
    permanents_left_verdict,
    player_loses_verdict,
    sba_destination_verdict,
    sba_performed_verdict,
)
from .scenario import Scenario
from .spell_claims import (
    casting_step_order_verdict,
    cost_change_verdict,
    total_cost_verdict,
    trigger_order_verdict,
    triggers_on_event_verdict,
)
from .state import OUTSIDE, CardInstance
from .turn_claims import (
    may_cast_now_verdict,
    priority_first_verdict,
    priority_in_step_verdict,
    turn_based_actions_verdict,
)
from .verdict import Verdict

CLAIM_SUBJECTS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # claim: (required subject keys, optional subject keys)
    "finds": (("card",), ()),
    "found_count": (("searcher",), ("whose",)),
    "searches": (("player",), ()),
    "searched_portion": (("player",), ()),
    "shuffles": (("player",), ()),
    "shuffled_portion": (("player",), ()),
    "revealed": (("searcher",), ()),
    "decision_order": ((), ()),
    "searched_library_this_turn": (("player",), ()),
    "alt_cost_available": (("card", "player"), ()),
    "mills": (("player",), ()),
    "can_dredge": (("card",), ()),
    "zone_after": (("card",), ()),
    "triggers": (("card",), ()),
    "mana_produced": (("card",), ()),
    "can_activate": (("card",), ("ability",)),
    "mana_value": (("card",), ()),
    "may_pay_mana_cost": (("card",), ("player",)),
    "cost_paid": (("card",), ("player",)),
    "tapped_after": (("card",), ()),
    "counters": (("card",), ("kind",)),
    "life_total": (("player",), ()),
    "exiled_face_down": (("card",), ()),
    "may_look_at": (("card", "player"), ()),
    "enters_x": (("card",), ()),
    "range_of_influence": (("player",), ()),
    "seats_between": (("player", "other"), ()),
    "trigger_game_state": (("card",), ("ability",)),
    "total_cost": (("card",), ("player",)),
    "cost_change_applies": (("card", "source"), ("player",)),
    "triggers_on_event": (("card", "dies"), ()),
    "trigger_order": (("dies",), ()),
    "power": (("card",), ()),
    "toughness": (("card",), ()),
    "effect_layer": (("source",), ()),
    "priority_in_step": (("step",), ("waiting",)),
    "turn_based_actions": (("step",), ("first_turn",)),
    "priority_first": (("step",), ("after", "player", "waiting")),
    "may_cast_now": (("card", "step"), ("player", "stack", "waiting")),
    "casting_step_order": (("card", "steps"), ()),
    "sba_performed": (("card",), ()),
    "sba_destination": (("card",), ()),
    "player_loses": (("player",), ()),
    "permanents_left": (("player",), ()),
    "combat_damage_steps": ((), ()),
    "combat_destroyed": (("card",), ()),
    "trample_to_player_at_most": (("card",), ()),
    "life_after_combat": (("player",), ()),
}
PLAYER_KEYS = frozenset({"player", "searcher", "whose", "other"})
# Keys a claim may carry besides its subject: its value, a line of play, a statement's proposal.
CLAIM_KEYS = frozenset({"claim", "value", "given", "proposed"})
# An outside author may name a claim's one player either way; the contract's key is kept.
SUBJECT_SYNONYMS = {"searcher": "player", "player": "searcher"}
MANA_TRIGGERS = frozenset({"tapped_for_mana", "enchanted_tapped_for_mana", "land_tapped_for_mana"})
SEARCH_TRIGGERS = frozenset(
    {"opponent_searches_library", "player_searches_library", "you_search_library"}
)


@dataclass(frozen=True, eq=False)
class Evaluation:
    """A scenario resolved on one line of play: the turn so far and the step's resolution."""

    scenario: Scenario
    turn: TurnRecord
    resolution: Resolution
    choices: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    @cached_property
    def finds_index(self) -> dict[str, Verdict]:
        """Label -> the verdict of the search that looks at it (must beats may beats cannot)."""
        rank = {"must": 2, "may": 1, "cannot": 0}
        index: dict[str, Verdict] = {}
        for space in self.resolution.searches:
            if index.keys().isdisjoint(space.finds):
                index.update(space.finds)  # the usual case: each space looks at its own cards
                continue
            for label, verdict in space.finds.items():
                known = index.get(label)
                if known is None or rank[verdict.value] > rank[known.value]:
                    index[label] = verdict
        return index


def claim_subject(scenario: Scenario, claim: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """Validate a claim's name and subject; return (name, subject) or raise naming the problem."""
    name = claim.get("claim")
    if name not in CLAIM_SUBJECTS:
        raise ScenarioError("claim", f"unknown claim {name!r}; use one of {sorted(CLAIM_SUBJECTS)}")
    required, optional = CLAIM_SUBJECTS[name]
    accepted = _ACCEPTED_KEYS[name]
    if not accepted.issuperset(claim):
        unknown = claim.keys() - accepted
        raise ScenarioError(
            f"claim {name}",
            f"unknown key(s) {sorted(unknown)}; the keys accepted here are {sorted(accepted)}",
        )
    subject: dict[str, Any] = {}
    for key in (*required, *optional):
        if key in claim:
            value = claim[key]
        elif key in required and _synonym_of(key, required, optional) in claim:
            value = claim[_synonym_of(key, required, optional)]
        elif key in required:
            raise ScenarioError(f"claim {name}", f"needs {key!r}")
        else:
            continue
        if key in PLAYER_KEYS and value not in scenario.state.players:
            raise ScenarioError(f"claim {name}.{key}", f"{value!r} is not a player")
        if key == "card" and scenario.state.card(value) is None:
            raise ScenarioError(f"claim {name}.card", f"no card is labelled {value!r}")
        # A list (the creatures that die together) is kept as a tuple: subjects are hashed.
        subject[key] = tuple(value) if isinstance(value, list) else value
    return name, subject


# Per claim, every key a claim object may hold: its subject (and the synonym of a required
# player key), its value, a line of play, a statement's proposal.
_ACCEPTED_KEYS = {
    name: frozenset(
        {
            *CLAIM_KEYS,
            *required,
            *optional,
            *(SUBJECT_SYNONYMS[k] for k in required if k in SUBJECT_SYNONYMS),
        }
    )
    for name, (required, optional) in CLAIM_SUBJECTS.items()
}


def _synonym_of(key: str, required: tuple[str, ...], optional: tuple[str, ...]) -> str | None:
    """The other name for `key` when the claim doesn't use that name for something else."""
    synonym = SUBJECT_SYNONYMS.get(key)
    return synonym if synonym not in (*required, *optional) else None


def evaluate(evaluation: Evaluation, name: str, subject: Mapping[str, Any]) -> Verdict:
    """Compute one claim's verdict."""
    return _CLAIMS[name](evaluation, subject)


# ---------------------------------------------------------------- one function per claim


def _finds(ev: Evaluation, subject: Mapping[str, Any]) -> Verdict:
    label = subject["card"]
    verdict = ev.finds_index.get(label)
    if verdict is None:
        card = ev.scenario.state.card(label)
        if label == ev.resolution.source_label and ev.resolution.step.kind == "cast":
            return Verdict("cannot", "601.2a", because("resolving_spell", card=card.name))
        if card.zone == OUTSIDE:  # not a zone (400.11): only an effect brings it in (400.11c)
            choosers = sorted(
                {s.searcher for s in ev.resolution.searches if OUTSIDE in s.zones} - {card.owner}
            )
            if choosers:  # a wish brings in a card its player owns, never another's
                reason = because(
                    "outside_not_owned", card=card.name, owner=card.owner, players=tuple(choosers)
                )
                return Verdict("cannot", "400.11c", reason)
            return Verdict("cannot", "400.11c", because("outside_not_chosen", card=card.name))
        return Verdict(
            "cannot", "701.23a", because("zone_not_searched", card=card.name, zone=card.zone)
        )
    return verdict


def _found_count(ev: Evaluation, subject: Mapping[str, Any]) -> Verdict:
    spaces = ev.resolution.spaces_of(subject["searcher"], subject.get("whose"))
    if not spaces and _condition_failed(ev):
        return _failed_condition(ev, [0, 0])
    if not spaces:
        return Verdict([0, 0], "701.23a", because("no_search_here", player=subject["searcher"]))
    taken = [s for s in spaces if s.performed != "no"]
    if not taken:
        # A declined optional search (or one that can't happen) finds nothing on this line.
        lead = spaces[0]
        if lead.status.value == "cannot":
            return Verdict([0, 0], lead.status.rule, lead.status.reason)
        return Verdict(
            [0, 0],
            "608.2d",
            because("chooses_not_to_search", player=subject["searcher"]),
        )
    # Fixed finds don't narrow the bounds: the claim is how many cards the search *can* find.
    low = sum(s.found_count.value[0] for s in taken)
    high = sum(s.found_count.value[1] for s in taken)
    lead = next((s for s in taken if s.status.value != "cannot"), taken[0])
    return Verdict([low, high], lead.found_count.rule, lead.found_count.reason)


def _searches(ev: Evaluation, subject: Mapping[str, Any]) -> Verdict:
    player = subject["player"]
    spaces = ev.resolution.spaces_of(player)
    if not spaces and _condition_failed(ev):
        return _failed_condition(ev, "cannot")
    if not spaces:
        return Verdict("cannot", "701.23a", because("not_instructed_to_search", player=player))
    for wanted in ("must", "may"):
        for space in spaces:
            if space.status.value == wanted:
                return space.status
    return spaces[0].status


def _searched_portion(ev: Evaluation, subject: Mapping[str, Any]) -> Verdict:
    player = subject["player"]
    spaces = [s for s in ev.resolution.spaces_of(player) if "library" in s.zones]
    own = [s for s in spaces if s.whose == player] or spaces
    if not own:
        return Verdict("none", "701.23a", because("searches_no_library", player=player))
    return own[0].portion


def _condition_failed(ev: Evaluation) -> bool:
    """Did the resolving ability's intervening "if" (603.4) fail, so it did nothing?"""
    condition = ev.resolution.condition
    return condition is not None and condition.value is False


def _failed_condition(ev: Evaluation, value: Any) -> Verdict:
    condition = ev.resolution.condition
    assert condition is not None
    return Verdict(value, condition.rule, condition.reason)


def _shuffles(ev: Evaluation, subject: Mapping[str, Any]) -> Verdict:
    player = subject["player"]
    if player not in ev.resolution.shuffles and _condition_failed(ev):
        return _failed_condition(ev, "no")
    return ev.resolution.shuffles.get(
        player, Verdict("no", "701.24a", because("no_shuffle", player=player))
    )


def _shuffled_portion(ev: Evaluation, subject: Mapping[str, Any]) -> Verdict:
    player = subject["player"]
    return ev.resolution.shuffled_portion.get(
        player, Verdict("none", "701.24a", because("does_not_shuffle", player=player))
    )


def _revealed(ev: Evaluation, subject: Mapping[str, Any]) -> Verdict:
    spaces = ev.resolution.spaces_of(subject["searcher"])
    if not spaces:
        return Verdict(False, "701.23e", because("nothing_revealed", player=subject["searcher"]))
    return spaces[0].revealed


def _decision_order(ev: Evaluation, subject: Mapping[str, Any]) -> Verdict:
    searching = {p for group in ev.resolution.search_groups for p in group}
    order = [p for p in ev.scenario.state.apnap_order if p in searching]
    deciders = {
        s.searcher: s.controlled_by
        for s in ev.resolution.searches
        if s.controlled_by is not None and s.searcher in searching
    }
    if deciders:
        # A controlled player's decisions are made by the player controlling them (723.5).
        by: list[str] = []
        for player in order:
            decider = deciders.get(player, player)
            if decider not in by:
                by.append(decider)
        controlled = tuple(because("decided_by", player=p, decider=d) for p, d in deciders.items())
        return Verdict(by, "723.5", because("controlled_decisions", decisions=controlled))
    if len(order) > 1:
        return Verdict(
            order,
            "701.23i",
            because("apnap_decisions"),
        )
    if order:  # one searcher, whom nobody controls: their own decisions
        return Verdict(order, "101.4", because("sole_decider", player=order[0]))
    return Verdict(order, "101.4", because("one_decider"))


def searched_this_turn(ev: Evaluation, player: str) -> Verdict:
    """Did `player` search their own library this turn (history plus this resolution)?"""
    if any(f.kind == "searched_library" and f.player == player for f in ev.turn.facts):
        return Verdict("yes", "701.23a", because("history_searched", player=player))
    best: Verdict | None = None
    for resolution in (*ev.turn.steps, ev.resolution):
        for space in resolution.spaces_of(player, player):
            if not space.searched_own_library:
                continue
            rule = "701.23f" if space.portion.value.startswith("top") else "701.23a"
            if space.performed == "yes":
                key = "searched_part" if rule == "701.23f" else "searched"
                return Verdict("yes", rule, because(key, player=player))
            if space.performed == "if_searched" and best is None:
                best = Verdict(
                    "if_searched",
                    "608.2d",
                    because("searches_if_chosen", player=player),
                )
    if best is not None:
        return best
    skipped = [
        s
        for s in ev.resolution.spaces_of(player, player)
        if "library" in s.zones and "library" not in s.searched_zones
    ]
    if any(s.zone_choice for s in skipped):
        return Verdict(
            "no",
            "701.23a",
            because("library_not_chosen", player=player),
        )
    blocked = skipped
    if blocked:
        return Verdict(
            "no",
            blocked[0].status.rule,
            because("cannot_search_library", player=player, reason=blocked[0].status.reason),
        )
    declined = [
        s
        for s in ev.resolution.spaces_of(player, player)
        if "library" in s.zones and s.status.value == "may" and s.performed == "no"
    ]
    if declined:  # not "looking at cards isn't searching": the player chose not to search
        return Verdict("no", "608.2d", because("chose_not_to_search", player=player))
    return Verdict(
        "no",
        "701.23a",
        because("not_searched_this_turn", player=player),
    )


def _searched_library_this_turn(ev: Evaluation, subject: Mapping[str, Any]) -> Verdict:
    return searched_this_turn(ev, subject["player"])


def _alt_cost_available(ev: Evaluation, subject: Mapping[str, Any]) -> Verdict:
    card = ev.scenario.state.card(subject["card"])
    player = subject["player"]
    alt = card.definition.alt_cost
    if not alt:
        return Verdict(False, "118.9", because("no_alt_cost", card=card.name))
    condition = alt.get("if")
    if condition != "opponent_searched_library_this_turn":
        raise ScenarioError(
            "claim alt_cost_available", f"unsupported alternative-cost condition {condition!r}"
        )
    cost = alt.get("cost", "")
    results = {p: searched_this_turn(ev, p) for p in ev.scenario.state.opponents(player)}
    for value in ("yes", "if_searched"):
        for opponent, verdict in results.items():
            if verdict.value == value:
                return Verdict(
                    True,
                    verdict.rule if verdict.rule == "701.23f" else "118.9",
                    because(
                        "alt_cost_unlocked" if value == "yes" else "alt_cost_unlocked_if",
                        other=opponent,
                        player=player,
                        card=card.name,
                        cost=cost,
                    ),
                )
    return Verdict(
        False,
        "118.9",
        because("alt_cost_locked", player=player, card=card.name),
    )


def _mills(ev: Evaluation, subject: Mapping[str, Any]) -> Verdict:
    player = subject["player"]
    return ev.resolution.mills.get(player, Verdict(0, "701.17a", because("no_mill", player=player)))


def _can_dredge(ev: Evaluation, subject: Mapping[str, Any]) -> Verdict:
    label = subject["card"]
    if label in ev.resolution.dredge:
        return ev.resolution.dredge[label]
    card = ev.scenario.state.card(label)
    dredge = card.definition.keywords.get("dredge")
    if dredge is None:
        return Verdict(False, "702.52a", because("no_dredge", card=card.name))
    if card.zone != "graveyard":
        return Verdict(False, "702.52a", because("dredge_not_in_graveyard"))
    size = len(ev.scenario.state.cards_in(card.owner, "library"))
    if size < int(dredge):
        return Verdict(
            False,
            "702.52b",
            because("dredge_too_few", dredge=dredge, player=card.owner, size=size),
        )
    return Verdict(
        True, "702.52a", because("dredge_enough", player=card.owner, size=size, dredge=dredge)
    )


def _zone_after(ev: Evaluation, subject: Mapping[str, Any]) -> Verdict:
    label = subject["card"]
    if label in ev.resolution.zone_after:
        return ev.resolution.zone_after[label]
    card = ev.scenario.state.card(label)
    return Verdict(card.zone, "400.7", because("not_moved", card=card.name, where=card.zone))


def _mana_triggers(ev: Evaluation, card: CardInstance, events: list[str]) -> Verdict:
    """106.12a: "tapped for mana" triggers only when such a mana ability produces mana."""
    step = ev.resolution.step
    if step is None or step.kind != "activate" or step.source not in ev.resolution.mana:
        return Verdict(0, "106.12a", because("nothing_tapped_for_mana"))
    tapped = ev.scenario.state.card(step.source)
    produced = ev.resolution.mana[step.source]
    is_land = "Land" in tapped.definition.types
    fits = False
    for event in events:
        if event == "tapped_for_mana":
            fits = fits or tapped.label == card.label
        elif event == "land_tapped_for_mana":
            fits = fits or is_land
        elif card.attached_to is not None:
            fits = fits or card.attached_to == tapped.label
        else:
            # An Aura written without "attached_to" is read as enchanting the tapped land.
            fits = fits or is_land
    if not fits:
        return Verdict(0, "603.2", because("not_watched", card=card.name, card_tapped=tapped.name))
    if not produced.value:
        return Verdict(
            0,
            "106.12a",
            because("no_mana_no_trigger", card_tapped=tapped.name, card=card.name),
        )
    return Verdict(
        1,
        "106.12a",
        because(
            "tapped_for_mana_trigger",
            card_tapped=tapped.name,
            mana=produced.value,
            card=card.name,
        ),
    )


def _triggers(ev: Evaluation, subject: Mapping[str, Any]) -> Verdict:
    card = ev.scenario.state.card(subject["card"])
    mana_events = [a.when for a in card.definition.triggered if a.when in MANA_TRIGGERS]
    if mana_events and card.zone == "battlefield":
        return _mana_triggers(ev, card, mana_events)
    events = [a.when for a in card.definition.triggered if a.when in SEARCH_TRIGGERS]
    if not events:
        return Verdict(0, "603.2", because("no_trigger_here", card=card.name))
    if card.zone != "battlefield":
        return Verdict(0, "603.6", because("not_on_battlefield", card=card.name))
    searchers: list[str] = []
    maybe = False
    for space in ev.resolution.searches:
        if not space.searched_own_library or space.performed == "no":
            continue
        player = space.searcher
        for event in events:
            fits = (
                (event == "opponent_searches_library" and player != card.controller)
                or (event == "you_search_library" and player == card.controller)
                or event == "player_searches_library"
            )
            if fits and player not in searchers:
                searchers.append(player)
                maybe = maybe or space.performed == "if_searched"
    count = len(searchers)
    if not count:
        return Verdict(0, "603.2", because("no_watched_search", card=card.name))
    return Verdict(
        count,
        "701.23f",
        because(
            "search_triggers_optional" if maybe else "search_triggers",
            card=card.name,
            players=tuple(searchers),
        ),
    )


def _mana_produced(ev: Evaluation, subject: Mapping[str, Any]) -> Verdict:
    label = subject["card"]
    if label in ev.resolution.mana:
        return ev.resolution.mana[label]
    return mana_produced(ev.scenario.state, ev.scenario.state.card(label))


def _can_activate(ev: Evaluation, subject: Mapping[str, Any]) -> Verdict:
    card = ev.scenario.state.card(subject["card"])
    index = subject.get("ability", 0)
    abilities = card.definition.activated
    if isinstance(index, bool) or not isinstance(index, int):
        raise ScenarioError(
            "claim can_activate.ability", "must be an ability index (0 is the first)"
        )
    if abilities and not 0 <= index < len(abilities):
        raise ScenarioError("claim can_activate.ability", f"{card.name} has no ability {index}")
    if not abilities and not set(card.definition.subtypes) & set(BASIC_LAND_MANA):
        return Verdict(False, "602.1", because("no_activated_ability", card=card.name))
    ability = abilities[index] if abilities else None
    cost = ability.cost if ability else "{T}"
    parts = ability.cost_parts if ability else INTRINSIC_COST
    check = check_cost(ev.scenario.state, card, parts, card.controller)
    check.refuse_unmodelled(card, "claim can_activate")
    if check.blocked is not None:
        return check.blocked
    return Verdict(True, "602.2", because("can_activate", card=card.name, cost=cost))


def _mana_value(ev: Evaluation, subject: Mapping[str, Any]) -> Verdict:
    card = ev.scenario.state.card(subject["card"])
    value = card.definition.mana_value
    if card.definition.alt_cost:
        return Verdict(
            value,
            "118.9c",
            because("mana_value_alt", card=card.name, cost=card.definition.mana_cost, value=value),
        )
    if card.definition.halves and card.zone != "stack":
        # Off the stack a split card's mana cost is its halves' combined (709.4b).
        costs = tuple(cost for _, cost in card.definition.halves)
        return Verdict(value, "709.4b", because("mana_value_split", costs_and=costs, value=value))
    return Verdict(
        value,
        "202.3",
        because("mana_value", cost=card.definition.mana_cost, value=value)
        if card.definition.mana_cost
        else because("mana_value_no_cost", value=value),
    )


def _may_pay_mana_cost(ev: Evaluation, subject: Mapping[str, Any]) -> Verdict:
    card = ev.scenario.state.card(subject["card"])
    if not card.definition.mana_cost:
        return Verdict(False, "118.9", because("no_mana_cost", card=card.name))
    return Verdict(
        True,
        "118.9",
        because("alt_cost_optional", card=card.name, cost=card.definition.mana_cost),
    )


def _cost_paid(ev: Evaluation, subject: Mapping[str, Any]) -> Verdict:
    card = ev.scenario.state.card(subject["card"])
    player = subject.get("player", card.owner)
    use_alt = bool(ev.choices.get(player, {}).get("alt_cost"))
    base = card.definition.mana_cost
    if use_alt:
        available = _alt_cost_available(ev, {"card": card.label, "player": player})
        if not available.value:
            raise ScenarioError(
                f"given.{player}.alt_cost", f"{available.reason} ({available.rule})"
            )
        base = card.definition.alt_cost.get("cost", "")
    change = 0
    sources = []
    for other in ev.scenario.state.permanents():
        for static in other.definition.static:
            if static.kind == "cost_modifier" and _modifier_applies(
                static.spec, other, card, player
            ):
                change += static.spec["amount"]
                sources.append(other.name)
    total = add_generic(base, change)
    which = "alt_cost" if use_alt else "mana_cost"
    if not sources:
        return Verdict(total, "601.2f", because(f"pays_{which}", player=player, total=total))
    return Verdict(
        total,
        "601.2f",
        because(
            f"pays_adjusted_{which}",
            player=player,
            cost=base,
            sources=tuple(sources),
            total=total,
        ),
    )


def _modifier_applies(
    spec: Mapping[str, Any], source: CardInstance, card: CardInstance, caster: str
) -> bool:
    who = spec["who"]
    if who == "you" and caster != source.controller:
        return False
    if who == "opponents" and caster == source.controller:
        return False
    types = card.definition.types
    return {
        "all": True,
        "creature": "Creature" in types,
        "noncreature": "Creature" not in types,
        "instant_sorcery": "Instant" in types or "Sorcery" in types,
    }[spec["spells"]]


def add_generic(cost: str, change: int) -> str:
    """Add `change` generic mana to a cost: "{3}{U}{U}" + 1 -> "{4}{U}{U}", "{0}" + 1 -> "{1}"."""
    symbols = cost.replace("}", "").split("{")[1:]
    generic = sum(int(s) for s in symbols if s.isdigit())
    colored = [s for s in symbols if not s.isdigit()]
    generic = max(0, generic + change)
    text = "".join(f"{{{s}}}" for s in colored)
    return f"{{{generic}}}{text}" if generic or not text else text


def _tapped_after(ev: Evaluation, subject: Mapping[str, Any]) -> Verdict:
    label = subject["card"]
    if label in ev.resolution.tapped_after:
        return ev.resolution.tapped_after[label]
    card = ev.scenario.state.card(label)
    state = "tapped" if card.tapped else "untapped"
    return Verdict(state, "110.5", because(f"stays_{state}", card=card.name))


def _counters(ev: Evaluation, subject: Mapping[str, Any]) -> Verdict:
    label = subject["card"]
    kind = subject.get("kind", "+1/+1")
    if (label, kind) in ev.resolution.counters:
        return ev.resolution.counters[(label, kind)]
    card = ev.scenario.state.card(label)
    count = card.counters.get(kind, 0)
    return Verdict(
        count,
        "122.1",
        because(
            "counters_unchanged",
            card=card.name,
            counters=because("counters", count=count, kind=kind),
        ),
    )


def _life_total(ev: Evaluation, subject: Mapping[str, Any]) -> Verdict:
    player = subject["player"]
    unknown = ev.resolution.life_unknown.get(player)
    if unknown is not None:
        # A number here would rest on something the engine doesn't model: refused, saying so.
        raise ScenarioError(f"claim life_total({player})", unknown)
    if player in ev.resolution.life:
        return ev.resolution.life[player]
    total = ev.scenario.state.life_total(player)
    return Verdict(total, "119.1", because("life_unchanged", player=player, total=total))


def _end_zones(ev: Evaluation, label: str) -> list[str]:
    verdict = ev.resolution.zone_after.get(label)
    if verdict is None:
        return [ev.scenario.state.card(label).zone]
    return str(verdict.value).split(" or ")


def _exiled_face_down(ev: Evaluation, subject: Mapping[str, Any]) -> Verdict:
    label = subject["card"]
    card = ev.scenario.state.card(label)
    face_down = ev.resolution.face_down.get(label)
    if face_down is None:
        return Verdict(False, "406.3", because("not_exiled_face_down", card=card.name))
    if _end_zones(ev, label) == ["exile"]:
        return Verdict(True, "406.3", face_down.reason)
    return Verdict(
        False,
        "406.3",
        because("face_down_if_found", card=card.name),
    )


_PUBLIC_END = frozenset({"battlefield", "graveyard", "exile", "stack"})


def _may_look_at(ev: Evaluation, subject: Mapping[str, Any]) -> Verdict:
    """After the resolution, may this player look at the card? (400.2, 406.3)"""
    label, player = subject["card"], subject["player"]
    card = ev.scenario.state.card(label)
    zones = _end_zones(ev, label)
    face_down = ev.resolution.face_down.get(label)
    answers = []
    for zone in zones:
        if zone == "exile" and face_down is not None:
            answers.append(Verdict(player in face_down.value, "406.3", face_down.reason))
        elif zone in _PUBLIC_END:
            answers.append(
                Verdict(True, "400.2", because("public_look", card=card.name, zone=zone))
            )
        elif zone in ("hand", "outside"):
            answers.append(
                Verdict(
                    player == card.owner,
                    "400.2",
                    because("hidden_look", card=card.name, player=card.owner, zone=zone),
                )
            )
        else:
            answers.append(Verdict(False, "401.2", because("library_look", card=card.name)))
    if all(a.value for a in answers) or not any(a.value for a in answers):
        return answers[0]
    return Verdict(
        False,
        answers[0].rule,
        because("look_unfixed", card=card.name, zones_or=tuple(zones), player=player),
    )


def _enters_x(ev: Evaluation, subject: Mapping[str, Any]) -> Verdict:
    """The X an object's enters-the-battlefield ability or replacement uses (107.3m)."""
    label = subject["card"]
    if label in ev.resolution.enters_x:
        return ev.resolution.enters_x[label]
    card = ev.scenario.state.card(label)
    return Verdict(
        0,
        "107.3m",
        because("x_is_zero", card=card.name),
    )


def _range_of_influence(ev: Evaluation, subject: Mapping[str, Any]) -> Verdict:
    """The players within a player's range of influence, in turn order (801.2); players who
    have left the game no longer sit at the table (800.4a)."""
    player = subject["player"]
    scenario = ev.scenario
    gone = [f.player for f in ev.turn.facts if f.kind == "left_the_game"]
    if player in gone:
        return Verdict([], "800.4a", because("left_game", player=player))
    seated = [p for p in scenario.state.players if p not in gone]
    reach = scenario.range_of_influence
    left = "_left" if gone else ""
    if reach is None:
        return Verdict(
            seated, "801.1", because(f"unlimited_range{left}", player=player, players=tuple(gone))
        )
    seat = seated.index(player)
    count = len(seated)
    within = [
        other
        for index, other in enumerate(seated)
        if min((index - seat) % count, (seat - index) % count) <= reach
    ]
    return Verdict(
        within,
        "801.2",
        because(
            f"limited_range{left}",
            player=player,
            seats=because("seats", count=reach),
            players=tuple(gone),
        ),
    )


def _seats_between(ev: Evaluation, subject: Mapping[str, Any]) -> Verdict:
    """How many seats apart two players sit, the shorter way round (801.2); players who have
    left the game no longer sit at the table (800.4a)."""
    player, other = subject["player"], subject["other"]
    gone = [f.player for f in ev.turn.facts if f.kind == "left_the_game"]
    for who in (player, other):
        if who in gone:
            raise ScenarioError(
                f"claim seats_between.{'player' if who == player else 'other'}",
                f"{who} has left the game (800.4a)",
            )
    seated = [p for p in ev.scenario.state.players if p not in gone]
    apart = abs(seated.index(player) - seated.index(other))
    apart = min(apart, len(seated) - apart)
    reach = ev.scenario.range_of_influence
    inside = ("_within" if apart <= reach else "_outside") if reach else ""
    return Verdict(
        apart,
        "801.2",
        because(
            f"seats_apart{inside}{'_left' if gone else ''}",
            other=other,
            seats=because("seats", count=apart),
            player=player,
            reach=reach,
            players=tuple(gone),
        ),
    )


_LOOK_BACK_EVENTS = frozenset({"dies", "creature_dies"})


def _trigger_game_state(ev: Evaluation, subject: Mapping[str, Any]) -> Verdict:
    """Which game state decides whether the ability triggers on its event: the one before it
    for leaving the battlefield or a range of influence (603.10a), the one after it otherwise
    (603.6, 603.2)."""
    card = ev.scenario.state.card(subject["card"])
    abilities = card.definition.triggered
    index = subject.get("ability", 0)
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(abilities):
        raise ScenarioError(
            "claim trigger_game_state.ability", f"{card.name} has no triggered ability {index}"
        )
    event = abilities[index].when
    if event in _LOOK_BACK_EVENTS:
        return Verdict(
            "before",
            "603.10a",
            because("looks_back", card=card.name, event=event),
        )
    return Verdict(
        "after",
        "603.6",
        because("looks_after", card=card.name, event=event),
    )


_CLAIMS: dict[str, Callable[[Evaluation, Mapping[str, Any]], Verdict]] = {
    "finds": _finds,
    "found_count": _found_count,
    "searches": _searches,
    "searched_portion": _searched_portion,
    "shuffles": _shuffles,
    "shuffled_portion": _shuffled_portion,
    "revealed": _revealed,
    "decision_order": _decision_order,
    "searched_library_this_turn": _searched_library_this_turn,
    "alt_cost_available": _alt_cost_available,
    "mills": _mills,
    "can_dredge": _can_dredge,
    "zone_after": _zone_after,
    "triggers": _triggers,
    "mana_produced": _mana_produced,
    "can_activate": _can_activate,
    "mana_value": _mana_value,
    "may_pay_mana_cost": _may_pay_mana_cost,
    "cost_paid": _cost_paid,
    "tapped_after": _tapped_after,
    "counters": _counters,
    "life_total": _life_total,
    "exiled_face_down": _exiled_face_down,
    "may_look_at": _may_look_at,
    "enters_x": _enters_x,
    "range_of_influence": _range_of_influence,
    "seats_between": _seats_between,
    "trigger_game_state": _trigger_game_state,
    "total_cost": lambda ev, s: total_cost_verdict(ev.scenario, s),
    "cost_change_applies": lambda ev, s: cost_change_verdict(ev.scenario, s),
    "triggers_on_event": lambda ev, s: triggers_on_event_verdict(ev.scenario, s),
    "trigger_order": lambda ev, s: trigger_order_verdict(ev.scenario, s),
    "power": lambda ev, s: power_verdict(ev.scenario, s),
    "toughness": lambda ev, s: toughness_verdict(ev.scenario, s),
    "effect_layer": lambda ev, s: effect_layer_verdict(ev.scenario, s),
    "priority_in_step": lambda ev, s: priority_in_step_verdict(ev.scenario, s),
    "turn_based_actions": lambda ev, s: turn_based_actions_verdict(ev.scenario, s),
    "priority_first": lambda ev, s: priority_first_verdict(ev.scenario, s),
    "may_cast_now": lambda ev, s: may_cast_now_verdict(ev.scenario, s),
    "casting_step_order": lambda ev, s: casting_step_order_verdict(ev.scenario, s),
    "sba_performed": lambda ev, s: sba_performed_verdict(ev.scenario, s),
    "sba_destination": lambda ev, s: sba_destination_verdict(ev.scenario, s),
    "player_loses": lambda ev, s: player_loses_verdict(ev.scenario, s),
    "permanents_left": lambda ev, s: permanents_left_verdict(ev.scenario, s),
    "combat_damage_steps": lambda ev, s: combat_damage_steps_verdict(ev.scenario, s),
    "combat_destroyed": lambda ev, s: combat_destroyed_verdict(ev.scenario, s),
    "trample_to_player_at_most": lambda ev, s: trample_to_player_at_most_verdict(ev.scenario, s),
    "life_after_combat": lambda ev, s: life_after_combat_verdict(ev.scenario, s),
}


def to_result(name: str, subject: Mapping[str, Any], verdict: Verdict) -> ClaimResult:
    """Wrap a verdict as a ClaimResult."""
    return ClaimResult(name, dict(subject), verdict.value, verdict.rule, verdict.reason)

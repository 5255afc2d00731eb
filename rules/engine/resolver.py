"""The resolver: plays one step (cast, activate, trigger, draw) instruction by instruction.

It reads top to bottom: find the ability, pay costs, check targets, then run each instruction,
recording every conclusion as a Verdict with its citation in a `Resolution`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache, partial
from itertools import zip_longest
from typing import Any

from .cards import Ability, CardDefinition, Instruction, TargetSpec, enters_untapped_if
from .costs import MOVES, CostPart, parse_cost
from .effects import (
    ActiveEffect,
    battlefield_effects,
    portion_limit,
    prohibitions_on,
    search_controller,
)
from .errors import ScenarioError
from .filters import shares_a_name
from .mana import mana_produced
from .payment import check_cost, eligible
from .reasons import Phrase, Reason, because
from .replacement import Event as ReplacementEvent
from .replacement import apply_replacements, graveyard_to_exile
from .sba import Board as SbaBoard
from .sba import check as state_based_actions
from .sba import from_definition as permanent_of
from .scenario import Choices, Fact, Scenario, Step, definition_of
from .search import (
    SearchSpace,
    check_found_set,
    max_fill,
    merge_spaces,
    merge_zone_choices,
    plan_search,
)
from .state import OUTSIDE, ZONES, CardInstance, GameState
from .verdict import Verdict
from .words import plural, with_article

NAME_NOT_IN_GAME = "(a name no card in this game has)"
DESTINATION_ZONE = {
    "library_top": "library",
    "library_bottom": "library",
    "set_aside": "set_aside",
    "exile_face_down": "exile",
}


@dataclass
class Resolution:
    """Everything one step did or may do, each conclusion with its citation."""

    step: Step | None
    controller: str | None = None
    source_label: str | None = None
    searches: list[SearchSpace] = field(default_factory=list)
    search_groups: list[tuple[str, ...]] = field(default_factory=list)
    shuffles: dict[str, Verdict] = field(default_factory=dict)
    shuffled_portion: dict[str, Verdict] = field(default_factory=dict)
    mills: dict[str, Verdict] = field(default_factory=dict)
    zone_after: dict[str, Verdict] = field(default_factory=dict)
    mana: dict[str, Verdict] = field(default_factory=dict)
    dredge: dict[str, Verdict] = field(default_factory=dict)
    tapped_after: dict[str, Verdict] = field(default_factory=dict)
    enters_x: dict[str, Verdict] = field(default_factory=dict)  # 107.3m
    # Cards that end (or may end) exiled face down, with the players who may look (406.3).
    face_down: dict[str, Verdict] = field(default_factory=dict)
    counters: dict[tuple[str, str], Verdict] = field(default_factory=dict)
    life: dict[str, Verdict] = field(default_factory=dict)
    # Players whose life total an instruction the engine doesn't model may change, and why.
    life_unknown: dict[str, Reason] = field(default_factory=dict)
    created_effects: list[ActiveEffect] = field(default_factory=list)
    explanation: list[str] = field(default_factory=list)
    # A triggered ability's intervening "if" (603.4): False means it did nothing.
    condition: Verdict | None = None

    def spaces_of(self, searcher: str, whose: str | None = None) -> list[SearchSpace]:
        """Search spaces of one searcher (optionally through one player's zones)."""
        return [
            s
            for s in self.searches
            if s.searcher == searcher and (whose is None or s.whose == whose)
        ]


class _Zones(dict[tuple[str, str], list[CardInstance]]):
    """(player, zone) -> the run's own list of the cards there (zone order), for every player
    and zone of `ZONES`: copied from the state when first read, as a run reads a few of a big
    board's zones."""

    def __init__(self, state: GameState) -> None:
        super().__init__()
        self.state = state

    def __missing__(self, key: tuple[str, str]) -> list[CardInstance]:
        player, zone = key
        if zone not in ZONES or player not in self.state.players:
            raise KeyError(key)
        cards = self[key] = list(self.state.cards_in(player, zone))
        return cards


class _Run:
    """Mutable working state while one step resolves; the scenario itself is never changed."""

    def __init__(
        self,
        scenario: Scenario,
        step: Step,
        effects: tuple[ActiveEffect, ...],
        facts: Sequence[Fact],
        choices: Choices,
        path: str = "resolve",
    ) -> None:
        self.scenario = scenario
        # "resolve" or "history[i]": names the step in errors. A history step happened earlier
        # this turn, so the board it is checked against has changed since (see _check_targets).
        self.path = path
        self.in_history = path != "resolve"
        self.state: GameState = scenario.state
        self.step = step
        self.effects = effects
        # Leonin Arbiter's {2}: paid by a player for themself, once per Arbiter (None: a fact
        # written where no such permanent is on the board now, read as paid for any).
        self.paid_escape: dict[str, set[str | None]] = {}
        for fact in facts:
            if fact.kind == "ignored_search_prohibition":
                self.paid_escape.setdefault(fact.player, set()).add(fact.paid_for)
        self.choices = choices
        self.zones = _Zones(self.state)
        # Label -> the zones a card may end in. A set here is replaced, never changed in place
        # (cards of one name found alike share one).
        self.possible: dict[str, set[str]] = {}
        self.result = Resolution(step)
        self.last_searchers: list[str] = []
        self.last_spaces: list[SearchSpace] = []
        self.found_fixed: list[str] | None = None
        self.chosen: list[str | None] | None = None
        self.revealed_hand: str | None = None
        self.spell_exiled = False
        self.spell_to: str | None = None  # "Shuffle Green Sun's Zenith into its owner's library"
        self.cast_from: str | None = None
        self.draws_made: dict[str, int] = {}  # draws so far per player (dredge choices)
        # (player, choice) pairs some instruction read: a fixed choice nothing reads is refused.
        self.consumed: set[tuple[str, str]] = set()
        self.shared_verdicts: dict[tuple[Any, ...], Verdict] = {}
        # Cards an effect puts onto the battlefield tapped ("put it onto the battlefield
        # tapped"), with why; read when the step ends (_record_entering).
        self.put_tapped: dict[str, Reason] = {}
        # The creatures a cost sacrificed (or, not fixed, each that could be the one), and the
        # X derived from them ("X is 2 plus the sacrificed creature's mana value").
        self.sacrificed: tuple[CardInstance, ...] = ()
        # How many of `sacrificed` a cost sacrifices (all of them once the choice is fixed).
        self.sacrifice_count = 0
        self.x_from_cost: int | tuple[int, ...] | None = None
        self.that_many: int | None = None  # how many the last "all" instruction moved

    # ---------------------------------------------------------------- references

    def card_targets(self) -> list[CardInstance]:
        found = (self.state.card(t) for t in self.step.targets)
        return [c for c in found if c is not None]

    def player_targets(self) -> list[str]:
        return [t for t in self.step.targets if t in self.state.players]

    def players_for(self, ref: str, path: str) -> list[str]:
        controller = self.result.controller or ""
        if ref == "you":
            return [controller]
        if ref == "each_player":
            return list(self.state.apnap_order)
        if ref == "each_opponent":
            return [p for p in self.state.apnap_order if p != controller]
        if ref == "searcher":
            return list(self.last_searchers) or [controller]
        if ref in ("target_player", "target_opponent"):
            players = self.player_targets()
            if not players:
                raise ScenarioError(
                    f"{path}", f"the effect needs a target player ({ref}) but none was given"
                )
            if ref == "target_opponent" and players[0] == controller:
                raise ScenarioError(f"{path}", f"{players[0]} is not an opponent of {controller}")
            return [players[0]]
        if ref in ("controller_of_target", "owner_of_target"):
            cards = self.card_targets()
            if not cards:
                raise ScenarioError(
                    f"{path}", f"the effect needs a target card ({ref}) but none was given"
                )
            return [cards[0].controller if ref == "controller_of_target" else cards[0].owner]
        raise ScenarioError(path, f"unknown player reference {ref!r}")

    def exiled_instead(self, card: CardInstance) -> Reason | None:
        """A graveyard replacement in force (Rest in Peace, Leyline of the Void) exiles the card
        instead (614.1a): the reason, or None. Checked before the card leaves, so Rest in Peace
        itself is exiled when it is destroyed (its ruling)."""
        effects = [
            graveyard_to_exile(
                e.source_label,
                e.controller,
                "opponent" if e.spec["whose"] == "opponents" else "any",
            )
            for e in self.effects
            if e.kind == "graveyard_replacement"
        ]
        if not effects:
            return None
        controller = card.controller if card.zone == "battlefield" else ""
        event = ReplacementEvent(
            "move",
            card=card.label,
            owner=card.owner,
            controller=controller,
            from_zone=card.zone,
            to_zone="graveyard",
        )
        outcome = apply_replacements(event, effects)
        if outcome.final.to_zone != "exile":
            return None
        source = next(e.source_name for e in self.effects if e.source_label == outcome.order[0])
        return because("exiled_instead", card=card.name, source=source)

    def move(self, card: CardInstance, zone: str, rule: str, reason: str) -> None:
        """Move a card for certain (zone lists change) and record where it ends."""
        if zone == "graveyard" and (instead := self.exiled_instead(card)) is not None:
            zone, rule, reason = "exile", "614.1a", instead
        if card.zone == "battlefield" and zone != "battlefield":
            # A permanent that leaves stops applying its static abilities at once (611.3b):
            # Splinter exiling Mindlock Orb lets the search that follows happen.
            kept = tuple(e for e in self.effects if e.source_label != card.label)
            if len(kept) != len(self.effects):
                self.effects = kept
                self.result.explanation.append(
                    f"{card.name} has left the battlefield; its static abilities no longer apply."
                )
        left = None
        for key, cards in self.zones.items():
            if card in cards:
                cards.remove(card)
                left = key[1]
                break
        else:
            # Not in a zone the run has read yet: where the state has it, if anywhere.
            home = (card.owner, card.zone)
            if home not in self.zones and card.zone in ZONES and card.owner in self.state.players:
                cards = self.zones[home]
                if card in cards:
                    cards.remove(card)
                    left = card.zone
        if zone in ZONES:
            owner_zone = (card.owner, zone)
            self.zones[owner_zone].append(card)
        self.possible[card.label] = {zone}
        self.result.zone_after[card.label] = Verdict(zone, rule, reason)
        if zone == "battlefield" and left == "library":
            self.mill_as_it_enters(card)

    def mill_as_it_enters(self, card: CardInstance) -> None:
        """A replacement that mills as a permanent enters: the card entering from that library
        isn't among the cards milled, though it is still in the library as the effect applies
        (the mill ruling; 614.12)."""
        for effect in self.effects:
            if effect.kind != "enters_mill":
                continue
            who = effect.spec["who"]
            if (who == "you") != (card.controller == effect.controller) and who != "all":
                continue
            if effect.spec["types"] and not set(effect.spec["types"]) & set(card.definition.types):
                continue
            milled_cards = list(self.zones[(card.owner, "library")][: effect.spec["count"]])
            for milled in milled_cards:
                self.move(
                    milled,
                    "graveyard",
                    "614.12",
                    because(
                        "mills_as_enters",
                        source=effect.source_name,
                        card_milled=milled.name,
                        card=card.name,
                    ),
                )
            previous = self.result.mills.get(card.owner)
            total = (previous.value if previous else 0) + len(milled_cards)
            self.result.mills[card.owner] = Verdict(
                total,
                "614.12",
                because(
                    "mills_player_as_enters",
                    source=effect.source_name,
                    player=card.owner,
                    card=card.name,
                ),
            )

    def maybe_move(self, card: CardInstance, zones: set[str], rule: str, reason: str) -> None:
        """Record that a card may end in any of `zones` (the line of play isn't fixed)."""
        if "graveyard" in zones and (instead := self.exiled_instead(card)) is not None:
            zones, rule, reason = (zones - {"graveyard"}) | {"exile"}, "614.1a", instead
        label = card.label
        current = self.possible.get(label)
        if current is None:
            options = {card.zone, *zones}
        elif "set_aside" in current:
            options = (current - {"set_aside"}) | zones
        else:
            options = current | zones
        self.possible[label] = options
        # Cards of one name in one zone share a verdict: a 60-card library builds a handful.
        key = (_zones_text(options), rule, reason)
        verdict = self.shared_verdicts.get(key)
        if verdict is None:
            verdict = self.shared_verdicts[key] = Verdict(*key)
        self.result.zone_after[label] = verdict


_ZONE_ORDER = (*ZONES, "set_aside")
_ZONES_TEXT: dict[frozenset[str], str] = {}  # at most one entry per set of zone names


def _zones_text(zones: set[str]) -> str:
    key = frozenset(zones)
    text = _ZONES_TEXT.get(key)
    if text is None:
        text = _ZONES_TEXT[key] = " or ".join(z for z in _ZONE_ORDER if z in zones)
    return text


# ---------------------------------------------------------------- steps


def _check_targets(run: _Run, specs: tuple[TargetSpec, ...], name: str) -> None:
    if not specs:
        return
    targets = run.step.targets
    if len(targets) != len(specs):
        raise ScenarioError(
            f"{run.path}.targets", f"{name} needs {len(specs)} target(s); got {len(targets)}"
        )
    controller = run.result.controller
    for i, (target, spec) in enumerate(zip(targets, specs, strict=True)):
        where = f"{run.path}.targets[{i}]"
        card = run.state.card(target)
        if spec.kind in ("player", "opponent"):
            if target not in run.state.players:
                raise ScenarioError(where, f"{name} needs a {spec.kind} here; {target!r} is a card")
            if spec.kind == "opponent" and target == controller:
                raise ScenarioError(where, f"{target} is not an opponent of {controller}")
            continue
        if spec.kind == "any":
            continue
        if card is None:
            raise ScenarioError(where, f"{name} needs a {spec.kind} here; {target!r} is a player")
        if run.in_history:
            # `zones` is the board now: an earlier step's target may since have moved (a
            # creature Path to Exile exiled), so only the kind of target is checked.
            continue
        # Every refusal names the target, what it isn't and the rules (115.1, 601.2c).
        cant = f"{name} can't target it (115.1, 601.2c)"
        if spec.kind == "permanent" and card.zone != "battlefield":
            raise ScenarioError(where, f"{target} ({card.name}) is not on the battlefield: {cant}")
        if spec.zone and card.zone != spec.zone:
            raise ScenarioError(where, f"{target} ({card.name}) is not in a {spec.zone}: {cant}")
        if spec.controller and card.zone == "battlefield":
            mine = card.controller == controller
            if mine != (spec.controller == "you"):
                whose = "an opponent" if spec.controller == "opponent" else controller
                raise ScenarioError(
                    where,
                    f"{target} ({card.name}) is controlled by {card.controller}; {name} needs a "
                    f"target {spec.kind} {whose} controls (115.1, 601.2c)",
                )
        if not spec.filter.matches(card.definition, {}):
            wanted = with_article(spec.filter.describe())
            raise ScenarioError(where, f"{target} ({card.name}) is not {wanted}: {cant}")


def _pay_cost(run: _Run, card: CardInstance, ability: Ability) -> None:
    """Pay every part of the cost (602.2b), or refuse the activation naming why it can't be."""
    controller = run.result.controller or card.controller
    parts = ability.cost_parts
    if not run.in_history:
        # A history step happened earlier: the board now is after its costs were paid.
        check = check_cost(run.state, card, parts, controller)
        check.refuse_unmodelled(card, f"{run.path}.activate")
        if check.blocked is not None:
            if ability.is_mana_ability:
                return  # it can't be activated, so it produces no mana (mana_produced says why)
            raise ScenarioError(
                f"{run.path}.activate",
                f"{card.name}'s ability can't be activated: {check.blocked.reason} "
                f"({check.blocked.rule})",
            )
    chosen = list(run.choices.get(controller, {}).get("cost", []))
    run.consumed.add((controller, "cost"))
    for part in parts:
        if part.kind == "tap":
            run.result.tapped_after[card.label] = Verdict(
                "tapped", "107.5", because("tapped_to_pay", card=card.name)
            )
        elif part.kind == "untap":
            run.result.tapped_after[card.label] = Verdict(
                "untapped", "107.6", because("untapped_to_pay", card=card.name)
            )
        elif part.kind in MOVES and part.self_only:
            zone, rule = MOVES[part.kind]
            run.move(
                card,
                zone,
                rule,
                because(f"{part.kind}_to_pay_self", card=card.name, cost=part.text, into=zone),
            )
            run.result.explanation.append(f"{card.name}: {part.text} (a cost).")
        elif part.kind == "pay_life":
            _pay_life(run, controller, part.count)
        elif part.kind == "remove_counters":
            _change_counters(run, card, part.counter, -part.count, "602.2b", "cost", part.text)
        elif part.kind == "loyalty" and "loyalty" in card.counters:
            amount = int(part.text.replace("−", "-"))
            _change_counters(run, card, "loyalty", amount, "606.4", "loyalty", part.text)
        elif part.chooses:
            _pay_choosing_part(run, card, part, controller, chosen)
        elif part.kind == "mill":
            _do_mill(run, {"who": "you", "count": part.count}, f"{run.path}.activate")
        elif part.kind == "other":
            run.result.explanation.append(f"(cost \u201c{part.text}\u201d: not modelled.)")
    if chosen:
        raise ScenarioError(
            f"choices.{controller}.cost",
            f"{chosen[0]} pays no part of {card.name}'s cost ({ability.cost})",
        )


def _pay_choosing_part(
    run: _Run, card: CardInstance, part: CostPart, controller: str, chosen: list[str]
) -> None:
    """ "Sacrifice a land", "Exile a card from your graveyard", "Tap an untapped creature":
    the cards named in the `cost` choice, else any card that could pay it may be the one."""
    usable = eligible(run.state, card, part, controller)
    labels = {c.label for c in usable}
    picked = [label for label in chosen if label in labels][: part.count]
    for label in picked:
        chosen.remove(label)
    if not run.in_history and picked and len(picked) < part.count:
        raise ScenarioError(
            f"choices.{controller}.cost",
            f"the cost “{part.text}” needs {plural(part.count, 'card')}; {len(picked)} named",
        )
    certain = picked or ([c.label for c in usable] if len(usable) == part.count else [])
    if part.kind == "sacrifice":
        run.sacrificed = (
            tuple(c for c in usable if c.label in certain) if certain else tuple(usable)
        )
        run.sacrifice_count = part.count
    for other in usable:
        if part.kind == "tap_other":
            if other.label in certain:
                run.result.tapped_after[other.label] = Verdict(
                    "tapped", "602.2b", because("tapped_for_cost", card=other.name, cost=part.text)
                )
            elif not picked:
                run.result.tapped_after[other.label] = Verdict(
                    "tapped or untapped",
                    "602.2b",
                    because("may_tap_for_cost", player=controller, cost=part.text, card=other.name),
                )
            continue
        zone, rule = MOVES[part.kind]
        if other.label in certain:
            run.move(
                other,
                zone,
                rule,
                because(f"{part.kind}_to_pay", card=other.name, cost=part.text),
            )
        elif not picked:
            run.maybe_move(
                other,
                {zone},
                "602.2b",
                because("may_pay_cost", player=controller, cost=part.text, card=other.name),
            )


def _on_stack(
    card: CardInstance | None, definition: CardDefinition, controller: str
) -> CardInstance:
    """The spell being cast as its costs are paid: on the stack (601.2a), so it can't pay a
    cost of its own such as "discard a card" from the hand it was cast from."""
    if card is not None:
        return replace(card, zone="stack")
    return CardInstance.fast(
        "", definition.name, controller, controller, "stack", 0, definition, False, False, True
    )


def _pay_kicker(run: _Run, card: CardInstance | None, definition: CardDefinition) -> None:
    """Kicker is an additional cost paid as the spell is cast (702.33a, 601.2f): a kicker such
    as "Sacrifice a creature" moves what it says (mana needs nothing more here)."""
    kicker = definition.keywords.get("kicker")
    if not isinstance(kicker, str):
        return
    controller = run.step.by or ""
    parts = parse_cost(kicker, definition.name, f"{definition.name}.keywords.kicker")
    source = _on_stack(card, definition, controller)
    chosen = list(run.choices.get(controller, {}).get("cost", []))
    run.consumed.add((controller, "cost"))
    for part in parts:
        if part.chooses:
            if (
                not run.in_history
                and len(eligible(run.state, source, part, controller)) < part.count
            ):
                raise ScenarioError(
                    f"choices.{controller}.kicked",
                    f"{definition.name}'s kicker ({kicker}) can't be paid (118.3)",
                )
            _pay_choosing_part(run, source, part, controller, chosen)
        elif part.kind == "pay_life":
            _pay_life(run, controller, part.count)
    run.result.explanation.append(f"{controller} pays the kicker cost {kicker} (702.33a).")


def _pay_additional_cost(run: _Run, card: CardInstance | None, definition: CardDefinition) -> None:
    """ "As an additional cost to cast this spell, sacrifice a creature": announced and paid as
    the spell is cast (601.2b, 601.2h), so the creature is gone before the spell resolves
    (701.21a); a spell whose additional cost can't be paid can't be cast (601.2h, 118.3)."""
    parts = definition.additional_cost_parts
    if not parts:
        return
    controller = run.step.by or ""
    source = _on_stack(card, definition, controller)
    where = f"{run.path}.cast"
    if not run.in_history:
        for part in parts:
            if part.kind == "other":
                raise ScenarioError(
                    where,
                    f"{definition.name}'s additional cost part \u201c{part.text}\u201d isn't "
                    "modelled, so whether it can be paid (118.3) isn't known",
                )
            # A zone the scenario doesn't write is undescribed, not empty: not held against it.
            if (
                part.chooses
                and (controller, part.zone) in run.state.listed
                and len(eligible(run.state, source, part, controller)) < part.count
            ):
                raise ScenarioError(
                    where,
                    f"{definition.name} can't be cast: its additional cost "
                    f"({definition.additional_cost}) can't be paid (601.2h, 118.3)",
                )
    chosen = list(run.choices.get(controller, {}).get("cost", []))
    run.consumed.add((controller, "cost"))
    for part in parts:
        if part.chooses:
            _pay_choosing_part(run, source, part, controller, chosen)
        elif part.kind == "pay_life":
            _pay_life(run, controller, part.count)
        elif part.kind == "mill":
            _do_mill(run, {"who": "you", "count": part.count}, where)
    run.result.explanation.append(
        f"{controller} pays the additional cost: {definition.additional_cost} (601.2h)."
    )


def _derive_x(run: _Run, x_is: Mapping[str, int] | None) -> None:
    """X from what the cost sacrificed, as it last existed on the battlefield (608.2h): one
    value when the creature is known, else one per creature that could have been sacrificed."""
    if x_is is None:
        return
    plus = x_is["sacrificed_mana_value_plus"]
    options = sorted({c.definition.mana_value + plus for c in run.sacrificed})
    if not options:
        run.result.explanation.append("Nothing was sacrificed: X can't be derived from it.")
        return
    run.x_from_cost = options[0] if len(options) == 1 else tuple(options)
    names = ", ".join(f"{c.name} ({c.definition.mana_value})" for c in run.sacrificed)
    run.result.explanation.append(
        f"X is {plus} plus the sacrificed creature's mana value ({names}): "
        f"{' or '.join(str(x) for x in options)}."
    )


def _pay_life(run: _Run, player: str, amount: int) -> None:
    """A cost's life payment (119.4): the player's life goes down by the amount paid."""
    _change_life(run, player, -amount, "119.4", because("pays_life", player=player, amount=amount))


def _change_life(run: _Run, player: str, amount: int, rule: str, reason: Reason) -> None:
    before = run.result.life.get(player)
    total = (before.value if before else run.state.life_total(player)) + amount
    run.result.life[player] = Verdict(
        total, rule, because("life_after", reason=reason, player=player, total=total)
    )


def _change_counters(
    run: _Run,
    card: CardInstance,
    kind: str,
    amount: int,
    rule: str,
    why: str,
    cost: str = "",
) -> None:
    """`why`: "effect", "cost" or "loyalty" (a cost's text in `cost`)."""
    key = (card.label, kind)
    before = run.result.counters.get(key)
    total = max(0, (before.value if before else card.counters.get(kind, 0)) + amount)
    run.result.counters[key] = Verdict(
        total,
        rule,
        because(
            f"counters_after_{why}",
            card=card.name,
            counters=because("counters", count=total, kind=kind),
            cost=cost,
        ),
    )


def _resolve_step(run: _Run) -> None:
    step = run.step
    result = run.result
    result.controller = step.by
    if step.kind == "draw":
        _draw_step(run)
        return
    card, definition = definition_of(run.scenario, step)
    result.source_label = card.label if card is not None else None
    if step.kind == "cast":
        _check_targets(run, definition.targets, definition.name)
        result.explanation.append(f"{step.by} casts {definition.name}.")
        if card is not None:
            # A spell is on the stack while it resolves, not in the zone it was cast from (601.2a).
            run.cast_from = card.zone
            run.move(card, "stack", "601.2a", because("on_stack", card=card.name))
        if "kicker" in definition.keywords and _kicked(run):
            _pay_kicker(run, card, definition)
        _pay_additional_cost(run, card, definition)
        _derive_x(run, definition.x_is)
        _run_effect(run, definition.spell, definition)
        if card is not None:
            _finish_spell(run, card, definition)
        return
    assert card is not None
    if step.kind == "activate" and not card.definition.activated:
        # A basic land type's intrinsic mana ability (305.6).
        chosen = run.choices.get(step.by or "", {}).get("mana")
        result.mana[card.label] = mana_produced(run.state, card, chosen)
        result.explanation.append(f"{step.by} taps {card.name} for mana.")
        if result.mana[card.label].value:
            result.tapped_after[card.label] = Verdict(
                "tapped", "107.5", because("tapped_to_pay", card=card.name)
            )
        return
    if step.kind == "activate":
        ability = _pick_ability(card.definition.activated, step, "activate", run.path)
        _check_targets(run, ability.targets, card.name)
        result.explanation.append(f"{step.by} activates {card.name}'s ability ({ability.cost}).")
        if ability.is_mana_ability:
            chosen = run.choices.get(step.by or "", {}).get("mana")
            result.mana[card.label] = mana_produced(run.state, card, chosen)
        _pay_cost(run, card, ability)
        _derive_x(run, ability.x_is)
        _run_effect(run, ability.effect, definition)
        return
    ability = _pick_ability(
        tuple(a for a in card.definition.triggered if not step.event or a.when == step.event)
        or card.definition.triggered,
        step,
        "trigger",
        run.path,
    )
    result.controller = card.controller
    _check_targets(run, ability.targets, card.name)
    if ability.condition:
        result.condition = _check_condition(run, card, ability.condition)
        result.explanation.append(result.condition.reason)
        if not result.condition.value:
            return
    result.explanation.append(
        f"{card.name}'s triggered ability ({ability.when}) resolves for {card.controller}."
    )
    _run_effect(run, ability.effect, definition)


def _check_condition(run: _Run, card: CardInstance, condition: str) -> Verdict:
    """An intervening "if" (603.4): checked when the event happens and again on resolution."""
    assert condition == "opponent_controls_more_lands"
    you = card.controller

    def lands(player: str) -> int:
        # Permanents sit in their owner's battlefield list; count by controller.
        return sum(
            1
            for owner in run.state.players
            for c in run.zones[(owner, "battlefield")]
            if c.controller == player and "Land" in c.definition.types
        )

    mine = lands(you)
    counts = {p: lands(p) for p in run.state.opponents(you)}
    more = [p for p, n in counts.items() if n > mine]
    detail = ", ".join(f"{p} {n}" for p, n in counts.items())
    if more:
        return Verdict(
            True,
            "603.4",
            because(
                "more_lands",
                other=more[0],
                lands=counts[more[0]],
                player=you,
                mine=mine,
                card=card.name,
            ),
        )
    return Verdict(
        False,
        "603.4",
        because("not_more_lands", player=you, mine=mine, detail=detail, card=card.name),
    )


def _pick_ability(abilities: tuple[Ability, ...], step: Step, kind: str, path: str) -> Ability:
    index = step.ability or 0
    if not 0 <= index < len(abilities):
        raise ScenarioError(f"{path}.ability", f"there is no {kind} ability number {index}")
    return abilities[index]


def _finish_spell(run: _Run, card: CardInstance, definition: CardDefinition) -> None:
    if run.spell_exiled:
        run.move(card, "exile", "608.2n", because("exiles_itself", card=card.name))
    elif run.spell_to is not None:
        run.move(
            card,
            run.spell_to,
            "608.2c",
            because("own_instructions", card=card.name, into=run.spell_to),
        )
    elif run.cast_from == "graveyard" and "flashback" in definition.keyword_names:
        run.move(
            card,
            "exile",
            "702.34a",
            because("flashback_exiled", card=card.name),
        )
    elif definition.is_permanent_card:
        run.move(
            card,
            "battlefield",
            "608.3",
            because("permanent_enters", card=card.name),
        )
        _enters_with_counters(run, card, definition)
    else:
        run.move(
            card,
            "graveyard",
            "608.2n",
            because("spell_to_graveyard", card=card.name),
        )


def _spell_x(run: _Run) -> int | None:
    """The X chosen as the spell was cast (601.2b): the caster's choice, else `resolve.x`."""
    return run.choices.get(run.step.by or "", {}).get("x", run.step.x)


def _enters_with_counters(run: _Run, card: CardInstance, definition: CardDefinition) -> None:
    """ "Enters with X +1/+1 counters": X is the X of the spell it was (107.3m), though the
    permanent's own X is 0 on the battlefield (its mana value counts X as 0, 202.3)."""
    x = _spell_x(run)
    run.result.enters_x[card.label] = Verdict(
        x or 0,
        "107.3m",
        because("enters_x", card=card.name, x=x)
        if x is not None
        else because("enters_x_not_chosen", card=card.name),
    )
    for static in definition.static:
        if static.kind != "enters_with_counters":
            continue
        count = static.spec["count"]
        amount = (x or 0) if count == "X" else count
        key = (card.label, static.spec["kind"])
        run.result.counters[key] = Verdict(
            amount,
            "107.3m" if count == "X" else "122.6",
            because(
                "enters_with_x_counters" if count == "X" else "enters_with_counters",
                card=card.name,
                counters=because("counters", count=amount, kind=static.spec["kind"]),
                x=x or 0,
            ),
        )


def _do_put_counters(run: _Run, spec: Mapping[str, Any], path: str) -> None:
    if spec["what"] == "self":
        card = run.state.card(run.step.source)
    else:
        targets = run.card_targets()
        card = targets[0] if targets else None
    if card is None:
        raise ScenarioError(path, "there is no permanent to put the counters on")
    _change_counters(run, card, spec["kind"], spec["count"], "122.6", "effect")


def _draw_step(run: _Run) -> None:
    _draw_cards(run, run.step.source, 1)


@dataclass
class _DrawLine:
    """One line of play through a run of draws: where each card ends, what was milled."""

    library: list[CardInstance]
    graveyard: list[CardInstance]
    ends: dict[str, tuple[str, str, str]]  # label -> (zone, rule, reason)
    milled: int = 0


_MAX_DRAW_LINES = 512


def _draw_cards(run: _Run, drawer: str, count: int) -> None:
    """Draw `count` cards one at a time; each draw may be replaced by dredge (702.52a), with
    the library's size checked at that draw (702.52b). Fixed `dredge` choices fix the line;
    open ones are every line of play, merged card by card."""
    decisions = _dredge_decisions(run, drawer, count)
    library = run.zones[(drawer, "library")]
    first = run.draws_made.get(drawer, 0) == 0
    if first:
        _record_can_dredge(run, drawer, library)
    lines = [_DrawLine(list(library), list(run.zones[(drawer, "graveyard")]), {})]
    for index in range(count):
        decision = decisions[index] if index < len(decisions) else None
        lines = [branch for line in lines for branch in _one_draw(run, drawer, line, decision)]
        if len(lines) > _MAX_DRAW_LINES:
            raise ScenarioError(
                f"choices.{drawer}.dredge",
                "too many ways to dredge these draws: fix the dredge choices (702.52a)",
            )
    run.draws_made[drawer] = run.draws_made.get(drawer, 0) + count
    run.result.explanation.append(f"{drawer} would draw {plural(count, 'card')}.")
    moved = sorted({label for line in lines for label in line.ends})
    for label in moved:
        card = run.state.card(label)
        now = run.possible.get(label, {card.zone})
        here = next(iter(now)) if len(now) == 1 else card.zone
        ends = [line.ends.get(label, (here, "", "")) for line in lines]
        zones = {zone for zone, _, _ in ends}
        if len(zones) == 1:
            zone, rule, reason = next(e for e in ends if e[1])
            run.move(card, zone, rule, reason)
            continue
        run.possible[label] = set()
        run.maybe_move(card, zones, "702.52a", _open_draw_reason(card, here, zones, drawer))
    milled = {line.milled for line in lines}
    if len(milled) == 1 and (n := milled.pop()):
        previous = run.result.mills.get(drawer)
        total = n + (previous.value if previous else 0)
        run.result.mills[drawer] = Verdict(
            total, "702.52a", because("dredge_mills", cards=because("cards", count=n))
        )


def _dredge_decisions(run: _Run, drawer: str, count: int) -> list[str | bool | None]:
    """This run of draws' share of the drawer's fixed dredge choices (one per draw, in order).

    A single value fixes the first draw of the resolution; with fixed choices, a draw they
    don't reach is a plain draw.
    """
    raw = run.choices.get(drawer, {}).get("dredge")
    if raw is None:
        return []
    per_draw = raw if isinstance(raw, list) else [raw]
    done = run.draws_made.get(drawer, 0)
    mine = per_draw[done : done + count]
    return mine + [False] * (count - len(mine))


def _record_can_dredge(run: _Run, drawer: str, library: list[CardInstance]) -> None:
    for card in run.zones[(drawer, "graveyard")]:
        dredge = card.definition.keywords.get("dredge")
        if dredge is None:
            continue
        if len(library) >= int(dredge):
            run.result.dredge[card.label] = Verdict(
                True,
                "702.52a",
                because(
                    "dredge_possible",
                    player=drawer,
                    cards=because("cards", count=len(library)),
                    dredge=dredge,
                ),
            )
        else:
            run.result.dredge[card.label] = Verdict(
                False,
                "702.52b",
                because("dredge_too_deep", dredge=dredge, player=drawer, size=len(library)),
            )


def _one_draw(
    run: _Run, drawer: str, line: _DrawLine, decision: str | bool | None
) -> list[_DrawLine]:
    """The lines one draw can take from `line`: draw, or dredge with any card able to."""
    usable = [
        (card, int(card.definition.keywords["dredge"]))
        for card in line.graveyard
        if card.definition.keywords.get("dredge") is not None
        and len(line.library) >= int(card.definition.keywords["dredge"])
    ]
    if decision is not None and decision is not False:
        where = f"choices.{drawer}.dredge"
        card = run.state.card(str(decision))
        dredge = card.definition.keywords.get("dredge")
        if dredge is None or card not in line.graveyard:
            raise ScenarioError(
                where, f"{decision} is not a dredge card in {drawer}'s graveyard (702.52a)"
            )
        if len(line.library) < int(dredge):
            raise ScenarioError(
                where,
                f"{decision} can't dredge: Dredge {dredge} needs at least {dredge} cards in the "
                f"library; {drawer} has only {len(line.library)} at that draw (702.52b)",
            )
        return [_dredged(line, drawer, card, int(dredge))]
    if decision is False:
        run.result.explanation.append(f"{drawer} doesn't dredge (702.52a: dredge is a may).")
        return [_drawn(line, drawer, _has_dredge(line) and not usable)]
    return [_drawn(line, drawer, _has_dredge(line) and not usable)] + [
        _dredged(line, drawer, card, n) for card, n in usable
    ]


def _has_dredge(line: _DrawLine) -> bool:
    return any(c.definition.keywords.get("dredge") is not None for c in line.graveyard)


def _drawn(line: _DrawLine, drawer: str, dredge_too_short: bool) -> _DrawLine:
    if not line.library:
        return line  # nothing to draw (the player would lose the game: 704.5b)
    top, rest = line.library[0], line.library[1:]
    ends = dict(line.ends)
    if dredge_too_short:
        ends[top.label] = (
            "hand",
            "702.52b",
            because("draws_no_dredge", player=drawer, card=top.name),
        )
    else:
        ends[top.label] = (
            "hand",
            "121.1",
            because("draws_top", player=drawer, card=top.name),
        )
    return _DrawLine(rest, line.graveyard, ends, line.milled)


def _dredged(line: _DrawLine, drawer: str, card: CardInstance, n: int) -> _DrawLine:
    ends = dict(line.ends)
    milled = line.library[:n]
    for other in milled:
        ends[other.label] = (
            "graveyard",
            "702.52a",
            because("dredge_mills_card", player=drawer, card_dredged=card.name, card=other.name),
        )
    ends[card.label] = (
        "hand",
        "702.52a",
        because("dredge_returns", player=drawer, amount=n, card=card.name),
    )
    graveyard = [c for c in line.graveyard if c.label != card.label] + milled
    return _DrawLine(line.library[n:], graveyard, ends, line.milled + n)


def _open_draw_reason(card: CardInstance, here: str, zones: set[str], drawer: str) -> Reason:
    if here == "graveyard":
        return because("may_dredge", player=drawer, card=card.name)
    if "library" in zones:
        return because("milled_if_dredged", card=card.name, player=drawer)
    return because("drawn_unless_dredged", card=card.name, player=drawer)


# ---------------------------------------------------------------- instructions


def _run_effect(run: _Run, effect: tuple[Instruction, ...], definition: CardDefinition) -> None:
    kicked = _kicked(run) if _uses_kicker(effect) else None
    for index, instruction in enumerate(effect):
        if instruction.condition and (instruction.condition == "kicked") != bool(kicked):
            continue  # "if this spell was kicked, ..." on the other line of play (702.33d)
        if instruction.kicked is not None and kicked:
            instruction = instruction.kicked  # "... up to two instead" (702.33d)
        path = f"{definition.name}.effect[{index}].{instruction.verb}"
        handler = _HANDLERS.get(instruction.verb)
        if handler is None:
            run.result.explanation.append(f"({instruction.verb}: not modelled in detail.)")
            continue
        handler(run, instruction.spec, path)


def _uses_kicker(effect: tuple[Instruction, ...]) -> bool:
    return any(i.condition or i.kicked is not None for i in effect)


def _kicked(run: _Run) -> bool:
    """Was the resolving spell kicked? The caster's `kicked` choice, else `resolve.kicked`."""
    return bool(run.choices.get(run.step.by or "", {}).get("kicked", run.step.kicked))


def kick_is_open(scenario: Scenario, step: Step, choices: Choices) -> bool:
    """A spell with kicker whose effect depends on it, cast without saying whether it was."""
    if step.kind != "cast":
        return False
    _, definition = definition_of(scenario, step)
    return (
        "kicker" in definition.keywords
        and _uses_kicker(definition.spell)
        and choices.get(step.by or "", {}).get("kicked", step.kicked) is None
    )


def _check_kicked(scenario: Scenario, step: Step, choices: Choices, path: str) -> None:
    """A `kicked` choice is validated: only a spell with kicker can be kicked (702.33a)."""
    for player, decisions in choices.items():
        if "kicked" not in decisions:
            continue
        where = f"choices.{player}.kicked"
        if step.kind != "cast" or player != step.by:
            raise ScenarioError(where, f"{player} isn't casting a spell here")
        _, definition = definition_of(scenario, step)
        if decisions["kicked"] and "kicker" not in definition.keywords:
            raise ScenarioError(where, f"{definition.name} has no kicker (702.33a)")
    if step.kicked and step.kind == "cast":
        _, definition = definition_of(scenario, step)
        if "kicker" not in definition.keywords:
            raise ScenarioError(f"{path}.kicked", f"{definition.name} has no kicker (702.33a)")


def _do_search(run: _Run, spec: Mapping[str, Any], path: str) -> None:
    if spec["count"] == "that_many":
        # "search their library for that many basic land cards": as many as were just moved.
        spec = {**spec, "count": run.that_many or 0}
    searchers = run.players_for(spec["who"], path)
    controller = run.result.controller or ""
    target_cards = run.card_targets()
    # X (chosen as the spell was cast) is remembered like a name: filters compare with it.
    x = run.x_from_cost if run.x_from_cost is not None else _spell_x(run)
    names_base: dict[str, Any] = {"target": target_cards[0].name if target_cards else None, "X": x}
    if spec["filter"].mana_value_x:
        run.result.explanation.append(
            f"X is {x}."
            if isinstance(x, int)
            else "X isn't fixed: every value of X is considered."
            if x is None
            else f"X is one of {', '.join(map(str, x))}: each is considered."
        )
    chosen_options = run.chosen if run.chosen is not None else [None]
    name_options = [{**names_base, "chosen": name} for name in (chosen_options or [None])]
    spaces = []
    for searcher in searchers:
        whose = searcher if spec["whose"] == "searcher" else run.players_for(spec["whose"], path)[0]
        zone_cards = {
            zone: (run.zones[(whose, zone)] if zone != "outside" or whose == searcher else [])
            for zone in spec["zones"]
        }
        prohibited: tuple[ActiveEffect, ...] = ()
        escape_unpaid = False
        decision = run.choices.get(searcher, {})
        if "library" in spec["zones"]:
            prohibited = _unpaid(
                run, searcher, prohibitions_on(run.effects, searcher, whose, controller)
            )
        portion = portion_limit(run.effects, searcher) if "library" in spec["zones"] else None
        # Opposition Agent: an opponent controls the searcher while they search their library.
        controller_effect = (
            search_controller(run.effects, searcher)
            if whose == searcher and "library" in spec["zones"] and not prohibited
            else None
        )
        if controller_effect is not None:
            decision = _controlled_decision(run, searcher, controller_effect, zone_cards)

        if spec["choose_zones"]:
            space = _zone_choice_space(
                run,
                spec,
                searcher,
                zone_cards,
                partial(
                    plan_search,
                    searcher=searcher,
                    whose=whose,
                    zone_cards=zone_cards,
                    name_options=name_options,
                    prohibited=prohibited,
                    escape_unpaid=escape_unpaid,
                    portion=portion,
                    decision=decision,
                ),
            )
        else:
            space = plan_search(
                searcher=searcher,
                whose=whose,
                spec=spec,
                zone_cards=zone_cards,
                name_options=name_options,
                prohibited=prohibited,
                escape_unpaid=escape_unpaid,
                portion=portion,
                decision=decision,
            )
        if controller_effect is not None and space.status.value != "cannot":
            space = replace(
                space,
                controlled_by=controller_effect.controller,
                put="exile" if controller_effect.spec["exile_found"] else space.put,
                split=None if controller_effect.spec["exile_found"] else space.split,
            )
            run.result.explanation.append(
                f"{controller_effect.controller} controls {searcher} while {searcher} searches "
                f"their library ({controller_effect.source_name}) and makes the search's "
                "decisions; the found cards are exiled."
            )
        spaces.append(space)
        run.result.searches.append(space)
        _explain_search(run, space)
        _apply_found(run, space, decision)
        if spec["tapped"]:
            for label in space.finds:
                if "battlefield" in run.possible.get(label, ()):
                    card = run.state.card(label)
                    run.put_tapped[label] = because("put_onto_battlefield_tapped", card=card.name)
        if space.rest is not None:
            _apply_rest(run, space, zone_cards)
        if space.put == "exile_face_down":
            _record_face_down(run, space, decision.get("find"))
    run.result.search_groups.append(tuple(s.searcher for s in spaces if s.status.value != "cannot"))
    run.last_searchers = searchers
    run.last_spaces = spaces


def _zone_choice_space(
    run: _Run,
    spec: Mapping[str, Any],
    searcher: str,
    zone_cards: Mapping[str, Sequence[CardInstance]],
    plan: Callable[..., SearchSpace],
) -> SearchSpace:
    """ "Search your library and/or graveyard": the searcher chooses the zones (their `zones`
    choice); unchosen, every non-empty choice is a line of play and the spaces are merged."""
    zones = tuple(spec["zones"])
    chosen = run.choices.get(searcher, {}).get("zones")
    run.consumed.add((searcher, "zones"))
    if chosen is not None:
        stray = [z for z in chosen if z not in zones]
        if stray:
            raise ScenarioError(
                f"choices.{searcher}.zones",
                f"{stray[0]} is not one of the zones this search may look at ({list(zones)})",
            )
        picked = tuple(z for z in zones if z in chosen)
        return _chosen_zones(run, _zone_subset_space(plan, spec, picked), zones, zone_cards)
    subsets = [
        tuple(z for i, z in enumerate(zones) if mask >> i & 1)
        for mask in range((1 << len(zones)) - 1, 0, -1)
    ]
    spaces = [_zone_subset_space(plan, spec, subset) for subset in subsets]
    fixed = run.choices.get(searcher, {}).get("find")
    if fixed is not None:
        # The cards found say which choices of zones were possible: finding nothing with a
        # creature card in the graveyard means the library alone was searched (701.23b).
        names = {x: run.state.card(x).name for x in fixed if run.state.card(x) is not None}
        fitting = [
            s
            for s in spaces
            if all(label in s.finds for label in fixed)
            and check_found_set([s], list(fixed), names).value
        ]
        spaces = fitting or spaces
    if len(spaces) == 1:
        return _chosen_zones(run, spaces[0], zones, zone_cards)
    return merge_zone_choices(spaces, searcher)


def _chosen_zones(
    run: _Run,
    space: SearchSpace,
    zones: tuple[str, ...],
    zone_cards: Mapping[str, Sequence[CardInstance]],
) -> SearchSpace:
    """The space of the zones chosen (or the only choice the cards found allow); a card in a
    zone left out can't be found (701.23a)."""
    picked = space.zones
    finds = dict(space.finds)
    for zone in zones:
        if zone in picked:
            continue
        for card in zone_cards.get(zone, ()):
            finds[card.label] = Verdict(
                "cannot",
                "701.23a",
                because("zone_not_chosen", player=space.searcher, zone=zone, card=card.name),
            )
    run.result.explanation.append(f"{space.searcher} chooses to search: {', '.join(picked)}.")
    return replace(space, finds=finds, zones=zones)


def _zone_subset_space(
    plan: Callable[..., SearchSpace], spec: Mapping[str, Any], picked: tuple[str, ...]
) -> SearchSpace:
    space = plan(spec={**spec, "zones": picked})
    return replace(space, zone_choice=True, library_chosen="yes" if "library" in picked else "no")


def _unpaid(
    run: _Run, searcher: str, prohibited: tuple[ActiveEffect, ...]
) -> tuple[ActiveEffect, ...]:
    """The prohibitions still stopping `searcher` once recorded payments are counted.

    Leonin Arbiter's {2} is a special action (116.2d) taken while holding priority, before this
    resolves: only a recorded payment (a fact, or the `ignore_prohibition` choice) lifts it,
    it lets only the player who paid ignore it, and each Arbiter's {2} is paid separately.
    """
    if not prohibited:
        return prohibited
    choice = run.choices.get(searcher, {}).get("ignore_prohibition")
    escapable = [e.source_label for e in prohibited if e.spec.get("escape")]
    if isinstance(choice, list):
        stray = [label for label in choice if label not in escapable]
        if stray:
            raise ScenarioError(
                f"choices.{searcher}.ignore_prohibition",
                f"{stray[0]} is not a permanent whose prohibition {searcher} could pay to ignore "
                f"here (use {escapable})",
            )
        paid = set(choice)
    elif choice:
        paid = set(escapable)
    else:
        paid = set()
    recorded = run.paid_escape.get(searcher, set())
    if None in recorded:
        paid |= set(escapable)
    paid |= recorded - {None}
    kept = tuple(e for e in prohibited if not (e.spec.get("escape") and e.source_label in paid))
    if kept and len(kept) < len(prohibited):
        run.result.explanation.append(
            f"{searcher} paid to ignore some prohibitions but not "
            f"{', '.join(e.source_name for e in kept)}: each is paid for separately."
        )
    return kept


def _controlled_decision(
    run: _Run,
    searcher: str,
    effect: ActiveEffect,
    zone_cards: Mapping[str, Sequence[CardInstance]],
) -> Mapping[str, Any]:
    """The searcher's decisions when another player controls them during the search.

    Whether to search at all is decided before searching, by the searcher; what to find is
    decided by the controlling player, and may be written under either player's name.
    """
    decision = dict(run.choices.get(searcher, {}))
    if "find" not in decision:
        mine = {c.label for cards in zone_cards.values() for c in cards}
        theirs = run.choices.get(effect.controller, {}).get("find")
        if theirs is not None and any(label in mine for label in theirs):
            decision["find"] = [label for label in theirs if label in mine]
    return decision


def _explain_search(run: _Run, space: SearchSpace) -> None:
    zones = ", ".join(space.searched_zones) or "nothing"
    text = (
        f"{space.searcher} {space.status.value} search {space.whose}'s {zones} for "
        f"{space.description} ({space.status.rule})"
    )
    if space.portion.value.startswith("top"):
        text += f"; only the {space.portion.value} of the library ({space.portion.rule})"
    low, high = space.found_count.value
    run.result.explanation.append(
        f"{text}; finds {low} to {plural(high, 'card')} ({space.found_count.rule})."
    )


def _apply_found(run: _Run, space: SearchSpace, decision: Mapping[str, Any]) -> None:
    fixed: list[str] | None = decision.get("find")
    destination = DESTINATION_ZONE.get(space.put, space.put)
    reason_dest = because("puts_found_card", player=space.searcher, into=space.put)
    if space.controlled_by is not None and space.put == "exile":
        _apply_found_controlled(run, space, fixed)
        return
    if space.descriptions and len({d.put for d in space.descriptions}) > 1:
        _apply_found_several(run, space, fixed)
        return
    if fixed is not None:
        moved = False
        for label in fixed:
            card = run.state.card(label)
            if label not in space.finds and card.owner == space.whose:
                if run.in_history:
                    # `zones` is the board now: a card an earlier step found has since left the
                    # searched zone (Path to Exile's land is on the battlefield), like a target.
                    moved = True
                    continue
                raise ScenarioError(
                    f"choices.{space.searcher}.find",
                    f"{label} ({card.name}, {card.zone}) is not in a zone this search looks at "
                    "(701.23a)",
                )
        mine = [label for label in fixed if label in space.finds]
        verdict = check_found_set([space], mine, {x: run.state.card(x).name for x in mine})
        if not verdict.value and not moved:
            raise ScenarioError(
                f"choices.{space.searcher}.find", f"{verdict.reason} ({verdict.rule})"
            )
        run.found_fixed = mine
        if space.split is not None:
            _apply_split(run, space, mine, destination, decision)
            return
        for label in mine:
            card = run.state.card(label)
            if destination == "set_aside":
                run.possible[label] = {"set_aside"}
                run.result.zone_after[label] = Verdict("set_aside", "701.23a", reason_dest)
            else:
                run.move(card, destination, "701.23a", reason_dest)
        return
    run.found_fixed = None
    if space.performed == "no":
        return
    split_zones = _split_zones(space, destination)
    # Cards of one name in one zone, found by one rule, that may be found: the zones they may
    # end in and the verdict saying so, made once (a 60-card library of lands).
    maybe_found: dict[tuple[str, str, str], tuple[set[str], Verdict]] = {}
    card_of, finds, must_find = run.state.label_index().get, space.finds, space.must_find
    possible, zone_after = run.possible, run.result.zone_after
    performed = space.performed == "yes"
    to_destination = {destination}  # maybe_move never keeps or changes it
    # Sorted, not the frozenset's hash order: outcomes stay the same from one process to the next.
    for label in sorted(space.findable):
        card = card_of(label)
        certain = performed and label in must_find
        verdict = finds[label]
        if split_zones is not None:
            rule, zones, why = split_zones
            if certain and len(zones) == 1:
                run.move(card, destination, rule, because("found_then", card=card.name, reason=why))
                continue
            if certain:
                run.possible[label] = set()
            run.maybe_move(card, zones, rule, why if certain else because("if_found", reason=why))
            continue
        if certain and destination != "set_aside":
            run.move(
                card,
                destination,
                verdict.rule,
                because("found_then", card=card.name, reason=reason_dest),
            )
        elif certain:
            run.possible[label] = {"set_aside"}
        else:
            group = (card.name, card.zone, verdict.rule)
            known = maybe_found.get(group)
            if known is not None and label not in possible:
                # What maybe_move would record for a card nothing else has moved (the set is
                # shared: sets in `possible` are replaced, never changed in place).
                possible[label] = known[0]
                zone_after[label] = known[1]
                continue
            key = "may_be_chosen" if card.zone == OUTSIDE else "may_be_found"
            run.maybe_move(card, to_destination, verdict.rule, because(key, card=card.name))
            if known is None and possible[label] == {card.zone, destination}:
                maybe_found[group] = (possible[label], zone_after[label])


def _apply_rest(
    run: _Run, space: SearchSpace, zone_cards: Mapping[str, Sequence[CardInstance]]
) -> None:
    """ "Exile the rest", "the rest on the bottom in a random order": every card of the
    searched zones that isn't found goes there (608.2c); the whole zone, even when only its
    top cards could be searched (701.23f)."""
    if space.rest is None or space.performed == "no":
        return
    rest = DESTINATION_ZONE.get(space.rest, space.rest)
    found = run.found_fixed
    certain = space.performed == "yes" or found is not None
    only_top = space.portion.value.startswith("top")
    for zone in space.searched_zones:
        # 701.23f speaks of the library searched only in part; another zone's rest is 608.2c's.
        rule = "701.23f" if only_top and zone == "library" else "608.2c"
        for card in list(zone_cards.get(zone, ())):
            label = card.label
            if found is not None:
                if label not in found:
                    run.move(card, rest, rule, because("goes_with_rest", card=card.name))
                continue
            if label in space.must_find and space.performed == "yes":
                continue
            if label in space.findable and certain:
                puts = {DESTINATION_ZONE.get(d.put, d.put) for d in space.descriptions} or {
                    DESTINATION_ZONE.get(space.put, space.put)
                }
                run.possible[label] = (run.possible.get(label, {card.zone}) - {card.zone}) | puts
                run.maybe_move(
                    card,
                    {rest},
                    rule,
                    because("found_or_rest", card=card.name),
                )
            elif certain:
                run.move(card, rest, rule, because("goes_with_rest", card=card.name))
            else:
                run.maybe_move(
                    card,
                    {rest},
                    rule,
                    because("may_go_with_rest", player=space.searcher, card=card.name),
                )
            if space.rest == "exile_face_down":
                run.result.face_down[label] = _lookers(run, space, card, "nobody")


def _lookers(run: _Run, space: SearchSpace, card: CardInstance, who: str) -> Verdict:
    """Who may look at a card exiled face down (406.3): only whom the effect allows."""
    players = {
        "you": [run.result.controller or space.searcher],
        "owner": [card.owner],
        "nobody": [],
    }[who]
    reason = (
        because("face_down_lookers", card=card.name, players_and=tuple(players))
        if players
        else because("face_down_nobody", card=card.name)
    )
    return Verdict(tuple(players), "406.3", reason)


def _record_face_down(run: _Run, space: SearchSpace, fixed: list[str] | None) -> None:
    if space.put != "exile_face_down" or space.controlled_by is not None:
        return
    labels = [x for x in fixed if x in space.finds] if fixed is not None else space.findable
    for label in sorted(labels):
        run.result.face_down[label] = _lookers(run, space, run.state.card(label), space.may_look)


def _apply_found_several(run: _Run, space: SearchSpace, fixed: list[str] | None) -> None:
    """A search for several descriptions with their own destinations ("put the creature card
    into your hand and the land card onto the battlefield"): a found card goes where the
    description it fills says; which one it fills may be the searcher's choice."""
    descriptions = space.descriptions
    if fixed is not None:
        mine = [label for label in fixed if label in space.finds]
        verdict = check_found_set([space], mine, {x: run.state.card(x).name for x in mine})
        if not verdict.value:
            raise ScenarioError(
                f"choices.{space.searcher}.find", f"{verdict.reason} ({verdict.rule})"
            )
        run.found_fixed = mine
        caps = [d.count for d in descriptions]
        for label in mine:
            others = [(1, space.masks[x][0]) for x in mine if x != label]
            fits = space.masks[label][0]
            zones = set()
            for i, description in enumerate(descriptions):
                if not fits >> i & 1:
                    continue
                room = [c - (j == i) for j, c in enumerate(caps)]
                if max_fill(others, room) == len(others):
                    zones.add(DESTINATION_ZONE.get(description.put, description.put))
            card = run.state.card(label)
            if len(zones) == 1:
                zone = zones.pop()
                run.move(
                    card,
                    zone,
                    "701.23h",
                    because("fills_description_to", card=card.name, into=zone),
                )
            else:
                run.possible[label] = set()
                run.maybe_move(
                    card,
                    zones,
                    "701.23h",
                    because("fills_several", card=card.name, player=space.searcher),
                )
        return
    run.found_fixed = None
    if space.performed == "no":
        return
    for label in sorted(space.findable):
        card = run.state.card(label)
        fits = space.masks.get(label, (0, 0))[0]
        zones = {
            DESTINATION_ZONE.get(d.put, d.put) for i, d in enumerate(descriptions) if fits >> i & 1
        }
        run.maybe_move(
            card,
            zones,
            "701.23h",
            because("goes_where_described", card=card.name),
        )


def _apply_found_controlled(run: _Run, space: SearchSpace, fixed: list[str] | None) -> None:
    """Opposition Agent: the searcher exiles each card found, wherever the effect would put it."""
    reason = because("controlled_exiles", player=space.searcher, controller=space.controlled_by)
    if fixed is not None:
        mine = [label for label in fixed if label in space.finds]
        verdict = check_found_set([space], mine, {x: run.state.card(x).name for x in mine})
        if not verdict.value:
            raise ScenarioError(
                f"choices.{space.searcher}.find", f"{verdict.reason} ({verdict.rule})"
            )
        for label in mine:
            run.move(run.state.card(label), "exile", "611.3", reason)
        # "If such an effect refers to the found cards, it can't see them in exile."
        run.found_fixed = []
        return
    run.found_fixed = None
    if space.performed == "no":
        return
    for label in (label for label in space.finds if label in space.findable):
        card = run.state.card(label)
        if label in space.must_find and space.performed == "yes":
            run.move(card, "exile", "611.3", reason)
        else:
            run.maybe_move(card, {"exile"}, "611.3", because("if_found", reason=reason))


def _split_zones(space: SearchSpace, destination: str) -> tuple[str, set[str], Reason] | None:
    """Where a found card may go when the effect splits the found cards (Cultivate): the rule,
    the zones and why."""
    if space.split is None:
        return None
    count = space.split["count"]
    rest = DESTINATION_ZONE.get(space.split["rest"], space.split["rest"])
    if space.found_count.value[1] <= count:
        return (
            "608.2c",
            {destination},
            because(
                "split_all_first",
                cards=because("cards", count=count),
                amount=count,
                into=destination,
            ),
        )
    return (
        "608.2c",
        {destination, rest},
        because(
            "split_choice",
            player=space.searcher,
            cards=because("found_cards", count=count),
            into=destination,
            into_rest=rest,
        ),
    )


def _apply_split(
    run: _Run,
    space: SearchSpace,
    found: list[str],
    destination: str,
    decision: Mapping[str, Any],
) -> None:
    """Put `count` found cards into `destination` and the rest into `rest` (608.2c)."""
    count = space.split["count"]
    rest = DESTINATION_ZONE.get(space.split["rest"], space.split["rest"])
    who = space.controlled_by or space.searcher
    where = f"choices.{space.searcher}"
    first_fixed = decision.get(destination)
    rest_fixed = decision.get(rest) if rest != destination else None
    for key, labels in ((destination, first_fixed), (rest, rest_fixed)):
        stray = [x for x in labels or () if x not in found]
        if stray:
            raise ScenarioError(f"{where}.{key}", f"{stray[0]} is not one of the found cards")
    if len(found) <= count:
        if rest_fixed:
            raise ScenarioError(
                f"{where}.{rest}",
                f"only {plural(len(found), 'card')} found: the effect puts "
                f"{plural(count, 'found card')} into the {destination} before any go to the {rest} "
                "(608.2c)",
            )
        for label in found:
            card = run.state.card(label)
            run.move(
                card,
                destination,
                "608.2c",
                because(
                    "split_too_few",
                    cards=because("cards", count=len(found)),
                    amount=count,
                    into=destination,
                    card=card.name,
                ),
            )
        return
    if first_fixed is not None:
        first = list(first_fixed)
    elif rest_fixed is not None:
        first = [x for x in found if x not in rest_fixed]
    else:
        for label in found:
            card = run.state.card(label)
            run.possible[label] = set()
            run.maybe_move(
                card,
                {destination, rest},
                "608.2c",
                because(
                    "split_found",
                    card=card.name,
                    player=who,
                    cards=because("found_cards", count=count),
                    into=destination,
                    into_rest=rest,
                ),
            )
        return
    if len(first) != count or (
        rest_fixed is not None and set(first) | set(rest_fixed) != set(found)
    ):
        raise ScenarioError(
            f"{where}.{destination}",
            f"exactly {count} of the {len(found)} found cards go to the {destination}, the "
            f"others to the {rest} (608.2c)",
        )
    for label in found:
        card = run.state.card(label)
        zone = destination if label in first else rest
        run.move(
            card, zone, "608.2c", because("split_chosen", player=who, card=card.name, into=zone)
        )


def _do_shuffle(run: _Run, spec: Mapping[str, Any], path: str) -> None:
    for player in run.players_for(spec["who"], path):
        spaces = [s for s in run.last_spaces if s.searcher == player]
        # A shuffle tied to searching follows the choice of zones: searching only the
        # graveyard of "library and/or graveyard" doesn't search the library.
        if spaces and any(s.zone_choice and s.library_chosen == "no" for s in spaces):
            run.result.shuffles[player] = Verdict(
                "no",
                "608.2c",
                because("library_not_chosen_no_shuffle", player=player),
            )
            run.result.shuffled_portion[player] = Verdict(
                "none", "608.2c", because("no_shuffle_short", player=player)
            )
            continue
        conditional = spec["if_searched"]
        if conditional is None:
            # "You may search ... then shuffle" shuffles only if you searched (Ashiok rulings).
            # (and "search your library and/or graveyard ... if you search your library this
            # way, shuffle" only if the library was among the zones chosen.)
            conditional = any(s.optional or s.zone_choice for s in spaces)
        if conditional and spaces:
            performed = _combine_performed([s.performed for s in spaces])
            blocked = all(s.status.value == "cannot" for s in spaces)
            if blocked:
                verdict = Verdict(
                    "no",
                    "101.2",
                    because("cannot_search_no_shuffle", player=player),
                )
            elif any(s.zone_choice and s.library_chosen == "open" for s in spaces):
                verdict = Verdict(
                    "if_searched",
                    "608.2c",
                    because("shuffles_if_library_chosen", player=player),
                )
            elif performed == "yes":
                verdict = Verdict("yes", "701.24a", because("searches_shuffles", player=player))
            elif performed == "no":
                verdict = Verdict("no", "608.2d", because("no_search_no_shuffle", player=player))
            else:
                verdict = Verdict(
                    "if_searched",
                    "608.2d",
                    because("shuffles_if_searching", player=player),
                )
        else:
            blocked = bool(spaces) and all(s.status.value == "cannot" for s in spaces)
            verdict = (
                Verdict(
                    "yes",
                    "101.3",
                    because("shuffles_anyway", player=player),
                )
                if blocked
                else Verdict("yes", "701.24a", because("told_to_shuffle", player=player))
            )
        run.result.shuffles[player] = verdict
        limited = any(s.portion.value.startswith("top") for s in spaces)
        if verdict.value == "no":
            portion = Verdict("none", verdict.rule, because("no_shuffle_short", player=player))
        elif limited:
            portion = Verdict(
                "library",
                "701.23f",
                because("shuffle_whole_after_part", player=player),
            )
        else:
            portion = Verdict("library", "701.24a", because("shuffles_whole", player=player))
        run.result.shuffled_portion[player] = portion
        run.result.explanation.append(f"Shuffle for {player}: {verdict.value} ({verdict.rule}).")


def _combine_performed(values: Sequence[str]) -> str:
    if "yes" in values:
        return "yes"
    if "if_searched" in values:
        return "if_searched"
    return "no"


def _do_mill(run: _Run, spec: Mapping[str, Any], path: str) -> None:
    count = spec["count"]
    for player in run.players_for(spec["who"], path):
        library = run.zones[(player, "library")]
        milled = library[:count]
        for card in list(milled):
            run.move(card, "graveyard", "701.17a", because("milled", card=card.name))
        if not milled:  # "has only 0 cards in library" read as a slip: say it is empty
            verdict = Verdict(
                0, "701.17b", because("mills_empty_library", player=player, amount=count)
            )
        elif len(milled) < count:
            verdict = Verdict(
                len(milled),
                "701.17b",
                because(
                    "mills_what_there_is",
                    player=player,
                    cards=because("cards", count=len(milled)),
                    amount=count,
                ),
            )
        else:
            verdict = Verdict(
                count,
                "701.17a",
                because("mills_top", player=player, cards=because("cards", count=count)),
            )
        previous = run.result.mills.get(player)
        if previous is not None:
            verdict = Verdict(previous.value + verdict.value, verdict.rule, verdict.reason)
        run.result.mills[player] = verdict
        run.result.explanation.append(f"{player} mills {len(milled)} ({verdict.rule}).")


def _do_exile(run: _Run, spec: Mapping[str, Any], path: str) -> None:
    what = spec["what"]
    if what == "all":
        _move_all_permanents(run, spec, path, "exile", "701.13a")
        return
    if what == "self":
        run.spell_exiled = True
        return
    if what == "found":
        face_down = spec.get("face_down", False)
        fixed = run.found_fixed
        for label in fixed or []:
            card = run.state.card(label)
            run.move(
                card,
                "exile",
                "701.13a",
                because("found_exiled_face_down" if face_down else "found_exiled"),
            )
        if fixed is None:
            # Not fixed: every set-aside card that may be found may be exiled.
            for space in run.last_spaces:
                for label in sorted(space.findable):
                    if "set_aside" in run.possible.get(label, set()):
                        card = run.state.card(label)
                        run.maybe_move(
                            card, {"exile"}, "701.13a", because("exiled_if_found", card=card.name)
                        )
        if face_down:
            for space in run.last_spaces:
                labels = fixed if fixed is not None else sorted(space.findable)
                for label in labels:
                    if label in space.finds:
                        card = run.state.card(label)
                        run.result.face_down[label] = _lookers(run, space, card, spec["may_look"])
        return
    targets = run.card_targets()
    if not targets:
        raise ScenarioError(path, "the effect exiles a target card but no card was targeted")
    card = targets[0]
    run.move(card, "exile", "701.13a", because("exiles_target", card=card.name))
    run.result.explanation.append(f"{card.name} is exiled.")


def _do_return(run: _Run, spec: Mapping[str, Any], path: str) -> None:
    """Put found (set-aside) cards or target cards into a zone; "onto the battlefield tapped"
    (`"tapped": true`) is remembered for the cards it may put there (110.5b)."""
    before = {label: set(zones) for label, zones in run.possible.items()}
    _put_cards(run, spec, path)
    if not spec.get("tapped"):
        return
    for label, zones in run.possible.items():
        if "battlefield" in zones and "battlefield" not in before.get(label, set()):
            card = run.state.card(label)
            run.put_tapped[label] = because("put_onto_battlefield_tapped", card=card.name)


def _put_cards(run: _Run, spec: Mapping[str, Any], path: str) -> None:
    """Put found (set-aside) cards or target cards into a zone, e.g. on top of the library."""
    to = DESTINATION_ZONE.get(spec["to"], spec["to"])
    if spec["what"] == "self":
        run.spell_to = to
        return
    if spec["what"] in ("target", "targets"):
        cards = run.card_targets()
        for card in cards[:1] if spec["what"] == "target" else cards:
            run.move(card, to, "608.2c", because("effect_puts", card=card.name, into=spec["to"]))
        return
    if run.found_fixed is not None:
        for label in run.found_fixed:
            card = run.state.card(label)
            run.move(card, to, "701.23a", because("found_put", card=card.name, into=spec["to"]))
        return
    for space in run.last_spaces:
        for label in sorted(space.findable):  # not a set's order: the same in every process
            if "set_aside" in run.possible.get(label, set()):
                card = run.state.card(label)
                run.maybe_move(
                    card, {to}, "701.23a", because("put_if_found", card=card.name, into=spec["to"])
                )


def _move_all_permanents(
    run: _Run, spec: Mapping[str, Any], path: str, zone: str, rule: str
) -> None:
    """Every permanent matching the description (its controller, attacking or blocking):
    moved for certain; how many is "that many" for the next instruction (Settle the Wreckage)."""
    controllers = set(run.players_for(spec["controller"], path)) if spec["controller"] else None
    moved = []
    for card in list(run.state.permanents()):
        if run.possible.get(card.label, {"battlefield"}) != {"battlefield"}:
            continue
        if controllers is not None and card.controller not in controllers:
            continue
        if spec["combat"] and card.combat != spec["combat"]:
            continue
        if not spec["filter"].matches(card.definition, {}):
            continue
        if rule == "701.8a" and "indestructible" in card.definition.keywords:
            run.result.zone_after[card.label] = Verdict(
                "battlefield", "702.12b", because("indestructible_not_destroyed", card=card.name)
            )
            continue
        run.move(card, zone, rule, because("moved_with_all", card=card.name, into=zone))
        moved.append(card)
    run.that_many = len(moved)
    run.result.explanation.append(
        f"{plural(len(moved), 'permanent')} put into the {zone}"
        + (f": {', '.join(c.name for c in moved)}." if moved else ".")
    )


def _do_destroy(run: _Run, spec: Mapping[str, Any], path: str) -> None:
    if spec["what"] == "all":
        _move_all_permanents(run, spec, path, "graveyard", "701.8a")
        return
    targets = run.card_targets()
    if not targets:
        raise ScenarioError(path, "the effect destroys a target but no card was targeted")
    card = targets[0]
    if "indestructible" in card.definition.keywords:
        run.result.zone_after[card.label] = Verdict(
            "battlefield", "702.12b", because("indestructible_not_destroyed", card=card.name)
        )
        return
    run.move(
        card,
        "graveyard",
        "701.8a",
        because("destroyed", card=card.name),
    )
    run.result.explanation.append(f"{card.name} is destroyed.")


def _do_exile_graveyards(run: _Run, spec: Mapping[str, Any], path: str) -> None:
    controller = run.result.controller or ""
    whose = spec["whose"]
    if whose == "each_opponent":
        players = [p for p in run.state.players if p != controller]
    elif whose == "each_player":
        players = list(run.state.players)
    else:
        players = run.players_for("target_player", path)
    for player in players:
        for card in list(run.zones[(player, "graveyard")]):
            run.move(card, "exile", "701.13a", because("graveyard_exiled", player=player))
    run.result.explanation.append(f"Graveyards of {', '.join(players)} are exiled.")


def _do_reveal_hand(run: _Run, spec: Mapping[str, Any], path: str) -> None:
    player = run.players_for(spec["who"], path)[0]
    run.revealed_hand = player
    run.result.explanation.append(
        f"{player} reveals their hand ({plural(len(run.zones[(player, 'hand')]), 'card')})."
    )


def _do_choose(run: _Run, spec: Mapping[str, Any], path: str) -> None:
    chooser = run.players_for(spec["chooser"], path)[0]
    wanted = spec["filter"]
    fixed = run.choices.get(chooser, {}).get("choose")
    named = run.choices.get(chooser, {}).get("name")
    if spec["from"] == "card_name":
        # Naming a card: any name fitting the description, including one not in this game.
        options = [c for c in run.state.cards if wanted.matches(c.definition, {})]
        if named is not None:
            # The choice written as the name itself: it must be a card the catalog (or the
            # scenario's own cards) defines, and fit the description ("nonland").
            definition = run.scenario.catalog.having_name(named)
            if definition is None:
                raise ScenarioError(f"choices.{chooser}.name", f"unknown card name {named!r}")
            if not wanted.matches(definition, {}):
                raise ScenarioError(
                    f"choices.{chooser}.name",
                    f"{named} is not {with_article(wanted.describe())} name",
                )
            run.chosen = [named]
        elif fixed is not None:
            card = run.state.card(fixed)
            if not wanted.matches(card.definition, {}):
                raise ScenarioError(
                    f"choices.{chooser}.choose",
                    f"{card.name} is not {with_article(wanted.describe())} name",
                )
            run.chosen = [card.name]
        else:
            # A split card's name is one of its halves' (709.4a): "Fire", not "Fire // Ice".
            names = {n for c in options for n in (c.definition.names[1:] or (c.name,))}
            run.chosen = [*sorted(names), NAME_NOT_IN_GAME]
        text = ", ".join(run.chosen)
        run.result.explanation.append(f"{chooser} names a {wanted.describe()}: {text}.")
        return
    player = run.revealed_hand or run.players_for("target_player", path)[0]
    options = [c for c in run.zones[(player, "hand")] if wanted.matches(c.definition, {})]
    if fixed is not None or named is not None:
        # A label (choose) or, for a card chosen from a revealed hand, its name.
        key, value = ("choose", fixed) if fixed is not None else ("name", named)
        attr = "label" if key == "choose" else "name"
        card = next((c for c in options if getattr(c, attr) == value), None)
        if card is None:
            raise ScenarioError(
                f"choices.{chooser}.{key}",
                f"{value} is not {with_article(wanted.describe())} in {player}'s revealed hand",
            )
        run.chosen = [card.name]
    elif options:
        run.chosen = sorted({c.name for c in options})
    else:
        run.chosen = []
    text = ", ".join(x for x in run.chosen if x) or "nothing (no card can be chosen)"
    run.result.explanation.append(f"{chooser} chooses a {spec['filter'].describe()}: {text}.")


def _do_opponent_chooses(run: _Run, spec: Mapping[str, Any], path: str) -> None:
    opponent = run.players_for(spec["opponent"], path)[0]
    chosen_to = DESTINATION_ZONE.get(spec["chosen_to"], spec["chosen_to"])
    rest_to = DESTINATION_ZONE.get(spec["rest_to"], spec["rest_to"])
    count = spec["count"]
    if run.found_fixed is not None:
        found = run.found_fixed
        picked = run.choices.get(opponent, {}).get("opponent_chooses")
        if len(found) <= count:
            picked = list(found)
        for label in found:
            card = run.state.card(label)
            if picked is None:
                run.possible[label] = set()
                run.maybe_move(
                    card,
                    {chosen_to, rest_to},
                    "701.23b",
                    because("opponent_chooses_open", player=opponent, amount=count),
                )
            elif label in picked:
                run.move(
                    card,
                    chosen_to,
                    "701.23b",
                    because(
                        "opponent_must_choose",
                        player=opponent,
                        amount=count,
                        cards=because("found_cards", count=len(found)),
                        card=card.name,
                        into=chosen_to,
                    ),
                )
            else:
                run.move(
                    card,
                    rest_to,
                    "701.23b",
                    because("not_chosen", card=card.name, into=rest_to),
                )
        run.result.explanation.append(
            f"{opponent} chooses {min(count, len(found))} of the found cards."
        )
        return
    for space in run.last_spaces:
        if space.controlled_by is not None and space.put == "exile":
            continue  # the found cards are in exile, out of the effect's reach
        for label in sorted(space.findable):  # not a set's order: the same in every process
            card = run.state.card(label)
            run.maybe_move(
                card,
                {chosen_to, rest_to},
                "701.23b",
                because(
                    "opponent_choice_if_found",
                    card=card.name,
                    into=chosen_to,
                    into_rest=rest_to,
                    player=opponent,
                ),
            )


def _do_draw(run: _Run, spec: Mapping[str, Any], path: str) -> None:
    for player in run.players_for(spec["who"], path):
        _draw_cards(run, player, spec["count"])


def _do_discard(run: _Run, spec: Mapping[str, Any], path: str) -> None:
    """ "Discard a card (at random)": any card in the hand then may be the one discarded."""
    value = spec["value"]
    # Only the caster's own discard ("random", a number, or {"who": "you", "count": n}); a
    # discard chosen from another player's hand (Thoughtseize) is recorded, not modelled.
    details = value if isinstance(value, dict) else {}
    count = details.get("count", value if isinstance(value, int) else 1)
    who = details.get("who", "you")
    own = value == "random" or isinstance(value, (int, dict))
    if (
        not own
        or isinstance(count, bool)
        or not isinstance(count, int)
        or who not in ("you", "searcher")
    ):
        run.result.explanation.append("(discard: not modelled in detail.)")
        return
    for player in run.players_for(who, path):
        certain = list(run.zones[(player, "hand")])
        maybe = [
            run.state.card(label)
            for label, zones in run.possible.items()
            if "hand" in zones and len(zones) > 1 and run.state.card(label).owner == player
        ]
        if not maybe and len(certain) <= count:
            for card in certain:
                run.move(
                    card,
                    "graveyard",
                    "701.9a",
                    because("only_card_discarded", card=card.name),
                )
            continue
        for card in (*certain, *maybe):
            run.maybe_move(
                card,
                {"graveyard"},
                "701.9a",
                because("may_be_discarded", card=card.name, player=player),
            )
        run.result.explanation.append(f"{player} discards {plural(count, 'card')}.")


def _do_look(run: _Run, spec: Mapping[str, Any], path: str) -> None:
    """Look at the top N cards, take some, put the rest somewhere: never a search."""
    if "value" in spec:
        run.result.explanation.append("(look: not modelled in detail; looking isn't searching.)")
        return
    wanted = spec["filter"]
    put = DESTINATION_ZONE.get(spec["put"], spec["put"])
    rest = DESTINATION_ZONE.get(spec["rest"], spec["rest"])
    for player in run.players_for(spec["who"], path):
        looked = list(run.zones[(player, "library")][: spec["count"]])
        fitting = [c for c in looked if wanted.matches(c.definition, {})]
        fixed = run.choices.get(player, {}).get("take")
        run.consumed.add((player, "take"))
        least = 0 if spec["up_to"] else min(spec["take"], len(fitting))
        run.result.explanation.append(
            f"{player} looks at the top {plural(len(looked), 'card')} of their library "
            "(not a search)."
        )
        if fixed is not None:
            where = f"choices.{player}.take"
            labels = {c.label for c in fitting}
            stray = [x for x in fixed if x not in labels]
            if stray:
                raise ScenarioError(
                    where,
                    f"{stray[0]} is not {with_article(wanted.describe())} among the cards "
                    f"{player} looks at",
                )
            if not least <= len(fixed) <= spec["take"]:
                raise ScenarioError(
                    where, f"takes between {least} and {spec['take']} of the cards looked at"
                )
        for card in looked:
            if fixed is not None:
                taken = card.label in fixed
                zone = put if taken else rest
                why = "taken_to" if taken else "rest_to"
                run.move(card, zone, "608.2c", because(why, card=card.name, into=zone))
            elif card in fitting and len(fitting) > least:
                run.possible[card.label] = set()
                run.maybe_move(
                    card,
                    {put, rest},
                    "608.2c",
                    because("may_be_taken", player=player, card=card.name),
                )
            elif card in fitting:
                run.move(card, put, "608.2c", because("must_be_taken", card=card.name, into=put))
            else:
                run.move(
                    card,
                    rest,
                    "608.2c",
                    because(
                        "not_taken",
                        card=card.name,
                        description=Phrase.of(wanted),
                    ),
                )


def _do_life(run: _Run, spec: Mapping[str, Any], path: str, sign: int) -> None:
    if "value" in spec:
        _life_not_modelled(run, str(spec["value"]))
        return
    for player in run.players_for(spec["who"], path):
        amount = spec["amount"]
        if amount == "half_rounded_up":
            before = run.result.life.get(player)
            life = before.value if before else run.state.life_total(player)
            amount = -(-max(life, 0) // 2)  # "half your life, rounded up" (107.1a)
        _change_life(
            run,
            player,
            sign * amount,
            "119.3",
            because("loses_life" if sign < 0 else "gains_life", player=player, amount=amount),
        )


def _life_not_modelled(run: _Run, text: str) -> None:
    """An instruction that may change life totals, written in words only: nothing may be
    concluded about any player's life total on this line (claims.py refuses it)."""
    run.result.explanation.append(f"(life: \u201c{text}\u201d is not modelled.)")
    for player in run.state.players:
        run.result.life_unknown.setdefault(player, because("life_not_modelled", text=text))


def _do_damage(run: _Run, spec: Mapping[str, Any], path: str) -> None:
    """Damage dealt to a player causes that much life loss (120.3a); damage dealt to a creature
    is marked on it, and lethal damage destroys it as state-based actions are checked (120.3e,
    704.5g) unless it is indestructible (702.12b)."""
    if "value" in spec:
        _life_not_modelled(run, str(spec["value"]))
        return
    base: int | None
    if spec["amount"] == "X":
        x = run.x_from_cost if run.x_from_cost is not None else _spell_x(run)
        base = x if isinstance(x, int) else None
    else:
        base = spec["amount"]
    if spec["to"] == "target":
        players = run.player_targets()[:1]
        if not players:
            for card in run.card_targets()[:1]:
                _damage_permanent(run, card, base)
    else:
        players = run.players_for(spec["to"], path)
    for player in players:
        if base is None:
            run.result.life_unknown[player] = because("damage_x_not_chosen")
            continue
        amount, count = base, None
        if spec["for_each"] == "revealed_with_chosen_name":
            hand = run.zones[(run.revealed_hand or player, "hand")]
            names = run.chosen or []
            counts = {sum(shares_a_name(name, c.definition) for c in hand) for name in names}
            if len(counts) != 1:
                run.result.life_unknown[player] = because("damage_depends_on_name", player=player)
                continue
            count = counts.pop()
            amount *= count
        reason = (
            because("damage_for_each", player=player, amount=amount, count=count)
            if count is not None
            else because("damage_to_player", player=player, amount=amount)
        )
        _change_life(run, player, -amount, "120.3a", reason)


def _damage_permanent(run: _Run, card: CardInstance, amount: int | None) -> None:
    """Damage to a targeted permanent (the scenario marks no damage on it before the step)."""
    definition = card.definition
    if card.zone != "battlefield":
        return
    if amount is None:
        run.maybe_move(card, {"graveyard"}, "107.3a", because("damage_x_not_chosen"))
        return
    toughness = definition.toughness
    if "Creature" not in definition.types or not toughness.isdigit() or toughness == "0":
        run.maybe_move(
            card,
            {"graveyard"},
            "120.3e",
            because("damage_not_modelled", amount=amount, card=card.name),
        )
        return
    if amount < int(toughness):
        run.result.zone_after[card.label] = Verdict(
            "battlefield",
            "704.5g",
            because("damage_not_lethal", amount=amount, card=card.name, toughness=toughness),
        )
    elif "indestructible" in definition.keywords:
        run.result.zone_after[card.label] = Verdict(
            "battlefield", "702.12b", because("lethal_damage_indestructible", card=card.name)
        )
    else:
        run.move(
            card,
            "graveyard",
            "704.5g",
            because("lethal_damage", amount=amount, card=card.name, toughness=toughness),
        )
    run.result.explanation.append(f"{amount} damage is dealt to {card.name}.")


def _do_lose_life(run: _Run, spec: Mapping[str, Any], path: str) -> None:
    _do_life(run, spec, path, -1)


def _do_gain_life(run: _Run, spec: Mapping[str, Any], path: str) -> None:
    _do_life(run, spec, path, 1)


def _do_add_mana(run: _Run, spec: Mapping[str, Any], path: str) -> None:
    return  # recorded by the activation (mana_produced) before costs are paid


def _do_create_effect(run: _Run, spec: Mapping[str, Any], path: str) -> None:
    static = spec["static"]
    source = run.step.source
    card = run.state.card(source)
    effect = ActiveEffect(
        static.kind, static.spec, run.result.controller or "", source, card.name if card else source
    )
    run.effects = (*run.effects, effect)
    run.result.created_effects.append(effect)
    run.result.explanation.append(f"{effect.source_name} creates an effect until end of turn.")


def _do_tap(run: _Run, spec: Mapping[str, Any], path: str) -> None:
    _tap_or_untap(run, spec, "tapped")


def _do_untap(run: _Run, spec: Mapping[str, Any], path: str) -> None:
    _tap_or_untap(run, spec, "untapped")


def _tap_or_untap(run: _Run, spec: Mapping[str, Any], state: str) -> None:
    """ "Then if you control four or more lands, untap that land" (Fabled Passage). A tap or
    untap written as words only isn't modelled: every card it may touch says so."""
    cards = _tapped_cards(run, spec.get("what", "found"))
    if "value" in spec:
        for card in cards:
            run.result.tapped_after[card.label] = Verdict(
                "tapped or untapped",
                "608.2c",
                because("tap_not_modelled", card=card.name, text=str(spec["value"])),
            )
        return
    condition = spec["if_you_control"]
    key = "untapped_by_effect" if state == "untapped" else "tapped_by_effect"
    for card in cards:
        if condition is None:
            run.result.tapped_after[card.label] = Verdict(
                state, "608.2c", because(key, card=card.name)
            )
            continue
        player = run.result.controller or card.controller
        certain, possible = _count_controlled(run, player, condition["filter"], card.label)
        amount = condition["count"]
        params = {"player": player, "amount": amount, "card": card.name}
        if certain >= amount:
            value, reason = state, because("untapped_condition_met", count=certain, **params)
        elif possible < amount:
            value, reason = None, because("untapped_condition_failed", count=certain, **params)
        else:
            value, reason = "tapped or untapped", because("untapped_condition_open", **params)
        if value is None:
            before = _entering_state(card, run.put_tapped.get(card.label), run)
            value = before.value
        if run.possible.get(card.label, {"battlefield"}) != {"battlefield"}:
            reason = because("if_it_enters", reason=reason)
        run.result.tapped_after[card.label] = Verdict(value, "608.2c", reason)


def _tapped_cards(run: _Run, what: str) -> list[CardInstance]:
    """The cards a tap or untap instruction names: the ones just found that may be on the
    battlefield, the source, or the targets."""
    if what == "self":
        source = run.state.card(run.result.source_label) if run.result.source_label else None
        return [source] if source is not None else []
    if what == "target":
        return run.card_targets()
    labels = (
        run.found_fixed
        if run.found_fixed is not None
        else sorted(label for space in run.last_spaces for label in space.findable)
    )
    return [
        run.state.card(label) for label in labels if "battlefield" in run.possible.get(label, ())
    ]


def _count_controlled(run: _Run, player: str, wanted: Any, present: str) -> tuple[int, int]:
    """How many permanents matching `wanted` `player` controls now: for certain, and at most
    (counting cards that may have been put onto the battlefield in this step). The card the
    instruction acts on (`present`) is counted as there: if it isn't, nothing is untapped."""
    certain = possible = 0
    for card in run.state.cards:
        zones = (
            {"battlefield"} if card.label == present else run.possible.get(card.label, {card.zone})
        )
        if card.controller != player or "battlefield" not in zones:
            continue
        if not wanted.matches(card.definition, {}):
            continue
        possible += 1
        certain += zones == {"battlefield"}
    return certain, possible


_HANDLERS = {
    "search": _do_search,
    "shuffle": _do_shuffle,
    "mill": _do_mill,
    "exile": _do_exile,
    "destroy": _do_destroy,
    "return": _do_return,
    "put": _do_return,
    "exile_graveyards": _do_exile_graveyards,
    "reveal_hand": _do_reveal_hand,
    "choose": _do_choose,
    "opponent_chooses": _do_opponent_chooses,
    "draw": _do_draw,
    "add_mana": _do_add_mana,
    "discard": _do_discard,
    "look": _do_look,
    "put_counters": _do_put_counters,
    "lose_life": _do_lose_life,
    "gain_life": _do_gain_life,
    "create_effect": _do_create_effect,
    "tap": _do_tap,
    "untap": _do_untap,
    "damage": _do_damage,
}


# ---------------------------------------------------------------- the turn


@dataclass(frozen=True)
class TurnRecord:
    """This turn's history resolved: facts, earlier steps and the effects they created."""

    facts: tuple[Fact, ...]
    steps: tuple[Resolution, ...]
    effects: tuple[ActiveEffect, ...]


def resolve_history(scenario: Scenario) -> TurnRecord:
    """Resolve history steps in order (each against the scenario's state) for the turn record."""
    facts = tuple(h for h in scenario.history if isinstance(h, Fact))
    effects = battlefield_effects(scenario.state)
    turn_effects: list[ActiveEffect] = []
    steps = []
    for index, item in enumerate(scenario.history):
        if isinstance(item, Fact):
            continue
        result = _play(
            scenario, item, effects + tuple(turn_effects), facts, item.choices, f"history[{index}]"
        )
        turn_effects.extend(result.created_effects)
        steps.append(result)
    return TurnRecord(facts, tuple(steps), tuple(turn_effects))


def _play(
    scenario: Scenario,
    step: Step,
    effects: tuple[ActiveEffect, ...],
    facts: Sequence[Fact],
    choices: Choices,
    path: str = "resolve",
) -> Resolution:
    """Resolve one step; a kicker left open is both lines of play, merged."""
    if step.kicked is not None or (choices and any("kicked" in d for d in choices.values())):
        _check_kicked(scenario, step, choices, path)
    if step.kind != "cast" or not kick_is_open(scenario, step, choices):
        run = _Run(scenario, step, effects, facts, choices, path)
        _resolve_step(run)
        _auras_left_unattached(run)
        _record_entering(run)
        if path == "resolve":
            _check_unused_finds(run)
        return run.result
    runs = []
    for kicked in (False, True):
        line = {**choices, step.by: {**choices.get(step.by, {}), "kicked": kicked}}
        run = _Run(scenario, step, effects, facts, line, path)
        _resolve_step(run)
        _auras_left_unattached(run)
        _record_entering(run)
        if path == "resolve":
            _check_unused_finds(run)
        runs.append(run)
    return _merge_runs(runs)


def _auras_left_unattached(run: _Run) -> None:
    """State-based actions after the step (704.3): an Aura whose permanent left the battlefield
    is attached to nothing and goes to its owner's graveyard (704.5m); when the permanent only
    may leave (a line of play not fixed), so may the Aura."""
    for aura in run.state.auras():
        host = run.state.card(aura.attached_to) if aura.attached_to else None
        if host is None or run.possible.get(aura.label, {"battlefield"}) != {"battlefield"}:
            continue
        host_zones = run.possible.get(host.label, {host.zone})
        if "battlefield" in host_zones and len(host_zones) == 1:
            continue
        attached = permanent_of(aura.label, aura.definition, aura.owner, attached_to=host.label)
        gone = permanent_of(host.label, host.definition, host.owner, zone="graveyard")
        actions = state_based_actions(SbaBoard((), (attached, gone)))
        if not any(a.subject == aura.label and a.rule == "704.5m" for a in actions):
            continue
        if "battlefield" in host_zones:
            reason = because("aura_host_may_leave", card=aura.name, card_host=host.name)
            run.maybe_move(aura, {"graveyard"}, "704.5m", reason)
        else:
            reason = because("aura_host_left", card=aura.name, card_host=host.name)
            run.move(aura, "graveyard", "704.5m", reason)


def _record_entering(run: _Run) -> None:
    """A card put onto the battlefield in this step is a new permanent: untapped unless the
    effect or its own text says it enters tapped (110.5b, 614.1d). An untap or tap instruction
    of the step has already said what it does (it wins: it happens after the card entered)."""
    possible = run.possible
    if not possible:
        return
    card_of, tapped_after = run.state.label_index().get, run.result.tapped_after
    put_tapped_at = run.put_tapped  # usually empty: no effect said "tapped"
    # Cards of one name and controller that may enter alike share a verdict (a 60-card
    # library of lands asks a handful).
    alike: dict[tuple[str, str, Reason | None, bool], Verdict] = {}
    may_enter: dict[str, dict[str, Verdict]] = {}
    for label, zones in possible.items():
        if "battlefield" not in zones or label in tapped_after:
            continue
        card = card_of(label)
        if card is None or card.zone == "battlefield":
            continue
        put_tapped = put_tapped_at.get(label) if put_tapped_at else None
        if put_tapped is None and len(zones) > 1:
            # The usual case (a card that may be found): by controller, then name.
            names = may_enter.get(card.controller)
            if names is None:
                names = may_enter[card.controller] = {}
            verdict = names.get(card.name)
            if verdict is None:
                verdict = names[card.name] = _entering(run, card, None, False)
        else:
            # certain: the battlefield is the one place it can end
            key = (card.name, card.controller, put_tapped, len(zones) == 1)
            verdict = alike.get(key)
            if verdict is None:
                verdict = alike[key] = _entering(run, card, put_tapped, key[3])
        tapped_after[label] = verdict


def _entering(run: _Run, card: CardInstance, put_tapped: Reason | None, certain: bool) -> Verdict:
    own = card.definition.enters_tapped
    if own != "condition" or put_tapped is not None:
        # Depends on the card's name and text and the effect's words only, never on the
        # board: made once per process.
        return _entering_verdict(card.name, own, put_tapped, certain)
    # "Unless you control ...": counted on this board for this controller, so shared within
    # the step only.
    key = ("entering", card.name, card.controller, certain)
    verdict = run.shared_verdicts.get(key)
    if verdict is None:
        verdict = _maybe_entering(_entering_state(card, None, run), certain)
        run.shared_verdicts[key] = verdict
    return verdict


@lru_cache(maxsize=1024)
def _entering_verdict(name: str, own: str, put_tapped: Reason | None, certain: bool) -> Verdict:
    """`_entering_state` of a card whose state as it enters doesn't depend on the board."""
    return _maybe_entering(_own_entering_state(name, own, put_tapped), certain)


def _maybe_entering(verdict: Verdict, certain: bool) -> Verdict:
    if certain:
        return verdict
    return Verdict(verdict.value, verdict.rule, because("if_it_enters", reason=verdict.reason))


def _entering_state(
    card: CardInstance, put_tapped: Reason | None, run: _Run | None = None
) -> Verdict:
    own = card.definition.enters_tapped
    if put_tapped is None and own == "condition" and run is not None:
        condition = enters_untapped_if(card.definition.oracle)
        if condition is not None:
            return _enters_unless_you_control(run, card, condition)
    return _own_entering_state(card.name, own, put_tapped)


def _own_entering_state(name: str, own: str, put_tapped: Reason | None) -> Verdict:
    """As it enters, from the effect's words ("put it onto the battlefield tapped") and the
    card's own text alone."""
    if put_tapped is not None:
        return Verdict("tapped", "110.5b", put_tapped)
    if own == "always":
        return Verdict("tapped", "614.1d", because("enters_tapped_own_text", card=name))
    if own == "choice":
        return Verdict(
            "tapped or untapped", "614.1d", because("enters_tapped_unless_paid", card=name)
        )
    if own == "condition":
        return Verdict(
            "tapped or untapped", "614.1d", because("enters_tapped_not_modelled", card=name)
        )
    return Verdict("untapped", "110.5b", because("enters_untapped", card=name))


def _enters_unless_you_control(
    run: _Run, card: CardInstance, condition: Mapping[str, Any]
) -> Verdict:
    """ "This land enters tapped unless you control a Plains or an Island" / "two or fewer other
    lands" (614.1d): counted as it enters among the permanents its controller already controls;
    a card entering at the same time isn't counted (the check lands' and fast lands' rulings),
    and one a cost or choice of the step may have removed counts only as possible."""
    player = card.controller
    certain = possible = 0
    pool = {c.label for c in run.sacrificed}
    in_pool = 0  # matching cards a cost may have sacrificed: exactly sacrifice_count of pool did
    for other in run.state.permanents():
        if other.controller != player or other.label == card.label:
            continue
        if not condition["filter"].matches(other.definition, {}):
            continue
        zones = run.possible.get(other.label, {"battlefield"})
        if zones != {"battlefield"} and "battlefield" in zones and other.label in pool:
            in_pool += 1
            continue
        possible += "battlefield" in zones
        certain += zones == {"battlefield"}
    if in_pool:
        gone = run.sacrifice_count
        certain += in_pool - min(gone, in_pool)
        possible += in_pool - max(0, gone - (len(pool) - in_pool))
    amount = condition["count"]
    if condition["compare"] == "at_least":
        met, failed = certain >= amount, possible < amount
    else:
        met, failed = possible <= amount, certain > amount
    params = {"card": card.name, "player": player}
    if met:
        return Verdict("untapped", "614.1d", because("enters_unless_met", count=certain, **params))
    if failed:
        return Verdict("tapped", "614.1d", because("enters_unless_failed", count=certain, **params))
    return Verdict("tapped or untapped", "614.1d", because("enters_unless_open", **params))


def _merge_runs(runs: list[_Run]) -> Resolution:
    """Lines of play that differ only by an open choice (was it kicked?), as one resolution:
    values they agree on stay; the rest become the possibilities (702.33d)."""
    first, second = (run.result for run in runs)
    merged = Resolution(first.step, first.controller, first.source_label)
    why = because("depends_on_kicker")
    for one, other in zip_longest(first.searches, second.searches):
        if one is None or other is None:
            merged.searches.append(one or other)
        else:
            merged.searches.append(merge_spaces([one, other], why))
    merged.search_groups = list(dict.fromkeys(first.search_groups + second.search_groups))
    for label in {**first.zone_after, **second.zone_after}:
        options = set().union(
            *(run.possible.get(label, {run.state.card(label).zone}) for run in runs)
        )
        verdicts = [r.result.zone_after.get(label) for r in runs]
        if len(options) == 1 and all(verdicts):
            merged.zone_after[label] = verdicts[0]
        else:
            merged.zone_after[label] = Verdict(_zones_text(options), "702.33d", why)
    for name in ("shuffles", "shuffled_portion", "mills", "mana", "dredge", "tapped_after"):
        mine, theirs = getattr(first, name), getattr(second, name)
        target = getattr(merged, name)
        for key in {**mine, **theirs}:
            a, b = mine.get(key), theirs.get(key)
            if a is not None and b is not None and a.value == b.value:
                target[key] = a
            elif a is not None:
                target[key] = Verdict(a.value, a.rule, because("if_not_kicked", reason=a.reason))
            else:
                target[key] = Verdict(b.value, b.rule, because("if_kicked", reason=b.reason))
    for name in ("counters", "life", "face_down", "enters_x", "life_unknown"):
        getattr(merged, name).update({**getattr(second, name), **getattr(first, name)})
    merged.created_effects = list(first.created_effects)
    merged.condition = first.condition
    merged.explanation = [
        *first.explanation,
        "If kicked:",
        *(line for line in second.explanation if line not in first.explanation),
    ]
    return merged


def resolve_step(
    scenario: Scenario, turn: TurnRecord, choices: Choices | None = None
) -> Resolution:
    """Resolve the scenario's `resolve` step with fixed `choices` (defaults to the step's own)."""
    step = scenario.resolve
    if step is None:
        return Resolution(None)
    effects = battlefield_effects(scenario.state) + turn.effects
    return _play(scenario, step, effects, turn.facts, step.choices if choices is None else choices)


_READ_BY = {
    "cost": "a cost that chooses cards (or a kicker that does)",
    "zones": "a search whose zones the searcher chooses (choose_zones)",
    "take": "a look that takes cards",
}


def _check_unused_finds(run: _Run) -> None:
    if not run.choices:
        return
    for player, decisions in run.choices.items():
        for key, reader in _READ_BY.items():
            if key in decisions and (player, key) not in run.consumed:
                raise ScenarioError(
                    f"choices.{player}.{key}", f"nothing here asks {player} for it: {reader}"
                )
        if "dredge" in decisions:
            draws = run.draws_made.get(player, 0)
            wanted = decisions["dredge"]
            if not draws:
                raise ScenarioError(
                    f"choices.{player}.dredge",
                    f"{player} isn't drawing here; dredge replaces a draw",
                )
            if isinstance(wanted, list) and len(wanted) > draws:
                raise ScenarioError(
                    f"choices.{player}.dredge",
                    f"{len(wanted)} dredge choices for {draws} draw(s) by {player}",
                )
        for label in decisions.get("find", []):
            if not any(
                label in s.finds
                for s in run.result.searches
                if player in (s.searcher, s.controlled_by)
            ):
                raise ScenarioError(
                    f"choices.{player}.find",
                    f"{label} is not in a zone {player} searches (701.23a)",
                )

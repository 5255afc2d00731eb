"""A parsed scenario as a board for templates: players' zones as rows of cards, the stack, history.

Nothing here computes an outcome: the board shows the situation only, so the page holds no part of
the answer key. Cards are named by name and place ("the Howling Mine on top of Nadia's
library"), and the page refers to them by opaque references (`c1`, `c2`, in board order), never by
an author's label or a generated id.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.crypto import salted_hmac

ZONE_ORDER = ("battlefield", "hand", "library", "graveyard", "exile", "outside")
ZONE_TITLES = {
    "battlefield": "Battlefield",
    "hand": "Hand",
    "library": "Library (top first)",
    "graveyard": "Graveyard",
    "exile": "Exile",
    "outside": "Outside the game",
}
HIDDEN_ZONES = frozenset({"library", "hand", "outside"})
ORDINALS = (
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
)  # fmt: skip
GROUP_FROM = 3  # a run of this many identical cards nobody is asked about is drawn as one group


def ordinal(number: int) -> str:
    if 1 <= number <= len(ORDINALS):
        return ORDINALS[number - 1]
    suffix = (
        "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    )
    return f"{number}{suffix}"


@dataclass(frozen=True)
class CardView:
    ref: str  # what the page calls the card: a keyed hash, never the label
    label: str  # the engine's label: never rendered
    name: str
    phrase: str  # "the Howling Mine on top of Nadia's library"
    type_line: str
    mana_cost: str
    oracle: str
    owner: str
    controller: str
    zone: str
    position: int
    tapped: bool = False
    alt_cost: str = ""

    @property
    def place(self) -> str:
        """Where a library card lies: "top card", "second from the top"."""
        return "top card" if self.position == 1 else f"{ordinal(self.position)} from the top"

    @property
    def controlled_by_other(self) -> bool:
        return self.controller != self.owner

    @property
    def dom_id(self) -> str:
        return self.ref


@dataclass(frozen=True)
class Run:
    """Cards drawn together: one card, or a group of identical ones (`Mountain ×20`)."""

    cards: tuple[CardView, ...]

    @property
    def grouped(self) -> bool:
        return len(self.cards) >= GROUP_FROM

    @property
    def first(self) -> CardView:
        return self.cards[0]

    @property
    def last(self) -> CardView:
        return self.cards[-1]


@dataclass(frozen=True)
class ZoneView:
    player: str
    name: str
    cards: tuple[CardView, ...]
    runs: tuple[Run, ...] = ()

    @property
    def title(self) -> str:
        return ZONE_TITLES.get(self.name, self.name.title())

    @property
    def hidden(self) -> bool:
        return self.name in HIDDEN_ZONES


@dataclass(frozen=True)
class PlayerView:
    name: str
    is_active: bool
    zones: tuple[ZoneView, ...]


@dataclass(frozen=True)
class StackItem:
    """What is resolving: who does what, with which card, and its targets in words."""

    text: str
    card: CardView | None
    targets: tuple[str, ...] = ()


@dataclass(frozen=True)
class Board:
    players: tuple[PlayerView, ...]
    resolving: StackItem | None
    history: tuple[str, ...]
    cards: Mapping[str, CardView] = field(default_factory=dict)  # by label

    def card(self, label: str) -> CardView | None:
        return self.cards.get(label)

    def name(self, label_or_player: str) -> str:
        """A card by name and place, or a player's name as is."""
        card = self.cards.get(label_or_player)
        return card.phrase if card else label_or_player

    def ref(self, label: str) -> str:
        card = self.cards.get(label)
        return card.ref if card else ""

    def label_of(self, ref: str) -> str | None:
        return next((card.label for card in self.cards.values() if card.ref == ref), None)

    def card_mana_costs(self, label: str) -> tuple[str, ...]:
        """The costs a card's spell can be cast for: its mana cost and any alternative cost."""
        card = self.cards.get(label)
        return tuple(cost for cost in (card.mana_cost, card.alt_cost) if cost) if card else ()

    def library_sizes(self) -> dict[str, int]:
        return {
            player.name: len(zone.cards)
            for player in self.players
            for zone in player.zones
            if zone.name == "library"
        }


def _phrase(instance: Any, same_named: list[Any]) -> str:
    """Name and place: the board names each card so that only one card fits."""
    name, holder, zone = instance.name, instance.owner, instance.zone
    if zone == "library":
        if instance.position == 1:
            return f"the {name} on top of {holder}'s library"
        return f"the {name} {ordinal(instance.position)} from the top of {holder}'s library"
    nth = ""
    if len(same_named) > 1:
        nth = ordinal(same_named.index(instance) + 1) + " "
    if zone == "battlefield":
        owned = f" (owned by {holder})" if instance.controller != holder else ""
        return f"the {nth}{name} {instance.controller} controls{owned}"
    if zone == "exile":
        return f"the {nth}{name} {holder} owns in exile"
    if zone == "outside":
        return f"the {nth}{name} {holder} has outside the game"
    if zone == "stack":
        return name
    return f"the {nth}{name} in {holder}'s {zone}"


def _definition_view(definition: Any, **place: Any) -> CardView:
    """A card's face (name, cost, type, text) where `place` puts it."""
    return CardView(
        name=definition.name,
        type_line=definition.type_line,
        mana_cost=definition.mana_cost,
        oracle=definition.oracle,
        alt_cost=(definition.alt_cost or {}).get("cost", ""),
        **place,
    )


def _card_view(instance: Any, ref: str, phrase: str) -> CardView:
    return _definition_view(
        instance.definition,
        ref=ref,
        label=instance.label,
        phrase=phrase,
        owner=instance.owner,
        controller=instance.controller,
        zone=instance.zone,
        position=instance.position,
        tapped=instance.tapped,
    )


def _runs(cards: tuple[CardView, ...], asked: frozenset[str]) -> tuple[Run, ...]:
    """Consecutive identical cards nobody is asked about form one run."""
    runs: list[list[CardView]] = []
    for card in cards:
        last = runs[-1] if runs else None
        if (
            last is not None
            and last[-1].name == card.name
            and last[-1].label not in asked
            and card.label not in asked
            and last[-1].tapped == card.tapped
            and last[-1].controller == card.controller
        ):
            last.append(card)
        else:
            runs.append([card])
    split: list[Run] = []
    for run in runs:  # a short run is just its cards
        if len(run) >= GROUP_FROM:
            split.append(Run(tuple(run)))
        else:
            split.extend(Run((card,)) for card in run)
    return tuple(split)


def _step_text(step: Any, board_cards: Mapping[str, CardView], catalog: Any) -> StackItem:
    def named(ref: str) -> str:
        card = board_cards.get(ref)
        return card.phrase if card else ref

    if not hasattr(step, "by"):  # a Fact
        facts = {
            "searched_library": "{player} searched their library",
            "ignored_search_prohibition": "{player} paid to ignore {paid_for}'s search prohibition",
            "left_the_game": "{player} left the game",
        }
        paid_for = named(step.paid_for) if getattr(step, "paid_for", None) else "a permanent"
        text = facts.get(step.kind, "{player}: " + step.kind.replace("_", " "))
        return StackItem(text.format(player=step.player, paid_for=paid_for), None)
    card = board_cards.get(step.source)
    if card is None and step.kind == "cast":
        definition = catalog.get(step.source)
        if definition is not None:
            card = _definition_view(
                definition,
                ref="stack",
                label=step.source,
                phrase=definition.name,
                owner=step.by or "",
                controller=step.by or "",
                zone="stack",
                position=1,
            )
    source = card.name if card else step.source
    verbs = {
        "cast": f"{step.by} casts {source}",
        "activate": f"{step.by} activates an ability of {source}",
        "trigger": f"{source}'s ability triggers" + (f" ({step.event})" if step.event else ""),
        "draw": f"{step.source} would draw a card",
    }
    targets = tuple(named(target) for target in step.targets)
    return StackItem(verbs.get(step.kind, f"{step.kind} {source}"), card, targets)


def card_ref(label: str, salt: str) -> str:
    """An opaque reference for a card (no label, and no author's label can equal it)."""
    return "card-" + salted_hmac("quizzes.rulings.board", f"{salt}:{label}").hexdigest()[:12]


def build_board(scenario: Any, asked: frozenset[str] = frozenset(), salt: str = "") -> Board:
    """The board a judge reads at a glance, from a parsed scenario (`rules.engine.Scenario`).

    `asked` holds the labels of cards the question asks about: they are never grouped. `salt`
    (the variant's seed) makes the cards' references differ from one variant to the next.
    """
    state = scenario.state
    listed = scenario.spec.get("zones", {}) if isinstance(scenario.spec, Mapping) else {}
    views: dict[str, CardView] = {}
    players = []
    for player in state.apnap_order:
        for zone in ZONE_ORDER:
            instances = state.cards_in(player, zone)
            for instance in instances:
                same_named = [other for other in instances if other.name == instance.name]
                views[instance.label] = _card_view(
                    instance, card_ref(instance.label, salt), _phrase(instance, same_named)
                )
    for player in state.apnap_order:
        zones = []
        for zone in ZONE_ORDER:
            instances = state.cards_in(player, zone)
            # A zone the author lists empty is shown empty: Lobotomy on an empty hand turns on it.
            if instances or zone in listed.get(player, {}):
                cards = tuple(views[card.label] for card in instances)
                zones.append(ZoneView(player, zone, cards, _runs(cards, asked)))
        players.append(PlayerView(player, player == state.active, tuple(zones)))
    resolving = _step_text(scenario.resolve, views, scenario.catalog) if scenario.resolve else None
    history = tuple(_step_text(step, views, scenario.catalog).text for step in scenario.history)
    return Board(tuple(players), resolving, history, views)

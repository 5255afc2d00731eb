"""A parsed scenario as a board for templates: players' zones as rows of cards, the stack, history.

Nothing here computes an outcome: the board shows the situation only, so the page holds no part of
the answer key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.engine import parse_scenario

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


@dataclass(frozen=True)
class CardView:
    label: str
    name: str
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
    def controlled_by_other(self) -> bool:
        return self.controller != self.owner

    @property
    def dom_id(self) -> str:
        return "card-" + "".join(ch if ch.isalnum() else "-" for ch in self.label)


@dataclass(frozen=True)
class ZoneView:
    player: str
    name: str
    cards: tuple[CardView, ...]

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
    cards: Mapping[str, CardView] = field(default_factory=dict)

    def card(self, label: str) -> CardView | None:
        return self.cards.get(label)

    def describe(self, label_or_player: str) -> str:
        """A card as "Name (label)" or a player's name as is."""
        card = self.cards.get(label_or_player)
        return f"{card.name} ({card.label})" if card else label_or_player

    def card_mana_costs(self, label: str) -> list[str]:
        """The costs a card's spell can be cast for: its mana cost and any alternative cost."""
        card = self.cards.get(label)
        return [cost for cost in (card.mana_cost, card.alt_cost) if cost] if card else []


def _card_view(instance: Any) -> CardView:
    definition = instance.definition
    return CardView(
        label=instance.label,
        name=instance.name,
        type_line=definition.type_line,
        mana_cost=definition.mana_cost,
        oracle=definition.oracle,
        owner=instance.owner,
        controller=instance.controller,
        zone=instance.zone,
        position=instance.position,
        tapped=instance.tapped,
        alt_cost=(definition.alt_cost or {}).get("cost", ""),
    )


def _step_text(step: Any, board_cards: Mapping[str, CardView], catalog: Any) -> StackItem:
    def named(ref: str) -> str:
        card = board_cards.get(ref)
        return f"{card.name} ({card.label})" if card else ref

    if not hasattr(step, "source"):  # a Fact
        facts = {
            "searched_library": "{player} searched their library this turn",
            "ignored_search_prohibition": "{player} ignored a search prohibition this turn",
        }
        return StackItem(facts.get(step.kind, step.kind).format(player=step.player), None)
    card = board_cards.get(step.source)
    if card is None and step.kind == "cast":
        definition = catalog.get(step.source)
        if definition is not None:
            card = CardView(
                label=step.source,
                name=definition.name,
                type_line=definition.type_line,
                mana_cost=definition.mana_cost,
                oracle=definition.oracle,
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


def build_board(spec: Mapping[str, Any]) -> Board:
    """The board a judge reads at a glance, from a scenario/1 spec (raises ScenarioError)."""
    scenario = parse_scenario(spec)
    state = scenario.state
    views = {instance.label: _card_view(instance) for instance in state.cards}
    players = []
    listed = spec.get("zones", {})
    for player in state.apnap_order:
        zones = []
        for zone in ZONE_ORDER:
            instances = state.cards_in(player, zone)
            # A zone the author lists empty is shown empty: Lobotomy on an empty hand turns on it.
            if instances or zone in listed.get(player, {}):
                zones.append(ZoneView(player, zone, tuple(views[card.label] for card in instances)))
        players.append(PlayerView(player, player == state.active, tuple(zones)))
    resolving = _step_text(scenario.resolve, views, scenario.catalog) if scenario.resolve else None
    history = tuple(_step_text(step, views, scenario.catalog).text for step in scenario.history)
    return Board(tuple(players), resolving, history, views)


CLAIM_PHRASES = {
    "finds": "Can {card} be found?",
    "found_count": "How many cards can {searcher} find{whose_part}?",
    "searches": "Does {player} search?",
    "searched_portion": "What part of the library does {player} search?",
    "shuffles": "Does {player} shuffle?",
    "shuffled_portion": "What does {player} shuffle?",
    "revealed": "Are the cards {searcher} finds revealed?",
    "decision_order": "In which order do players decide what to find?",
    "searched_library_this_turn": "Has {player} searched their library this turn, afterwards?",
    "alt_cost_available": "Can {player} cast {card} for its alternative cost?",
    "mills": "How many cards does {player} mill?",
    "can_dredge": "Can {card} be dredged?",
    "zone_after": "Where does {card} end up?",
    "triggers": "How many times does {card}'s ability trigger?",
    "mana_produced": "What mana does {card} produce?",
    "legal_find_set": "Which cards does {searcher} find?",
}

PROPOSED_PHRASES = {
    "finds": "{card} {value} be found.",
    "found_count": "{searcher} can find between {value} cards{whose_part}.",
    "searches": "{player} {value} search.",
    "searched_portion": "{player} searches {value_portion}.",
    "shuffles": "{player} shuffles: {value}.",
    "shuffled_portion": "{player} shuffles {value_portion}.",
    "revealed": "The cards {searcher} finds are revealed: {value}.",
    "decision_order": "Players decide in this order: {value}.",
    "searched_library_this_turn": "Afterwards, {player} has searched their library this turn: "
    "{value}.",
    "alt_cost_available": "{player} can cast {card} for its alternative cost: {value}.",
    "mills": "{player} mills {value} card(s).",
    "can_dredge": "{card} can be dredged: {value}.",
    "zone_after": "{card} ends up in the {value}.",
    "triggers": "{card}'s ability triggers {value} time(s).",
    "mana_produced": "{card} produces {value}.",
}


def show_value(value: Any) -> str:
    """A claim's value in words: 1 to 4, yes, Alice then Nadia, no mana."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        if len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            return f"{value[0]} to {value[1]}"
        return " then ".join(str(v) for v in value)
    if value == "":
        return "no mana"
    if value == "if_searched":
        return "only if they searched"
    return str(value)


def _subject(claim: Mapping[str, Any], board: Board) -> dict[str, str]:
    whose = claim.get("whose")
    return {
        "card": board.describe(str(claim.get("card", ""))),
        "player": str(claim.get("player", "")),
        "searcher": str(claim.get("searcher", "")),
        "whose_part": f" in {whose}'s zones" if whose else "",
    }


def claim_question(claim: Mapping[str, Any], board: Board) -> str:
    """The claim asked as a question, without its value."""
    phrase = CLAIM_PHRASES.get(claim.get("claim", ""), "{claim}?")
    return phrase.format(claim=claim.get("claim", ""), **_subject(claim, board))


def claim_statement(claim: Mapping[str, Any], board: Board) -> str:
    """A claim with its `proposed` value as a statement to judge true or false."""
    proposed = claim.get("proposed")
    phrase = PROPOSED_PHRASES.get(claim.get("claim", ""), "{claim}: {value}.")
    shown = show_value(proposed)
    portion = "the whole library" if proposed == "library" else f"the {shown} cards"
    return phrase.format(
        claim=claim.get("claim", ""), value=shown, value_portion=portion, **_subject(claim, board)
    )

"""Game state: players in turn order, zones with hidden/public status, card instances."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from .cards import CardDefinition

# Display order for the board.
ZONES = ("battlefield", "hand", "library", "graveyard", "exile", "outside", "stack")
# Cards outside the game: not a zone (CR 400.11), kept beside the zones so a wish can bring them
# in (400.11b). Like library and hand (hidden, 400.2) its cards may go unchosen and aren't public.
OUTSIDE = "outside"
HIDDEN_ZONES = frozenset({"library", "hand", OUTSIDE})
NO_COUNTERS: Mapping[str, int] = MappingProxyType({})
PLAYER_ZONES = ("library", "hand", "graveyard", "battlefield", "exile", "outside")


@dataclass(frozen=True, eq=False)
class CardInstance:
    """One card in the game. `position` is 1-based in its zone list (library: 1 is the top).

    Compared by identity: each label has one instance, and finding a card in a zone list
    shouldn't compare every field of every card before it.
    """

    label: str
    name: str
    owner: str
    controller: str
    zone: str
    position: int
    definition: CardDefinition
    tapped: bool = False
    entered_this_turn: bool = False
    generated_label: bool = False
    attached_to: str | None = None  # an Aura's or Equipment's permanent
    # 302.6: not under its controller's control continuously since their most recent turn
    # began. Entering this turn implies it; a creature that arrived during an opponent's turn,
    # before its controller's turn began again, is sick without having entered this turn.
    summoning_sick: bool = False
    counters: Mapping[str, int] = field(default_factory=dict)  # e.g. {"+1/+1": 2}
    # "attacking" (508.1k) or "blocking" (509.1g), until removed from combat (506.4)
    combat: str = ""
    # Labels of the spells that resolved targeting this creature this turn, in the order they
    # resolved (their effects' timestamps, 613.7b): Giant Growth, then Twisted Image.
    effects: tuple[str, ...] = ()

    @classmethod
    def fast(
        cls,
        label: str,
        name: str,
        owner: str,
        controller: str,
        zone: str,
        position: int,
        definition: CardDefinition,
        tapped: bool,
        entered_this_turn: bool,
        generated_label: bool,
        attached_to: str | None = None,
        summoning_sick: bool = False,
        counters: Mapping[str, int] | None = None,
        combat: str = "",
        effects: tuple[str, ...] = (),
    ) -> CardInstance:
        """Build without the frozen __init__'s per-field setattr (parsing 400 cards stays cheap)."""
        card = object.__new__(cls)
        fields = card.__dict__  # writing the instance dict skips the frozen guard
        fields["label"] = label
        fields["name"] = name
        fields["owner"] = owner
        fields["controller"] = controller
        fields["zone"] = zone
        fields["position"] = position
        fields["definition"] = definition
        fields["tapped"] = tapped
        fields["entered_this_turn"] = entered_this_turn
        fields["generated_label"] = generated_label
        fields["attached_to"] = attached_to
        fields["summoning_sick"] = summoning_sick
        fields["counters"] = counters or NO_COUNTERS
        fields["combat"] = combat
        fields["effects"] = effects
        return card

    @property
    def sick(self) -> bool:
        """Not under its controller's control continuously since their most recent turn began."""
        return self.summoning_sick or self.entered_this_turn

    @property
    def hidden(self) -> bool:
        """Is the card in a hidden zone (CR 400.2)?"""
        return self.zone in HIDDEN_ZONES


@dataclass(frozen=True)
class GameState:
    """Players, the active player and every card instance; indexes are built once."""

    players: tuple[str, ...]
    active: str
    cards: tuple[CardInstance, ...]
    life: Mapping[str, int] = field(default_factory=dict)  # life totals the scenario gives
    # (player, zone) pairs the scenario writes, even empty: an unwritten zone is undescribed.
    listed: frozenset[tuple[str, str]] = frozenset()
    _by_label: dict[str, CardInstance] = field(init=False, repr=False, compare=False)
    _by_zone: dict[tuple[str, str], tuple[CardInstance, ...]] = field(
        init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        by_zone: dict[tuple[str, str], list[CardInstance]] = {}
        for card in self.cards:
            by_zone.setdefault((card.owner, card.zone), []).append(card)
        object.__setattr__(self, "_by_label", {c.label: c for c in self.cards})
        object.__setattr__(
            self,
            "_by_zone",
            {key: tuple(v) for key, v in by_zone.items()},  # parsed in zone order already
        )

    @classmethod
    def indexed(
        cls,
        players: tuple[str, ...],
        active: str,
        cards: tuple[CardInstance, ...],
        by_label: dict[str, CardInstance],
        by_zone: dict[tuple[str, str], tuple[CardInstance, ...]],
        life: Mapping[str, int] | None = None,
        listed: frozenset[tuple[str, str]] = frozenset(),
    ) -> GameState:
        """Build from indexes the caller made while reading the cards (the scenario parser).

        `by_label` must map every card's label to it and `by_zone` every non-empty
        (owner, zone) to its cards in zone order: what `__post_init__` would compute.
        """
        state = object.__new__(cls)
        fields = state.__dict__
        fields["players"] = players
        fields["active"] = active
        fields["cards"] = cards
        fields["life"] = life or {}
        fields["listed"] = listed
        fields["_by_label"] = by_label
        fields["_by_zone"] = by_zone
        return state

    @property
    def apnap_order(self) -> tuple[str, ...]:
        """Active player first, then the others in turn order (CR 101.4)."""
        start = self.players.index(self.active)
        return self.players[start:] + self.players[:start]

    def opponents(self, player: str) -> tuple[str, ...]:
        """Every other player (a two-or-more-player free-for-all)."""
        return tuple(p for p in self.players if p != player)

    def card(self, label: str) -> CardInstance | None:
        """The card with this label, or None."""
        return self._by_label.get(label)

    def label_index(self) -> Mapping[str, CardInstance]:
        """Label -> card, for loops over many labels (`index.get(label)` is `card(label)`)."""
        return self._by_label

    def cards_in(self, player: str, zone: str) -> tuple[CardInstance, ...]:
        """Cards owned by `player` in `zone`, in zone order (library: top first).

        The battlefield is listed by the zone they were written under (their owner's);
        use `permanents_controlled_by` for control.
        """
        return self._by_zone.get((player, zone), ())

    def permanents(self) -> tuple[CardInstance, ...]:
        """Every card on the battlefield."""
        # The state never changes: scan the cards once and keep the answer on the instance.
        found = self.__dict__.get("_permanents")
        if found is None:
            found = self.__dict__["_permanents"] = tuple(
                c for c in self.cards if c.zone == "battlefield"
            )
        return found

    def auras(self) -> tuple[CardInstance, ...]:
        """Every Aura on the battlefield (kept like `permanents`; usually none)."""
        found = self.__dict__.get("_auras")
        if found is None:
            found = self.__dict__["_auras"] = tuple(
                c for c in self.permanents() if "Aura" in c.definition.subtypes
            )
        return found

    def cards_in_zones(self, *zones: str) -> tuple[CardInstance, ...]:
        """Every card in any of `zones`, in the state's card order (kept like `permanents`)."""
        key = "_in_zones_" + "_".join(zones)
        found = self.__dict__.get(key)
        if found is None:
            found = self.__dict__[key] = tuple(c for c in self.cards if c.zone in zones)
        return found

    def permanents_controlled_by(self, player: str) -> tuple[CardInstance, ...]:
        """Permanents `player` controls."""
        return tuple(c for c in self.cards if c.zone == "battlefield" and c.controller == player)

    def life_total(self, player: str) -> int:
        """The player's life total before the step resolves (20 unless the scenario says)."""
        return self.life.get(player, 20)

    def labels(self) -> frozenset[str]:
        """Every card label."""
        return frozenset(self._by_label)

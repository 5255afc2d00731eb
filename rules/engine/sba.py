"""State-based actions (704): given a board, what happens at once, what goes where, who loses.

Pure: a Board in, every check's actions and the board after them out. All actions of one
check happen simultaneously as a single event, and the check repeats until none apply (704.3).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace

from .cards import CardDefinition
from .errors import ScenarioError

# 704.3 repeats the check; a board without loops settles in a few checks. The cap guards the
# loop against a malformed board rather than modelling one.
MAX_CHECKS = 50


@dataclass(frozen=True)
class Player:
    name: str
    life: int = 20
    poison: int = 0
    # Attempted to draw from an empty library since the last check (704.5b).
    drew_from_empty_library: bool = False


@dataclass(frozen=True)
class Permanent:
    """A permanent on the battlefield, or a token that has left it (`zone`)."""

    label: str
    name: str
    owner: str
    controller: str = ""
    types: frozenset[str] = frozenset()
    supertypes: frozenset[str] = frozenset()
    toughness: int | None = None
    loyalty: int | None = None
    damage: int = 0
    # Dealt damage by a source with deathtouch since the last check (704.5h, 702.2b).
    deathtouch_damage: bool = False
    indestructible: bool = False
    token: bool = False
    counters: Mapping[str, int] = field(default_factory=dict)
    # An Aura's enchant restriction ("creature", "land", "permanent") and what it is attached to.
    enchant: str = ""
    attached_to: str = ""
    zone: str = "battlefield"

    @property
    def holder(self) -> str:
        return self.controller or self.owner

    @property
    def current_toughness(self) -> int | None:
        """Printed toughness, plus one for each +1/+1 counter and minus one for each -1/-1."""
        if self.toughness is None:
            return None
        return self.toughness + self.counters.get("+1/+1", 0) - self.counters.get("-1/-1", 0)

    @property
    def current_loyalty(self) -> int | None:
        """A planeswalker's loyalty: its loyalty counters, else its printed loyalty."""
        if "Planeswalker" not in self.types:
            return None
        return self.counters.get("loyalty", self.loyalty or 0)


@dataclass(frozen=True)
class Board:
    players: tuple[Player, ...]
    permanents: tuple[Permanent, ...] = ()

    def permanent(self, label: str) -> Permanent | None:
        return next((p for p in self.permanents if p.label == label), None)


@dataclass(frozen=True)
class Action:
    """One state-based action: what (`kind`), to whom, where it goes and the rule."""

    kind: str  # "loses", "graveyard", "destroyed", "ceases_to_exist", "counters_removed"
    subject: str
    rule: str
    destination: str = ""
    count: int = 0  # 704.5q: how many +1/+1 and how many -1/-1 counters are removed


@dataclass(frozen=True)
class SbaRun:
    """Every check that performed actions (704.3), the board after them and who lost."""

    checks: tuple[tuple[Action, ...], ...]
    board: Board
    start: Board | None = None  # the board before the first check

    @property
    def actions(self) -> tuple[Action, ...]:
        return tuple(action for check in self.checks for action in check)

    @property
    def losers(self) -> tuple[str, ...]:
        return tuple(a.subject for a in self.actions if a.kind == "loses")

    @property
    def draw(self) -> bool:
        """104.4a: every player still in the game lost in one check, so the game is a draw."""
        return any(
            bool(losing) and not perform_players(before, losing)
            for before, losing in self.losses_by_check
        )

    @property
    def losses_by_check(self) -> tuple[tuple[tuple[str, ...], frozenset[str]], ...]:
        """Per check that made a player lose: the players in the game then, and who lost."""
        remaining = tuple(p.name for p in self.start.players) if self.start else ()
        found = []
        for check_actions in self.checks:
            losing = frozenset(a.subject for a in check_actions if a.kind == "loses")
            if losing:
                found.append((remaining, losing))
            remaining = perform_players(remaining, losing)
        return tuple(found)

    def outcome(self, player: str) -> str:
        """ "draw" (104.4a), "loses" (704.5a-c) or "plays_on" for one player."""
        if player in self.losers:
            return "draw" if self.draw else "loses"
        return "plays_on"

    def happened_to(self, label: str) -> Action | None:
        """The first action performed on a permanent, or None."""
        return next((a for a in self.actions if a.subject == label), None)

    def destination(self, label: str) -> str:
        """Where the permanent is once the checks settle: "battlefield", "graveyard:<owner>",
        or "ceases_to_exist" for a token that left the battlefield (704.5d)."""
        if any(a.subject == label and a.kind == "ceases_to_exist" for a in self.actions):
            return "ceases_to_exist"
        moved = [a.destination for a in self.actions if a.subject == label and a.destination]
        return moved[-1] if moved else "battlefield"


def perform_players(players: tuple[str, ...], losing: Collection[str]) -> tuple[str, ...]:
    """The players still in the game after those losing leave it (104.3, 800.4a)."""
    return tuple(p for p in players if p not in losing)


def _legal_attachment(aura: Permanent, board: Board) -> bool:
    host = board.permanent(aura.attached_to) if aura.attached_to else None
    if host is None or host.zone != "battlefield":
        return False
    return aura.enchant in ("", "permanent") or aura.enchant.capitalize() in host.types


def _legend_rule(board: Board, keep: Collection[str]) -> list[Action]:
    """704.5j: the controller of same-named legendary permanents keeps one (the one labelled in
    `keep`; otherwise the first listed) and the rest go to their owners' graveyards."""
    groups: dict[tuple[str, str], list[Permanent]] = {}
    for p in board.permanents:
        if p.zone == "battlefield" and "Legendary" in p.supertypes:
            groups.setdefault((p.holder, p.name), []).append(p)
    actions = []
    for (_, name), same in groups.items():
        if len(same) < 2:
            continue
        chosen = [p.label for p in same if p.label in keep]
        if len(chosen) > 1:
            raise ScenarioError("keep", f"only one {name} is kept, not {chosen}")
        kept = chosen[0] if chosen else same[0].label
        actions += [
            Action("graveyard", p.label, "704.5j", f"graveyard:{p.owner}")
            for p in same
            if p.label != kept
        ]
    return actions


def check(board: Board, keep: Collection[str] = ()) -> tuple[Action, ...]:
    """Every state-based action that applies to this board now (704.5), not yet performed."""
    actions: list[Action] = []
    for player in board.players:
        if player.life <= 0:
            actions.append(Action("loses", player.name, "704.5a"))
        elif player.drew_from_empty_library:
            actions.append(Action("loses", player.name, "704.5b"))
        elif player.poison >= 10:
            actions.append(Action("loses", player.name, "704.5c"))
    for p in board.permanents:
        grave = f"graveyard:{p.owner}"
        if p.zone != "battlefield":
            if p.token:
                actions.append(Action("ceases_to_exist", p.label, "704.5d"))
            continue
        toughness = p.current_toughness if "Creature" in p.types else None
        if toughness is not None and toughness <= 0:
            actions.append(Action("graveyard", p.label, "704.5f", grave))
        elif toughness is not None and 0 < toughness <= p.damage and not p.indestructible:
            actions.append(Action("destroyed", p.label, "704.5g", grave))
        elif (
            toughness is not None and toughness > 0 and p.deathtouch_damage and not p.indestructible
        ):
            actions.append(Action("destroyed", p.label, "704.5h", grave))
        elif p.current_loyalty is not None and p.current_loyalty <= 0:
            actions.append(Action("graveyard", p.label, "704.5i", grave))
        elif "Aura" in p.types and not _legal_attachment(p, board):
            actions.append(Action("graveyard", p.label, "704.5m", grave))
    leaving = {a.subject for a in actions}
    actions += [a for a in _legend_rule(board, keep) if a.subject not in leaving]
    leaving = {a.subject for a in actions}
    # 704.5q: N of each kind come off, N the smaller count. On a permanent that leaves in this
    # same check the removal changes nothing the game can see, so it isn't listed.
    for p in board.permanents:
        both = min(p.counters.get("+1/+1", 0), p.counters.get("-1/-1", 0))
        if p.zone == "battlefield" and both > 0 and p.label not in leaving:
            actions.append(Action("counters_removed", p.label, "704.5q", count=both))
    return tuple(actions)


def perform(board: Board, actions: tuple[Action, ...]) -> Board:
    """All actions of one check at once (704.3): permanents leave together, players lose."""
    moved = {a.subject: a for a in actions if a.destination}
    gone = {a.subject for a in actions if a.kind == "ceases_to_exist"}
    removed = {a.subject: a.count for a in actions if a.kind == "counters_removed"}
    permanents = tuple(
        replace(p, zone="graveyard", damage=0, deathtouch_damage=False, counters={})
        if p.label in moved
        else _without_pairs(p, removed[p.label])
        if p.label in removed
        else p
        for p in board.permanents
        if p.label not in gone
    )
    losers = {a.subject for a in actions if a.kind == "loses"}
    # A player who loses leaves the game (800.4a): later checks no longer look at them.
    players = tuple(p for p in board.players if p.name not in losers)
    return Board(players, permanents)


def _without_pairs(permanent: Permanent, count: int) -> Permanent:
    counters = dict(permanent.counters)
    for kind in ("+1/+1", "-1/-1"):
        counters[kind] -= count
        if not counters[kind]:
            del counters[kind]
    return replace(permanent, counters=counters)


def run(board: Board, keep: Collection[str] = ()) -> SbaRun:
    """Check, perform all at once, and check again until a check finds nothing (704.3)."""
    checks: list[tuple[Action, ...]] = []
    start = board
    for _ in range(MAX_CHECKS):
        actions = check(board, keep)
        if not actions:
            return SbaRun(tuple(checks), board, start)
        checks.append(actions)
        board = perform(board, actions)
    raise ScenarioError("board", "state-based actions did not settle")


_ENCHANT = re.compile(r"^Enchant (\w+)", re.MULTILINE)


def _number(printed: str) -> int | None:
    return int(printed) if printed.lstrip("-").isdigit() else None


def from_definition(
    label: str, definition: CardDefinition, owner: str, **state: object
) -> Permanent:
    """A catalog card as a permanent: its types, supertypes, printed toughness and loyalty
    ("*" reads as unknown and is never checked), plus the given state (damage, counters...)."""
    printed = _ENCHANT.search(definition.oracle) if "Aura" in definition.subtypes else None
    enchant = printed.group(1) if printed else ""
    fields: dict[str, object] = {
        "types": frozenset(definition.types) | frozenset(definition.subtypes),
        "supertypes": frozenset(definition.supertypes),
        "toughness": _number(definition.toughness),
        "loyalty": _number(definition.loyalty),
        "enchant": enchant.lower(),
        **state,
    }
    return Permanent(label, definition.name, owner, **fields)  # type: ignore[arg-type]

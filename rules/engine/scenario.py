"""Parse and validate a scenario/1 JSON document into a frozen `Scenario`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .cards import CardDefinition, Catalog, default_catalog
from .errors import ScenarioError
from .state import PLAYER_ZONES, CardInstance, GameState

STEP_KINDS = ("cast", "activate", "trigger", "draw")
# A zone name as a choice key fixes which found cards go there when an effect splits them
# (Cultivate: {"find": ["f1", "i1"], "battlefield": ["f1"]}).
SPLIT_CHOICE_KEYS = frozenset({"battlefield", "hand", "graveyard", "exile", "library"})
CHOICE_KEYS = (
    frozenset(
        {
            "find",
            "search",
            "choose",
            "name",
            "ignore_prohibition",
            "mana",
            "opponent_chooses",
            "alt_cost",
            "dredge",
        }
    )
    | SPLIT_CHOICE_KEYS
    | {"x"}
)
FACT_KINDS = frozenset({"searched_library", "ignored_search_prohibition"})

Choices = Mapping[str, Mapping[str, Any]]
# CR 305.6: these land types carry an intrinsic "{T}: Add [mana]" ability.
BASIC_TYPES = frozenset({"Plains", "Island", "Swamp", "Mountain", "Forest"})


@dataclass(frozen=True)
class Step:
    """Something that resolves: a spell cast, an ability activated or triggered, or a draw."""

    kind: str
    source: str  # a label; for "cast" possibly a card name; for "draw" the drawing player
    by: str | None = None
    targets: tuple[str, ...] = ()
    choices: Choices = field(default_factory=dict)
    event: str = ""
    ability: int | None = None
    x: int | None = None  # the value of X chosen as the spell was cast (`resolve.x`)


@dataclass(frozen=True)
class Fact:
    """A plain fact about this turn, e.g. searched_library by a player."""

    kind: str
    player: str


@dataclass(frozen=True)
class Scenario:
    """A validated scenario: the game state, this turn's history, what resolves and the claims."""

    id: str
    title: str
    source: str
    state: GameState
    history: tuple[Step | Fact, ...]
    resolve: Step | None
    expect: tuple[Mapping[str, Any], ...]
    catalog: Catalog
    spec: Mapping[str, Any]


_NO_EXTRA: dict[str, Any] = {}


def _split_entry(entry: Any, path: str) -> tuple[str, str | None, dict[str, Any]]:
    if isinstance(entry, str):
        name, _, label = entry.partition("#")
        return name.strip(), (label.strip() or None) if label else None, {}
    if isinstance(entry, dict):
        name = entry.get("card")
        if not isinstance(name, str):
            raise ScenarioError(path, 'a card object needs "card": NAME')
        unknown = set(entry) - {
            "card",
            "label",
            "controller",
            "tapped",
            "entered_this_turn",
            "summoning_sick",
            "attached_to",
        }
        if unknown:
            raise ScenarioError(
                path,
                f"unknown key(s) {sorted(unknown)}; use card, label, controller, tapped, "
                "entered_this_turn (or summoning_sick), attached_to",
            )
        if "summoning_sick" in entry:
            # The usual name for the 302.6 condition: the same fact as entered_this_turn.
            if "entered_this_turn" in entry and bool(entry["entered_this_turn"]) != bool(
                entry["summoning_sick"]
            ):
                raise ScenarioError(
                    f"{path}.summoning_sick", "contradicts entered_this_turn (302.6)"
                )
            entry = {**entry, "entered_this_turn": entry["summoning_sick"]}
        label = entry.get("label")
        if label is not None and not isinstance(label, str):
            raise ScenarioError(f"{path}.label", "must be a string")
        return name, label, entry
    raise ScenarioError(path, 'a card entry must be "Name", "Name#label" or an object')


def _label_error(path: str, label: str, seen: Mapping[str, CardInstance]) -> ScenarioError:
    return ScenarioError(
        path,
        f"label {label!r} is used twice"
        if label in seen
        else f"label {label!r} is also a player's name",
    )


def _parse_zones(zones: Any, players: tuple[str, ...], active: str, catalog: Catalog) -> GameState:
    """Read every zone into card instances and index them as they are read (one pass)."""
    if not isinstance(zones, dict):
        raise ScenarioError("zones", "must be an object of players to zones")
    cards: list[CardInstance] = []
    by_label: dict[str, CardInstance] = {}
    by_zone: dict[tuple[str, str], tuple[CardInstance, ...]] = {}
    # Entry text -> (name, definition) for plain "Name" entries already read in this call: a
    # 60-card library repeats a handful of names, so each is stripped and looked up once.
    plain: dict[str, tuple[str, CardDefinition]] = {}
    attached = False
    new = object.__new__
    player_set = frozenset(players)
    for player, player_zones in zones.items():
        if player not in players:
            raise ScenarioError(
                f"zones.{player}", f"{player!r} is not one of the players {list(players)}"
            )
        if not isinstance(player_zones, dict):
            raise ScenarioError(f"zones.{player}", "must be an object of zone names to card lists")
        for zone, entries in player_zones.items():
            where = f"zones.{player}.{zone}"
            if zone not in PLAYER_ZONES:
                raise ScenarioError(
                    where, f"unknown zone {zone!r}; use one of {list(PLAYER_ZONES)}"
                )
            if not isinstance(entries, list):
                raise ScenarioError(where, "must be a list of cards")
            # The fields every plain entry of this zone shares; label, name, position and
            # definition are filled in per card.
            template = {
                "label": "",
                "name": "",
                "owner": player,
                "controller": player,
                "zone": zone,
                "position": 0,
                "definition": None,
                "tapped": False,
                "entered_this_turn": False,
                "generated_label": True,
                "attached_to": None,
            }
            prefix = f"{player}.{zone}."
            zone_cards: list[CardInstance] = []
            for position, entry in enumerate(entries, start=1):
                hit = plain.get(entry) if type(entry) is str else None
                if hit is not None:
                    label = f"{prefix}{position}"
                    card = new(CardInstance)
                    if by_label.setdefault(label, card) is not card:  # taken: used twice
                        raise _label_error(f"{where}[{position - 1}]", label, by_label)
                    if label in player_set:
                        raise _label_error(f"{where}[{position - 1}]", label, {})
                    fields = card.__dict__
                    fields.update(template)
                    fields["label"] = label
                    fields["name"] = hit[0]
                    fields["position"] = position
                    fields["definition"] = hit[1]
                    zone_cards.append(card)
                    continue
                card = _parse_entry(entry, player, zone, position, players, catalog, by_label)
                if card.attached_to is not None:
                    attached = True
                if type(entry) is str and "#" not in entry:
                    plain[entry] = (card.name, card.definition)
                by_label[card.label] = card
                zone_cards.append(card)
            if zone_cards:
                cards += zone_cards
                by_zone[(player, zone)] = tuple(zone_cards)
    if attached:
        for card in cards:
            if card.attached_to is not None and card.attached_to not in by_label:
                raise ScenarioError(
                    f"zones.{card.owner}.{card.zone}[{card.position - 1}].attached_to",
                    f"no card is labelled {card.attached_to!r}",
                )
    return GameState.indexed(players, active, tuple(cards), by_label, by_zone)


def _parse_entry(
    entry: Any,
    player: str,
    zone: str,
    position: int,
    players: tuple[str, ...],
    catalog: Catalog,
    seen: Mapping[str, CardInstance],
) -> CardInstance:
    """One zone entry ("Name", "Name#label" or an object), validated."""
    path = f"zones.{player}.{zone}[{position - 1}]"
    if isinstance(entry, str) and "#" not in entry:
        name, label, extra = entry.strip(), None, _NO_EXTRA
    else:
        name, label, extra = _split_entry(entry, path)
    definition = catalog.get(name)
    if definition is None:
        raise ScenarioError(path, f'unknown card {name!r}: define it in "cards" or the catalog')
    generated = label is None
    label = label or f"{player}.{zone}.{position}"
    if label in seen or label in players:
        raise _label_error(path, label, seen)
    controller = extra.get("controller", player) if extra else player
    if controller not in players:
        raise ScenarioError(f"{path}.controller", f"{controller!r} is not a player")
    return CardInstance.fast(
        label,
        name,
        player,
        controller,
        zone,
        position,
        definition,
        bool(extra.get("tapped", False)) if extra else False,
        bool(extra.get("entered_this_turn", False)) if extra else False,
        generated,
        extra.get("attached_to") if extra else None,
    )


def parse_choices(raw: Any, path: str, state: GameState) -> Choices:
    """Validate fixed choices: {player: {find: [labels], search: bool, choose: label, ...}}."""
    if raw is None:
        return MappingProxyType({})
    if not isinstance(raw, dict):
        raise ScenarioError(path, "choices must be an object of players to their decisions")
    parsed: dict[str, Mapping[str, Any]] = {}
    for player, decisions in raw.items():
        where = f"{path}.{player}"
        if player not in state.players:
            raise ScenarioError(where, f"{player!r} is not a player")
        if not isinstance(decisions, dict):
            raise ScenarioError(where, 'must be an object such as {"find": [...]}')
        unknown = set(decisions) - CHOICE_KEYS
        if unknown:
            raise ScenarioError(
                where, f"unknown choice(s) {sorted(unknown)}; use {sorted(CHOICE_KEYS)}"
            )
        if "find" in decisions:
            found = decisions["find"]
            if not isinstance(found, list) or not all(isinstance(x, str) for x in found):
                raise ScenarioError(f"{where}.find", "must be a list of card labels")
            for label in found:
                if state.card(label) is None:
                    raise ScenarioError(f"{where}.find", f"unknown card label {label!r}")
            if len(set(found)) != len(found):
                raise ScenarioError(f"{where}.find", "a card can be found only once")
        for key in ("choose",):
            if key in decisions and state.card(decisions[key]) is None:
                raise ScenarioError(f"{where}.{key}", f"unknown card label {decisions[key]!r}")
        if "name" in decisions:
            # A card name, not a label ("Name a nonland card": Cranial Extraction). It is checked
            # against the catalog and the instruction's filter when the naming happens.
            if not isinstance(decisions["name"], str) or not decisions["name"].strip():
                raise ScenarioError(f"{where}.name", "must be a card name")
            if "choose" in decisions:
                raise ScenarioError(f"{where}.name", "give either choose (a label) or name")
        if "opponent_chooses" in decisions:
            chosen = decisions["opponent_chooses"]
            if not isinstance(chosen, list) or any(state.card(x) is None for x in chosen):
                raise ScenarioError(f"{where}.opponent_chooses", "must be a list of card labels")
        for key in sorted(SPLIT_CHOICE_KEYS & set(decisions)):
            chosen = decisions[key]
            if not isinstance(chosen, list) or any(
                not isinstance(x, str) or state.card(x) is None for x in chosen
            ):
                raise ScenarioError(f"{where}.{key}", "must be a list of card labels")
        if "x" in decisions and (
            isinstance(decisions["x"], bool)
            or not isinstance(decisions["x"], int)
            or decisions["x"] < 0
        ):
            raise ScenarioError(f"{where}.x", "X must be a non-negative whole number")
        if "dredge" in decisions:
            # The drawer's dredge decision (702.52a): a dredge card's label, or false to draw.
            dredge = decisions["dredge"]
            if dredge is not False and (not isinstance(dredge, str) or state.card(dredge) is None):
                raise ScenarioError(
                    f"{where}.dredge", "must be the label of a dredge card, or false to draw"
                )
        for key in ("search", "ignore_prohibition", "alt_cost"):
            if key in decisions and not isinstance(decisions[key], bool):
                raise ScenarioError(f"{where}.{key}", "must be true or false")
        parsed[player] = MappingProxyType(dict(decisions))
    return MappingProxyType(parsed)


def parse_step(raw: Any, path: str, state: GameState, catalog: Catalog) -> Step | Fact:
    """Parse a resolve/history entry: a step (cast, activate, trigger, draw) or a fact."""
    if not isinstance(raw, dict):
        raise ScenarioError(path, "must be an object")
    if "fact" in raw:
        if raw["fact"] not in FACT_KINDS:
            raise ScenarioError(
                f"{path}.fact", f"unknown fact {raw['fact']!r}; use {sorted(FACT_KINDS)}"
            )
        if raw.get("player") not in state.players:
            raise ScenarioError(f"{path}.player", f"{raw.get('player')!r} is not a player")
        return Fact(raw["fact"], raw["player"])
    kinds = [k for k in STEP_KINDS if k in raw]
    if len(kinds) != 1:
        raise ScenarioError(path, f"needs exactly one of {list(STEP_KINDS)} (or a fact)")
    kind = kinds[0]
    source = raw[kind]
    if not isinstance(source, str):
        raise ScenarioError(f"{path}.{kind}", "must be a string")
    by = raw.get("by")
    if by is not None and by not in state.players:
        raise ScenarioError(f"{path}.by", f"{by!r} is not a player")
    if kind == "draw":
        if source not in state.players:
            raise ScenarioError(f"{path}.draw", f"{source!r} is not a player")
        by = source
    elif kind == "cast":
        card = state.card(source)
        if card is None and source not in catalog:
            raise ScenarioError(
                f"{path}.cast", f"{source!r} is neither a card label nor a known card name"
            )
        if by is None:
            by = card.controller if card is not None else state.active
        if card is None:
            # Cast by name while the caster holds a copy: that card is the one cast (it ends in
            # the graveyard, not the hand). With no copy in hand, a copy is simply cast.
            held = next((c for c in state.cards_in(by, "hand") if c.name == source), None)
            if held is not None:
                source = held.label
    else:
        card = state.card(source)
        if card is None:
            raise ScenarioError(f"{path}.{kind}", f"unknown card label {source!r}")
        if by is None:
            by = card.controller
        abilities = card.definition.activated if kind == "activate" else card.definition.triggered
        intrinsic = kind == "activate" and bool(set(card.definition.subtypes) & BASIC_TYPES)
        if not abilities and not intrinsic:
            raise ScenarioError(
                f"{path}.{kind}",
                f"{card.name} has no {'activated' if kind == 'activate' else 'triggered'} ability",
            )
    targets = raw.get("targets", [])
    if not isinstance(targets, list) or not all(isinstance(t, str) for t in targets):
        raise ScenarioError(f"{path}.targets", "must be a list of labels or player names")
    for i, target in enumerate(targets):
        if target not in state.players and state.card(target) is None:
            raise ScenarioError(
                f"{path}.targets[{i}]", f"{target!r} is neither a player nor a card label"
            )
    ability = raw.get("ability")
    if ability is not None and (isinstance(ability, bool) or not isinstance(ability, int)):
        raise ScenarioError(f"{path}.ability", "must be an ability index (0 is the first)")
    event = raw.get("event", "")
    x = raw.get("x")
    if x is not None and (isinstance(x, bool) or not isinstance(x, int) or x < 0):
        raise ScenarioError(f"{path}.x", "X must be a non-negative whole number")
    return Step(
        kind=kind,
        source=source,
        by=by,
        targets=tuple(targets),
        choices=parse_choices(raw.get("choices"), f"{path}.choices", state),
        event=event if isinstance(event, str) else "",
        ability=ability,
        x=x,
    )


def parse_scenario(spec: Mapping[str, Any], catalog: Catalog | None = None) -> Scenario:
    """Validate a whole scenario/1 document (section 1); raises ScenarioError naming the field."""
    if isinstance(spec, Scenario):
        return spec
    if not isinstance(spec, Mapping):
        raise ScenarioError("", "a scenario must be a JSON object")
    fmt = spec.get("format", "scenario/1")
    if fmt != "scenario/1":
        raise ScenarioError("format", f'unsupported format {fmt!r}; expected "scenario/1"')
    # Extra top-level keys (stored rulings, notes, languages) are the content's business.
    players = spec.get("players")
    if (
        not isinstance(players, list)
        or len(players) < 1
        or not all(isinstance(p, str) and p for p in players)
        or len(set(players)) != len(players)
    ):
        raise ScenarioError("players", "must be a list of distinct player names in turn order")
    players_t = tuple(players)
    active = spec.get("active", players_t[0])
    if active not in players_t:
        raise ScenarioError("active", f"{active!r} is not one of the players")
    base = catalog or default_catalog()
    local = spec.get("cards") or []
    full_catalog = base.extend(Catalog.from_json(local, "cards").definitions()) if local else base
    state = _parse_zones(spec.get("zones", {}), players_t, active, full_catalog)
    history_raw = spec.get("history") or []
    if not isinstance(history_raw, list):
        raise ScenarioError("history", "must be a list of steps or facts")
    history = tuple(
        parse_step(item, f"history[{i}]", state, full_catalog) for i, item in enumerate(history_raw)
    )
    resolve_raw = spec.get("resolve")
    resolve_step = None
    if resolve_raw is not None:
        resolve_step = parse_step(resolve_raw, "resolve", state, full_catalog)
        if isinstance(resolve_step, Fact):
            raise ScenarioError(
                "resolve", "must be a step (cast, activate, trigger or draw), not a fact"
            )
    expect = spec.get("expect") or []
    if not isinstance(expect, list) or not all(isinstance(e, dict) for e in expect):
        raise ScenarioError("expect", "must be a list of claim objects")
    return Scenario(
        id=str(spec.get("id", "")),
        title=str(spec.get("title", "")),
        source=str(spec.get("source", "")),
        state=state,
        history=history,
        resolve=resolve_step,
        expect=tuple(expect),
        catalog=full_catalog,
        spec=spec,
    )


def definition_of(scenario: Scenario, step: Step) -> tuple[CardInstance | None, CardDefinition]:
    """The card instance (None for a copy cast by name) and definition a step is about."""
    card = scenario.state.card(step.source)
    if card is not None:
        return card, card.definition
    definition = scenario.catalog.get(step.source)
    assert definition is not None  # parse_step checked it
    return None, definition

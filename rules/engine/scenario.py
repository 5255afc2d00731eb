"""Parse and validate a scenario/1 JSON document into a frozen `Scenario`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .cards import CardDefinition, Catalog, default_catalog
from .errors import ScenarioError
from .reasons import because
from .state import NO_COUNTERS, PLAYER_ZONES, CardInstance, GameState

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
            "cost",
            "zones",
            "kicked",
            "take",
        }
    )
    | SPLIT_CHOICE_KEYS
    | {"x"}
)
FACT_KINDS = frozenset({"searched_library", "ignored_search_prohibition", "left_the_game"})
# The keys a step, a fact and a zone's card object may have (anything else is refused).
STEP_KEYS = frozenset({*STEP_KINDS, "by", "targets", "choices", "event", "ability", "x", "kicked"})
FACT_KEYS = frozenset({"fact", "player", "source", "card", "permanent", "paid_by"})
CARD_ENTRY_KEYS = frozenset(
    {
        "card",
        "label",
        "controller",
        "tapped",
        "entered_this_turn",
        "summoning_sick",
        "attached_to",
        "counters",
        "combat",
        # A blocking creature's attacker, by label (combat_claims.py).
        "blocks",
        "effects",
        # Damage marked (704.5g) and damage from a source with deathtouch (704.5h) since
        # state-based actions were last checked: read by sba_claims.py.
        "damage",
        "deathtouch_damage",
    }
)
COMBAT_STATES = ("attacking", "blocking")
# A creature becomes attacking (508.1k) or blocking (509.1g) as it is declared.
COMBAT_RULES = {"attacking": "508.1k", "blocking": "509.1g"}

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
    kicked: bool | None = None  # whether the kicker cost was paid (`resolve.kicked`)


@dataclass(frozen=True)
class Fact:
    """A plain fact about this turn, e.g. searched_library by a player."""

    kind: str
    player: str
    # ignored_search_prohibition: the permanent paid for (the fact's "source" key). Not named
    # `source`: a Fact is told apart from a Step by having no `source`.
    paid_for: str | None = None


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
    # The limited range of influence option (801): how many seats away a player can affect;
    # None when the option isn't used.
    range_of_influence: int | None = None


_NO_EXTRA: dict[str, Any] = {}


def _split_entry(entry: Any, path: str) -> tuple[str, str | None, dict[str, Any]]:
    if isinstance(entry, str):
        name, _, label = entry.partition("#")
        return name.strip(), (label.strip() or None) if label else None, {}
    if isinstance(entry, dict):
        name = entry.get("card")
        if not isinstance(name, str):
            raise ScenarioError(path, 'a card object needs "card": NAME')
        unknown = set(entry) - CARD_ENTRY_KEYS
        if unknown:
            raise ScenarioError(path, _unknown_keys(unknown, CARD_ENTRY_KEYS))
        if entry.get("entered_this_turn") and entry.get("summoning_sick") is False:
            # Entering this turn means it hasn't been controlled since its controller's most
            # recent turn began; the reverse needn't hold (it arrived in an opponent's turn).
            raise ScenarioError(
                f"{path}.summoning_sick",
                "contradicts entered_this_turn: a creature that entered this turn hasn't been "
                "under its controller's control since their most recent turn began (302.6)",
            )
        if entry.get("combat", "") not in ("", *COMBAT_STATES):
            raise ScenarioError(f"{path}.combat", f"must be one of {list(COMBAT_STATES)}")
        counters = entry.get("counters")
        if counters is not None and (
            not isinstance(counters, dict)
            or not all(
                isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) and v >= 0
                for k, v in counters.items()
            )
        ):
            raise ScenarioError(
                f"{path}.counters", 'must map counter kinds to numbers, e.g. {"+1/+1": 2}'
            )
        damage = entry.get("damage", 0)
        if isinstance(damage, bool) or not isinstance(damage, int) or damage < 0:
            raise ScenarioError(f"{path}.damage", "must be the damage marked, a whole number")
        if not isinstance(entry.get("deathtouch_damage", False), bool):
            raise ScenarioError(f"{path}.deathtouch_damage", "must be true or false")
        label = entry.get("label")
        if label is not None and not isinstance(label, str):
            raise ScenarioError(f"{path}.label", "must be a string")
        return name, label, entry
    raise ScenarioError(path, 'a card entry must be "Name", "Name#label" or an object')


def _unknown_keys(unknown: set[str], accepted: frozenset[str]) -> str:
    return f"unknown key(s) {sorted(unknown)}; the keys accepted here are {sorted(accepted)}"


def _entry_path(card: CardInstance) -> str:
    return f"zones.{card.owner}.{card.zone}[{card.position - 1}]"


def _label_error(path: str, label: str, seen: Mapping[str, CardInstance]) -> ScenarioError:
    if label in seen:
        first = _entry_path(seen[label])
        return ScenarioError(path, f"label {label!r} is used twice: at {first} and at {path}")
    return ScenarioError(path, f"label {label!r} is also a player's name")


def _parse_zones(
    zones: Any,
    players: tuple[str, ...],
    active: str,
    catalog: Catalog,
    life: Mapping[str, int] | None = None,
) -> GameState:
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
                "summoning_sick": False,
                "counters": NO_COUNTERS,
                "combat": "",
                "effects": (),
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
                if card.attached_to is not None or card.effects:
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
            if card.effects:
                _check_effects(card, by_label)
    listed = frozenset((p, z) for p, player_zones in zones.items() for z in player_zones)
    return GameState.indexed(players, active, tuple(cards), by_label, by_zone, life, listed)


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
        raise ScenarioError(path, because("unknown_card", name=name))
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
        bool(extra.get("summoning_sick", False)) if extra else False,
        dict(extra["counters"]) if extra and extra.get("counters") else None,
        _combat(extra, zone, definition, path),
        _effects(extra, zone, definition, path),
    )


def _effects(extra: Mapping[str, Any] | None, zone: str, definition: Any, path: str) -> tuple:
    """ "effects": the labels of spells that resolved targeting this creature this turn."""
    effects = extra.get("effects") if extra else None
    if not effects:
        return ()
    if not isinstance(effects, list) or not all(isinstance(e, str) for e in effects):
        raise ScenarioError(f"{path}.effects", "must be a list of card labels")
    if zone != "battlefield" or "Creature" not in definition.types:
        raise ScenarioError(f"{path}.effects", "only a creature on the battlefield has them")
    if len(set(effects)) != len(effects):
        raise ScenarioError(f"{path}.effects", "a spell resolves once: each label once")
    return tuple(effects)


def _check_effects(card: CardInstance, by_label: Mapping[str, CardInstance]) -> None:
    for i, label in enumerate(card.effects):
        path = f"{_entry_path(card)}.effects[{i}]"
        spell = by_label.get(label)
        if spell is None:
            raise ScenarioError(path, f"no card is labelled {label!r}")
        effect = spell.definition.pt_effect
        if (
            not {"Instant", "Sorcery"} & set(spell.definition.types)
            or effect is None
            or effect.get("affects") != "target"
            or spell.zone != "graveyard"
        ):
            raise ScenarioError(
                path,
                f"{spell.name} is not an instant or sorcery in a graveyard that changes its "
                "target's power and toughness",
            )


def _combat(extra: Mapping[str, Any] | None, zone: str, definition: Any, path: str) -> str:
    """ "combat": "attacking" / "blocking": only a creature on the battlefield is in combat."""
    state = extra.get("combat", "") if extra else ""
    if state and (zone != "battlefield" or "Creature" not in definition.types):
        rule = COMBAT_RULES.get(state, "508.1k, 509.1g")
        raise ScenarioError(
            f"{path}.combat", f"only a creature on the battlefield can be {state} ({rule})"
        )
    return state


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
            # The drawer's dredge decisions (702.52a): per draw, a dredge card's label or false
            # to draw; a single value fixes the first draw (any later ones are plain draws).
            dredge = decisions["dredge"]
            per_draw = dredge if isinstance(dredge, list) else [dredge]
            if not per_draw or not all(
                d is False or (isinstance(d, str) and state.card(d) is not None) for d in per_draw
            ):
                raise ScenarioError(
                    f"{where}.dredge",
                    "must be the label of a dredge card, or false to draw (or a list of "
                    "those, one per draw)",
                )
        for key in ("cost", "take"):
            if key in decisions:
                chosen = decisions[key]
                if not isinstance(chosen, list) or any(
                    not isinstance(x, str) or state.card(x) is None for x in chosen
                ):
                    raise ScenarioError(f"{where}.{key}", "must be a list of card labels")
        if "zones" in decisions:
            zones = decisions["zones"]
            if (
                not isinstance(zones, list)
                or not zones
                or any(z not in PLAYER_ZONES for z in zones)
                or len(set(zones)) != len(zones)
            ):
                raise ScenarioError(
                    f"{where}.zones", 'must list the zones searched, e.g. ["graveyard"]'
                )
        if "ignore_prohibition" in decisions:
            # true: paid for every escapable prohibition; a list names the ones paid for.
            paid = decisions["ignore_prohibition"]
            if not isinstance(paid, bool) and (
                not isinstance(paid, list)
                or any(not isinstance(x, str) or state.card(x) is None for x in paid)
            ):
                raise ScenarioError(
                    f"{where}.ignore_prohibition",
                    "must be true or false, or the labels of the permanents paid for",
                )
        for key in ("search", "alt_cost", "kicked"):
            if key in decisions and not isinstance(decisions[key], bool):
                raise ScenarioError(f"{where}.{key}", "must be true or false")
        parsed[player] = MappingProxyType(dict(decisions))
    return MappingProxyType(parsed)


def parse_step(raw: Any, path: str, state: GameState, catalog: Catalog) -> Step | Fact:
    """Parse a resolve/history entry: a step (cast, activate, trigger, draw) or a fact."""
    if not isinstance(raw, dict):
        raise ScenarioError(path, "must be an object")
    if "fact" in raw:
        return _parse_fact(raw, path, state)
    unknown = set(raw) - STEP_KEYS
    if unknown:
        raise ScenarioError(path, _unknown_keys(unknown, STEP_KEYS))
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
    kicked = raw.get("kicked")
    if kicked is not None and not isinstance(kicked, bool):
        raise ScenarioError(f"{path}.kicked", "must be true or false")
    return Step(
        kind=kind,
        source=source,
        by=by,
        targets=tuple(targets),
        choices=parse_choices(raw.get("choices"), f"{path}.choices", state),
        event=event if isinstance(event, str) else "",
        ability=ability,
        x=x,
        kicked=kicked,
    )


def _parse_fact(raw: Mapping[str, Any], path: str, state: GameState) -> Fact:
    unknown = set(raw) - FACT_KEYS
    if unknown:
        raise ScenarioError(path, _unknown_keys(unknown, FACT_KEYS))
    if raw["fact"] not in FACT_KINDS:
        raise ScenarioError(
            f"{path}.fact", f"unknown fact {raw['fact']!r}; use {sorted(FACT_KINDS)}"
        )
    player = raw.get("player")
    if player not in state.players:
        raise ScenarioError(f"{path}.player", f"{player!r} is not a player")
    # The permanent paid for: "source", or "card"/"permanent" as an author may write it.
    source = raw.get("source", raw.get("card", raw.get("permanent")))
    if raw["fact"] != "ignored_search_prohibition":
        extra = {"source", "card", "permanent", "paid_by"} & set(raw)
        if extra:
            raise ScenarioError(
                f"{path}.{sorted(extra)[0]}", "only an ignored_search_prohibition fact has it"
            )
        return Fact(raw["fact"], player)
    paid_by = raw.get("paid_by", player)
    if paid_by != player:
        # Leonin Arbiter: "Any player may pay {2} for that player to ignore this effect": the
        # payment lets only the paying player ignore it.
        raise ScenarioError(
            f"{path}.paid_by",
            f"{paid_by!r} can't pay for {player}: each player pays for themself to ignore the "
            "effect (Leonin Arbiter's ruling)",
        )
    if source is None:
        escapable = _escapable_prohibitions(state)
        if len(escapable) > 1:
            raise ScenarioError(
                f"{path}.source",
                "the payment is made for one permanent's effect at a time: name which one "
                f"(one of {escapable})",
            )
        source = escapable[0] if escapable else None
    elif state.card(source) is None or source not in _escapable_prohibitions(state):
        raise ScenarioError(
            f"{path}.source",
            f"{source!r} is not a permanent whose prohibition can be ignored by paying "
            f"(use one of {_escapable_prohibitions(state)})",
        )
    return Fact(raw["fact"], player, source)


def _escapable_prohibitions(state: GameState) -> list[str]:
    """Labels of permanents whose search prohibition a payment lets a player ignore."""
    return [
        card.label
        for card in state.permanents()
        for static in card.definition.static
        if static.kind == "search_prohibition" and static.spec.get("escape")
    ]


def _check_player_state(spec: Mapping[str, Any], players: tuple[str, ...]) -> None:
    """What state-based actions read of the players (704.5b, 704.5c): their poison counters
    and who attempted to draw from an empty library since the last check."""
    poison = spec.get("poison")
    if poison is not None and (
        not isinstance(poison, dict)
        or any(p not in players for p in poison)
        or not all(
            isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in poison.values()
        )
    ):
        raise ScenarioError("poison", 'must map players to poison counters, e.g. {"Nadia": 3}')
    drew = spec.get("drew_from_empty_library")
    if drew is not None and (not isinstance(drew, list) or any(p not in players for p in drew)):
        raise ScenarioError(
            "drew_from_empty_library", "must list the players who drew from an empty library"
        )
    if not isinstance(spec.get("state_based_actions", False), bool):
        raise ScenarioError("state_based_actions", "must be true or false")


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
    life = spec.get("life")
    if life is not None and (
        not isinstance(life, dict)
        or any(p not in players_t for p in life)
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in life.values())
    ):
        raise ScenarioError("life", 'must map players to life totals, e.g. {"Alice": 20}')
    _check_player_state(spec, players_t)
    state = _parse_zones(spec.get("zones", {}), players_t, active, full_catalog, life)
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
    reach = spec.get("range_of_influence")
    if reach is not None and (isinstance(reach, bool) or not isinstance(reach, int) or reach < 1):
        raise ScenarioError(
            "range_of_influence", "must be a whole number of seats, 1 or more (801.2)"
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
        expect=tuple(dict(claim) for claim in expect),  # its own: read once (api.py)
        catalog=full_catalog,
        spec=spec,
        range_of_influence=reach,
    )


def definition_of(scenario: Scenario, step: Step) -> tuple[CardInstance | None, CardDefinition]:
    """The card instance (None for a copy cast by name) and definition a step is about."""
    card = scenario.state.card(step.source)
    if card is not None:
        return card, card.definition
    definition = scenario.catalog.get(step.source)
    assert definition is not None  # parse_step checked it
    return None, definition

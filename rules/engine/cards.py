"""Cards as data: instructions, card definitions and the catalog loaded from JSON (filters are
read by filters.py, costs by costs.py)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from .costs import CostPart, parse_cost
from .errors import ScenarioError
from .filters import (
    CARD_TYPES,
    SUPERTYPES,
    Filter,
    colors_of_cost,
    mana_value_of,
    parse_colors,
    parse_filter,
    strings,
)

CATALOG_DIR = Path(__file__).resolve().parent.parent / "catalog"

DEFINITION_KEYS = frozenset(
    {
        "name",
        "mana_cost",
        "types",
        "supertypes",
        "subtypes",
        "oracle",
        "spell",
        "activated",
        "triggered",
        "static",
        "keywords",
        "alt_cost",
        "targets",
        "notes",
        "power",
        "toughness",
        "loyalty",
        "colors",
        "color_indicator",
        "additional_cost",
        "x_is",
        "halves",
        "pt_effect",
    }
)
SEARCH_WHO = frozenset(
    {
        "you",
        "target_player",
        "target_opponent",
        "each_player",
        "each_opponent",
        "controller_of_target",
        "owner_of_target",
    }
)
PLAYER_REFS = SEARCH_WHO | {"searcher", "chooser"}
FOR_KEYS = frozenset({"count", "up_to", "filter"})
SEARCH_ZONES = ("library", "hand", "graveyard", "exile", "outside")
DESTINATIONS = frozenset(
    {
        "hand",
        "battlefield",
        "graveyard",
        "exile",
        "library_top",
        "library",
        "library_bottom",
        "set_aside",
        "exile_face_down",
    }
)
# Where the cards a search or a look leaves may go ("exile the rest", "the rest on the bottom
# in a random order", "the rest into your graveyard").
REST_DESTINATIONS = frozenset(
    {"hand", "graveyard", "exile", "library_top", "library", "library_bottom", "exile_face_down"}
)
INSTRUCTION_VERBS = (
    "search",
    "shuffle",
    "exile",
    "destroy",
    "reveal_hand",
    "choose",
    "opponent_chooses",
    "mill",
    "exile_graveyards",
    "draw",
    "add_mana",
    "create_effect",
    "look",
    "sacrifice",
    "lose_life",
    "gain_life",
    "damage",
    "counter",
    "return",
    "put",
    "discard",
    "reveal",
    "scry",
    "surveil",
    "tap",
    "untap",
    "create_token",
    "put_counters",
)
TRIGGER_EVENTS = frozenset(
    {
        "dies",
        "enters",
        "opponent_searches_library",
        "player_searches_library",
        "you_search_library",
        "creature_dies",
        "upkeep",
        "draw_step",
        "cast",
        "tapped_for_mana",
        "enchanted_tapped_for_mana",
        "land_tapped_for_mana",
    }
)
# Intervening "if" clauses of triggered abilities (603.4), checked on the board.
TRIGGER_CONDITIONS = frozenset({"opponent_controls_more_lands"})
STATIC_KINDS = frozenset(
    {
        "search_replacement",
        "search_prohibition",
        "search_control",
        "mana_replacement",
        "cost_modifier",
        "enters_with_counters",
        "enters_mill",
        "graveyard_replacement",
        "other",
    }
)
PROHIBITION_PLAYERS = frozenset({"all", "opponents", "you"})
TARGET_KINDS = frozenset({"player", "opponent", "permanent", "card", "spell", "any"})
MANA_SYMBOLS = ("W", "U", "B", "R", "G", "C")


@dataclass(frozen=True)
class Description:
    """One description of a search for several (701.23h): how many cards, of what, to where."""

    count: int
    up_to: bool
    filter: Filter
    put: str
    zones: tuple[str, ...] = ()  # the zones its cards may come from (empty: all the search's)


@dataclass(frozen=True)
class Instruction:
    """One instruction of an effect: `verb` (e.g. "search") and its normalised `spec` mapping."""

    verb: str
    spec: Mapping[str, Any]
    # Kicker (702.33): "if": "kicked" / "not_kicked" runs it only on that line; `kicked` is the
    # instruction used instead when the spell was kicked ("up to two instead").
    condition: str = ""
    kicked: Instruction | None = None


@dataclass(frozen=True)
class TargetSpec:
    """What one target must be: a player, an opponent, or a card/permanent matching a filter."""

    kind: str
    filter: Filter = field(default_factory=Filter)
    # "target permanent an opponent controls" / "you control" (115.1: a target must meet it)
    controller: str = ""
    zone: str = ""  # "target card in a graveyard"


@dataclass(frozen=True)
class Ability:
    """An activated or triggered ability: cost or trigger event, targets, instructions."""

    effect: tuple[Instruction, ...]
    cost: str = ""
    when: str = ""
    targets: tuple[TargetSpec, ...] = ()
    condition: str = ""  # an intervening "if" (603.4), e.g. "opponent_controls_more_lands"
    cost_parts: tuple[CostPart, ...] = ()  # the cost, read (costs.parse_cost)
    x_is: Mapping[str, int] | None = None  # X derived from what the cost sacrificed (Birthing Pod)

    @property
    def is_mana_ability(self) -> bool:
        """An activated ability that adds mana and has no target (CR 605.1a)."""
        return not self.targets and any(i.verb == "add_mana" for i in self.effect)


@dataclass(frozen=True)
class StaticAbility:
    """A continuous effect: `kind` ("search_replacement", "search_prohibition") and its spec."""

    kind: str
    spec: Mapping[str, Any]


@dataclass(frozen=True)
class CardDefinition:
    """A card's characteristics and abilities, parsed and validated from JSON (section 2)."""

    name: str
    mana_cost: str = ""
    types: tuple[str, ...] = ()
    supertypes: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()
    oracle: str = ""
    spell: tuple[Instruction, ...] = ()
    targets: tuple[TargetSpec, ...] = ()
    activated: tuple[Ability, ...] = ()
    triggered: tuple[Ability, ...] = ()
    static: tuple[StaticAbility, ...] = ()
    keywords: Mapping[str, Any] = field(default_factory=dict)
    alt_cost: Mapping[str, Any] | None = None
    color_indicator: tuple[str, ...] = ()
    # "As an additional cost to cast this spell, sacrifice a creature" (601.2b, 601.2h).
    additional_cost: str = ""
    additional_cost_parts: tuple[CostPart, ...] = ()
    # "where X is 2 plus the sacrificed creature's mana value": {"sacrificed_mana_value_plus": 2}
    x_is: Mapping[str, int] | None = None
    # A split card (709): each half's name and mana cost; its characteristics off the stack
    # combine both halves' (709.4): both names (709.4a), the total mana value, both colors (709.4b).
    halves: tuple[tuple[str, str], ...] = ()
    # A creature's printed toughness ("2", "*", "1+*"): lethal damage is read against it (704.5g).
    toughness: str = ""
    # Printed power and a planeswalker's printed loyalty, read by state-based actions (704.5i).
    power: str = ""
    loyalty: str = ""
    # What the card does to power and toughness in layer 7 (layer_claims.py, 613.4): a spell's
    # effect on its target, a permanent's static ability or a characteristic-defining ability.
    pt_effect: Mapping[str, Any] | None = None

    @property
    def names(self) -> tuple[str, ...]:
        """Every name the card has: its own, or each half's (709.4a)."""
        if not self.halves:
            return (self.name,)
        return (self.name, *(name for name, _ in self.halves))

    @property
    def type_line(self) -> str:
        """E.g. "Basic Land — Forest" or "Legendary Planeswalker — Ashiok"."""
        left = " ".join((*self.supertypes, *self.types))
        return f"{left} — {' '.join(self.subtypes)}" if self.subtypes else left

    @property
    def mana_value(self) -> int:
        """CR 202.3: the total of the mana cost; a split card's halves combined (709.4b)."""
        if self.halves:
            return sum(mana_value_of(cost) for _, cost in self.halves)
        return mana_value_of(self.mana_cost)

    @property
    def colors(self) -> tuple[str, ...]:
        """Color letters from a color indicator ("colors" key) or else the mana cost (202.2)."""
        if self.halves:
            both = "".join(cost for _, cost in self.halves)
            return self.color_indicator or colors_of_cost(both)
        return self.color_indicator or colors_of_cost(self.mana_cost)

    @property
    def enters_tapped(self) -> str:
        """Its own "enters tapped" replacement (614.1d), read from its text: "always" ("This land
        enters tapped."), "choice" ("As this land enters, you may pay 2 life. If you don't, it
        enters tapped."), "condition" (one the engine doesn't model: "unless you control ...")
        or "" (it enters untapped unless an effect says otherwise, 110.5b)."""
        return enters_tapped_of(self.oracle, self.name)

    @property
    def keyword_names(self) -> frozenset[str]:
        """Lower-case keyword names, e.g. {"dredge", "flash"}."""
        return frozenset(k.lower() for k in self.keywords)

    @property
    def is_permanent_card(self) -> bool:
        """Artifact, creature, enchantment, land, planeswalker or battle (CR 110.4)."""
        return not ({"Instant", "Sorcery"} & set(self.types))

    def to_json(self) -> dict[str, Any]:
        """The characteristics as plain JSON (abilities are summarised by the oracle text)."""
        return {
            "name": self.name,
            "mana_cost": self.mana_cost,
            "types": list(self.types),
            "supertypes": list(self.supertypes),
            "subtypes": list(self.subtypes),
            "type_line": self.type_line,
            "oracle": self.oracle,
        }


_ENTERS_TAPPED = re.compile(r"\benters?(?: the battlefield)? tapped\b")
_SELF_WORDS = r"(?:this (?:land|creature|artifact|enchantment|permanent)|{name}|it)"


BASIC_LAND_TYPES = ("Plains", "Island", "Swamp", "Mountain", "Forest")
_COUNT_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
_UNLESS_CONTROL = re.compile(
    r"enters(?: the battlefield)? tapped unless you control (a|an|one|two|three|four|five)"
    r"(?: (or more|or fewer))? (other )?([^.]+)\.",
    re.IGNORECASE,
)
_TYPE_WORDS = {
    "land": ("types", "Land"),
    "creature": ("types", "Creature"),
    "artifact": ("types", "Artifact"),
    "enchantment": ("types", "Enchantment"),
    "planeswalker": ("types", "Planeswalker"),
}
_SUPERTYPE_WORDS = {"basic": "Basic", "legendary": "Legendary", "snow": "Snow"}


@lru_cache(maxsize=1024)
def enters_untapped_if(oracle: str) -> Mapping[str, Any] | None:
    """ "This land enters tapped unless you control a Plains or an Island" (a check land),
    "… unless you control two or fewer other lands" (a fast land), "… two or more other lands",
    "… two or more basic lands": {"count", "compare" ("at_least" | "at_most"), "other", "filter"}
    when the condition counts permanents its controller controls, else None (not modelled)."""
    match = _UNLESS_CONTROL.search(re.sub(r"\([^)]*\)", "", oracle))
    if match is None:
        return None
    count = _COUNT_WORDS[match.group(1).lower()]
    compare = "at_most" if match.group(2) == "or fewer" else "at_least"
    raw: dict[str, list[str]] = {}
    alternatives = re.split(r",? or (?:an? )?|, (?:an? )?", match.group(4).strip())
    for words in alternatives:
        *qualities, noun = words.split()
        noun = noun if noun == "Plains" else noun.removesuffix("s")
        for quality in qualities:
            if quality.lower() not in _SUPERTYPE_WORDS or len(alternatives) > 1:
                return None
            raw.setdefault("supertypes", []).append(_SUPERTYPE_WORDS[quality.lower()])
        if noun.lower() in _TYPE_WORDS:
            key, value = _TYPE_WORDS[noun.lower()]
        elif noun in BASIC_LAND_TYPES:
            key, value = "subtypes", noun
        else:
            return None
        raw.setdefault(key, []).append(value)
    if "types" in raw and "subtypes" in raw:
        return None  # "a Forest or a creature": an any-of across kinds the filter can't say
    return {
        "count": count,
        "compare": compare,
        "other": bool(match.group(3)),
        "filter": parse_filter(raw, "enters tapped unless"),
    }


@lru_cache(maxsize=4096)
def enters_tapped_of(oracle: str, name: str) -> str:
    """See `CardDefinition.enters_tapped`: the first line of its text that says so decides."""
    own = _SELF_WORDS.replace("{name}", re.escape(name))
    for line in oracle.splitlines():
        # Reminder text in parentheses (a fetch land's own search) isn't the card's replacement.
        line = re.sub(r"\([^)]*\)", "", line).strip()
        if not _ENTERS_TAPPED.search(line):
            continue
        if re.fullmatch(rf"{own} enters(?: the battlefield)? tapped\.", line, re.IGNORECASE):
            return "always"
        if re.search(
            r"you may pay [^.]*\. If you don't, it enters(?: the battlefield)? tapped", line
        ):
            return "choice"
        if re.match(rf"{own} enters", line, re.IGNORECASE) or "If you don't" in line:
            return "condition"
    return ""


# ---------------------------------------------------------------- parsing


def _player_ref(value: Any, path: str, default: str = "you") -> str:
    value = default if value is None else value
    if value not in PLAYER_REFS:
        raise ScenarioError(
            path, f"unknown player reference {value!r}; use one of {sorted(PLAYER_REFS)}"
        )
    return value


def _parse_search(raw: Any, path: str) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise ScenarioError(path, "a search must be an object")
    who = raw.get("who", "you")
    if who not in SEARCH_WHO:
        raise ScenarioError(
            f"{path}.who", f"unknown searcher {who!r}; use one of {sorted(SEARCH_WHO)}"
        )
    whose = raw.get("whose", "searcher")
    if whose not in PLAYER_REFS:
        raise ScenarioError(f"{path}.whose", f"unknown player reference {whose!r}")
    zones = strings(raw.get("zones", ["library"]), f"{path}.zones")
    bad = [z for z in zones if z not in SEARCH_ZONES]
    if bad or not zones:
        raise ScenarioError(
            f"{path}.zones", f"unknown or missing zone(s) {bad}; use {SEARCH_ZONES}"
        )
    wanted = raw.get("for", {})
    put = raw.get("put", "hand")
    if put not in DESTINATIONS:
        raise ScenarioError(
            f"{path}.put", f"unknown destination {put!r}; use {sorted(DESTINATIONS)}"
        )
    descriptions = None
    if isinstance(wanted, list):
        # "a Forest card and a Plains card": one search for several descriptions (701.23h).
        descriptions = tuple(
            _parse_description(item, f"{path}.for[{i}]", put) for i, item in enumerate(wanted)
        )
        if not descriptions:
            raise ScenarioError(f"{path}.for", "must list at least one description")
        wanted = {
            "count": sum(d.count for d in descriptions),
            "up_to": all(d.up_to for d in descriptions),
        }
    if not isinstance(wanted, dict):
        raise ScenarioError(f"{path}.for", "must be an object with count, up_to and filter")
    unknown = set(wanted) - FOR_KEYS
    if unknown:
        raise ScenarioError(f"{path}.for", _unknown(unknown, FOR_KEYS))
    count = wanted.get("count", 1)
    if not (
        count in ("all", "any_number", "that_many")
        or (isinstance(count, int) and not isinstance(count, bool))
    ) or (isinstance(count, int) and count < 0):
        raise ScenarioError(
            f"{path}.for.count", 'must be a number, "all", "any_number" or "that_many"'
        )
    if raw.get("face_down"):
        # "exile it face down" written as a flag on an exiling search
        if put not in ("exile", "exile_face_down"):
            raise ScenarioError(f"{path}.face_down", 'needs "put": "exile"')
        put = "exile_face_down"
    put = _BOTTOM.get(put, put)
    split = raw.get("split")
    if split is not None:
        # Cultivate: "put one onto the battlefield tapped and the other into your hand".
        if not isinstance(split, dict) or set(split) - {"count", "rest"}:
            raise ScenarioError(f"{path}.split", 'must be {"count": N, "rest": ZONE}')
        rest = split.get("rest", "hand")
        if rest not in DESTINATIONS - {"set_aside"} or rest == put:
            raise ScenarioError(
                f"{path}.split.rest", f"must be a destination other than put ({put!r})"
            )
        split = {"count": _parse_count(split.get("count", 1), f"{path}.split.count"), "rest": rest}
    return {
        "who": who,
        "whose": whose,
        "zones": zones,
        "count": count,
        "up_to": bool(wanted.get("up_to", False)),
        "filter": (
            Filter(any_of=tuple(d.filter for d in descriptions))
            if descriptions
            else parse_filter(wanted.get("filter"), f"{path}.for.filter")
        ),
        "descriptions": descriptions if descriptions and len(descriptions) > 1 else None,
        "may": bool(raw.get("may", False)),
        # "Search your library and/or graveyard": the searcher chooses which zones.
        "choose_zones": _choose_zones(raw, zones, path),
        "rest": _rest(raw.get("rest"), f"{path}.rest"),
        # Exiled face down (406.3): who may look at the found cards there.
        "may_look": _may_look(raw.get("may_look"), put, f"{path}.may_look"),
        "reveal": bool(raw.get("reveal", False)),
        "put": put,
        "tapped": bool(raw.get("tapped", False)),
        "split": split,
    }


_BOTTOM = {"bottom": "library_bottom", "bottom_of_library": "library_bottom"}


def _rest(value: Any, path: str) -> str | None:
    value = _BOTTOM.get(value, value) if isinstance(value, str) else value
    if value is not None and value not in REST_DESTINATIONS:
        raise ScenarioError(path, f"unknown destination {value!r}; use {sorted(REST_DESTINATIONS)}")
    return value


LOOKERS = ("you", "owner", "nobody")


def _may_look(value: Any, put: str, path: str) -> str:
    if value is None:
        return "nobody"
    if put != "exile_face_down" or value not in LOOKERS:
        raise ScenarioError(
            path,
            f'names who may look at cards exiled face down ({list(LOOKERS)}); needs "put": '
            '"exile_face_down"',
        )
    return value


def _parse_look(value: Any, where: str) -> Instruction:
    """ "Look at the top N cards of your library. You may put a creature card from among them
    into your hand. Put the rest on the bottom in a random order." Looking is never searching."""
    if not isinstance(value, dict) or not ({"take", "rest", "put_one"} & set(value)):
        return Instruction("look", {"value": value})  # a look no claim asks about: recorded
    if "top" in value or "put_one" in value:
        # The short form: {"top": 3, "put_one": "hand", "rest": ...} (Anticipate, Impulse).
        value = {k: v for k, v in value.items() if k not in ("top", "put_one")} | {
            "count": value.get("top", value.get("count", 1)),
            "take": {"count": 1, "up_to": False, "put": value.get("put_one", "hand")},
        }
    unknown = set(value) - LOOK_KEYS
    if unknown:
        raise ScenarioError(where, _unknown(unknown, LOOK_KEYS))
    take = value.get("take") or {"count": 0}
    if isinstance(take, int) and not isinstance(take, bool):
        take = {"count": take}  # "take": 1
    if not isinstance(take, dict):
        raise ScenarioError(
            f"{where}.take", 'must be a number or {"count", "up_to", "filter", "put"}'
        )
    if set(take) - TAKE_KEYS:
        raise ScenarioError(f"{where}.take", _unknown(set(take) - TAKE_KEYS, TAKE_KEYS))
    put = take.get("put", value.get("put", "hand"))
    if put not in DESTINATIONS - {"set_aside"}:
        raise ScenarioError(f"{where}.take.put", f"unknown destination {put!r}")
    rest = _rest(value.get("rest", "library_bottom"), f"{where}.rest")
    return Instruction(
        "look",
        {
            "who": _player_ref(value.get("who"), f"{where}.who"),
            "count": _parse_count(value.get("count", 1), f"{where}.count"),
            "take": _parse_count(take.get("count", 1), f"{where}.take.count"),
            "up_to": bool(take.get("up_to", True)),
            "filter": parse_filter(take.get("filter"), f"{where}.take.filter"),
            "put": put,
            "reveal": bool(take.get("reveal", False)),
            "rest": rest,
        },
    )


LOOK_KEYS = frozenset({"who", "count", "take", "rest", "put"})
TAKE_KEYS = frozenset({"count", "up_to", "filter", "put", "reveal"})


def _choose_zones(raw: Mapping[str, Any], zones: tuple[str, ...], path: str) -> bool:
    choose = raw.get("choose_zones", False)
    if not isinstance(choose, bool):
        raise ScenarioError(f"{path}.choose_zones", "must be true or false")
    if choose and len(zones) < 2:
        raise ScenarioError(f"{path}.choose_zones", "needs at least two zones to choose from")
    return choose


def _parse_description(raw: Any, path: str, put: str) -> Description:
    """One description of a search for several: {count, up_to, filter, put}."""
    if not isinstance(raw, dict):
        raise ScenarioError(path, "a description must be an object with count, up_to, filter")
    unknown = set(raw) - FOR_KEYS - {"put", "zones"}
    if unknown:
        raise ScenarioError(path, _unknown(unknown, FOR_KEYS | {"put", "zones"}))
    zones = strings(raw.get("zones"), f"{path}.zones")
    if any(z not in SEARCH_ZONES for z in zones):
        raise ScenarioError(f"{path}.zones", f"unknown zone(s); use {SEARCH_ZONES}")
    own_put = raw.get("put", put)
    if own_put not in DESTINATIONS - {"set_aside"}:
        raise ScenarioError(f"{path}.put", f"unknown destination {own_put!r}")
    wanted = parse_filter(raw.get("filter"), f"{path}.filter")
    if wanted.different_names:
        raise ScenarioError(f"{path}.filter.different_names", "not within several descriptions")
    return Description(
        _parse_count(raw.get("count", 1), f"{path}.count"),
        bool(raw.get("up_to", False)),
        wanted,
        own_put,
        zones,
    )


def _unknown(unknown: set[str], accepted: frozenset[str]) -> str:
    return f"unknown key(s) {sorted(unknown)}; the keys accepted here are {sorted(accepted)}"


def _parse_count(value: Any, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ScenarioError(path, "must be a non-negative whole number")
    return value


INSTRUCTION_EXTRAS = frozenset({"if", "kicked", "if_searched", "duration", "instead"})
KICK_CONDITIONS = ("kicked", "not_kicked")
# The keys an instruction's object may have, per verb (instructions only recorded take any).
VERB_KEYS = {
    "search": frozenset(
        {
            "who",
            "whose",
            "zones",
            "for",
            "may",
            "reveal",
            "put",
            "tapped",
            "split",
            "choose_zones",
            "rest",
            "may_look",
            "face_down",
        }
    ),
    "mill": frozenset({"who", "count"}),
    "draw": frozenset({"who", "count"}),
    "shuffle": frozenset({"who", "whose", "player", "if_searched"}),
    "exile": frozenset({"what", "card", "face_down", "may_look", "filter", "controller", "combat"}),
    "destroy": frozenset({"what", "card", "filter", "controller", "combat"}),
    "reveal_hand": frozenset({"who", "whose", "player"}),
    "choose": frozenset({"from", "chooser", "filter"}),
    "opponent_chooses": frozenset({"opponent", "count", "from", "chosen_to", "rest_to"}),
    "exile_graveyards": frozenset({"whose", "who"}),
    "return": frozenset({"what", "to", "tapped"}),
    "put": frozenset({"what", "to", "tapped"}),
}


def parse_instruction(raw: Any, path: str) -> Instruction:
    """Parse one instruction object such as {"search": {...}} or {"shuffle": "searcher"}."""
    if not isinstance(raw, dict):
        raise ScenarioError(path, "an instruction must be an object")
    verbs = [k for k in raw if k in INSTRUCTION_VERBS]
    if len(verbs) != 1:
        raise ScenarioError(
            path,
            f"an instruction needs exactly one verb of {list(INSTRUCTION_VERBS)}; "
            f"got {sorted(raw)}",
        )
    verb = verbs[0]
    unknown = set(raw) - {verb} - INSTRUCTION_EXTRAS
    if unknown:
        raise ScenarioError(path, _unknown(unknown, frozenset({verb}) | INSTRUCTION_EXTRAS))
    value = raw[verb]
    accepted = VERB_KEYS.get(verb)
    if accepted is not None and isinstance(value, dict) and set(value) - accepted:
        raise ScenarioError(f"{path}.{verb}", _unknown(set(value) - accepted, accepted))
    instruction = _parse_verb(raw, verb, value, f"{path}.{verb}")
    condition = raw.get("if", "")
    if condition and condition not in KICK_CONDITIONS:
        raise ScenarioError(f"{path}.if", f"unknown condition {condition!r}; use {KICK_CONDITIONS}")
    kicked = None
    if "kicked" in raw:
        kicked = parse_instruction(raw["kicked"], f"{path}.kicked")
    if condition or kicked is not None:
        instruction = Instruction(instruction.verb, instruction.spec, condition, kicked)
    return instruction


def _parse_verb(raw: Mapping[str, Any], verb: str, value: Any, where: str) -> Instruction:
    if verb == "search":
        return Instruction(verb, _parse_search(value, where))
    if verb == "look":
        return _parse_look(value, where)
    if verb == "shuffle":
        if_searched = raw.get("if_searched")
        if isinstance(value, dict):
            # {"shuffle": {"who"/"whose"/"player": REF, "if_searched": bool}}
            if_searched = value.get("if_searched", if_searched)
            value = value.get("who", value.get("whose", value.get("player")))
        elif value is True:
            value = "searcher"  # "then shuffle": the library just searched (or the controller's)
        return Instruction(
            verb,
            {
                "who": _player_ref(value, where),
                "if_searched": None if if_searched is None else bool(if_searched),
            },
        )
    if verb == "mill":
        value = value if isinstance(value, dict) else {"count": value}
        return Instruction(
            verb,
            {
                "who": _player_ref(value.get("who"), f"{where}.who"),
                "count": _parse_count(value.get("count"), f"{where}.count"),
            },
        )
    if verb == "draw":
        value = value if isinstance(value, dict) else {"count": value}
        return Instruction(
            verb,
            {
                "who": _player_ref(value.get("who"), f"{where}.who"),
                "count": _parse_count(value.get("count", 1), f"{where}.count"),
            },
        )
    if verb in ("exile", "destroy"):
        face_down, may_look = False, "nobody"
        if isinstance(value, dict) and value.get("what") == "all":
            return Instruction(verb, _parse_all_permanents(value, where))
        if isinstance(value, dict):
            if verb == "exile" and value.get("face_down"):
                # "Exile it face down" (406.3); `may_look` names who may look at it there.
                face_down = True
                may_look = _may_look(value.get("may_look"), "exile_face_down", f"{where}.may_look")
            elif "may_look" in value:
                raise ScenarioError(f"{where}.may_look", 'needs "face_down": true')
            value = value.get("what", value.get("card"))
        value = {"targets": "target", "it": "target", "this": "self"}.get(value, value)
        if value not in ("target", "self", "found"):
            raise ScenarioError(where, 'must be "target", "self" or "found"')
        if face_down:
            return Instruction(verb, {"what": value, "face_down": True, "may_look": may_look})
        return Instruction(verb, {"what": value})
    if verb == "reveal_hand":
        if isinstance(value, dict):
            value = value.get("who", value.get("whose", value.get("player")))
        return Instruction(verb, {"who": _player_ref(value, where, "target_player")})
    if verb == "choose":
        value = value if isinstance(value, dict) else {}
        source = value.get("from", "revealed_hand")
        if source not in ("revealed_hand", "card_name"):
            raise ScenarioError(f"{where}.from", 'must be "revealed_hand" or "card_name"')
        return Instruction(
            verb,
            {
                "from": source,
                "chooser": _player_ref(value.get("chooser"), f"{where}.chooser"),
                "filter": parse_filter(value.get("filter"), f"{where}.filter"),
            },
        )
    if verb == "opponent_chooses":
        if not isinstance(value, dict):
            raise ScenarioError(where, "must be an object")
        return Instruction(
            verb,
            {
                "opponent": _player_ref(
                    value.get("opponent"), f"{where}.opponent", "target_opponent"
                ),
                "count": _parse_count(value.get("count"), f"{where}.count"),
                "chosen_to": value.get("chosen_to", "graveyard"),
                "rest_to": value.get("rest_to", "hand"),
            },
        )
    if verb == "exile_graveyards":
        if isinstance(value, dict):
            value = value.get("whose", value.get("who"))
        value = "target_player" if value == "target_opponent" else value
        if value not in ("each_opponent", "each_player", "target_player"):
            raise ScenarioError(where, 'must be "each_opponent", "each_player" or "target_player"')
        return Instruction(verb, {"whose": value})
    if verb == "add_mana":
        return Instruction(verb, {"mana": _parse_mana(value, where)})
    if verb == "create_effect":
        if not isinstance(value, dict) or len(value) != 1:
            raise ScenarioError(
                where, "must hold one static ability, e.g. {search_prohibition: {...}}"
            )
        static = parse_static(value, where)
        return Instruction(verb, {"static": static, "duration": raw.get("duration", "turn")})
    if verb in ("lose_life", "gain_life") and isinstance(value, dict):
        # {"who": REF, "amount": N or "half_rounded_up"}: modelled (life_total); a bare value
        # is only recorded, and a life total it may change is then refused (claims.py).
        if set(value) - {"who", "amount"}:
            raise ScenarioError(
                where, _unknown(set(value) - {"who", "amount"}, frozenset({"who", "amount"}))
            )
        amount = value.get("amount")
        if amount != "half_rounded_up" or verb != "lose_life":
            amount = _parse_count(amount, f"{where}.amount")
        return Instruction(
            verb, {"who": _player_ref(value.get("who"), f"{where}.who"), "amount": amount}
        )
    if verb == "damage" and (
        isinstance(value, dict) or (isinstance(value, int) and not isinstance(value, bool))
    ):
        return Instruction(verb, _parse_damage(value, where))
    if verb == "put_counters":
        if not isinstance(value, dict) or set(value) - {"what", "kind", "count"}:
            raise ScenarioError(where, 'must be {"what": "self" or "target", "kind", "count"}')
        what = value.get("what", "self")
        if what not in ("self", "target"):
            raise ScenarioError(f"{where}.what", 'must be "self" or "target"')
        return Instruction(
            verb,
            {
                "what": what,
                "kind": str(value.get("kind", "+1/+1")),
                "count": _parse_count(value.get("count", 1), f"{where}.count"),
            },
        )
    if verb in ("tap", "untap") and isinstance(value, dict):
        return Instruction(verb, _parse_tap(value, where))
    if verb in ("return", "put"):
        value = {"what": value} if isinstance(value, str) else value
        if not isinstance(value, dict) or value.get("what") not in (
            "found",
            "target",
            "targets",
            "self",
        ):
            raise ScenarioError(
                where, 'needs "what": "found", "target", "targets" or "self" and "to": ZONE'
            )
        to = value.get("to", "hand")
        if to not in DESTINATIONS - {"set_aside"}:
            raise ScenarioError(f"{where}.to", f"unknown destination {to!r}")
        tapped = bool(value.get("tapped", False))
        if tapped and to != "battlefield":
            raise ScenarioError(f"{where}.tapped", 'needs "to": "battlefield"')
        return Instruction(verb, {"what": value["what"], "to": to, "tapped": tapped})
    # Instructions the engine records but whose details no claim asks about yet.
    return Instruction(verb, {"value": value})


def _parse_all_permanents(value: Mapping[str, Any], where: str) -> dict[str, Any]:
    """{"what": "all", "filter": F, "controller": PLAYER_REF, "combat": "attacking"}: "exile
    all attacking creatures target player controls" (Settle the Wreckage)."""
    combat = value.get("combat", "")
    if combat not in ("", "attacking", "blocking"):
        raise ScenarioError(f"{where}.combat", 'must be "attacking" or "blocking"')
    controller = value.get("controller")
    return {
        "what": "all",
        "filter": parse_filter(value.get("filter"), f"{where}.filter"),
        "controller": None
        if controller is None
        else _player_ref(controller, f"{where}.controller"),
        "combat": combat,
    }


DAMAGE_KEYS = frozenset({"to", "amount", "for_each"})
DAMAGE_COUNTS = ("revealed_with_chosen_name",)


def _parse_damage(value: Any, where: str) -> dict[str, Any]:
    """{"to": "target" | PLAYER_REF, "amount": N, "for_each": "revealed_with_chosen_name"}
    (Thought Hemorrhage: "deals 3 damage to that player for each card with the chosen name
    revealed this way"); a bare number is that much damage to the target; "amount": "X" is the
    spell's X."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = {"to": "target", "amount": value}
    if set(value) - DAMAGE_KEYS:
        raise ScenarioError(where, _unknown(set(value) - DAMAGE_KEYS, DAMAGE_KEYS))
    to = value.get("to", "target")
    if to != "target":
        to = _player_ref(to, f"{where}.to")
    for_each = value.get("for_each")
    if for_each is not None and for_each not in DAMAGE_COUNTS:
        raise ScenarioError(f"{where}.for_each", f"must be one of {list(DAMAGE_COUNTS)}")
    return {
        "to": to,
        # "deals X damage": the X chosen as the spell was cast (107.3a).
        "amount": "X"
        if value.get("amount") == "X"
        else _parse_count(value.get("amount"), f"{where}.amount"),
        "for_each": for_each,
    }


TAP_KEYS = frozenset({"what", "if_you_control"})


def _parse_tap(value: Mapping[str, Any], where: str) -> dict[str, Any]:
    """{"what": "found" | "self" | "target", "if_you_control": {"count": N, "filter": F}}:
    Fabled Passage's "Then if you control four or more lands, untap that land"."""
    if set(value) - TAP_KEYS:
        raise ScenarioError(where, _unknown(set(value) - TAP_KEYS, TAP_KEYS))
    what = {"that land": "found", "it": "found", "this": "self"}.get(
        value.get("what", "found"), value.get("what", "found")
    )
    if what not in ("found", "self", "target"):
        raise ScenarioError(f"{where}.what", 'must be "found", "self" or "target"')
    condition = value.get("if_you_control")
    if condition is not None:
        if not isinstance(condition, dict) or set(condition) - {"count", "filter"}:
            raise ScenarioError(f"{where}.if_you_control", 'must be {"count": N, "filter": {...}}')
        condition = {
            "count": _parse_count(condition.get("count", 1), f"{where}.if_you_control.count"),
            "filter": parse_filter(condition.get("filter"), f"{where}.if_you_control.filter"),
        }
    return {"what": what, "if_you_control": condition}


def _mana_symbols(value: str) -> list[str]:
    """ "{G}{G}", "GG" or "G" -> ["G", "G"]; letters outside braces are symbols too."""
    text = value.strip().upper()
    if "{" in text:
        return text.replace("}", "").split("{")[1:]
    return list(text.replace(" ", ""))


def _parse_mana(value: Any, path: str) -> dict[str, Any]:
    if isinstance(value, str):
        symbols = _mana_symbols(value)
        if not symbols or any(s not in MANA_SYMBOLS for s in symbols):
            raise ScenarioError(path, f"mana {value!r} must be symbols like {{G}} or {{C}}{{C}}")
        return {"fixed": tuple(symbols)}
    if isinstance(value, dict):
        if "one_of" in value:
            options = tuple(
                symbol
                for option in strings(value["one_of"], f"{path}.one_of")
                for symbol in _mana_symbols(option)
            )
            if not options or any(s not in MANA_SYMBOLS for s in options):
                raise ScenarioError(f"{path}.one_of", "must list mana symbols W U B R G C")
            return {"one_of": options, "amount": int(value.get("amount", 1))}
        if value.get("any_color"):
            return {"one_of": ("W", "U", "B", "R", "G"), "amount": int(value.get("amount", 1))}
        if "could_produce" in value:
            spec = value["could_produce"]
            if not isinstance(spec, dict) or spec.get("lands") not in ("you", "opponents"):
                raise ScenarioError(f"{path}.could_produce", 'needs "lands": "you" or "opponents"')
            kind = spec.get("kind", "type")
            if kind not in ("type", "color"):
                raise ScenarioError(f"{path}.could_produce.kind", 'must be "type" or "color"')
            return {"could_produce": spec["lands"], "kind": kind}
        if "any_combination" in value:
            return {"any_combination": _parse_count(value["any_combination"], path)}
    raise ScenarioError(
        path,
        'unknown mana; use "{G}", {one_of: [...]}, {any_color: true} or {could_produce: {...}}',
    )


def parse_static(raw: Any, path: str) -> StaticAbility:
    """Parse {"search_prohibition": {...}} / {"search_replacement": {...}} / {"other": "..."}."""
    if not isinstance(raw, dict) or len(raw) != 1:
        raise ScenarioError(path, f"a static ability must have one kind of {sorted(STATIC_KINDS)}")
    ((kind, spec),) = raw.items()
    if kind not in STATIC_KINDS:
        raise ScenarioError(
            path, f"unknown static ability {kind!r}; use one of {sorted(STATIC_KINDS)}"
        )
    if kind == "other":
        return StaticAbility(kind, {"text": spec})
    if kind == "enters_with_counters":
        # "This creature enters with X +1/+1 counters on it" (107.3m: X is the spell's X).
        if not isinstance(spec, dict) or set(spec) - {"kind", "count"}:
            raise ScenarioError(f"{path}.{kind}", 'must be {"kind": "+1/+1", "count": N or "X"}')
        count = spec.get("count", 1)
        if count != "X":
            count = _parse_count(count, f"{path}.{kind}.count")
        return StaticAbility(kind, {"kind": str(spec.get("kind", "+1/+1")), "count": count})
    if kind == "enters_mill":
        # A replacement that mills as a permanent enters: "As a land enters the battlefield
        # under your control, mill two cards" (cards entering from that library aren't milled).
        if not isinstance(spec, dict) or set(spec) - {"who", "types", "count"}:
            raise ScenarioError(f"{path}.{kind}", 'must be {"who", "types", "count"}')
        who = spec.get("who", "you")
        if who not in PROHIBITION_PLAYERS:
            raise ScenarioError(
                f"{path}.{kind}.who", f"must be one of {sorted(PROHIBITION_PLAYERS)}"
            )
        return StaticAbility(
            kind,
            {
                "who": who,
                "types": strings(spec.get("types"), f"{path}.{kind}.types"),
                "count": _parse_count(spec.get("count", 1), f"{path}.{kind}.count"),
            },
        )
    if not isinstance(spec, dict):
        raise ScenarioError(f"{path}.{kind}", "must be an object")
    if kind == "graveyard_replacement":
        # Rest in Peace ("If a card or token would be put into a graveyard from anywhere, exile
        # it instead.": whose "any") or Leyline of the Void (an opponent's graveyard: "opponents").
        whose = spec.get("whose", "any")
        if set(spec) - {"whose"} or whose not in ("any", "opponents"):
            raise ScenarioError(f"{path}.{kind}", 'must be {"whose": "any" or "opponents"}')
        return StaticAbility(kind, {"whose": whose})
    if kind == "mana_replacement":
        # Mana Reflection: "If you tap a permanent for mana, it produces twice as much."
        who = spec.get("who", "you")
        if who not in PROHIBITION_PLAYERS:
            raise ScenarioError(
                f"{path}.{kind}.who", f"must be one of {sorted(PROHIBITION_PLAYERS)}"
            )
        factor = spec.get("factor", 2)
        if isinstance(factor, bool) or not isinstance(factor, int) or factor < 0:
            raise ScenarioError(f"{path}.{kind}.factor", "must be a whole number")
        return StaticAbility(kind, {"who": who, "factor": factor})
    if kind == "search_control":
        # Opposition Agent: "You control your opponents while they're searching their libraries.
        # While an opponent is searching their library, they exile each card they find."
        who = spec.get("who", "opponents")
        if who != "opponents":
            raise ScenarioError(f"{path}.{kind}.who", 'must be "opponents"')
        return StaticAbility(kind, {"who": who, "exile_found": bool(spec.get("exile_found", True))})
    if kind == "cost_modifier":
        # Thalia: "Noncreature spells cost {1} more to cast." (negative amounts reduce)
        spells = spec.get("spells", "all")
        if spells not in ("all", "noncreature", "creature", "instant_sorcery"):
            raise ScenarioError(
                f"{path}.{kind}.spells",
                'must be "all", "noncreature", "creature" or "instant_sorcery"',
            )
        amount = spec.get("amount", 1)
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise ScenarioError(f"{path}.{kind}.amount", "must be a whole number")
        who = spec.get("who", "all")
        if who not in PROHIBITION_PLAYERS:
            raise ScenarioError(
                f"{path}.{kind}.who", f"must be one of {sorted(PROHIBITION_PLAYERS)}"
            )
        return StaticAbility(kind, {"spells": spells, "amount": amount, "who": who})
    who = spec.get("who", "opponents" if kind == "search_replacement" else "all")
    if who not in PROHIBITION_PLAYERS:
        raise ScenarioError(f"{path}.{kind}.who", f"must be one of {sorted(PROHIBITION_PLAYERS)}")
    if kind == "search_replacement":
        return StaticAbility(
            kind, {"who": who, "top": _parse_count(spec.get("top"), f"{path}.{kind}.top")}
        )
    libraries = spec.get("libraries", "any")
    if libraries not in ("any", "own"):
        raise ScenarioError(f"{path}.{kind}.libraries", 'must be "any" or "own"')
    caused_by = spec.get("caused_by", "any")
    if caused_by not in ("any", "searcher"):
        raise ScenarioError(f"{path}.{kind}.caused_by", 'must be "any" or "searcher"')
    escape = spec.get("escape")
    if escape is not None and not isinstance(escape, str):
        raise ScenarioError(f"{path}.{kind}.escape", 'must be a cost such as "{2}"')
    return StaticAbility(
        kind, {"who": who, "libraries": libraries, "caused_by": caused_by, "escape": escape}
    )


def _parse_targets(raw: Any, path: str) -> tuple[TargetSpec, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise ScenarioError(path, "must be a list of target descriptions")
    specs = []
    for i, item in enumerate(raw):
        item = {"kind": item} if isinstance(item, str) else item
        if not isinstance(item, dict) or item.get("kind") not in TARGET_KINDS:
            raise ScenarioError(f"{path}[{i}]", f"a target needs a kind of {sorted(TARGET_KINDS)}")
        unknown = set(item) - TARGET_KEYS
        if unknown:
            raise ScenarioError(f"{path}[{i}]", _unknown(unknown, TARGET_KEYS))
        controller = {"opponents": "opponent"}.get(
            item.get("controller", ""), item.get("controller", "")
        )
        if controller not in ("", "opponent", "you"):
            raise ScenarioError(f"{path}[{i}].controller", 'must be "opponent" or "you"')
        zone = item.get("zone", "")
        if zone not in ("", "battlefield", "graveyard", "exile", "hand", "library"):
            raise ScenarioError(f"{path}[{i}].zone", f"unknown zone {zone!r}")
        specs.append(
            TargetSpec(
                item["kind"],
                parse_filter(item.get("filter"), f"{path}[{i}].filter"),
                controller,
                zone,
            )
        )
    return tuple(specs)


TARGET_KEYS = frozenset({"kind", "filter", "controller", "zone"})


def _parse_effect(raw: Any, path: str) -> tuple[Instruction, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise ScenarioError(path, "an effect must be a list of instructions")
    instructions: list[Instruction] = []
    for i, item in enumerate(raw):
        instruction = parse_instruction(item, f"{path}[{i}]")
        if isinstance(item, dict) and item.get("instead"):
            _replace_on_kicked_line(instructions, instruction, f"{path}[{i}]")
            continue
        instructions.append(instruction)
    return _one_search_per_run(instructions)


def _replace_on_kicked_line(
    instructions: list[Instruction], instead: Instruction, path: str
) -> None:
    """ "If this spell was kicked, instead search for up to fifteen": `"if": "kicked",
    "instead": true` replaces the latest instruction of the same verb on the kicked line
    (702.33d), as `"kicked": {...}` written on that instruction does."""
    if instead.condition != "kicked" or instead.kicked is not None:
        raise ScenarioError(f"{path}.instead", 'needs "if": "kicked" (and no "kicked" of its own)')
    for index in range(len(instructions) - 1, -1, -1):
        replaced = instructions[index]
        if replaced.verb == instead.verb and not replaced.condition and replaced.kicked is None:
            plain = Instruction(instead.verb, instead.spec)
            instructions[index] = Instruction(replaced.verb, replaced.spec, "", plain)
            return
    raise ScenarioError(
        f"{path}.instead", f"no earlier {instead.verb!r} instruction for it to replace"
    )


_SAME_SEARCH = ("who", "whose", "may")


def _one_search_per_run(instructions: list[Instruction]) -> tuple[Instruction, ...]:
    """701.23h: search instructions one after another (before any shuffle) through the same
    zones are one search for all those cards: merged into one search for several descriptions."""
    merged: list[Instruction] = []
    for instruction in instructions:
        last = merged[-1] if merged else None
        if (
            last is not None
            and instruction.verb == last.verb == "search"
            and all(instruction.spec[k] == last.spec[k] for k in _SAME_SEARCH)
            and _describable(last.spec)
            and _describable(instruction.spec)
            and not (instruction.condition or instruction.kicked or last.condition or last.kicked)
        ):
            first, second = last.spec, instruction.spec
            descriptions = _descriptions_of(first) + _descriptions_of(second)
            zones = tuple(dict.fromkeys((*first["zones"], *second["zones"])))
            merged[-1] = Instruction(
                "search",
                {
                    **first,
                    "zones": zones,
                    "count": first["count"] + second["count"],
                    "up_to": first["up_to"] and second["up_to"],
                    "filter": Filter(any_of=tuple(d.filter for d in descriptions)),
                    "descriptions": descriptions,
                    "reveal": first["reveal"] or second["reveal"],
                    "tapped": first["tapped"] or second["tapped"],
                },
            )
            continue
        merged.append(instruction)
    return tuple(merged)


def _describable(spec: Mapping[str, Any]) -> bool:
    return (
        isinstance(spec["count"], int)
        and spec["split"] is None
        and not spec["filter"].different_names
        and not spec.get("rest")
        and not spec.get("choose_zones")
    )


def _descriptions_of(spec: Mapping[str, Any]) -> tuple[Description, ...]:
    """Each description with the zones its cards come from ("search your library for X and
    your graveyard for Y")."""
    if spec.get("descriptions"):
        return tuple(
            d if d.zones else replace(d, zones=tuple(spec["zones"])) for d in spec["descriptions"]
        )
    return (
        Description(
            spec["count"], spec["up_to"], spec["filter"], spec["put"], tuple(spec["zones"])
        ),
    )


def _parse_abilities(
    raw: Any, path: str, triggered: bool, card_name: str = ""
) -> tuple[Ability, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise ScenarioError(path, "must be a list of abilities")
    abilities = []
    for i, item in enumerate(raw):
        where = f"{path}[{i}]"
        if not isinstance(item, dict):
            raise ScenarioError(where, "an ability must be an object")
        when = item.get("when", "")
        if triggered and when not in TRIGGER_EVENTS:
            raise ScenarioError(
                f"{where}.when", f"unknown trigger event {when!r}; use {sorted(TRIGGER_EVENTS)}"
            )
        condition = item.get("if", "")
        if condition and (not triggered or condition not in TRIGGER_CONDITIONS):
            raise ScenarioError(
                f"{where}.if",
                f"unknown condition {condition!r}; a triggered ability may use "
                f"{sorted(TRIGGER_CONDITIONS)}",
            )
        cost = item.get("cost", "")
        if not isinstance(cost, str):
            raise ScenarioError(f"{where}.cost", 'must be a string such as "{T}, Sacrifice this"')
        abilities.append(
            Ability(
                effect=_parse_effect(item.get("effect"), f"{where}.effect"),
                cost=cost,
                when=when,
                targets=_parse_targets(item.get("targets"), f"{where}.targets"),
                condition=condition,
                cost_parts=parse_cost(cost, card_name, f"{where}.cost") if not triggered else (),
                x_is=_parse_x_is(item.get("x_is"), f"{where}.x_is"),
            )
        )
    return tuple(abilities)


def parse_card_definition(raw: Any, path: str = "card") -> CardDefinition:
    """Validate one card definition (section 2); errors name the card and the field."""
    if not isinstance(raw, dict):
        raise ScenarioError(path, "a card definition must be an object")
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ScenarioError(f"{path}.name", "a card needs a non-empty name")
    where = f"{path} ({name})"
    unknown = set(raw) - DEFINITION_KEYS
    if unknown:
        raise ScenarioError(where, f"unknown key(s) {sorted(unknown)}")
    types = strings(raw.get("types"), f"{where}.types")
    bad = [t for t in types if t not in CARD_TYPES]
    if bad or not types:
        raise ScenarioError(
            f"{where}.types", f"needs card types from {sorted(CARD_TYPES)}; got {list(types)}"
        )
    supertypes = strings(raw.get("supertypes"), f"{where}.supertypes")
    bad = [t for t in supertypes if t not in SUPERTYPES]
    if bad:
        raise ScenarioError(f"{where}.supertypes", f"unknown supertype(s) {bad}")
    for key in ("mana_cost", "oracle"):
        if not isinstance(raw.get(key, ""), str):
            raise ScenarioError(f"{where}.{key}", "must be a string")
    keywords = raw.get("keywords") or {}
    if isinstance(keywords, str):
        keywords = [keywords]  # "split second"
    if isinstance(keywords, list):
        keywords = dict(_keyword_item(k, f"{where}.keywords") for k in keywords)
    if not isinstance(keywords, dict):
        raise ScenarioError(f"{where}.keywords", 'must be an object like {"dredge": 5} or a list')
    if "dredge" in keywords:
        _parse_count(keywords["dredge"], f"{where}.keywords.dredge")
    alt_cost = raw.get("alt_cost")
    if alt_cost is not None and (not isinstance(alt_cost, dict) or "if" not in alt_cost):
        raise ScenarioError(f"{where}.alt_cost", 'must be an object with "if" and "cost"')
    oracle_text = raw.get("oracle", "") if isinstance(raw.get("oracle", ""), str) else ""
    # The words decide, as printed: "As an additional cost to cast this spell, sacrifice a
    # creature." and "X is 2 plus the sacrificed creature's mana value" need no data of their own.
    printed_cost = re.search(r"As an additional cost to cast this spell, (.+?)\.", oracle_text)
    additional_cost = raw.get(
        "additional_cost", printed_cost.group(1).capitalize() if printed_cost else ""
    )
    printed_x = _DERIVED_X.search(oracle_text)
    x_is_raw = raw.get(
        "x_is",
        {"sacrificed_mana_value_plus": _NUMBER_WORDS.get(printed_x.group(1), printed_x.group(1))}
        if printed_x
        else None,
    )
    if isinstance(x_is_raw, dict):
        x_is_raw = {
            k: int(v) if isinstance(v, str) and v.isdigit() else v for k, v in x_is_raw.items()
        }
    if not isinstance(additional_cost, str):
        raise ScenarioError(
            f"{where}.additional_cost", 'must be a cost such as "Sacrifice a creature"'
        )
    statics = raw.get("static") or []
    if not isinstance(statics, list):
        raise ScenarioError(f"{where}.static", "must be a list of static abilities")
    zone_choice = _text_says(raw.get("oracle", ""))
    return CardDefinition(
        name=name,
        mana_cost=raw.get("mana_cost", ""),
        types=types,
        supertypes=supertypes,
        subtypes=strings(raw.get("subtypes"), f"{where}.subtypes"),
        oracle=raw.get("oracle", ""),
        spell=_zones_chosen(_parse_effect(raw.get("spell"), f"{where}.spell"), zone_choice),
        targets=_parse_targets(raw.get("targets"), f"{where}.targets"),
        activated=_with_keyword_abilities(
            _abilities_zones_chosen(
                _x_from_sacrifice(
                    _parse_abilities(raw.get("activated"), f"{where}.activated", False, name),
                    _parse_x_is(x_is_raw, f"{where}.x_is") if printed_x else None,
                ),
                zone_choice,
            ),
            name,
            {str(k).lower(): v for k, v in keywords.items()},
            raw.get("mana_cost", ""),
            f"{where}.keywords",
        ),
        triggered=_abilities_zones_chosen(
            _parse_abilities(raw.get("triggered"), f"{where}.triggered", True), zone_choice
        ),
        static=tuple(parse_static(s, f"{where}.static[{i}]") for i, s in enumerate(statics)),
        keywords={str(k).lower(): v for k, v in keywords.items()},
        alt_cost=alt_cost,
        color_indicator=parse_colors(
            raw.get("colors", raw.get("color_indicator")), f"{where}.colors"
        ),
        additional_cost=additional_cost,
        additional_cost_parts=parse_cost(additional_cost, name, f"{where}.additional_cost"),
        x_is=_parse_x_is(x_is_raw, f"{where}.x_is") if not printed_x or additional_cost else None,
        halves=_parse_halves(raw.get("halves"), name, f"{where}.halves"),
        toughness=str(raw.get("toughness", "")),
        power=str(raw.get("power", "")),
        loyalty=str(raw.get("loyalty", "")),
        pt_effect=parse_pt_effect(raw.get("pt_effect"), f"{where}.pt_effect"),
    )


PT_AFFECTS = ("target", "creatures_you_control", "self")
PT_CDAS = ("card_types_in_graveyards",)


def parse_pt_effect(raw: Any, path: str) -> Mapping[str, Any] | None:
    """{"sublayer": "7c", "affects": "target", "power": 3, "toughness": 3}; a switch has no
    numbers ("7d"), a characteristic-defining ability names what it counts ("cda")."""
    if raw is None:
        return None
    allowed = {"sublayer", "affects", "power", "toughness", "cda"}
    if not isinstance(raw, dict) or set(raw) - allowed:
        raise ScenarioError(path, f"must be an object with keys among {sorted(allowed)}")
    sublayer = raw.get("sublayer")
    if sublayer not in ("7a", "7b", "7c", "7d"):
        raise ScenarioError(f"{path}.sublayer", 'must be "7a", "7b", "7c" or "7d"')
    affects = raw.get("affects", "target")
    if affects not in PT_AFFECTS:
        raise ScenarioError(f"{path}.affects", f"must be one of {list(PT_AFFECTS)}")
    for key in ("power", "toughness"):
        value = raw.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise ScenarioError(f"{path}.{key}", "must be a whole number")
    cda = raw.get("cda")
    if (sublayer == "7a") != (cda is not None) or (cda is not None and cda not in PT_CDAS):
        raise ScenarioError(
            f"{path}.cda", f"a 7a effect (only) names what it counts: one of {list(PT_CDAS)}"
        )
    return {**raw, "affects": affects}


_DERIVED_X = re.compile(r"(?:X is|equal to) (\w+) plus the sacrificed creature's mana value")
_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}


def _x_from_sacrifice(
    abilities: tuple[Ability, ...], x_is: Mapping[str, int] | None
) -> tuple[Ability, ...]:
    """Birthing Pod's "equal to 1 plus the sacrificed creature's mana value", as printed: the
    abilities whose cost sacrifices derive X from it."""
    if x_is is None:
        return abilities
    return tuple(
        replace(a, x_is=a.x_is or x_is)
        if any(p.kind == "sacrifice" and not p.self_only for p in a.cost_parts)
        else a
        for a in abilities
    )


# "Search your library and/or graveyard": the searcher chooses the zones (choose_zones).
_AND_OR_ZONES = re.compile(
    r"(?:library|graveyard|hand)(?:, (?:library|graveyard|hand))*,? and/or (?:your |their )?"
    r"(?:library|graveyard|hand)"
)


def _text_says(oracle: str) -> frozenset[str]:
    """What the printed words decide for the card's searches, whether or not the data says
    it: "and/or" between zones is a choice of zones (choose_zones); a text whose every search
    onto the battlefield says "onto the battlefield tapped" puts the cards there tapped."""
    said = set()
    if _AND_OR_ZONES.search(oracle):
        said.add("choose_zones")
    onto = [s for s in re.findall(r"[Ss]earch[^.]*\.", oracle) if "onto the battlefield" in s]
    if onto and all("onto the battlefield tapped" in s for s in onto):
        said.add("tapped")
    if re.search(r"kicked, instead\b", oracle):
        said.add("kicked_instead")
    return frozenset(said)


def _zones_chosen(effect: tuple[Instruction, ...], said: frozenset[str]) -> tuple[Instruction, ...]:
    if not said:
        return effect
    if "kicked_instead" in said:
        # "If this spell was kicked, instead …" written as a plain "if": "kicked" instruction
        # after the unkicked one: it replaces that one on the kicked line (702.33d).
        kept: list[Instruction] = []
        for instruction in effect:
            replaces = next(
                (
                    i
                    for i in range(len(kept) - 1, -1, -1)
                    if kept[i].verb == instruction.verb
                    and not kept[i].condition
                    and kept[i].kicked is None
                ),
                None,
            )
            if (
                instruction.condition == "kicked"
                and instruction.kicked is None
                and replaces is not None
            ):
                plain = Instruction(instruction.verb, instruction.spec)
                old = kept[replaces]
                kept[replaces] = Instruction(old.verb, old.spec, "", plain)
                continue
            kept.append(instruction)
        effect = tuple(kept)
    return tuple(_as_printed(i, said) for i in effect)


def _as_printed(instruction: Instruction, said: frozenset[str]) -> Instruction:
    kicked = instruction.kicked and _as_printed(instruction.kicked, said)
    spec = instruction.spec
    if instruction.verb == "search":
        if "choose_zones" in said and len(spec["zones"]) > 1 and not spec["choose_zones"]:
            spec = {**spec, "choose_zones": True}
        if "tapped" in said and spec["put"] == "battlefield" and not spec["tapped"]:
            spec = {**spec, "tapped": True}
    if spec is instruction.spec and kicked is instruction.kicked:
        return instruction
    return Instruction(instruction.verb, spec, instruction.condition, kicked)


def _abilities_zones_chosen(
    abilities: tuple[Ability, ...], said: frozenset[str]
) -> tuple[Ability, ...]:
    if not said:
        return abilities
    return tuple(replace(a, effect=_zones_chosen(a.effect, said)) for a in abilities)


def _parse_halves(raw: Any, name: str, path: str) -> tuple[tuple[str, str], ...]:
    """[{"name": "Fire", "mana_cost": "{1}{R}"}, {"name": "Ice", "mana_cost": "{1}{U}"}] for a
    split card named "Fire // Ice" (709.1)."""
    if raw is None:
        return ()
    if not isinstance(raw, list) or len(raw) != 2:
        raise ScenarioError(path, "a split card has two halves, each {name, mana_cost}")
    halves = []
    for i, half in enumerate(raw):
        if (
            not isinstance(half, dict)
            or set(half) - {"name", "mana_cost", "oracle"}
            or not isinstance(half.get("name"), str)
            or not isinstance(half.get("mana_cost", ""), str)
        ):
            raise ScenarioError(f"{path}[{i}]", 'must be {"name": NAME, "mana_cost": COST}')
        halves.append((half["name"], half.get("mana_cost", "")))
    if name != " // ".join(n for n, _ in halves):
        raise ScenarioError(
            path, f"a split card's name is its halves' names: {' // '.join(n for n, _ in halves)!r}"
        )
    return tuple(halves)


X_SOURCES = ("sacrificed_mana_value_plus",)


def _parse_x_is(raw: Any, path: str) -> Mapping[str, int] | None:
    """{"sacrificed_mana_value_plus": N}: X is N plus the mana value of the creature the cost
    sacrificed, as it last existed on the battlefield (608.2h)."""
    if raw is None:
        return None
    if not isinstance(raw, dict) or len(raw) != 1 or next(iter(raw)) not in X_SOURCES:
        raise ScenarioError(path, f"must be one of {{{X_SOURCES[0]!r}: N}}")
    ((key, plus),) = raw.items()
    if isinstance(plus, bool) or not isinstance(plus, int):
        raise ScenarioError(f"{path}.{key}", "must be a whole number")
    return {key: plus}


def _with_keyword_abilities(
    abilities: tuple[Ability, ...],
    name: str,
    keywords: Mapping[str, Any],
    mana_cost: str,
    path: str,
) -> tuple[Ability, ...]:
    """Abilities a keyword stands for, after the written ones, unless an ability that discards
    the card is written already: cycling (702.29a: draw a card), typecycling (702.29e: search
    for a card of that type, reveal it, put it into your hand, then shuffle), transmute
    (702.53a: a card with the same mana value)."""
    if any(p.kind == "discard" and p.self_only for a in abilities for p in a.cost_parts):
        return abilities
    added = []
    for keyword, cost in keywords.items():
        if not isinstance(cost, str) or not cost.startswith("{"):
            continue
        effect: list[dict[str, Any]]
        if keyword == "cycling":
            effect = [{"draw": 1}]
        elif keyword == "transmute":
            wanted = {"mana_value": mana_value_of(mana_cost)}
            effect = _tutor_effect(wanted)
        elif keyword.endswith("cycling"):
            kind = keyword[: -len("cycling")].strip()
            if kind == "land":
                wanted = {"types": ["Land"]}
            elif kind == "basic land":
                wanted = {"supertypes": ["Basic"], "types": ["Land"]}
            else:
                wanted = {"subtypes": [kind.capitalize()]}
            effect = _tutor_effect(wanted)
        else:
            continue
        raw = {"cost": f"{cost}, Discard this card", "effect": effect}
        added += _parse_abilities([raw], f"{path}.{keyword}", False, name)
    return abilities + tuple(added)


def _tutor_effect(wanted: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {
            "search": {
                "zones": ["library"],
                "reveal": True,
                "for": {"filter": wanted},
                "put": "hand",
            }
        },
        {"shuffle": "you"},
    ]


def _keyword_item(item: Any, path: str) -> tuple[str, Any]:
    """A keyword list item: "flying" -> ("flying", True), "Dredge 5" -> ("dredge", 5)."""
    if not isinstance(item, str):
        raise ScenarioError(path, 'keyword list items must be strings such as "flash"')
    name, _, number = item.strip().rpartition(" ")
    if name and number.isdigit():
        return name.lower(), int(number)
    if name and number.startswith("{"):
        return name.lower(), number  # "Kicker {2}{G}"
    return item.strip().lower(), True


# ---------------------------------------------------------------- catalog


class Catalog:
    """Card definitions by name; `extend` returns a new catalog where local definitions win."""

    def __init__(self, definitions: Iterable[CardDefinition] = ()) -> None:
        self._by_name: dict[str, CardDefinition] = {d.name: d for d in definitions}

    def get(self, name: str) -> CardDefinition | None:
        """The definition named `name`, or None."""
        return self._by_name.get(name)

    def having_name(self, name: str) -> CardDefinition | None:
        """The definition with `name` among its names: a split card for one half's (709.4a)."""
        found = self._by_name.get(name)
        if found is None:
            found = next((d for d in self._by_name.values() if name in d.names), None)
        return found

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def __len__(self) -> int:
        return len(self._by_name)

    def names(self) -> list[str]:
        """Every card name, sorted."""
        return sorted(self._by_name)

    def definitions(self) -> list[CardDefinition]:
        """Every definition, sorted by name."""
        return [self._by_name[n] for n in self.names()]

    def extend(self, definitions: Iterable[CardDefinition]) -> Catalog:
        """A new catalog with `definitions` added (replacing same-named cards)."""
        merged = Catalog()
        merged._by_name = {**self._by_name, **{d.name: d for d in definitions}}
        return merged

    @classmethod
    def from_json(cls, raw: Any, path: str = "cards") -> Catalog:
        """Build from a JSON list of card definitions."""
        if not isinstance(raw, list):
            raise ScenarioError(path, "must be a list of card definitions")
        return cls(parse_card_definition(item, f"{path}[{i}]") for i, item in enumerate(raw))


def load_catalog_dir(directory: Path = CATALOG_DIR) -> Catalog:
    """Load every *.json file in `directory` (each a list of definitions); duplicates are errors."""
    definitions: dict[str, CardDefinition] = {}
    for file in sorted(directory.glob("*.json")):
        try:
            raw = json.loads(file.read_text(encoding="utf-8"))
        except json.JSONDecodeError as error:
            raise ScenarioError(file.name, f"malformed JSON: {error}") from error
        for definition in Catalog.from_json(raw, file.name).definitions():
            if definition.name in definitions:
                raise ScenarioError(
                    file.name, f"{definition.name!r} is defined twice in the catalog"
                )
            definitions[definition.name] = definition
    return Catalog(definitions.values())


@lru_cache(maxsize=1)
def default_catalog() -> Catalog:
    """The project's catalog from rules/catalog/*.json, parsed once and cached."""
    return load_catalog_dir()

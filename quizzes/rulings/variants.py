"""Variants: the same situation with other names, so a learner can't memorise positions.

`build(spec, claims, seed)` substitutes, deterministically from the seed:
- player names (everywhere a player is named: zones, resolve, history, claims, choices);
- cards within their role: a basic land for another basic land, a card without static abilities
  for a card of the same types and supertypes from the catalog, never colliding with a name
  already in the scenario, and the same substitute for every copy (so "same name" stays true);
- the order of each library, only when no claim depends on positions (no `given`, no
  `zone_after`, and no search limited to the top N cards such as Aven Mindcensor's).
Labels are kept, so claims still name the right cards. The engine then recomputes the ruling on
the variant; a variant whose asked claims or outcome differ from the original's (after renaming)
is refused and a milder one tried, down to the scenario as written (seed 0).
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from quizzes.kept import Kept
from quizzes.rulings.sessions import session_for
from rules.engine import Catalog, ScenarioError, Session

PLAYER_NAMES = (
    "Alice", "Nadia", "Bram", "Chen", "Dalia", "Emeka", "Farah", "Gustavo", "Hana", "Iker",
    "Jonas", "Kemi", "Lior", "Mira", "Priya", "Ravi", "Sofia", "Tomas", "Yuki", "Zoe",
)  # fmt: skip
BASIC_LANDS = ("Plains", "Island", "Swamp", "Mountain", "Forest")
GENERATED_LABEL = re.compile(r"^[^.]+\.(library|hand|graveyard|battlefield|exile|outside)\.\d+$")
POSITION_CLAIMS = frozenset({"zone_after", "searched_portion", "shuffled_portion"})
# Keys whose strings are prose or card data, never a reference to a player.
PROSE_KEYS = frozenset({"id", "title", "source", "cards", "notes", "tags", "rules", "reason"})


@dataclass(frozen=True)
class Variant:
    spec: dict[str, Any]
    claims: list[dict[str, Any]]
    seed: int
    players: Mapping[str, str]  # original name -> name shown
    cards: Mapping[str, str] = field(default_factory=dict)  # card name -> substitute shown

    def rename_text(self, text: str) -> str:
        """Authored prose (prompt, title) with the same names substituted, whole words only."""
        return rename_words(text, {**self.cards, **self.players})


def rename_words(text: str, mapping: Mapping[str, str]) -> str:
    """`text` with each name of `mapping` replaced by its value, whole words only."""
    if not mapping:
        return text
    pattern = re.compile(
        r"\b("
        + "|".join(re.escape(name) for name in sorted(mapping, key=len, reverse=True))
        + r")\b"
    )
    return pattern.sub(lambda match: mapping[match.group(0)], text)


def build(
    spec: Mapping[str, Any],
    claims: list[dict[str, Any]],
    seed: int,
    catalog: Catalog | None = None,
) -> tuple[Variant, Session]:
    """The variant `seed` selects (0: as written), deterministic and ruled like the original,
    with the engine session it was checked on (parsed and resolved once: reuse it).

    Raises ScenarioError when the scenario as written does not parse."""
    original_session = session_for(spec, catalog)
    original = Variant(dict(spec), list(claims), 0, {})
    if not seed or _mentions_generated_label(claims):
        return original, original_session
    for level in ("full", "players_and_order", "players"):
        rng = random.Random(f"{seed}:{level}")
        candidate = _make(spec, claims, original_session.scenario, rng, level)
        if candidate is None:
            continue
        try:
            session = session_for(candidate.spec, catalog)
        except ScenarioError:
            continue
        if _rules_alike(original_session, claims, session, candidate):
            variant = Variant(
                candidate.spec, candidate.claims, seed, candidate.players, candidate.cards
            )
            return variant, session
    return original, original_session


def _mentions_generated_label(claims: list[dict[str, Any]]) -> bool:
    """Unlabelled cards get ids from owner and position, which a variant changes."""
    text = json.dumps(claims)
    return any(
        f".{zone}." in text
        for zone in ("library", "hand", "graveyard", "battlefield", "exile", "outside")
    )


def _make(spec, claims, scenario, rng: random.Random, level: str) -> Variant | None:
    new_spec = copy.deepcopy(dict(spec))
    new_claims = copy.deepcopy(claims)
    state = scenario.state
    kept = _named_by_statements(claims)
    substitutes = _substitute_cards(new_spec, scenario, rng, kept) if level == "full" else {}
    if level in {"full", "players_and_order"} and _order_free(claims, scenario):
        for player_zones in new_spec.get("zones", {}).values():
            if isinstance(player_zones.get("library"), list):
                rng.shuffle(player_zones["library"])
    taken = set(state.labels()) | {card.name for card in state.cards}
    pool = [name for name in PLAYER_NAMES if name not in taken and name not in state.players]
    if len(pool) < len(state.players):
        return None
    mapping = dict(zip(state.players, rng.sample(pool, len(state.players)), strict=True))
    rename = _renamer(mapping)
    return Variant(rename(new_spec), rename(new_claims), 1, mapping, substitutes)


def _renamer(mapping: Mapping[str, str]) -> Callable[[Any], Any]:
    def rename(value: Any, key: str | None = None) -> Any:
        if key in PROSE_KEYS:
            return value
        if isinstance(value, str):
            return mapping.get(value, value)
        if isinstance(value, list):
            return [rename(item) for item in value]
        if isinstance(value, dict):
            return {mapping.get(k, k): rename(v, k) for k, v in value.items()}
        return value

    return rename


def _order_free(claims: list[dict[str, Any]], scenario) -> bool:
    """Can libraries be reordered without changing what the question asks about?"""
    if any("given" in claim or claim.get("claim") in POSITION_CLAIMS for claim in claims):
        return False
    resolve_step = scenario.resolve
    if resolve_step is not None and resolve_step.choices:
        return False
    return not any(
        static.kind == "search_replacement"
        for card in scenario.state.cards
        for static in card.definition.static
    )


def _is_basic_land(definition) -> bool:
    return "Basic" in definition.supertypes and "Land" in definition.types


def _plain(definition) -> bool:
    """No abilities that could act in the situation by themselves."""
    return not (
        definition.static
        or definition.keywords
        or definition.alt_cost
        or definition.triggered
        or definition.activated
        or definition.spell
        or definition.pt_effect  # it changes power and toughness (layer 7)
    )


BASIC_LAND_MANA = {
    "Plains": "{W}", "Island": "{U}", "Swamp": "{B}", "Mountain": "{R}", "Forest": "{G}",
}  # fmt: skip


def _named_by_statements(claims: list[dict[str, Any]]) -> set[str]:
    """The basic lands whose mana a statement names ("… produces {U}{U}"): swapped, the board
    would hold no card that could make it, and the statement would change its sense."""
    proposed = " ".join(str(claim.get("proposed", "")) for claim in claims)
    return {land for land, symbol in BASIC_LAND_MANA.items() if symbol in proposed}


def _substitute_cards(
    new_spec: dict[str, Any],
    scenario,
    rng: random.Random,
    kept: set[str] | frozenset[str] = frozenset(),
) -> dict[str, str]:
    state = scenario.state
    steps = [step for step in (scenario.resolve, *scenario.history) if hasattr(step, "by")]
    acting = {step.source for step in steps}
    acting |= {card.name for card in state.cards if card.label in acting}
    used = {card.name for card in state.cards} | acting
    plain_cards = _plain_by_kind(scenario.catalog)
    substitutes: dict[str, str] = {}
    for name in sorted({card.name for card in state.cards}):
        definition = scenario.catalog.get(name)
        if name in acting or name in kept or definition is None:
            continue
        if definition.static or definition.keywords or definition.pt_effect:
            continue
        if definition.alt_cost:
            continue
        if _is_basic_land(definition):
            options = [n for n in BASIC_LANDS if n not in used | kept and n in scenario.catalog]
        else:
            alike = plain_cards.get(_kind_of(definition), ())
            options = [other for other in alike if other not in used]
        if options:
            choice = rng.choice(sorted(options))
            substitutes[name] = choice
            used.add(choice)
    for player_zones in new_spec.get("zones", {}).values():
        for zone, entries in player_zones.items():
            player_zones[zone] = [_renamed_entry(entry, substitutes) for entry in entries]
    return substitutes


# The plain cards of each catalog seen, by kind: a variant substitutes a card by a plain one of
# the same types and supertypes (reading the whole catalog for each card was most of a variant's
# making). The entry holds its catalog, so no other catalog can take its id meanwhile.
PLAIN_BY_KIND: Kept[tuple[Catalog, dict[tuple[frozenset, frozenset], list[str]]]] = Kept(64)


def _kind_of(definition) -> tuple[frozenset, frozenset]:
    return frozenset(definition.types), frozenset(definition.supertypes)


def _plain_by_kind(catalog: Catalog) -> dict[tuple[frozenset, frozenset], list[str]]:
    """The names of the catalog's plain cards (`_plain`) by their types and supertypes."""

    def grouped() -> tuple[Catalog, dict[tuple[frozenset, frozenset], list[str]]]:
        groups: dict[tuple[frozenset, frozenset], list[str]] = {}
        for other in catalog.definitions():
            if _plain(other):
                groups.setdefault(_kind_of(other), []).append(other.name)
        return catalog, groups

    return PLAIN_BY_KIND.get(id(catalog), grouped)[1]


def _renamed_entry(entry: Any, substitutes: Mapping[str, str]) -> Any:
    if isinstance(entry, str):
        name, sep, label = entry.partition("#")
        return substitutes.get(name.strip(), name.strip()) + (sep + label if sep else "")
    if isinstance(entry, dict) and entry.get("card") in substitutes:
        return {**entry, "card": substitutes[entry["card"]]}
    return entry


def _rules_alike(original: Session, claims, session: Session, candidate: Variant) -> bool:
    """Does the engine rule the variant as it rules the original, up to player names?"""
    rename = _renamer(candidate.players)
    try:
        for claim, shown in zip(claims, candidate.claims, strict=True):
            if claim.get("claim") == "legal_find_set":
                continue  # covered by the whole outcome below
            before = original.evaluate(claim).value
            after = session.evaluate(shown).value
            if _key(rename(_plainly(before))) != _key(_plainly(after)):
                return False
        return _outcome_key(_plain_outcome(original), rename) == _outcome_key(
            _plain_outcome(session), None
        )
    except ScenarioError:
        return False


# Each kept session's outcome as plain JSON values: the original's is compared with every
# variant tried. The entry holds its session, so no other session can take its id meanwhile.
PLAIN_OUTCOMES: Kept[tuple[Session, list[tuple[str, Any, Any]]]] = Kept(1024)


def _plain_outcome(session: Session) -> list[tuple[str, Any, Any]]:
    """(claim, subject, value) of every claim of the session's outcome, as plain JSON values."""

    def plain() -> tuple[Session, list[tuple[str, Any, Any]]]:
        claims = session.resolve().claims
        return session, [(r.claim, _plainly(r.subject), _plainly(r.value)) for r in claims]

    return PLAIN_OUTCOMES.get(id(session), plain)[1]


_SCALARS = frozenset({str, int, float, bool, type(None)})


def _plainly(value: Any) -> Any:
    """`value` as a round trip through JSON gives it back (tuples and sets as lists, any other
    object as its `str`), built directly where the types are plain: every variant's outcome is
    read this way, and the text round trip was a fifth of making a variant."""
    kind = value.__class__
    if kind in _SCALARS:
        return value
    if kind is list or kind is tuple or kind is set:
        return [_plainly(item) for item in value]
    if kind is dict and all(key.__class__ is str for key in value):
        return {key: _plainly(item) for key, item in value.items()}
    return _plainly_through_json(value)  # subclasses, other keys, objects: exactly as JSON


def _plainly_through_json(value: Any) -> Any:
    return json.loads(
        json.dumps(value, default=lambda v: list(v) if isinstance(v, tuple | set) else str(v))
    )


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _outcome_key(outcome: list[tuple[str, Any, Any]], rename) -> list[str]:
    """The outcome's claims as comparable keys; claims about unlabelled cards (whose generated
    labels follow owner and position, both of which a variant changes) count by value only."""
    keys = []
    for claim, subject, value in outcome:
        if any(GENERATED_LABEL.match(str(item)) for item in subject.values()):
            item = {"claim": claim, "value": rename(value) if rename else value}
        else:
            item = {"claim": claim, "subject": subject, "value": value}
            item = rename(item) if rename else item
        keys.append(_key(item))
    return sorted(keys)

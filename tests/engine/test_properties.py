"""Properties of searching over generated scenarios (Hypothesis).

Each example is a small game: 2-4 players, a random active player, random libraries, hands and
graveyards, perhaps an Aven Mindcensor, and one random search spell defined locally.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine import check_find_choice, evaluate_claim, resolve

from .builders import card, cast, scenario, search, shuffle

PLAYER_NAMES = ("Alice", "Bob", "Carol", "Dan")
SEARCHABLE_ZONES = ("library", "hand", "graveyard")
PUBLIC_ZONES = frozenset({"graveyard"})
MINDCENSOR_TOP = 4

LOCAL_CARDS = {
    "Lightning Bolt": card("Lightning Bolt", types=["Instant"], mana_cost="{R}"),
    "Grizzly Bears": card("Grizzly Bears", types=["Creature"], mana_cost="{1}{G}"),
    "Pyroclasm": card("Pyroclasm", types=["Sorcery"], mana_cost="{1}{R}"),
    "Blood Crypt": card("Blood Crypt", types=["Land"], subtypes=["Swamp", "Mountain"]),
}
# What the test itself knows about each name, to decide which cards match a filter.
CHARACTERISTICS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "Island": (frozenset({"Land"}), frozenset({"Basic"})),
    "Forest": (frozenset({"Land"}), frozenset({"Basic"})),
    "Swamp": (frozenset({"Land"}), frozenset({"Basic"})),
    "Lightning Bolt": (frozenset({"Instant"}), frozenset()),
    "Grizzly Bears": (frozenset({"Creature"}), frozenset()),
    "Pyroclasm": (frozenset({"Sorcery"}), frozenset()),
    "Blood Crypt": (frozenset({"Land"}), frozenset()),
}
CARD_NAMES = tuple(CHARACTERISTICS)
FILTERS: tuple[dict[str, Any] | None, ...] = (
    None,
    {"types": ["Land"]},
    {"supertypes": ["Basic"], "types": ["Land"]},
    {"types": ["Instant"]},
    {"name": "Island"},
    {"different_names": True},
)
COUNTS: tuple[int | str, ...] = (1, 2, 3, "all", "any_number")
SPELL = "Generated Search"


@dataclass(frozen=True)
class Generated:
    """A generated scenario and the facts the properties need about it."""

    spec: dict[str, Any]
    caster: str
    searchers: tuple[str, ...]
    whose_of: dict[str, str]
    zones: tuple[str, ...]
    count: int | str
    card_filter: dict[str, Any] | None
    may: bool
    censor_controller: str | None
    names: dict[str, str]  # label -> card name
    places: dict[str, tuple[str, str, int]]  # label -> (owner, zone, 0-based position)


def _matches(name: str, card_filter: dict[str, Any] | None) -> bool:
    if not card_filter:
        return True
    types, supertypes = CHARACTERISTICS[name]
    if any(t not in types for t in card_filter.get("types", [])):
        return False
    if any(s not in supertypes for s in card_filter.get("supertypes", [])):
        return False
    return card_filter.get("name") in (None, name)


@st.composite
def generated_scenarios(
    draw: st.DrawFn,
    count: int | str | None = None,
    may: bool | None = None,
    must_search_zone: str | None = None,
) -> Generated:
    """A random game and search; `count`, `may` and one searched zone can be fixed."""
    player_count = draw(st.integers(min_value=2, max_value=4))
    players = PLAYER_NAMES[:player_count]
    active = draw(st.sampled_from(players))
    caster = draw(st.sampled_from(players))
    zones: dict[str, dict[str, list[str]]] = {}
    names: dict[str, str] = {}
    places: dict[str, tuple[str, str, int]] = {}
    sizes = {"library": 10, "hand": 4, "graveyard": 4}
    for player in players:
        zones[player] = {}
        for zone, largest in sizes.items():
            cards = draw(st.lists(st.sampled_from(CARD_NAMES), max_size=largest))
            entries = []
            for position, name in enumerate(cards):
                label = f"{player[0].lower()}{zone[0]}{position}"
                names[label] = name
                places[label] = (player, zone, position)
                entries.append(f"{name}#{label}")
            zones[player][zone] = entries
    censor_controller = draw(st.none() | st.sampled_from(players))
    if censor_controller is not None:
        zones[censor_controller]["battlefield"] = ["Aven Mindcensor#censor"]
    who = draw(st.sampled_from(("you", "each_player", "target_player")))
    whose_ref = "target_player" if who == "you" and draw(st.booleans()) else None
    searched_zones = tuple(
        draw(st.lists(st.sampled_from(SEARCHABLE_ZONES), min_size=1, max_size=3, unique=True))
    )
    if must_search_zone is not None and must_search_zone not in searched_zones:
        searched_zones = (*searched_zones, must_search_zone)
    count = draw(st.sampled_from(COUNTS)) if count is None else count
    card_filter = draw(st.sampled_from(FILTERS))
    may = draw(st.booleans()) if may is None else may
    spell = card(
        SPELL,
        types=["Sorcery"],
        mana_cost="{1}",
        spell=[
            search(
                who=who,
                whose=whose_ref,
                zones=searched_zones,
                count=count,
                up_to=draw(st.booleans()) if isinstance(count, int) else False,
                card_filter=card_filter,
                may=may,
                reveal=draw(st.booleans()),
            ),
            shuffle("searcher", if_searched=may),
        ],
    )
    targets = None
    target = None
    if who == "target_player" or whose_ref:
        target = draw(st.sampled_from(players))
        targets = [target]
        spell["targets"] = [{"kind": "player"}]
    if who == "each_player":
        searchers = tuple(players)
    elif who == "target_player":
        searchers = (target,)
    else:
        searchers = (caster,)
    whose_of = {s: (target if whose_ref else s) for s in searchers}
    spec = scenario(
        players=players,
        active=active,
        cards=[spell, *LOCAL_CARDS.values()],
        zones=zones,
        resolve=cast(SPELL, caster, targets=targets),
    )
    return Generated(
        spec=spec,
        caster=caster,
        searchers=searchers,
        whose_of=whose_of,
        zones=searched_zones,
        count=count,
        card_filter=card_filter,
        may=may,
        censor_controller=censor_controller,
        names=names,
        places=places,
    )


def _claims(spec: dict[str, Any]) -> dict[tuple[str, tuple[tuple[str, Any], ...]], Any]:
    """Every claim of the outcome, keyed by name and subject."""
    outcome = resolve(spec)
    return {
        (result.claim, tuple(sorted(result.subject.items()))): result.value
        for result in outcome.claims
    }


def _finds(spec: dict[str, Any], label: str) -> str:
    return evaluate_claim(spec, {"claim": "finds", "card": label}).value


def _found_count(spec: dict[str, Any], searcher: str, whose: str) -> list[int]:
    claim = {"claim": "found_count", "searcher": searcher, "whose": whose}
    return list(evaluate_claim(spec, claim).value)


def _labels_in_search(generated: Generated, searcher: str) -> list[str]:
    """Labels in the zones this searcher's search looks through (ignoring Mindcensor)."""
    whose = generated.whose_of[searcher]
    return sorted(
        label
        for label, (owner, zone, _) in generated.places.items()
        if owner == whose and zone in generated.zones
    )


def _below_the_portion(generated: Generated, searcher: str, label: str) -> bool:
    owner, zone, position = generated.places[label]
    limited = generated.censor_controller not in (None, searcher)
    return limited and zone == "library" and position >= MINDCENSOR_TOP


SETTINGS = settings(max_examples=60, deadline=None, database=None)


@SETTINGS
@given(generated_scenarios())
def test_found_count_minimum_never_exceeds_maximum(generated: Generated) -> None:
    for searcher in generated.searchers:
        low, high = _found_count(generated.spec, searcher, generated.whose_of[searcher])
        assert 0 <= low <= high


@SETTINGS
@given(generated_scenarios())
def test_whatever_must_be_found_can_be_found(generated: Generated) -> None:
    claims = _claims(generated.spec)
    for searcher in generated.searchers:
        whose = generated.whose_of[searcher]
        labels = _labels_in_search(generated, searcher)
        musts = [label for label in labels if claims.get(("finds", (("card", label),))) == "must"]
        low, high = _found_count(generated.spec, searcher, whose)
        assert len(musts) <= high


@SETTINGS
@given(generated_scenarios(count="all", may=False, must_search_zone="graveyard"))
def test_an_all_search_must_find_every_public_match(generated: Generated) -> None:
    if generated.card_filter == {"different_names": True}:
        return  # "all cards with different names": of two Islands only one can be found
    for searcher in generated.searchers:
        whose = generated.whose_of[searcher]
        for label, (owner, zone, _) in generated.places.items():
            public = owner == whose and zone == "graveyard"
            if public and _matches(generated.names[label], generated.card_filter):
                assert _finds(generated.spec, label) == "must", label


@SETTINGS
@given(generated_scenarios())
def test_nothing_outside_the_searched_portion_is_findable(generated: Generated) -> None:
    searched_by = {generated.whose_of[s]: s for s in generated.searchers}
    for label, (owner, zone, _) in sorted(generated.places.items()):
        searcher = searched_by.get(owner)
        outside = searcher is None or zone not in generated.zones
        if not outside and not _below_the_portion(generated, searcher, label):
            continue
        assert _finds(generated.spec, label) == "cannot", label


@SETTINGS
@given(generated_scenarios())
def test_every_matching_card_in_the_searched_portion_is_findable(generated: Generated) -> None:
    for searcher in generated.searchers:
        for label in _labels_in_search(generated, searcher):
            if _below_the_portion(generated, searcher, label):
                continue
            findable = _finds(generated.spec, label) != "cannot"
            assert findable == _matches(generated.names[label], generated.card_filter), label


@SETTINGS
@given(generated_scenarios(), st.randoms(use_true_random=False))
def test_the_outcome_does_not_depend_on_key_order(generated: Generated, rng: random.Random) -> None:
    shuffled = dict(generated.spec)
    players = list(shuffled["zones"].items())
    rng.shuffle(players)
    zones = {}
    for player, player_zones in players:
        items = list(player_zones.items())
        rng.shuffle(items)
        zones[player] = dict(items)
    shuffled["zones"] = zones
    top_level = list(shuffled.items())
    rng.shuffle(top_level)
    assert _claims(dict(top_level)) == _claims(generated.spec)


@SETTINGS
@given(generated_scenarios())
def test_all_musts_plus_enough_mays_is_a_legal_find(generated: Generated) -> None:
    claims = _claims(generated.spec)
    for searcher in generated.searchers:
        whose = generated.whose_of[searcher]
        labels = _labels_in_search(generated, searcher)
        verdicts = {label: claims.get(("finds", (("card", label),)), "cannot") for label in labels}
        musts = [label for label in labels if verdicts[label] == "must"]
        mays = [label for label in labels if verdicts[label] == "may"]
        if generated.card_filter == {"different_names": True}:
            taken = {generated.names[label] for label in musts}
            distinct = []
            for label in mays:
                if generated.names[label] not in taken:
                    taken.add(generated.names[label])
                    distinct.append(label)
            mays = distinct
        low, high = _found_count(generated.spec, searcher, whose)
        chosen = musts + mays[: max(0, min(high - len(musts), len(mays)))]
        verdict = check_find_choice(generated.spec, searcher, chosen)
        assert verdict.legal, f"{searcher} finding {chosen}: {verdict.rule} {verdict.reason}"

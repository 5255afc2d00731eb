from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quizzes.practice import answers
from quizzes.rulings import variants
from quizzes.rulings.board import build_board
from rules.engine import evaluate_claim, parse_scenario
from tests.factories import QuestionFactory, ScenarioFactory
from tests.quizzes.conftest import land_tutor_spec

CLAIMS = [{"claim": "finds", "card": "f1"}, {"claim": "found_count", "searcher": "Alice"}]
EXAMPLES = Path(__file__).resolve().parents[4] / "shared" / "spec" / "examples"


def names_by_label(spec) -> dict[str, str]:
    return {label: card.name for label, card in build_board(parse_scenario(spec)).cards.items()}


def test_seed_zero_is_the_scenario_as_written():
    spec = land_tutor_spec()
    variant = variants.build(spec, CLAIMS, 0)[0]
    assert variant.spec == spec and variant.claims == CLAIMS


def test_same_seed_same_variant():
    first = variants.build(land_tutor_spec(), CLAIMS, 42)[0]
    again = variants.build(land_tutor_spec(), CLAIMS, 42)[0]
    assert first.spec == again.spec and first.claims == again.claims


def test_players_are_renamed_everywhere_and_labels_kept():
    variant = variants.build(land_tutor_spec(), CLAIMS, 7)[0]
    alice = variant.players["Alice"]
    assert alice not in {"Alice", "Nadia"}
    assert variant.spec["players"][0] == alice
    assert variant.spec["resolve"]["by"] == alice
    assert variant.claims[1]["searcher"] == alice
    assert set(names_by_label(variant.spec)) == set(names_by_label(land_tutor_spec()))


def test_basic_lands_become_other_basic_lands_without_collisions():
    original = names_by_label(land_tutor_spec())
    for seed in range(1, 8):
        shown = names_by_label(variants.build(land_tutor_spec(), CLAIMS, seed)[0].spec)
        for label in ("f1", "i1"):
            assert shown[label] in variants.BASIC_LANDS
        assert shown["f1"] != shown["i1"]  # two different names stay different
        assert shown["tutor"] == original["tutor"]  # the card that acts is never swapped


def test_libraries_keep_their_order_when_a_claim_depends_on_it():
    claims = [{"claim": "zone_after", "card": "f1", "given": {"Alice": {"find": ["f1"]}}}]
    original = land_tutor_spec()["zones"]["Alice"]["library"]
    for seed in range(1, 10):
        variant = variants.build(land_tutor_spec(), claims, seed)[0]
        labels = [
            entry.split("#")[1]
            for entry in variant.spec["zones"][variant.players["Alice"]]["library"]
        ]
        assert labels == [entry.split("#")[1] for entry in original]


def test_libraries_are_shuffled_when_nothing_depends_on_order():
    orders = set()
    for seed in range(1, 10):
        variant = variants.build(land_tutor_spec(), CLAIMS, seed)[0]
        library = variant.spec["zones"][variant.players["Alice"]]["library"]
        orders.add(tuple(entry.split("#")[1] for entry in library))
    assert len(orders) > 1


@pytest.mark.django_db
@pytest.mark.parametrize("seed", [0, 3, 11])
def test_the_engine_rules_the_variant_like_the_original(seed):
    question = QuestionFactory(
        scenario=ScenarioFactory(spec=land_tutor_spec()),
        kind="cards",
        claims=[{"claim": "finds", "card": "f1"}, {"claim": "finds", "card": "s1"}],
    )
    verdict = answers.grade(question, {"parts": ["may", "cannot"]}, seed)
    assert verdict.correct


@pytest.mark.skipif(not EXAMPLES.exists(), reason="shared examples not present")
@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.json")), ids=lambda p: p.stem)
def test_example_variants_keep_the_stored_ruling(path):
    spec = json.loads(path.read_text())
    expect = spec["expect"]
    claims = [{k: v for k, v in claim.items() if k != "value"} for claim in expect]
    variant = variants.build(spec, claims, 12345)[0]
    rename = variants._renamer(variant.players)
    for claim, stored in zip(variant.claims, expect, strict=True):
        value = evaluate_claim(variant.spec, claim).value
        assert json.dumps(value) == json.dumps(rename(stored["value"]))


def test_prose_follows_the_substituted_names():
    variant = variants.build(land_tutor_spec(), CLAIMS, 5)[0]
    text = variant.rename_text("Alice casts Land Tutor; Nadia (not Alicea) watches.")
    assert text.startswith(
        f"{variant.players['Alice']} casts Land Tutor; {variant.players['Nadia']}"
    )
    assert "Alicea" in text


def substitutes_reading_the_whole_catalog(new_spec, scenario, rng) -> dict[str, str]:
    """The specification of `variants._substitute_cards`: every card of the catalog read for
    each card of the board (what it did before the catalog's plain cards were grouped)."""
    state = scenario.state
    steps = [step for step in (scenario.resolve, *scenario.history) if hasattr(step, "by")]
    acting = {step.source for step in steps}
    acting |= {card.name for card in state.cards if card.label in acting}
    used = {card.name for card in state.cards} | acting
    catalog = scenario.catalog.definitions()
    substitutes: dict[str, str] = {}
    for name in sorted({card.name for card in state.cards}):
        definition = scenario.catalog.get(name)
        if name in acting or definition is None or definition.static or definition.keywords:
            continue
        if definition.alt_cost:
            continue
        if variants._is_basic_land(definition):
            options = [n for n in variants.BASIC_LANDS if n not in used and n in scenario.catalog]
        else:
            options = [
                other.name
                for other in catalog
                if other.name not in used
                and set(other.types) == set(definition.types)
                and set(other.supertypes) == set(definition.supertypes)
                and variants._plain(other)
            ]
        if options:
            choice = rng.choice(sorted(options))
            substitutes[name] = choice
            used.add(choice)
    return substitutes


@pytest.mark.skipif(not EXAMPLES.exists(), reason="shared examples not present")
def test_cards_are_substituted_as_a_whole_catalog_reading_would():
    import copy
    import random

    substituted = set()
    for path in sorted(EXAMPLES.glob("*.json")):
        spec = json.loads(path.read_text())
        scenario = parse_scenario(spec)
        for seed in range(30):
            ours, theirs = copy.deepcopy(spec), copy.deepcopy(spec)  # each rewritten in place
            found = variants._substitute_cards(ours, scenario, random.Random(seed))
            expected = substitutes_reading_the_whole_catalog(theirs, scenario, random.Random(seed))
            assert found == expected, path.stem
            substituted |= set(found)
    assert substituted - set(variants.BASIC_LANDS)  # plain cards other than basic lands too


class Opaque:
    """An object JSON can't write: the round trip gives its `str`."""

    def __str__(self) -> str:
        return "opaque"


class Named(str):
    pass


_leaves = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=5)
    | st.builds(Named, st.text(max_size=3))
    | st.just(Opaque())
    | st.frozensets(st.integers(), max_size=2)
)
_values = st.recursive(
    _leaves,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.tuples(inner, inner)
        | st.sets(st.integers() | st.text(max_size=3), max_size=3)
        | st.dictionaries(st.text(max_size=3), inner, max_size=3)
        | st.dictionaries(st.integers() | st.booleans() | st.none() | st.text(max_size=2), inner)
    ),
    max_leaves=12,
)


@given(_values)
def test_plain_values_are_what_the_json_round_trip_gives(value):
    # repr tells True from 1 and 1.0, as == would not
    assert repr(variants._plainly(value)) == repr(variants._plainly_through_json(value))

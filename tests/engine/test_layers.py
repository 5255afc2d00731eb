"""Layer 7, power and toughness (613.4): acceptance cases and invariants.

Each acceptance test names the rule it rests on.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine.api import parse_scenario
from rules.engine.errors import ScenarioError
from rules.engine.layer_claims import printed
from rules.engine.layers import (
    Creature,
    PTEffect,
    apply_layer7,
    card_types_among,
    counter_effects,
    depends_on,
)

BEARS = Creature("bears", "Grizzly Bears", 2, 2)
ONE = frozenset({"bears"})


def _pt(*effects: PTEffect, creature: Creature = BEARS) -> tuple[int, int]:
    return apply_layer7([creature], effects).of(creature.label)


def test_sublayers_apply_in_order_whatever_the_timestamps() -> None:
    # 613.4: 7b (set to 0/1) before 7c (+3/+3) even though Giant Growth is older.
    growth = PTEffect("Giant Growth", "7c", 1, ONE, 3, 3)
    ovinize = PTEffect("Ovinize", "7b", 2, ONE, 0, 1)
    assert _pt(growth, ovinize) == (3, 4)
    result = apply_layer7([BEARS], [growth, ovinize])
    assert [a.sublayer for a in result.steps("bears")] == ["7b", "7c"]


def test_counters_modify_in_7c_after_a_setting_effect() -> None:
    # 613.4c: counters apply with the other modifying effects, after 7b sets the creature.
    setting = PTEffect("Diminish", "7b", 5, ONE, 1, 1)
    counters = counter_effects("bears", {"+1/+1": 2})
    assert _pt(setting, *counters) == (3, 3)


def test_cr_613_4d_examples() -> None:
    # 613.4d examples: a 1/3 given +0/+1, then switched, is 4/1; +5/+0 later makes it 4/6.
    creature = Creature("c", "Creature", 1, 3)
    c = frozenset({"c"})
    plus = PTEffect("+0/+1", "7c", 1, c, 0, 1)
    switch = PTEffect("switch", "7d", 2, c)
    assert _pt(plus, switch, creature=creature) == (4, 1)
    later = PTEffect("+5/+0", "7c", 3, c, 5, 0)
    assert _pt(plus, switch, later, creature=creature) == (4, 6)
    # ... if the +0/+1 effect ends first, it becomes 3/1; two switches cancel: 1/4.
    assert _pt(switch, creature=creature) == (3, 1)
    again = PTEffect("switch again", "7d", 4, c)
    assert _pt(plus, switch, again, creature=creature) == (1, 4)


def test_tarmogoyf_defines_its_power_in_7a() -> None:
    # 613.4a, 604.3: Tarmogoyf counts card types among cards in all graveyards.
    count = card_types_among([("Instant",), ("Creature",), ("Artifact", "Creature"), ("Land",)])
    assert count == 4
    goyf = Creature("goyf", "Tarmogoyf", 0, 1)
    cda = PTEffect("Tarmogoyf", "7a", 1, frozenset({"goyf"}), count, count + 1)
    anthem = PTEffect("Glorious Anthem", "7c", 0, frozenset({"goyf"}), 1, 1)
    assert _pt(cda, anthem, creature=goyf) == (5, 6)
    # A 7b effect sets over the characteristic-defining ability (7a applies first).
    ovinize = PTEffect("Ovinize", "7b", 2, frozenset({"goyf"}), 0, 1)
    assert _pt(cda, ovinize, anthem, creature=goyf) == (1, 2)


def test_dependency_waits_for_the_effect_that_changes_what_it_applies_to() -> None:
    # 613.8a(b): applying the +1/+0 effect changes what "power 2 or less" applies to, so the
    # conditional effect waits until just after it (613.8b) despite its earlier timestamp.
    small = PTEffect("small get +1/+1", "7c", 1, ONE, 1, 1, power_at_most=2)
    pump = PTEffect("+1/+0", "7c", 2, ONE, 1, 0)
    state = {"bears": (2, 2)}
    assert depends_on(small, pump, state)
    assert not depends_on(pump, small, state)
    result = apply_layer7([BEARS], [small, pump])
    assert result.order["7c"] == ("+1/+0", "small get +1/+1")
    assert result.of("bears") == (3, 2)


def test_dependency_loop_applies_in_timestamp_order() -> None:
    # 613.8b: each changes what the other applies to, a loop: timestamp order.
    first = PTEffect("first", "7c", 1, ONE, 1, 0, power_at_most=2)
    second = PTEffect("second", "7c", 2, ONE, 1, 0, power_at_most=2)
    state = {"bears": (2, 2)}
    assert depends_on(first, second, state) and depends_on(second, first, state)
    result = apply_layer7([BEARS], [second, first])
    assert result.order["7c"] == ("first", "second")
    assert result.of("bears") == (3, 2)


def test_cda_and_non_cda_effects_never_depend_on_each_other() -> None:
    # 613.8a(c): neither or both from characteristic-defining abilities; also different sublayers.
    cda = PTEffect("cda", "7a", 1, ONE, 5, 5)
    other = PTEffect("other", "7b", 2, ONE, 1, 1)
    assert not depends_on(cda, other, {"bears": (2, 2)})


_modify = st.tuples(st.integers(-3, 5), st.integers(-3, 5))


@settings(max_examples=60, deadline=None)
@given(st.lists(_modify, min_size=1, max_size=6), st.randoms(use_true_random=False))
def test_modifying_effects_in_any_order_give_the_same_result(
    changes: list[tuple[int, int]], rng
) -> None:
    # 613.4c: unconditional modifications add; their timestamps don't change the result.
    effects = [PTEffect(f"e{i}", "7c", i, ONE, p, t) for i, (p, t) in enumerate(changes)]
    stamps = list(range(len(effects)))
    rng.shuffle(stamps)
    shuffled = [
        PTEffect(e.source, "7c", stamp, ONE, e.power, e.toughness)
        for e, stamp in zip(effects, stamps, strict=True)
    ]
    assert _pt(*effects) == _pt(*shuffled)
    assert _pt(*effects) == (
        2 + sum(p for p, _ in changes),
        2 + sum(t for _, t in changes),
    )


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), min_size=1, max_size=4),
    st.lists(_modify, max_size=3),
    st.integers(0, 2),
)
def test_latest_setting_effect_makes_earlier_ones_irrelevant(
    sets: list[tuple[int, int]], mods: list[tuple[int, int]], switches: int
) -> None:
    # 613.4b, 613.7: in 7b the effect with the latest timestamp that sets both values decides.
    setting = [PTEffect(f"s{i}", "7b", i, ONE, p, t) for i, (p, t) in enumerate(sets)]
    others = [PTEffect(f"m{i}", "7c", 10 + i, ONE, p, t) for i, (p, t) in enumerate(mods)]
    others += [PTEffect(f"w{i}", "7d", 20 + i, ONE) for i in range(switches)]
    assert _pt(*setting, *others) == _pt(setting[-1], *others)


@settings(max_examples=60, deadline=None)
@given(st.integers(-2, 8), st.integers(-2, 8), st.lists(_modify, max_size=3))
def test_switching_twice_is_the_identity(
    power: int, toughness: int, mods: list[tuple[int, int]]
) -> None:
    # 613.4d example: two switches essentially cancel each other.
    creature = Creature("bears", "Creature", power, toughness)
    others = [PTEffect(f"m{i}", "7c", i, ONE, p, t) for i, (p, t) in enumerate(mods)]
    twice = [PTEffect("w1", "7d", 10, ONE), PTEffect("w2", "7d", 11, ONE)]
    assert _pt(*others, *twice, creature=creature) == _pt(*others, creature=creature)
    once = _pt(*others, twice[0], creature=creature)
    assert once == tuple(reversed(_pt(*others, creature=creature)))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 4), st.integers(0, 4))
def test_plus_and_minus_counters_cancel_in_power_and_toughness(plus: int, minus: int) -> None:
    # 613.4c with 122.1a: each +1/+1 counter adds one to each, each -1/-1 counter subtracts one.
    effects = counter_effects("bears", {"+1/+1": plus, "-1/-1": minus})
    assert _pt(*effects) == (2 + plus - minus, 2 + plus - minus)


def _board(effects: list[str], graveyard: list[str]) -> dict:
    return {
        "format": "scenario/1",
        "players": ["Nadia", "Olek"],
        "zones": {
            "Nadia": {
                "battlefield": [{"card": "Grizzly Bears", "label": "bears", "effects": effects}],
                "graveyard": graveyard,
            }
        },
    }


def test_a_creature_names_only_resolved_spells_that_change_power_and_toughness() -> None:
    # The board's "effects" are spells in a graveyard that resolved targeting the creature.
    assert parse_scenario(_board(["gg"], ["Giant Growth#gg"])).state.card("bears").effects == (
        "gg",
    )
    for effects, graveyard in (
        (["forest"], ["Forest#forest"]),
        (["nope"], []),
        (["gg", "gg"], ["Giant Growth#gg"]),
    ):
        with pytest.raises(ScenarioError):
            parse_scenario(_board(effects, graveyard))


def test_printed_values_before_layer_7() -> None:
    # 208.2 / 604.3: a '*' is defined by the characteristic-defining ability in 7a.
    assert [printed(v) for v in ("2", "*", "1+*", "0")] == [2, 0, 1, 0]

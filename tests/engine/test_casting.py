"""Total cost of a spell (601.2f): what each increase and reduction applies to, and that
reductions never go below {0} nor take a colored requirement away."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rules.engine.casting import (
    CASTING_STEPS,
    CostChange,
    ManaCost,
    SpellFacts,
    casting_step_order,
    cost_change_applies,
    decided_before,
    parse_mana_cost,
    total_cost,
)

CREATURE = SpellFacts(frozenset({"Creature"}), frozenset({"W"}), caster="Nadia")
INSTANT = SpellFacts(frozenset({"Instant"}), frozenset({"R"}), caster="Nadia")
THALIA = CostChange("Thalia, Guardian of Thraben", amount=1, excluded_types=frozenset({"Creature"}))
HELM = CostChange("Helm of Awakening", amount=-1)
ELECTROMANCER = CostChange(
    "Goblin Electromancer",
    amount=-1,
    spell_types=frozenset({"Instant", "Sorcery"}),
    only_caster="Nadia",
)


def test_parse_and_print_round_trip():
    assert parse_mana_cost("{2}{W}{U}") == ManaCost(2, ("W", "U"))
    assert parse_mana_cost("{U}{W}").text() == "{W}{U}"
    assert ManaCost().text() == "{0}"


def test_thalia_taxes_noncreature_spells_only():
    assert cost_change_applies(THALIA, INSTANT)
    assert not cost_change_applies(THALIA, CREATURE)
    lightning = total_cost(INSTANT, parse_mana_cost("{R}"), changes=[THALIA])
    assert lightning.cost.text() == "{1}{R}"
    assert lightning.applied == (("Thalia, Guardian of Thraben", "+{1}"),)
    assert total_cost(CREATURE, parse_mana_cost("{1}{W}"), changes=[THALIA]).ignored == (
        "Thalia, Guardian of Thraben",
    )


def test_a_generic_reduction_cannot_reduce_a_colored_requirement():
    bolt = total_cost(INSTANT, parse_mana_cost("{R}"), changes=[ELECTROMANCER])
    assert bolt.cost.text() == "{R}"
    assert bolt.applied == (("Goblin Electromancer", "no effect"),)


def test_electromancer_discounts_only_its_controllers_instants_and_sorceries():
    theirs = SpellFacts(frozenset({"Sorcery"}), caster="Olek")
    assert not cost_change_applies(ELECTROMANCER, theirs)
    assert not cost_change_applies(ELECTROMANCER, CREATURE)


def test_increase_then_reduction_cancels_a_tax():
    result = total_cost(INSTANT, parse_mana_cost("{R}"), changes=[HELM, THALIA])
    assert result.cost.text() == "{R}"
    assert [source for source, _ in result.applied] == [THALIA.source, HELM.source]


def test_additional_costs_are_added_before_reductions():
    kicked = total_cost(
        INSTANT, parse_mana_cost("{R}"), [parse_mana_cost("{1}")], changes=[ELECTROMANCER]
    )
    assert kicked.cost.text() == "{R}"


def test_a_colored_reduction_takes_generic_when_the_spell_lacks_that_color():
    edgewalker = CostChange("Edgewalker", colored=("W",))
    assert total_cost(INSTANT, parse_mana_cost("{2}{R}"), changes=[edgewalker]).cost.text() == (
        "{1}{R}"
    )


def test_casting_steps_follow_601_2_in_order():
    rules = [rule for _, rule in CASTING_STEPS]
    assert rules == sorted(rules)
    assert ("determine_total_cost", "601.2f") in CASTING_STEPS


costs = st.builds(
    ManaCost,
    st.integers(0, 8),
    st.lists(st.sampled_from("WUBRG"), max_size=4).map(
        lambda c: tuple(sorted(c, key="WUBRG".index))
    ),
)
changes = st.lists(
    st.builds(
        CostChange,
        st.sampled_from(["A", "B", "C"]),
        st.integers(-3, 3),
        st.just(()),
        st.sampled_from([frozenset(), frozenset({"Instant"}), frozenset({"Creature"})]),
    ),
    max_size=4,
)


@given(costs, changes)
def test_total_is_never_below_zero_and_keeps_every_colored_symbol(base, chosen):
    result = total_cost(INSTANT, base, changes=chosen)
    assert result.cost.generic >= 0
    assert result.cost.colored == base.colored


@given(costs, changes)
def test_the_order_changes_are_listed_in_does_not_matter(base, chosen):
    forward = total_cost(INSTANT, base, changes=chosen).cost
    assert total_cost(INSTANT, base, changes=list(reversed(chosen))).cost == forward


@given(costs, changes)
def test_every_change_is_either_applied_or_ignored(base, chosen):
    result = total_cost(INSTANT, base, changes=chosen)
    assert len(result.applied) + len(result.ignored) == len(chosen)


def test_casting_steps_run_601_2a_to_601_2i():
    """601.2: a to i, every sub-rule present, the spell becoming cast last (601.2i)."""
    rules = sorted({rule for _, rule in CASTING_STEPS})
    assert rules == [f"601.2{letter}" for letter in "abcdefghi"]
    assert CASTING_STEPS[-1] == ("becomes_cast", "601.2i")


def test_x_is_announced_before_targets_and_the_total_cost_after_both():
    """601.2b, 601.2c, 601.2f: X first, then targets; the total cost (which X is part of) is
    determined after both, and mana abilities are activated before paying (601.2g, 601.2h)."""
    assert casting_step_order("choose_targets", "announce_x").first == "announce_x"
    order = casting_step_order("determine_total_cost", "choose_targets")
    assert (order.first, order.rules) == ("choose_targets", ("601.2c", "601.2f"))
    assert casting_step_order("pay_total_cost", "activate_mana_abilities").first == (
        "activate_mana_abilities"
    )
    assert "announce_x" in decided_before("determine_total_cost")
    assert casting_step_order("announce_x", "choose_mode").same_rule


steps = st.sampled_from([name for name, _ in CASTING_STEPS])


@given(one=steps, other=steps)
def test_step_order_is_a_strict_total_order(one, other):
    """601.2 lists the steps in order: comparing two steps is antisymmetric and agrees with
    what is decided before each."""
    if one == other:
        return
    forward, backward = casting_step_order(one, other), casting_step_order(other, one)
    assert forward.first == backward.first
    assert (forward.first in decided_before(forward.second)) and (
        forward.second not in decided_before(forward.first)
    )
    assert forward.rules[0] <= forward.rules[1]

"""Combat damage (510, 702.2, 702.4, 702.7, 702.15, 702.19): acceptance cases and invariants.

Each acceptance test names the rule it rests on.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine.combat import (
    FIRST_STRIKE,
    REGULAR,
    Combat,
    CombatChoiceNeeded,
    Fighter,
    damage_steps,
    resolve,
    trample_excess_at_most,
)
from rules.engine.errors import ScenarioError


def _attacker(label="a", power=2, toughness=2, *keywords: str, damage=0) -> Fighter:
    return Fighter(
        label, label.title(), "Alice", power, toughness, frozenset(keywords), damage=damage
    )


def _blocker(label, blocks, power=2, toughness=2, *keywords: str, damage=0) -> Fighter:
    return Fighter(
        label, label.title(), "Nadia", power, toughness, frozenset(keywords), blocks, damage
    )


def _combat(attackers, blockers=()) -> Combat:
    return Combat(tuple(attackers), tuple(blockers), "Nadia", {"Alice": 20, "Nadia": 20})


def test_an_unblocked_attacker_deals_its_power_to_the_player():
    """510.1b and 120.3a: Grizzly Bears unblocked: Nadia loses 2 life; one damage step."""
    outcome = resolve(_combat([_attacker()]))
    assert outcome.step_names == (REGULAR,)
    assert outcome.life["Nadia"] == 18
    assert outcome.steps[0].dealt[0].rule == "510.1b"


def test_first_strike_kills_before_the_regular_step():
    """510.4, 702.7b: a 2/2 first striker blocked by a 2/2 destroys it in the first step; the
    blocker is gone before the regular step and deals no damage (506.4)."""
    outcome = resolve(_combat([_attacker("a", 2, 2, "first strike")], [_blocker("b", "a")]))
    assert outcome.step_names == (FIRST_STRIKE, REGULAR)
    assert outcome.destroyed_in("b") == FIRST_STRIKE
    assert outcome.destroyed_in("a") == ""
    assert outcome.dealt_to("a") == 0


def test_double_strike_deals_damage_in_both_steps():
    """702.4b: an unblocked 1/1 double striker deals 1 damage in each of the two steps."""
    outcome = resolve(_combat([_attacker("a", 1, 1, "double strike")]))
    assert [sum(d.amount for d in s.dealt) for s in outcome.steps] == [1, 1]
    assert outcome.life["Nadia"] == 18


def test_deathtouch_makes_one_damage_lethal_for_trample():
    """702.2c, 702.19b: a 6/6 deathtouch trampler blocked by a 0/4 assigns 1 to it and may
    assign 5 to the player."""
    attacker = _attacker("a", 6, 6, "trample", "deathtouch")
    blocker = _blocker("b", "a", 0, 4)
    assert trample_excess_at_most(attacker, (blocker,), {}) == 5
    outcome = resolve(_combat([attacker], [blocker]), {"a": {"b": 1, "Nadia": 5}})
    assert outcome.life["Nadia"] == 15
    assert outcome.destroy_rule("b") == "704.5h"


def test_trample_counts_damage_already_marked():
    """702.19b: a 5/5 trampler blocked by a 2/4 with 2 damage marked needs 2 for lethal."""
    attacker = _attacker("a", 5, 5, "trample")
    assert trample_excess_at_most(attacker, (_blocker("b", "a", 2, 4, damage=2),), {}) == 3


def test_too_much_to_the_player_is_refused():
    """702.19b: no damage to the player unless every blocker is assigned lethal damage."""
    combat = _combat([_attacker("a", 4, 4, "trample")], [_blocker("b", "a", 1, 3)])
    with pytest.raises(ScenarioError):
        resolve(combat, {"a": {"b": 2, "Nadia": 2}})


def test_two_blockers_are_the_controllers_choice():
    """510.1c: blocked by two creatures, the attacker divides its damage as its controller
    chooses; the engine doesn't choose for them."""
    combat = _combat([_attacker("a", 4, 4)], [_blocker("b", "a"), _blocker("c", "a")])
    with pytest.raises(CombatChoiceNeeded):
        resolve(combat)
    outcome = resolve(combat, {"a": {"c": 4}})
    assert outcome.destroyed_in("c") == REGULAR and outcome.destroyed_in("b") == ""
    assert outcome.destroyed_in("a") == REGULAR


def test_lifelink_gains_its_controller_life():
    """702.15b: a 2/3 lifelinker blocked by a 2/2 deals 2 and its controller gains 2."""
    outcome = resolve(_combat([_attacker("a", 2, 3, "lifelink")], [_blocker("b", "a")]))
    assert outcome.life["Alice"] == 22
    assert outcome.destroyed_in("a") == ""


def test_indestructible_survives_lethal_damage():
    """702.12b: lethal damage doesn't destroy an indestructible blocker."""
    outcome = resolve(_combat([_attacker("a", 5, 5)], [_blocker("b", "a", 1, 1, "indestructible")]))
    assert outcome.destroyed_in("b") == ""


def test_a_blocked_trampler_with_no_blocker_left_hits_the_player():
    """702.19d and 510.1c: a double-strike trampler whose blocker died in the first step
    assigns all its damage to the player in the second; a non-trampler would assign none."""
    trampler = _attacker("a", 3, 3, "double strike", "trample")
    outcome = resolve(
        _combat([trampler], [_blocker("b", "a", 1, 1)]), {"a@first_strike": {"b": 1, "Nadia": 2}}
    )
    assert outcome.life["Nadia"] == 15
    plain = _attacker("a", 3, 3, "double strike")
    assert resolve(_combat([plain], [_blocker("b", "a", 1, 1)])).life["Nadia"] == 20


KEYWORD_SETS = st.sets(
    st.sampled_from(["first strike", "double strike", "deathtouch", "trample", "lifelink"])
)


@settings(max_examples=80, deadline=None)
@given(
    power=st.integers(0, 12),
    keywords=KEYWORD_SETS,
    blockers=st.lists(
        st.tuples(st.integers(0, 5), st.integers(1, 6), st.integers(0, 3)), min_size=1, max_size=4
    ),
)
def test_trample_excess_ignores_listing_order_and_never_exceeds_power(power, keywords, blockers):
    attacker = _attacker("a", power, 5, *keywords)
    fighters = tuple(
        _blocker(f"b{i}", "a", p, t, damage=min(d, t - 1)) for i, (p, t, d) in enumerate(blockers)
    )
    forward = trample_excess_at_most(attacker, fighters, {})
    assert forward == trample_excess_at_most(attacker, fighters[::-1], {})
    assert 0 <= forward <= power


@settings(max_examples=80, deadline=None)
@given(
    attackers=st.lists(
        st.tuples(st.integers(0, 8), st.integers(1, 8), KEYWORD_SETS), min_size=1, max_size=3
    ),
    toughness=st.integers(1, 6),
)
def test_each_assigning_attacker_assigns_exactly_its_power(attackers, toughness):
    """510.1a-c: an attacker that assigns assigns all its power; unblocked, to the player."""
    fighters = [_attacker(f"a{i}", p, t, *k - {"trample"}) for i, (p, t, k) in enumerate(attackers)]
    blockers = [_blocker("b", "a0", 1, toughness)]
    outcome = resolve(_combat(fighters, blockers))
    forward = resolve(_combat(fighters[::-1], blockers))
    assert outcome.life == forward.life
    for step in outcome.steps:
        for f in fighters:
            total = sum(d.amount for d in step.dealt if d.source == f.label)
            assert total in (0, f.power)
    assert len(outcome.steps) == len(damage_steps(tuple(fighters) + tuple(blockers)))


def _scenario(attacker: dict, *blockers: dict, life: dict | None = None):
    from rules.engine import parse_scenario

    spec = {
        "format": "scenario/1",
        "id": "combat-test",
        "title": "combat",
        "source": "CR 510",
        "players": ["Alice", "Nadia"],
        "zones": {
            "Alice": {"battlefield": [{**attacker, "label": "att", "combat": "attacking"}]},
            "Nadia": {
                "battlefield": [
                    {**b, "label": f"b{i}", "combat": "blocking", "blocks": "att"}
                    for i, b in enumerate(blockers)
                ]
                or ["Forest"]
            },
        },
    }
    if life:
        spec["life"] = life
    return parse_scenario(spec)


def test_claims_read_the_scenarios_attackers_and_blockers():
    """510.4, 702.7b: Knight of the White Orchid (first strike) blocking Grizzly Bears destroys
    it in the first-strike step and survives."""
    from rules.engine.combat_claims import combat_damage_steps_verdict, combat_destroyed_verdict

    scenario = _scenario({"card": "Grizzly Bears"}, {"card": "Knight of the White Orchid"})
    assert combat_damage_steps_verdict(scenario, {}).value == 2
    bears = combat_destroyed_verdict(scenario, {"card": "att"})
    assert (bears.value, bears.rule) == ("first_strike", "510.2, 510.4, 704.5g")
    assert combat_destroyed_verdict(scenario, {"card": "b0"}).value == "survives"


def test_a_trampled_blocker_is_destroyed_whatever_the_division():
    """702.19b: Colossal Dreadmaw's one blocker is assigned at least lethal damage, so it is
    destroyed; the player's life total turns on the choice and is refused."""
    from rules.engine.combat_claims import combat_destroyed_verdict, life_after_combat_verdict

    scenario = _scenario({"card": "Colossal Dreadmaw"}, {"card": "Grizzly Bears"})
    assert combat_destroyed_verdict(scenario, {"card": "b0"}).value == "regular"
    with pytest.raises(ScenarioError):
        life_after_combat_verdict(scenario, {"player": "Nadia"})


def test_trample_bound_with_deathtouch_and_marked_damage():
    """702.19b, 702.2c: Colossal Dreadmaw (6) blocked by Typhoid Rats (1/1) and Serra Angel
    with 1 damage marked (4/4): lethal is 1 + 3, so at most 2 to Nadia."""
    from rules.engine.combat_claims import trample_to_player_at_most_verdict

    scenario = _scenario(
        {"card": "Colossal Dreadmaw"},
        {"card": "Typhoid Rats"},
        {"card": "Serra Angel", "damage": 1},
    )
    verdict = trample_to_player_at_most_verdict(scenario, {"card": "att"})
    assert (verdict.value, verdict.rule) == (2, "702.19b")


def test_life_after_an_unblocked_double_striker():
    """702.4b, 120.3a: Boros Swiftblade unblocked deals 1 twice: Nadia goes from 7 to 5."""
    from rules.engine.combat_claims import life_after_combat_verdict

    scenario = _scenario({"card": "Boros Swiftblade"}, life={"Nadia": 7})
    verdict = life_after_combat_verdict(scenario, {"player": "Nadia"})
    assert (verdict.value, verdict.rule) == (5, "510.2, 120.3a")

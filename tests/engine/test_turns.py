"""Turn structure and priority: steps in order (500.1), priority per step (117.3a, 502.4, 514.3),
turn-based actions (703.4), who gets priority first (117.3a-c), casting timing (117.1a, 307.1)
and when a step ends (500.2, 117.4)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine.turns import (
    MAIN_PHASES,
    PHASES,
    STEPS,
    may_cast_now,
    next_step,
    priority_first,
    priority_in_step,
    priority_order,
    step_ends,
    step_index,
    turn_based_actions,
)

PLAYERS = ["Nadia", "Olek", "Alice"]
steps = st.sampled_from(STEPS)
players = st.sampled_from(PLAYERS)
type_lines = st.sampled_from(
    [
        ["Instant"],
        ["Sorcery"],
        ["Creature"],
        ["Artifact"],
        ["Enchantment"],
        ["Artifact", "Creature"],
    ]
)


def test_a_turn_has_five_phases_and_the_steps_of_each_in_order():
    assert [phase for phase, _ in PHASES] == [
        "beginning",
        "precombat_main",
        "combat",
        "postcombat_main",
        "ending",
    ]
    assert STEPS[:3] == ("untap", "upkeep", "draw")  # 501.1
    assert STEPS[-2:] == ("end", "cleanup")  # 512.1
    assert STEPS[4:9] == (
        "beginning_of_combat",
        "declare_attackers",
        "declare_blockers",
        "combat_damage",
        "end_of_combat",
    )  # 506.1


@given(steps, steps)
def test_the_order_of_steps_is_total(one, other):
    assert (step_index(one) < step_index(other)) + (step_index(other) < step_index(one)) + (
        one == other
    ) == 1


@given(steps)
def test_next_step_follows_each_step_until_cleanup(step):
    following = next_step(step)
    if step == "cleanup":
        assert following is None
    else:
        assert step_index(following) == step_index(step) + 1


@given(st.booleans())
def test_no_player_ever_has_priority_in_the_untap_step(waiting):
    assert priority_in_step("untap", waiting).value is False
    assert priority_in_step("untap", waiting).rule == "502.4"
    assert priority_first("untap", "Nadia", waiting=waiting).value == ""


def test_the_cleanup_step_gives_priority_only_when_something_waits():
    assert (priority_in_step("cleanup").value, priority_in_step("cleanup").rule) == (
        False,
        "514.3",
    )
    waiting = priority_in_step("cleanup", waiting=True)
    assert (waiting.value, waiting.rule) == (True, "514.3a")


@given(steps.filter(lambda s: s not in ("untap", "cleanup")), st.booleans())
def test_every_other_step_gives_the_active_player_priority_first(step, waiting):
    assert priority_in_step(step, waiting).value is True
    assert priority_first(step, "Olek").value == "Olek"
    assert priority_first(step, "Olek").rule == "117.3a"


@given(steps.filter(lambda s: s not in ("untap", "cleanup")), players, players)
def test_after_resolution_the_active_player_and_after_casting_the_caster(step, active, caster):
    assert priority_first(step, active, after="resolves").value == active  # 117.3b
    assert priority_first(step, active, after="cast", caster=caster).value == caster  # 117.3c


@given(type_lines, steps, players, players, st.integers(1, 5), st.booleans())
def test_a_sorcery_speed_spell_is_never_castable_with_a_nonempty_stack(
    types, step, player, active, stack, waiting
):
    timing = may_cast_now(types, step=step, player=player, active=active, stack=stack,
                          waiting=waiting)  # fmt: skip
    if "Instant" not in types:
        assert timing.allowed is False


@given(type_lines, players, players, st.integers(0, 3), st.booleans(), st.booleans())
def test_nothing_is_cast_in_the_untap_step(types, player, active, stack, flash, waiting):
    timing = may_cast_now(
        types, step="untap", player=player, active=active, stack=stack, flash=flash,
        waiting=waiting,
    )  # fmt: skip
    assert (timing.allowed, timing.rule) == (False, "502.4")


@given(steps, players, players, st.integers(0, 3))
def test_a_sorcery_only_in_its_casters_main_phase_with_an_empty_stack(step, player, active, n):
    timing = may_cast_now(["Sorcery"], step=step, player=player, active=active, stack=n)
    assert timing.allowed == (player == active and step in MAIN_PHASES and n == 0)


@given(steps.filter(lambda s: s not in ("untap", "cleanup")), players, players, st.integers(0, 3))
def test_an_instant_or_flash_whenever_its_caster_has_priority(step, player, active, n):
    assert may_cast_now(["Instant"], step=step, player=player, active=active, stack=n).allowed
    flash = may_cast_now(["Creature"], step=step, player=player, active=active, stack=n,
                         flash=True)  # fmt: skip
    assert (flash.allowed, flash.rule) == (True, "702.8a")


def test_an_instant_in_a_cleanup_step_with_a_trigger_waiting():
    timing = may_cast_now(["Instant"], step="cleanup", player="Olek", active="Nadia",
                          waiting=True)  # fmt: skip
    assert timing.allowed is True
    assert may_cast_now(["Instant"], step="cleanup", player="Olek", active="Nadia").rule == "514.3"


def test_the_reasons_a_creature_spell_waits():
    def why(**kw):
        return may_cast_now(["Creature"], **({"step": "precombat_main", "player": "Nadia",
                                               "active": "Nadia"} | kw)).why  # fmt: skip

    assert why() == "sorcery_speed_ok"
    assert why(player="Olek") == "not_active"
    assert why(step="upkeep") == "not_main"
    assert why(stack=1) == "stack_not_empty"


def test_a_land_is_never_cast():
    with pytest.raises(ValueError, match="played, never cast"):
        may_cast_now(["Land"], step="precombat_main", player="Nadia", active="Nadia")


def test_turn_based_actions_of_each_step():
    expected = {
        "untap": ("untap", "703.4c"),
        "upkeep": ("none", "503.1"),
        "draw": ("draw", "703.4d"),
        "precombat_main": ("none", "505.4"),
        "beginning_of_combat": ("none", "507.1"),
        "declare_attackers": ("declare_attackers", "703.4i"),
        "declare_blockers": ("declare_blockers", "703.4j"),
        "combat_damage": ("combat_damage", "703.4m"),
        "end_of_combat": ("none", "511.1"),
        "postcombat_main": ("none", "505.4"),
        "end": ("none", "513.1"),
        "cleanup": ("cleanup", "703.4p"),
    }
    for step, (value, rule) in expected.items():
        ruling = turn_based_actions(step)
        assert (ruling.value, ruling.rule) == (value, rule), step


def test_the_starting_player_skips_the_first_draw_step_only_in_a_two_player_game():
    assert turn_based_actions("draw", first_turn=True).value == "skipped"  # 103.8a
    assert turn_based_actions("draw", first_turn=True, players=4).value == "draw"  # 103.8c
    assert turn_based_actions("draw", first_turn=False).value == "draw"


def test_sagas_and_a_defending_player_to_choose():
    assert turn_based_actions("precombat_main", sagas=True).rule == "703.4f"
    assert turn_based_actions("postcombat_main", sagas=True).value == "none"
    chosen = turn_based_actions("beginning_of_combat", players=3, all_opponents_defend=False)
    assert (chosen.value, chosen.rule) == ("choose_defender", "703.4h")


@given(steps.filter(lambda s: s not in ("untap", "cleanup")), st.integers(0, 3))
def test_a_step_ends_only_when_all_pass_in_succession_with_the_stack_empty(step, stack):
    everyone = ["Nadia", "Olek"]
    assert step_ends(step, ["Nadia"], everyone, stack).value is False  # 500.2
    assert step_ends(step, ["Nadia", "Olek"], everyone, stack).value == (stack == 0)  # 117.4


def test_a_step_without_priority_ends_when_its_actions_are_done():
    assert (step_ends("untap", [], ["Nadia", "Olek"], 0).rule) == "500.3"


def test_priority_passes_in_turn_order():
    assert priority_order("Olek", PLAYERS) == ["Olek", "Alice", "Nadia"]
    assert priority_order("Olek", PLAYERS, holder="Nadia") == PLAYERS


def test_an_unknown_step_is_refused():
    with pytest.raises(ValueError, match="unknown step"):
        priority_in_step("second_upkeep")

"""Triggered abilities: what an event triggers (603.2), leaves-the-battlefield look-back
(603.10a), intervening "if" clauses (603.4) and APNAP order (603.3b)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rules.engine.triggering import (
    Condition,
    Event,
    Permanent,
    Trigger,
    TriggeredAbility,
    resolves_on_resolution,
    trigger_order,
    triggers_on_event,
)

ANY_DIES = TriggeredAbility("dies", watches="any", types=frozenset({"Creature"}))
BLOOD_ARTIST = Permanent("Blood Artist", "Nadia", frozenset({"Creature"}), (ANY_DIES,))
ZULAPORT = Permanent("Zulaport Cutthroat", "Olek", frozenset({"Creature"}), (ANY_DIES,))
BEAR = Permanent("Grizzly Bears", "Olek", frozenset({"Creature"}))
ENTERS_IF = TriggeredAbility(
    "enters", watches="self", condition=Condition("life", "Nadia", at_least=40)
)
SOVEREIGNISH = Permanent("Watcher", "Nadia", frozenset({"Creature"}), (ENTERS_IF,))


def test_a_dies_trigger_sees_creatures_that_die_with_it():
    """603.10a's example: the watcher dies in the same wipe and still triggers for each."""
    before = [BLOOD_ARTIST, BEAR]
    result = triggers_on_event(before, [], Event("dies", (BLOOD_ARTIST, BEAR)))
    assert result.rule == "603.10a"
    assert [(t.source, t.event_object) for t in result.triggered] == [
        ("Blood Artist", "Blood Artist"),
        ("Blood Artist", "Grizzly Bears"),
    ]


def test_an_enters_trigger_looks_at_the_board_after_the_event():
    result = triggers_on_event(
        [], [SOVEREIGNISH], Event("enters", (SOVEREIGNISH,)), {"Nadia": {"life": 40}}
    )
    assert result.rule == "603.2"
    assert [t.source for t in result.triggered] == ["Watcher"]


def test_an_intervening_if_that_is_false_means_no_trigger_at_all():
    facts = {"Nadia": {"life": 39}}
    result = triggers_on_event([], [SOVEREIGNISH], Event("enters", (SOVEREIGNISH,)), facts)
    assert result.triggered == ()
    assert result.not_triggered == (("Watcher", "Watcher", "603.4"),)


def test_an_intervening_if_is_checked_again_on_resolution():
    trigger = Trigger("Watcher", "Nadia", "Watcher", ENTERS_IF)
    assert resolves_on_resolution(trigger, {"Nadia": {"life": 41}}) == (True, "603.4")
    assert resolves_on_resolution(trigger, {"Nadia": {"life": 12}}) == (False, "603.4")


def test_apnap_puts_the_active_players_triggers_first_so_they_resolve_last():
    dead = Event("dies", (BEAR,))
    found = triggers_on_event([BLOOD_ARTIST, ZULAPORT, BEAR], [], dead).triggered
    order = trigger_order(found, ["Nadia", "Olek"])
    assert [t.controller for t in order.put_on_stack] == ["Nadia", "Olek"]
    assert [t.source for t in order.resolves] == ["Zulaport Cutthroat", "Blood Artist"]
    assert order.rule == "603.3b"


def test_each_player_orders_only_their_own_triggers():
    a = Trigger("A", "Nadia", "x", ANY_DIES)
    b = Trigger("B", "Nadia", "y", ANY_DIES)
    order = trigger_order([a, b], ["Nadia", "Olek"], {"Nadia": [1, 0]})
    assert order.put_on_stack == (b, a)


PLAYERS = ["Nadia", "Olek", "Pia"]
triggers = st.lists(
    st.builds(
        Trigger,
        st.text("abc", min_size=1, max_size=3),
        st.sampled_from(PLAYERS),
        st.just("x"),
        st.just(ANY_DIES),
    ),
    max_size=8,
)


@given(triggers, st.permutations(PLAYERS), st.randoms())
def test_apnap_groups_by_turn_order_and_keeps_every_trigger_once(found, apnap, rnd):
    chosen = {}
    for player in apnap:
        picks = list(range(sum(t.controller == player for t in found)))
        rnd.shuffle(picks)
        chosen[player] = picks
    order = trigger_order(found, apnap, chosen).put_on_stack
    assert sorted(order, key=repr) == sorted(found, key=repr)
    ranks = [apnap.index(t.controller) for t in order]
    assert ranks == sorted(ranks)


@given(st.integers(0, 5), st.integers(0, 5))
def test_a_look_back_trigger_fires_once_per_creature_that_dies(bears, artists):
    bodies = [Permanent(f"Bear {i}", "Olek", frozenset({"Creature"})) for i in range(bears)]
    watchers = [
        Permanent(f"Artist {i}", "Nadia", frozenset({"Creature"}), (ANY_DIES,))
        for i in range(artists)
    ]
    everyone = watchers + bodies
    result = triggers_on_event(everyone, [], Event("dies", tuple(everyone)))
    assert len(result.triggered) == artists * (artists + bears)

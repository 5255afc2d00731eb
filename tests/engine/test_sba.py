"""State-based actions (704): acceptance scenarios and invariants.

Each acceptance test names the rule it rests on.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine.cards import parse_card_definition
from rules.engine.errors import ScenarioError
from rules.engine.sba import (
    Action,
    Board,
    Permanent,
    Player,
    check,
    from_definition,
    perform,
    run,
)

HILL_GIANT = parse_card_definition(
    {
        "name": "Hill Giant",
        "mana_cost": "{3}{R}",
        "types": ["Creature"],
        "subtypes": ["Giant"],
        "power": "3",
        "toughness": "3",
    }
)
PACIFISM = parse_card_definition(
    {
        "name": "Pacifism",
        "mana_cost": "{1}{W}",
        "types": ["Enchantment"],
        "subtypes": ["Aura"],
        "oracle": "Enchant creature\nEnchanted creature can't attack or block.",
    }
)
LILIANA = parse_card_definition(
    {
        "name": "Liliana of the Veil",
        "mana_cost": "{1}{B}{B}",
        "types": ["Planeswalker"],
        "supertypes": ["Legendary"],
        "subtypes": ["Liliana"],
        "loyalty": "3",
    }
)
NADIA, OMAR = Player("Nadia"), Player("Omar")


def _giant(label: str = "giant", **state: object) -> Permanent:
    return from_definition(label, HILL_GIANT, "Nadia", controller="Nadia", **state)


def test_the_catalog_card_carries_power_toughness_and_loyalty():
    assert (HILL_GIANT.power, HILL_GIANT.toughness) == ("3", "3")
    assert LILIANA.loyalty == "3"
    assert from_definition("p", PACIFISM, "Omar").enchant == "creature"


def test_an_aura_on_a_dying_creature_goes_one_check_later():
    """704.3 and 704.5m: the Hill Giant with 3 damage is destroyed (704.5g); Pacifism is still
    attached during that check, so it goes to the graveyard in the repeated check."""
    pacifism = from_definition("pacifism", PACIFISM, "Omar", controller="Omar", attached_to="giant")
    outcome = run(Board((NADIA, OMAR), (_giant(damage=3), pacifism)))
    assert [[(a.subject, a.rule) for a in c] for c in outcome.checks] == [
        [("giant", "704.5g")],
        [("pacifism", "704.5m")],
    ]
    assert outcome.checks[1][0].destination == "graveyard:Omar"
    assert outcome.losers == ()


def test_all_applicable_actions_happen_at_once():
    """704.3: the player at 0 life loses in the same check that destroys the creature and puts
    the planeswalker with 0 loyalty into its owner's graveyard (704.5a, 704.5g, 704.5i)."""
    liliana = from_definition("liliana", LILIANA, "Omar", counters={"loyalty": 0})
    board = Board((Player("Nadia", life=0), OMAR), (_giant(damage=5), liliana))
    outcome = run(board)
    assert len(outcome.checks) == 1
    assert {(a.subject, a.rule) for a in outcome.checks[0]} == {
        ("Nadia", "704.5a"),
        ("giant", "704.5g"),
        ("liliana", "704.5i"),
    }
    assert outcome.losers == ("Nadia",)


def test_indestructible_ignores_lethal_damage_but_not_zero_toughness():
    """702.12b and 704.5f: indestructible stops 704.5g, not toughness 0 or less."""
    myr = Permanent(
        "myr",
        "Darksteel Myr",
        "Nadia",
        types=frozenset({"Artifact", "Creature"}),
        toughness=1,
        damage=4,
        indestructible=True,
    )
    assert run(Board((NADIA,), (myr,))).checks == ()
    shrunk = Permanent(
        "myr",
        "Darksteel Myr",
        "Nadia",
        types=frozenset({"Artifact", "Creature"}),
        toughness=1,
        indestructible=True,
        counters={"-1/-1": 1},
    )
    assert [(a.rule, a.kind) for a in check(Board((NADIA,), (shrunk,)))] == [
        ("704.5f", "graveyard")
    ]


def test_the_legend_rule_lets_the_controller_keep_one():
    """704.5j: Omar controls two Liliana of the Veil; he keeps the one he chooses and the
    other goes to its owner's graveyard. Two players each controlling one are unaffected."""
    first = from_definition("first", LILIANA, "Omar", counters={"loyalty": 4})
    second = from_definition("second", LILIANA, "Omar", counters={"loyalty": 3})
    kept = run(Board((NADIA, OMAR), (first, second)), keep={"second"})
    assert [(a.subject, a.rule) for a in kept.actions] == [("first", "704.5j")]
    nadias = from_definition("nadias", LILIANA, "Nadia", counters={"loyalty": 3})
    assert check(Board((NADIA, OMAR), (first, nadias))) == ()
    with pytest.raises(ScenarioError):
        check(Board((OMAR,), (first, second)), keep={"first", "second"})


def test_a_token_that_dies_ceases_to_exist_in_the_next_check():
    """704.5d: a dying token goes to the graveyard, then ceases to exist when the check repeats."""
    token = Permanent(
        "zombie",
        "Zombie",
        "Nadia",
        types=frozenset({"Creature"}),
        toughness=2,
        damage=2,
        token=True,
    )
    outcome = run(Board((NADIA,), (token,)))
    assert [[a.rule for a in c] for c in outcome.checks] == [["704.5g"], ["704.5d"]]
    assert outcome.board.permanents == ()


def test_players_lose_for_poison_and_an_empty_library_draw():
    """704.5b and 704.5c: both players lose in the same check."""
    board = Board((Player("Nadia", poison=10), Player("Omar", drew_from_empty_library=True)))
    assert {(a.subject, a.rule) for a in check(board)} == {
        ("Nadia", "704.5c"),
        ("Omar", "704.5b"),
    }
    assert run(board).losers == ("Nadia", "Omar")
    assert run(board).board.players == ()


def test_an_aura_on_something_it_cannot_enchant_goes_to_the_graveyard():
    """704.5m: Pacifism ("Enchant creature") attached to a land, or to nothing."""
    land = Permanent("forest", "Forest", "Nadia", types=frozenset({"Land"}))
    on_land = from_definition("p", PACIFISM, "Omar", attached_to="forest")
    alone = from_definition("q", PACIFISM, "Omar")
    assert {a.subject for a in check(Board((NADIA,), (land, on_land, alone)))} == {"p", "q"}


PERMANENT = st.builds(
    Permanent,
    label=st.sampled_from(["a", "b", "c", "d", "e"]),
    name=st.sampled_from(["Hill Giant", "Liliana of the Veil", "Pacifism"]),
    owner=st.sampled_from(["Nadia", "Omar"]),
    types=st.sampled_from(
        [frozenset({"Creature"}), frozenset({"Planeswalker"}), frozenset({"Enchantment", "Aura"})]
    ),
    supertypes=st.sampled_from([frozenset(), frozenset({"Legendary"})]),
    toughness=st.integers(-1, 4),
    damage=st.integers(0, 5),
    indestructible=st.booleans(),
    token=st.booleans(),
    counters=st.fixed_dictionaries(
        {"+1/+1": st.integers(0, 2), "-1/-1": st.integers(0, 2), "loyalty": st.integers(0, 3)}
    ),
    enchant=st.just("creature"),
    attached_to=st.sampled_from(["", "a", "b", "c"]),
    zone=st.sampled_from(["battlefield", "battlefield", "graveyard"]),
)
BOARD = st.builds(
    Board,
    players=st.tuples(
        st.builds(
            Player, name=st.just("Nadia"), life=st.integers(-2, 3), poison=st.integers(8, 11)
        ),
        st.builds(Player, name=st.just("Omar"), drew_from_empty_library=st.booleans()),
    ),
    permanents=st.lists(PERMANENT, unique_by=lambda p: p.label, max_size=5).map(tuple),
)


@settings(max_examples=300, deadline=None)
@given(board=BOARD)
def test_a_settled_board_stays_settled_and_nothing_happens_twice(board):
    """704.3: checks repeat until one finds nothing; then checking again finds nothing
    (idempotent), every permanent leaves at most once, each player loses at most once, and
    every check's actions were all applicable to the board it was checked on."""
    outcome = run(board)
    assert check(outcome.board) == ()
    assert run(outcome.board).checks == ()
    moved = [a.subject for a in outcome.actions if a.destination]
    assert len(moved) == len(set(moved))
    assert len(outcome.losers) == len(set(outcome.losers))
    replay = board
    for actions in outcome.checks:
        assert check(replay) == actions
        replay = perform(replay, actions)
    assert replay == outcome.board


@settings(max_examples=200, deadline=None)
@given(board=BOARD, data=st.data())
def test_a_check_does_not_depend_on_the_order_it_looks_at_permanents(board, data):
    """704.3: the actions of one check happen simultaneously, so listing the permanents in
    another order finds the same actions (the legend rule's choice is fixed by `keep`)."""
    firsts: dict[tuple[str, str], str] = {}
    for p in board.permanents:  # the one each player keeps of their legendary ones of a name
        if "Legendary" in p.supertypes and p.zone == "battlefield":
            firsts.setdefault((p.holder, p.name), p.label)
    keep = set(firsts.values())
    shuffled = data.draw(st.permutations(board.permanents))
    other = Board(board.players, tuple(shuffled))
    assert set(check(board, keep)) == set(check(other, keep))


# Through a scenario: state-based actions after the step resolves (704.3, 704.5m).
from rules.engine import evaluate_claim, resolve  # noqa: E402

from .builders import card, cast, scenario  # noqa: E402

_LOCAL = [
    card(
        "Murder",
        types=["Instant"],
        mana_cost="{1}{B}{B}",
        oracle="Destroy target creature.",
        targets=[{"kind": "permanent", "filter": {"types": ["Creature"]}}],
        spell=[{"destroy": {"what": "target"}}],
    ),
    card(
        "Hill Giant",
        types=["Creature"],
        mana_cost="{3}{R}",
        subtypes=["Giant"],
        toughness="3",
        power="3",
    ),
    card(
        "Pacifism",
        types=["Enchantment"],
        subtypes=["Aura"],
        mana_cost="{1}{W}",
        oracle="Enchant creature\nEnchanted creature can't attack or block.",
    ),
]


def _murder_the_giant() -> dict:
    return scenario(
        cards=_LOCAL,
        zones={
            "Alice": {"hand": ["Murder"]},
            "Nadia": {
                "battlefield": [
                    "Hill Giant#giant",
                    {"card": "Pacifism", "label": "pacifism", "attached_to": "giant"},
                ]
            },
        },
        resolve=cast("Murder", "Alice", targets=["giant"]),
    )


def test_an_aura_whose_creature_is_destroyed_goes_to_the_graveyard():
    """704.5m through `resolve`: Murder destroys Nadia's Hill Giant; Pacifism, attached to it,
    is attached to nothing when state-based actions are checked and goes to her graveyard."""
    outcome = resolve(_murder_the_giant())
    giant = outcome.find("zone_after", card="giant")
    pacifism = outcome.find("zone_after", card="pacifism")
    assert giant.value == "graveyard"
    assert (pacifism.value, pacifism.rule) == ("graveyard", "704.5m")
    assert "Hill Giant" in pacifism.reason


def test_an_aura_stays_when_its_creature_stays():
    spec = _murder_the_giant()
    spec["zones"]["Nadia"]["battlefield"][0] = "Hill Giant#giant"
    spec["cards"][1]["oracle"] = "Indestructible"
    spec["cards"][1]["keywords"] = {"indestructible": True}
    assert evaluate_claim(spec, {"claim": "zone_after", "card": "giant"}).rule == "702.12b"
    stays = evaluate_claim(spec, {"claim": "zone_after", "card": "pacifism"})
    assert (stays.value, stays.rule) == ("battlefield", "400.7")


# ---------------------------------------------------------------- 704.5h, 704.5q, 104.4a


def test_deathtouch_damage_destroys_whatever_the_toughness():
    """704.5h: one damage from a source with deathtouch destroys a 3/3; indestructible keeps it
    (702.12b: it can't be destroyed)."""
    board = Board((NADIA, OMAR), (_giant(damage=1, deathtouch_damage=True),))
    assert check(board) == (Action("destroyed", "giant", "704.5h", "graveyard:Nadia"),)
    tough = Board((NADIA, OMAR), (_giant(damage=1, deathtouch_damage=True, indestructible=True),))
    assert check(tough) == ()


def test_plus_and_minus_counters_annihilate_in_pairs():
    """704.5q: two +1/+1 and three -1/-1 counters: two of each come off, one -1/-1 stays."""
    giant = _giant(counters={"+1/+1": 2, "-1/-1": 3})
    outcome = run(Board((NADIA, OMAR), (giant,)))
    assert outcome.actions == (Action("counters_removed", "giant", "704.5q", count=2),)
    assert outcome.board.permanent("giant").counters == {"-1/-1": 1}
    assert outcome.board.permanent("giant").current_toughness == 2


def test_a_creature_with_toughness_zero_goes_even_with_both_counters():
    """704.5f and 704.5q apply in the same check; the creature already left when the counters
    would come off: a 3/3 with one +1/+1 and four -1/-1 counters is put into the graveyard."""
    giant = _giant(counters={"+1/+1": 1, "-1/-1": 4})
    outcome = run(Board((NADIA, OMAR), (giant,)))
    assert [a.rule for a in outcome.actions] == ["704.5f"]


def test_all_players_losing_at_once_is_a_draw():
    """104.4a: Nadia at 0 life and Omar with ten poison counters lose in one check: a draw."""
    outcome = run(Board((Player("Nadia", life=0), Player("Omar", poison=10))))
    assert outcome.draw
    assert outcome.outcome("Nadia") == outcome.outcome("Omar") == "draw"
    one = run(Board((Player("Nadia", life=0), OMAR)))
    assert not one.draw
    assert (one.outcome("Nadia"), one.outcome("Omar")) == ("loses", "plays_on")


def test_a_token_with_lethal_damage_ends_ceasing_to_exist():
    """704.5g then 704.5d: the token is destroyed, then ceases to exist in the next check."""
    token = _giant("token", damage=3, token=True)
    outcome = run(Board((NADIA, OMAR), (token,)))
    assert outcome.destination("token") == "ceases_to_exist"
    assert outcome.happened_to("token").rule == "704.5g"


@settings(max_examples=200, deadline=None)
@given(plus=st.integers(0, 6), minus=st.integers(0, 6), toughness=st.integers(1, 8))
def test_counters_keep_only_one_kind_and_toughness_is_unchanged(plus, minus, toughness):
    """704.5q: after the checks no permanent has both kinds, and removing pairs never changes
    toughness (a pair adds +1 and -1)."""
    creature = Permanent(
        "c",
        "Hill Giant",
        "Nadia",
        types=frozenset({"Creature"}),
        toughness=toughness,
        counters={"+1/+1": plus, "-1/-1": minus},
    )
    before = creature.current_toughness
    outcome = run(Board((NADIA, OMAR), (creature,)))
    after = outcome.board.permanent("c")
    if after.zone == "battlefield":
        assert min(after.counters.get("+1/+1", 0), after.counters.get("-1/-1", 0)) == 0
        assert after.current_toughness == before
    else:
        assert before <= 0


@settings(max_examples=200, deadline=None)
@given(board=BOARD)
def test_a_draw_only_when_every_remaining_player_loses_at_once(board):
    """104.4a: the game is a draw exactly when one check makes every player still in the game
    lose; a player who loses otherwise loses, and the others play on."""
    outcome = run(board)
    everyone = {p.name for p in board.players}
    first_losses = next(
        (
            frozenset(a.subject for a in c if a.kind == "loses")
            for c in outcome.checks
            if any(a.kind == "loses" for a in c)
        ),
        frozenset(),
    )
    assert outcome.draw == (first_losses == everyone)
    for player in everyone:
        assert outcome.outcome(player) in ("draw", "loses", "plays_on")

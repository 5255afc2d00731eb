"""The board drawn from a scenario: zones in order, hidden zones marked, empty zones kept, cards
named by name and place and referred to by opaque references, identical runs grouped."""

from __future__ import annotations

import json

from django.utils import translation

from quizzes.loading import CONTENT_DIR
from quizzes.rulings.board import build_board, ordinal
from quizzes.rulings.claims import counters_text
from rules.engine import parse_scenario


def board_of(spec: dict, asked: frozenset[str] = frozenset()):
    return build_board(parse_scenario(spec), asked)


def content_spec(name: str) -> dict:
    return json.loads((CONTENT_DIR / "scenarios" / f"{name}.json").read_text())


def zones_of(board, player: str) -> dict:
    view = next(p for p in board.players if p.name == player)
    return {zone.name: zone for zone in view.zones}


def test_an_empty_zone_the_author_lists_is_shown_empty():
    zones = zones_of(board_of(content_spec("lobotomy-empty-hand")), "Nadia")
    assert zones["hand"].cards == ()
    assert zones["hand"].hidden


def test_cards_outside_the_game_are_not_called_a_hidden_zone():
    """Outside the game is not a zone (CR 400.11): the board says so, not "hidden zone"."""
    zones = zones_of(board_of(content_spec("burning-wish-outside-the-game")), "Alice")
    outside = zones["outside"]
    assert str(outside.title) == "Outside the game"
    assert outside.not_a_zone and not outside.hidden
    assert zones["hand"].hidden and not zones["hand"].not_a_zone


def test_zones_the_author_leaves_out_are_not_drawn():
    zones = zones_of(board_of(content_spec("lobotomy-empty-hand")), "Nadia")
    assert "exile" not in zones and "battlefield" not in zones


def test_library_cards_keep_their_order_top_first():
    library = zones_of(board_of(content_spec("lobotomy-empty-hand")), "Nadia")["library"]
    assert [card.position for card in library.cards] == [1, 2]
    assert library.cards[0].label == "lc"


def two_player_spec() -> dict:
    return {
        "format": "scenario/1",
        "id": "names",
        "title": "t",
        "source": "s",
        "players": ["Alice", "Nadia"],
        "zones": {
            "Alice": {"graveyard": ["Island#i1", "Island#i2", "Forest#f"]},
            "Nadia": {"library": ["Howling Mine#mine", *["Mountain"] * 20, "Island#deep"]},
        },
    }


def test_cards_are_named_by_name_and_place():
    board = board_of(two_player_spec())
    assert board.name("mine") == "the Howling Mine on top of Nadia's library"
    assert board.name("deep") == "the Island 22nd from the top of Nadia's library"
    assert board.name("i2") == "the second Island in Alice's graveyard"
    assert board.name("f") == "the Forest in Alice's graveyard"


def test_the_spell_being_cast_is_named_as_the_spell():
    """It leaves the hand as it resolves: "How many +1/+1 counters are on the Hangarback Walker
    in Jonas's hand afterwards?" misled a learner walking the app (it ends on the battlefield).
    With another card of its name on the board, its place still tells them apart."""
    spec = content_spec("x-in-enters-ability")
    assert board_of(spec).name("walker") == "Hangarback Walker"
    spec["zones"]["Alice"]["library"] = ["Hangarback Walker#other"]
    assert board_of(spec).name("walker") == "the Hangarback Walker in Alice's hand"


def test_references_are_opaque_and_map_back():
    board = board_of(two_player_spec())
    refs = [card.ref for card in board.cards.values()]
    assert len(set(refs)) == len(refs)
    assert not {ref.removeprefix("card-") for ref in refs} & set(board.cards)
    assert all(board.label_of(board.ref(label)) == label for label in board.cards)
    other = build_board(parse_scenario(two_player_spec()), salt="another variant")
    assert not set(refs) & {card.ref for card in other.cards.values()}


def test_a_run_of_identical_cards_is_one_group_unless_asked():
    library = zones_of(board_of(two_player_spec()), "Nadia")["library"]
    grouped = [run for run in library.runs if run.grouped]
    assert len(grouped) == 1 and len(grouped[0].cards) == 20
    asked = zones_of(board_of(two_player_spec(), frozenset({"Nadia.library.5"})), "Nadia")
    assert all(len(run.cards) < 20 for run in asked["library"].runs)


def test_ordinals_read_as_words_then_numbers():
    assert [ordinal(n) for n in (1, 2, 10, 11, 21, 22, 23, 112)] == [
        "first", "second", "tenth", "11th", "21st", "22nd", "23rd", "112th",
    ]  # fmt: skip


def alices_battlefield(*cards) -> dict:
    return {
        "format": "scenario/1",
        "id": "battlefield",
        "title": "t",
        "source": "s",
        "players": ["Alice", "Nadia"],
        "zones": {"Alice": {"battlefield": list(cards)}},
    }


def test_what_a_card_is_attached_to_and_when_it_entered_are_written_out():
    """Premises the engine reads off a card are on the board: an Aura's land, summoning
    sickness, counters (a question can turn on each)."""
    board = board_of(
        alices_battlefield(
            "Forest#f",
            {"card": "Overgrowth", "label": "aura", "attached_to": "f"},
            {"card": "Llanowar Elves", "label": "elf", "entered_this_turn": True},
            {"card": "Grizzly Bears", "label": "bear", "summoning_sick": True},
            {"card": "Grizzly Bears", "label": "big", "counters": {"+1/+1": 2}},
        )
    )
    assert board.card("aura").states == ("attached to the Forest Alice controls",)
    assert board.card("elf").states == ("entered the battlefield this turn",)
    assert board.card("bear").states == (
        "not under Alice's control since their most recent turn began",
    )
    assert board.card("big").states == ("2 +1/+1 counters",)
    assert board.card("f").states == ()


def test_cards_in_different_states_are_not_grouped():
    spec = alices_battlefield(
        *["Grizzly Bears"] * 3,
        {"card": "Grizzly Bears", "label": "new", "entered_this_turn": True},
    )
    battlefield = zones_of(board_of(spec), "Alice")["battlefield"]
    assert [len(run.cards) for run in battlefield.runs] == [3, 1]


def test_a_trigger_says_what_set_it_off_in_words():
    """The page said "Veteran Explorer's ability triggers (dies)": the engine's event name, in
    every language (found walking an exam in Italian)."""
    from django.utils import translation

    board = board_of(content_spec("mindcensor-veteran-explorer"))
    assert board.resolving.text == "Veteran Explorer's ability triggers (when it dies)"
    with translation.override("it"):
        board = board_of(content_spec("mindcensor-veteran-explorer"))
        assert board.resolving.text.endswith("si innesca (quando muore)")


def test_every_trigger_event_the_engine_knows_has_words():
    from quizzes.rulings.board import TRIGGER_EVENT_WORDS
    from rules.engine.cards import TRIGGER_EVENTS

    assert set(TRIGGER_EVENTS) <= set(TRIGGER_EVENT_WORDS), sorted(
        set(TRIGGER_EVENTS) - set(TRIGGER_EVENT_WORDS)
    )


def test_a_cards_reference_is_djangos_salted_hmac_of_its_label_and_salt():
    from django.utils.crypto import salted_hmac

    from quizzes.rulings.board import REF_KEY_SALT, card_ref

    for label, salt in (("Forest#f1", "0"), ("Shock", "3"), ("", "")):
        expected = salted_hmac(REF_KEY_SALT, f"{salt}:{label}").hexdigest()[:12]
        assert card_ref(label, salt) == f"card-{expected}"
    assert card_ref("Forest#f1", "0") != card_ref("Forest#f1", "1")  # another variant, another


def test_an_ability_of_one_of_two_same_named_cards_says_which_one_acts():
    """ "Jonas activates an ability of Forest." with two Forests on the board, one enchanted with
    Overgrowth, left out which one was tapped: whether Overgrowth triggers (found walking
    practice as a new learner)."""
    from django.utils import translation

    spec = content_spec("tapped-for-mana-trigger-no-mana")
    spec["zones"]["Alice"]["battlefield"] = [
        "Forest#f1",
        "Forest#f2",
        {"card": "Overgrowth", "label": "overgrowth", "attached_to": "f2"},
    ]
    spec["resolve"] = {"activate": "f1", "by": "Alice"}
    assert (
        board_of(spec).resolving.text
        == "Alice activates an ability of the first Forest Alice controls"
    )
    spec["resolve"] = {"activate": "f2", "by": "Alice"}
    assert board_of(spec).resolving.text.endswith("the second Forest Alice controls")
    with translation.override("de"):
        assert board_of(spec).resolving.text.endswith(
            ": die zweite Karte „Wald“ unter der Kontrolle von Alice"
        )
    unique = content_spec("tapped-for-mana-trigger-no-mana")  # one Reflecting Pool: its name
    assert board_of(unique).resolving.text == "Alice activates an ability of Reflecting Pool"


def test_a_creature_shows_the_spells_that_resolved_targeting_it_in_order():
    """Layer 7 questions turn on which spells affect a creature and their order (613.7b): the
    board says both beside the creature."""
    spec = json.loads(
        (
            CONTENT_DIR.parent.parent / "tests/engine/scenarios/anthem-applies-after-diminish.json"
        ).read_text()
    )
    assert board_of(spec).card("angel").states == ("Diminish resolved targeting it this turn",)
    spec["zones"]["Olek"]["graveyard"].append("Twisted Image#twist")
    spec["zones"]["Nadia"]["battlefield"][1]["effects"] = ["twist", "diminish"]
    assert board_of(spec).card("angel").states == (
        "this turn, spells resolved targeting it in this order: Twisted Image, then Diminish",
    )


def test_a_spell_in_a_cards_notes_is_marked_english_where_it_has_no_german_name():
    """Issue 23: a German board named Titanic Growth and Diminish unmarked in a card's notes."""
    spec = json.loads(
        (
            CONTENT_DIR.parent.parent / "tests/engine/scenarios/anthem-applies-after-diminish.json"
        ).read_text()
    )
    with translation.override("de"):
        (state,) = board_of(spec).card("angel").states
    assert (
        state == 'in diesem Zug wurde <span lang="en">Diminish</span> mit ihr als Ziel verrechnet'
    )


def test_loyalty_counters_are_named_in_the_readers_language():
    """A German board said "2 loyalty-Marken" (issue 23)."""
    assert counters_text(2, "loyalty") == "2 loyalty counters"
    with translation.override("de"):
        assert counters_text(2, "loyalty") == "2 Loyalitätsmarken"
        assert counters_text(1, "+1/+1") == "1 +1/+1-Marke"
    with translation.override("it"):
        assert counters_text(1, "loyalty") == "1 segnalino fedeltà"

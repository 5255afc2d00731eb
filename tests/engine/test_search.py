"""CR 701.23 a-j, one behaviour per test, through the engine's public API."""

from __future__ import annotations

from rules.engine import evaluate_claim

from .builders import (
    BASIC_LAND_FILTER,
    card,
    cast,
    claim,
    scenario,
    search,
    search_spell,
    shuffle,
    trigger,
    tutor_spell,
    vanilla,
)

BOLT = vanilla("Lightning Bolt", ("Instant",), "{R}")
PYROCLASM = vanilla("Pyroclasm", ("Sorcery",), "{1}{R}")
BEARS = vanilla("Grizzly Bears", ("Creature",), "{1}{G}")


def _value(spec: dict, name: str, **subject: object) -> object:
    return evaluate_claim(spec, claim(name, **subject)).value


def _tutor_scenario(library: list[str], **tutor: object) -> dict:
    return scenario(
        cards=[tutor_spell("Test Tutor", **tutor), BOLT],
        zones={"Alice": {"library": library}},
        resolve=cast("Test Tutor", "Alice"),
    )


# ---------------------------------------------------------------- 701.23a: look at all the cards


def test_701_23a_the_bottom_card_of_a_long_library_can_be_found() -> None:
    library = [f"Island#i{n}" for n in range(1, 40)] + ["Lightning Bolt#bottom"]
    spec = _tutor_scenario(library, card_filter={"types": ["Instant"]})
    assert _value(spec, "finds", card="bottom") == "may"


def test_701_23a_a_card_not_matching_the_description_cannot_be_found() -> None:
    spec = _tutor_scenario(
        ["Island#island", "Lightning Bolt#bolt"], card_filter={"types": ["Instant"]}
    )
    assert _value(spec, "finds", card="island") == "cannot"


def test_701_23a_cards_in_zones_not_searched_cannot_be_found() -> None:
    spec = scenario(
        cards=[tutor_spell("Test Tutor", card_filter={"types": ["Instant"]}), BOLT],
        zones={"Alice": {"library": ["Island"], "graveyard": ["Lightning Bolt#gybolt"]}},
        resolve=cast("Test Tutor", "Alice"),
    )
    assert _value(spec, "finds", card="gybolt") == "cannot"


def test_701_23a_a_mandatory_search_must_be_performed() -> None:
    spec = _tutor_scenario(["Island"], card_filter={"types": ["Instant"]})
    assert _value(spec, "searches", player="Alice") == "must"


# ---------------------------------------------------------------- 701.23b: stated quality


def test_701_23b_stated_quality_in_a_library_may_be_left_unfound() -> None:
    spec = _tutor_scenario(["Lightning Bolt#bolt", "Island"], card_filter={"types": ["Instant"]})
    assert _value(spec, "finds", card="bolt") == "may"
    assert _value(spec, "found_count", searcher="Alice") == [0, 1]


def test_701_23b_all_cards_with_a_name_in_a_graveyard_must_be_found() -> None:
    spec = scenario(
        zones={
            "Nadia": {
                "battlefield": ["Howling Mine#mine"],
                "graveyard": ["Howling Mine#gy1", "Howling Mine#gy2"],
            }
        },
        resolve=cast("Splinter", "Alice", targets=["mine"]),
    )
    assert _value(spec, "finds", card="gy1") == "must"
    assert _value(spec, "finds", card="gy2") == "must"


def test_701_23b_all_cards_with_a_name_in_a_hand_may_be_left_unfound() -> None:
    spec = scenario(
        zones={"Nadia": {"battlefield": ["Howling Mine#mine"], "hand": ["Howling Mine#inhand"]}},
        resolve=cast("Splinter", "Alice", targets=["mine"]),
    )
    assert _value(spec, "finds", card="inhand") == "may"


def test_701_23b_the_count_of_an_all_search_runs_from_public_to_every_match() -> None:
    spec = scenario(
        zones={
            "Nadia": {
                "battlefield": ["Howling Mine#mine"],
                "graveyard": ["Howling Mine", "Howling Mine"],
                "hand": ["Howling Mine"],
                "library": ["Howling Mine", "Island", "Howling Mine"],
            }
        },
        resolve=cast("Splinter", "Alice", targets=["mine"]),
    )
    assert _value(spec, "found_count", searcher="Alice", whose="Nadia") == [2, 5]


def test_701_23b_any_number_lets_the_searcher_leave_graveyard_cards() -> None:
    extraction = search_spell(
        "Test Extraction",
        search(
            whose="owner_of_target",
            zones=("graveyard", "hand", "library"),
            count="any_number",
            card_filter={"same_name_as": "target"},
            put="exile",
        ),
        shuffle("owner_of_target"),
        types=("Instant",),
    )
    extraction["targets"] = [{"kind": "card"}]
    spec = scenario(
        cards=[extraction, BOLT],
        zones={"Nadia": {"graveyard": ["Lightning Bolt#target", "Lightning Bolt#other"]}},
        resolve=cast("Test Extraction", "Alice", targets=["target"]),
    )
    assert _value(spec, "finds", card="other") == "may"
    assert _value(spec, "found_count", searcher="Alice", whose="Nadia") == [0, 2]


def test_701_23b_different_names_caps_the_count_at_the_distinct_names() -> None:
    spec = _tutor_scenario(
        ["Island", "Island", "Island", "Lightning Bolt"],
        count=4,
        up_to=True,
        card_filter={"different_names": True},
    )
    assert _value(spec, "found_count", searcher="Alice") == [0, 2]


# ---------------------------------------------------------------- 701.23c: undefined quality


def test_701_23c_lobotomy_on_an_empty_hand_finds_nothing() -> None:
    spec = scenario(
        cards=[vanilla("Counterspell", ("Instant",), "{U}{U}")],
        zones={"Nadia": {"hand": [], "graveyard": ["Counterspell#gc"]}},
        resolve=cast("Lobotomy", "Alice", targets=["Nadia"]),
    )
    assert _value(spec, "finds", card="gc") == "cannot"
    assert _value(spec, "found_count", searcher="Alice", whose="Nadia") == [0, 0]


def test_701_23c_the_player_still_searches_with_an_undefined_quality() -> None:
    spec = scenario(
        zones={"Nadia": {"hand": [], "library": ["Island"]}},
        resolve=cast("Lobotomy", "Alice", targets=["Nadia"]),
    )
    assert _value(spec, "searches", player="Alice") == "must"


# ---------------------------------------------------------------- 701.23d: a quantity of cards


def test_701_23d_a_search_for_a_card_must_find_one() -> None:
    spec = _tutor_scenario(["Island", "Lightning Bolt"])
    assert _value(spec, "found_count", searcher="Alice") == [1, 1]


def test_701_23d_a_search_for_three_cards_finds_as_many_as_possible() -> None:
    spec = _tutor_scenario(["Island", "Lightning Bolt"], count=3)
    assert _value(spec, "found_count", searcher="Alice") == [2, 2]


def test_701_23d_the_only_card_of_a_one_card_library_must_be_found() -> None:
    spec = _tutor_scenario(["Lightning Bolt#only"])
    assert _value(spec, "finds", card="only") == "must"


def test_701_23d_an_empty_library_finds_nothing() -> None:
    spec = _tutor_scenario([])
    assert _value(spec, "found_count", searcher="Alice") == [0, 0]


# ---------------------------------------------------------------- 701.23e: reveal


def test_701_23e_found_cards_are_not_revealed_unless_the_effect_says_so() -> None:
    spec = _tutor_scenario(["Island"])
    assert _value(spec, "revealed", searcher="Alice") is False


def test_701_23e_found_cards_are_revealed_when_the_effect_says_so() -> None:
    spec = _tutor_scenario(["Island"], card_filter=BASIC_LAND_FILTER, reveal=True)
    assert _value(spec, "revealed", searcher="Alice") is True


# ---------------------------------------------------------------- 701.23f: a portion of the zone


def _mindcensor_tutor(library: list[str]) -> dict:
    return scenario(
        zones={"Alice": {"battlefield": ["Aven Mindcensor#censor"]}, "Nadia": {"library": library}},
        resolve=cast("Demonic Tutor", "Nadia"),
    )


def test_701_23f_an_opponent_of_mindcensor_searches_the_top_four() -> None:
    spec = _mindcensor_tutor(["Island", "Island", "Island", "Island", "Swamp#fifth"])
    assert _value(spec, "searched_portion", player="Nadia") == "top 4"
    assert _value(spec, "finds", card="fifth") == "cannot"


def test_701_23f_the_whole_library_is_shuffled_after_searching_a_portion() -> None:
    spec = _mindcensor_tutor(["Island", "Island", "Island", "Island", "Swamp"])
    assert _value(spec, "shuffled_portion", player="Nadia") == "library"


def test_701_23f_searching_a_portion_still_counts_as_searching_the_library() -> None:
    spec = _mindcensor_tutor(["Island", "Island", "Island", "Island", "Swamp"])
    assert _value(spec, "searched_library_this_turn", player="Nadia") == "yes"


def test_701_23f_a_search_trigger_triggers_on_a_portion() -> None:
    spec = scenario(
        zones={
            "Alice": {"battlefield": ["Aven Mindcensor#censor", "Ob Nixilis, Unshackled#ob"]},
            "Nadia": {"library": ["Island", "Island", "Island", "Island", "Swamp"]},
        },
        resolve=cast("Demonic Tutor", "Nadia"),
    )
    assert _value(spec, "triggers", card="ob") == 1


# ---------------------------------------------------------------- 701.23g: may search regardless


def test_701_23g_a_player_may_search_with_no_basic_land_to_find() -> None:
    spec = scenario(
        cards=[BOLT],
        zones={
            "Alice": {"graveyard": ["Veteran Explorer#explorer"], "library": ["Lightning Bolt"]}
        },
        resolve=trigger("explorer"),
    )
    assert _value(spec, "searches", player="Alice") == "may"
    assert _value(spec, "found_count", searcher="Alice") == [0, 0]


# ---------------------------------------------------------------- 701.23h: searching twice


def test_701_23h_two_searches_before_one_shuffle_are_one_search() -> None:
    double = search_spell(
        "Test Double Tutor",
        search(card_filter=BASIC_LAND_FILTER, put="battlefield"),
        search(card_filter={"types": ["Instant"]}),
        shuffle("you"),
    )
    spec = scenario(
        cards=[double, BOLT],
        zones={
            "Alice": {"battlefield": ["Ob Nixilis, Unshackled#ob"]},
            "Nadia": {"library": ["Forest", "Lightning Bolt"]},
        },
        resolve=cast("Test Double Tutor", "Nadia"),
    )
    assert _value(spec, "triggers", card="ob") == 1


# ---------------------------------------------------------------- 701.23i: APNAP


def test_701_23i_searchers_decide_in_apnap_order_from_the_active_player() -> None:
    spec = scenario(
        players=("Alice", "Bob", "Carol"),
        active="Bob",
        zones={"Carol": {"graveyard": ["Veteran Explorer#explorer"]}},
        resolve=trigger("explorer"),
    )
    assert _value(spec, "decision_order") == ["Bob", "Carol", "Alice"]


def test_701_23i_two_player_order_starts_with_the_active_player() -> None:
    spec = scenario(
        players=("Alice", "Nadia"),
        active="Nadia",
        zones={"Alice": {"graveyard": ["Veteran Explorer#explorer"]}},
        resolve=trigger("explorer"),
    )
    assert _value(spec, "decision_order") == ["Nadia", "Alice"]


# ---------------------------------------------------------------- 701.23j: outside the game


def _wish_scenario() -> dict:
    wish = card(
        "Test Wish",
        types=["Sorcery"],
        mana_cost="{1}{R}",
        spell=[
            search(
                zones=("outside",),
                up_to=True,
                card_filter={"types": ["Sorcery"]},
                reveal=True,
            )
        ],
    )
    return scenario(
        cards=[wish, PYROCLASM, BOLT],
        zones={
            "Alice": {"outside": ["Pyroclasm#mine", "Lightning Bolt#instant"]},
            "Nadia": {"outside": ["Pyroclasm#theirs"]},
        },
        resolve=cast("Test Wish", "Alice"),
    )


def test_701_23j_a_card_the_player_owns_outside_the_game_may_be_chosen() -> None:
    assert _value(_wish_scenario(), "finds", card="mine") == "may"


def test_701_23j_a_card_another_player_owns_outside_the_game_cannot_be_chosen() -> None:
    assert _value(_wish_scenario(), "finds", card="theirs") == "cannot"


def test_701_23j_the_filter_still_applies_outside_the_game() -> None:
    assert _value(_wish_scenario(), "finds", card="instant") == "cannot"


def test_a_card_of_a_different_names_search_is_worded_as_one_card() -> None:
    """Different names" is said of the cards found together; one of them is "a card" (a
    learner read "Mystical Teachings is a cards with different names in a hidden zone")."""
    spec = _tutor_scenario(
        ["Lightning Bolt#bolt", "Island"],
        count=4,
        up_to=True,
        card_filter={"different_names": True},
    )
    reason = evaluate_claim(spec, claim("finds", card="bolt")).reason
    assert reason.startswith("Lightning Bolt is a card in a hidden zone (library)")
    assert "a cards" not in reason


def test_400_11_a_wish_chooses_from_outside_the_game_and_searches_no_zone() -> None:
    """Outside the game is not a zone (400.11): a wish's reason and rule say a choice of a card
    brought into the game (400.11b), never a search of a hidden zone; the values stay."""
    spec = _wish_scenario()
    mine = evaluate_claim(spec, claim("finds", card="mine"))
    assert (mine.value, mine.rule) == ("may", "400.11b")
    assert "Alice owns outside the game" in mine.reason and "hidden zone" not in mine.reason
    theirs = evaluate_claim(spec, claim("finds", card="theirs"))
    assert (theirs.value, theirs.rule) == ("cannot", "400.11c")
    count = evaluate_claim(spec, claim("found_count", searcher="Alice"))
    assert (count.value, count.rule) == ([0, 1], "400.11b")
    assert "hidden zone" not in count.reason and "outside the game" in count.reason


def test_400_11b_a_wish_reveals_by_its_own_instruction_not_a_searchs() -> None:
    reveal = evaluate_claim(_wish_scenario(), claim("revealed", searcher="Alice"))
    assert (reveal.value, reveal.rule) == (True, "608.2c")
    assert "outside the game" in reveal.reason


def test_400_11b_a_wish_with_nothing_to_choose_says_so_without_a_find() -> None:
    """No card the wish may choose: "none can be brought into the game", not "No qualifying
    card can be found." (a wish finds nothing; it chooses from outside the game)."""
    spec = _wish_scenario()
    spec["zones"]["Alice"]["outside"] = ["Lightning Bolt#instant"]
    count = evaluate_claim(spec, claim("found_count", searcher="Alice"))
    assert count.value == [0, 0]
    assert "found" not in count.reason and "outside the game" in count.reason


def test_400_11b_a_wish_words_its_one_card_and_another_players_card_as_choices() -> None:
    """A wish with one card to choose says "choose", not "The search is for 1 card ... must be
    found, if Alice searches at all"; another player's card is theirs, not "nothing brings it
    into the game" (the wish does, for its own player's cards)."""
    spec = _wish_scenario()
    death_wish = search(zones=("outside",), may=True)  # "You may reveal a card you own ..."
    spec["cards"][0] = {**spec["cards"][0], "spell": [death_wish]}
    spec["zones"]["Alice"]["outside"] = ["Pyroclasm#mine"]
    mine = evaluate_claim(spec, claim("finds", card="mine"))
    assert (mine.value, mine.rule) == ("may", "400.11b")
    assert "search" not in mine.reason and "found" not in mine.reason
    count = evaluate_claim(spec, claim("found_count", searcher="Alice"))
    assert count.value == [0, 1] and "search" not in count.reason
    theirs = evaluate_claim(spec, claim("finds", card="theirs"))
    assert (theirs.value, theirs.rule) == ("cannot", "400.11c")
    assert "Nadia's" in theirs.reason and "only a card they own" in theirs.reason

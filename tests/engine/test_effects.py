"""Continuous effects on searching: each prohibition shape, the Mindcensor replacement, and the
shuffle rulings that follow from them (Ashiok, Leonin Arbiter and Stranglehold rulings)."""

from __future__ import annotations

from rules.engine import evaluate_claim

from .builders import (
    BASIC_LAND_FILTER,
    activate,
    card,
    cast,
    claim,
    scenario,
    search,
    search_spell,
    shuffle,
    trigger,
)

BEARS = card("Grizzly Bears", types=["Creature"], mana_cost="{1}{G}", subtypes=["Bear"])


def _value(spec: dict, name: str, **subject: object) -> object:
    return evaluate_claim(spec, claim(name, **subject)).value


def _hoser(name: str, **prohibition: object) -> dict:
    """A permanent with one search prohibition, e.g. who="opponents"."""
    return card(
        name,
        types=["Enchantment"],
        mana_cost="{3}",
        static=[{"search_prohibition": dict(prohibition)}],
    )


def _wilds_under(hoser_zone: dict, hoser_cards: tuple[dict, ...] = ()) -> dict:
    return scenario(
        players=("Nadia", "Alice"),
        cards=list(hoser_cards),
        zones={
            "Alice": hoser_zone,
            "Nadia": {"battlefield": ["Evolving Wilds#wilds"], "library": ["Forest#nf"]},
        },
        resolve=activate("wilds", "Nadia"),
    )


# ---------------------------------------------------------------- prohibition shapes


def test_players_cant_search_stops_the_controller_too() -> None:
    spec = scenario(
        zones={"Alice": {"battlefield": ["Mindlock Orb#orb"], "library": ["Island"]}},
        resolve=cast("Demonic Tutor", "Alice"),
    )
    assert _value(spec, "searches", player="Alice") == "cannot"


def test_opponents_cant_search_stops_an_opponent() -> None:
    spec = _wilds_under({"battlefield": ["Stranglehold#hold"]})
    assert _value(spec, "searches", player="Nadia") == "cannot"


def test_opponents_cant_search_leaves_the_controller_free() -> None:
    spec = scenario(
        zones={"Alice": {"battlefield": ["Stranglehold#hold"], "library": ["Island"]}},
        resolve=cast("Demonic Tutor", "Alice"),
    )
    assert _value(spec, "searches", player="Alice") == "must"


def test_opponents_cant_search_covers_the_controllers_library() -> None:
    spec = scenario(
        players=("Nadia", "Alice"),
        zones={
            "Alice": {
                "battlefield": ["Stranglehold#hold", "Howling Mine#mine"],
                "library": ["Howling Mine#lib"],
            },
        },
        resolve=cast("Splinter", "Nadia", targets=["mine"]),
    )
    assert _value(spec, "finds", card="lib") == "cannot"


def test_a_library_prohibition_leaves_the_graveyard_searchable() -> None:
    spec = scenario(
        players=("Nadia", "Alice"),
        zones={
            "Alice": {
                "battlefield": ["Stranglehold#hold", "Howling Mine#mine"],
                "graveyard": ["Howling Mine#gy"],
            },
        },
        resolve=cast("Splinter", "Nadia", targets=["mine"]),
    )
    assert _value(spec, "finds", card="gy") == "must"


def test_ashiok_stops_an_opponents_own_effect() -> None:
    spec = _wilds_under({"battlefield": ["Ashiok, Dream Render#ashiok"]})
    assert _value(spec, "searches", player="Nadia") == "cannot"


def test_ashiok_allows_a_search_its_controller_causes() -> None:
    spec = scenario(
        cards=[BEARS],
        zones={
            "Alice": {"battlefield": ["Ashiok, Dream Render#ashiok"]},
            "Nadia": {"battlefield": ["Grizzly Bears#bears"], "library": ["Forest#nf"]},
        },
        resolve=cast("Path to Exile", "Alice", targets=["bears"]),
    )
    assert _value(spec, "searches", player="Nadia") == "may"


def test_ashiok_does_not_stop_its_controller() -> None:
    spec = scenario(
        zones={"Alice": {"battlefield": ["Ashiok, Dream Render#ashiok"], "library": ["Island"]}},
        resolve=cast("Demonic Tutor", "Alice"),
    )
    assert _value(spec, "searches", player="Alice") == "must"


def test_a_local_prohibition_for_you_only_stops_its_controller() -> None:
    hoser = _hoser("Test Self Lock", who="you")
    spec = scenario(
        cards=[hoser],
        zones={"Alice": {"battlefield": ["Test Self Lock"]}, "Nadia": {"library": ["Island"]}},
        resolve=cast("Demonic Tutor", "Nadia"),
    )
    assert _value(spec, "searches", player="Nadia") == "must"


def test_leonin_arbiter_stops_a_player_who_has_not_paid() -> None:
    spec = _wilds_under({"battlefield": ["Leonin Arbiter#arbiter"]})
    assert _value(spec, "searches", player="Nadia") == "cannot"


def test_leonin_arbiter_lets_a_player_who_paid_search() -> None:
    spec = _wilds_under({"battlefield": ["Leonin Arbiter#arbiter"]})
    spec["history"] = [{"fact": "ignored_search_prohibition", "player": "Nadia"}]
    assert _value(spec, "searches", player="Nadia") == "must"


def test_leonin_arbiter_payment_only_helps_the_player_who_paid() -> None:
    spec = scenario(
        zones={
            "Alice": {
                "battlefield": ["Leonin Arbiter#arbiter"],
                "graveyard": ["Veteran Explorer#explorer"],
            },
            "Nadia": {"library": ["Forest"]},
        },
        history=[{"fact": "ignored_search_prohibition", "player": "Nadia"}],
        resolve=trigger("explorer"),
    )
    assert _value(spec, "searches", player="Alice") == "cannot"
    assert _value(spec, "searches", player="Nadia") == "may"


# ---------------------------------------------------------------- shuffle rulings (Ashiok)


def test_search_then_shuffle_still_shuffles_when_the_search_is_stopped() -> None:
    spec = _wilds_under({"battlefield": ["Ashiok, Dream Render#ashiok"]})
    assert _value(spec, "shuffles", player="Nadia") == "yes"


def test_may_search_then_shuffle_does_not_shuffle_when_the_search_is_stopped() -> None:
    spec = scenario(
        players=("Nadia", "Alice"),
        zones={
            "Alice": {"battlefield": ["Ashiok, Dream Render#ashiok"]},
            "Nadia": {"graveyard": ["Veteran Explorer#explorer"], "library": ["Forest"]},
        },
        resolve=trigger("explorer"),
    )
    assert _value(spec, "shuffles", player="Nadia") == "no"


def test_may_search_if_you_do_shuffle_does_not_shuffle_when_the_search_is_stopped() -> None:
    if_you_do = search_spell(
        "Test If You Do",
        search(card_filter=BASIC_LAND_FILTER, may=True, put="battlefield"),
        shuffle("you", if_searched=True),
    )
    spec = scenario(
        players=("Nadia", "Alice"),
        cards=[if_you_do],
        zones={
            "Alice": {"battlefield": ["Ashiok, Dream Render#ashiok"]},
            "Nadia": {"library": ["Forest"]},
        },
        resolve=cast("Test If You Do", "Nadia"),
    )
    assert _value(spec, "shuffles", player="Nadia") == "no"


def test_may_search_then_shuffle_shuffles_only_if_searched_when_free() -> None:
    spec = scenario(
        zones={"Alice": {"graveyard": ["Veteran Explorer#explorer"], "library": ["Forest"]}},
        resolve=trigger("explorer"),
    )
    assert _value(spec, "shuffles", player="Alice") == "if_searched"


def test_a_fixed_choice_not_to_search_means_no_shuffle() -> None:
    spec = scenario(
        zones={"Alice": {"graveyard": ["Veteran Explorer#explorer"], "library": ["Forest"]}},
        resolve=trigger("explorer"),
    )
    result = evaluate_claim(
        spec, {"claim": "shuffles", "player": "Alice", "given": {"Alice": {"search": False}}}
    )
    assert result.value == "no"


def test_a_fixed_choice_to_search_means_a_shuffle() -> None:
    spec = scenario(
        zones={"Alice": {"graveyard": ["Veteran Explorer#explorer"], "library": ["Forest"]}},
        resolve=trigger("explorer"),
    )
    result = evaluate_claim(
        spec, {"claim": "shuffles", "player": "Alice", "given": {"Alice": {"search": True}}}
    )
    assert result.value == "yes"


# ---------------------------------------------------------------- the Mindcensor replacement


def test_mindcensor_does_not_limit_its_controller() -> None:
    spec = scenario(
        zones={"Alice": {"battlefield": ["Aven Mindcensor#censor"], "library": ["Island"] * 6}},
        resolve=cast("Demonic Tutor", "Alice"),
    )
    assert _value(spec, "searched_portion", player="Alice") == "library"


def test_mindcensor_limits_an_opponent_searching_another_library() -> None:
    spec = scenario(
        players=("Nadia", "Alice"),
        zones={
            "Alice": {
                "battlefield": ["Aven Mindcensor#censor", "Howling Mine#mine"],
                "library": ["Island"] * 4 + ["Howling Mine#deep"],
            },
        },
        resolve=cast("Splinter", "Nadia", targets=["mine"]),
    )
    assert _value(spec, "finds", card="deep") == "cannot"


def test_mindcensor_under_a_prohibition_still_means_no_search() -> None:
    spec = _wilds_under({"battlefield": ["Aven Mindcensor#censor", "Stranglehold#hold"]})
    assert _value(spec, "searches", player="Nadia") == "cannot"
    assert _value(spec, "finds", card="nf") == "cannot"

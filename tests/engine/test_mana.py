"""Mana a land could produce (CR 106.7) and mana of an undefined type (CR 106.5)."""

from __future__ import annotations

from rules.engine import evaluate_claim

from .builders import activate, card, claim, scenario

WASTES = card(
    "Wastes",
    types=["Land"],
    supertypes=["Basic"],
    oracle="{T}: Add {C}.",
    activated=[{"cost": "{T}", "effect": [{"add_mana": "{C}"}]}],
)
EXOTIC_ORCHARD = card(
    "Exotic Orchard",
    types=["Land"],
    oracle="{T}: Add one mana of any color that a land an opponent controls could produce.",
    activated=[
        {
            "cost": "{T}",
            "effect": [{"add_mana": {"could_produce": {"lands": "opponents", "kind": "color"}}}],
        }
    ],
)


def _produced(zones: dict, label: str, cards: tuple[dict, ...] = ()) -> object:
    spec = scenario(cards=list(cards), zones=zones, resolve=activate(label, "Alice"))
    return evaluate_claim(spec, claim("mana_produced", card=label)).value


def _symbols(value: object) -> set[str]:
    """The mana types named in a value such as "G", "{G}" or "{G} or {U}"."""
    text = str(value)
    return {symbol for symbol in "WUBRGC" if symbol in text}


def test_106_7_reflecting_pool_copies_a_forest() -> None:
    zones = {"Alice": {"battlefield": ["Reflecting Pool#pool", "Forest"]}}
    assert _symbols(_produced(zones, "pool")) == {"G"}


def test_106_7_reflecting_pool_copies_a_tapped_forest() -> None:
    zones = {
        "Alice": {
            "battlefield": ["Reflecting Pool#pool", {"card": "Forest", "tapped": True}],
        }
    }
    assert _symbols(_produced(zones, "pool")) == {"G"}


def test_106_7_reflecting_pool_offers_each_type_its_lands_could_produce() -> None:
    zones = {"Alice": {"battlefield": ["Reflecting Pool#pool", "Forest", "Island"]}}
    assert _symbols(_produced(zones, "pool")) == {"G", "U"}


def test_106_7_reflecting_pool_ignores_an_opponents_lands() -> None:
    zones = {
        "Alice": {"battlefield": ["Reflecting Pool#pool"]},
        "Nadia": {"battlefield": ["Island"]},
    }
    assert _produced(zones, "pool") == ""


def test_106_5_two_reflecting_pools_alone_produce_nothing() -> None:
    zones = {"Alice": {"battlefield": ["Reflecting Pool#pool", "Reflecting Pool#other"]}}
    assert _produced(zones, "pool") == ""


def test_106_7_two_reflecting_pools_with_a_forest_both_make_green() -> None:
    zones = {"Alice": {"battlefield": ["Reflecting Pool#pool", "Reflecting Pool#other", "Forest"]}}
    assert _symbols(_produced(zones, "other")) == {"G"}


def test_106_7_reflecting_pool_copies_colorless() -> None:
    zones = {"Alice": {"battlefield": ["Reflecting Pool#pool", "Wastes"]}}
    assert _symbols(_produced(zones, "pool", (WASTES,))) == {"C"}


def test_106_7_exotic_orchard_copies_an_opponents_island() -> None:
    zones = {
        "Alice": {"battlefield": ["Exotic Orchard#orchard", "Forest"]},
        "Nadia": {"battlefield": ["Island"]},
    }
    assert _symbols(_produced(zones, "orchard", (EXOTIC_ORCHARD,))) == {"U"}


def test_106_7_exotic_orchard_cannot_copy_colorless() -> None:
    zones = {
        "Alice": {"battlefield": ["Exotic Orchard#orchard"]},
        "Nadia": {"battlefield": ["Wastes"]},
    }
    assert _produced(zones, "orchard", (EXOTIC_ORCHARD, WASTES)) == ""


def test_106_7_exotic_orchard_sees_every_opponent_in_multiplayer() -> None:
    spec = scenario(
        players=("Alice", "Nadia", "Bob"),
        cards=[EXOTIC_ORCHARD],
        zones={
            "Alice": {"battlefield": ["Exotic Orchard#orchard"]},
            "Nadia": {"battlefield": ["Island"]},
            "Bob": {"battlefield": ["Mountain"]},
        },
        resolve=activate("orchard", "Alice"),
    )
    value = evaluate_claim(spec, claim("mana_produced", card="orchard")).value
    assert _symbols(value) == {"U", "R"}


def test_106_1_a_basic_land_produces_its_own_mana() -> None:
    zones = {"Alice": {"battlefield": ["Swamp#swamp"]}}
    assert _symbols(_produced(zones, "swamp")) == {"B"}


def test_mana_claims_carry_a_citation() -> None:
    spec = scenario(
        zones={"Alice": {"battlefield": ["Reflecting Pool#pool"]}},
        resolve=activate("pool", "Alice"),
    )
    result = evaluate_claim(spec, claim("mana_produced", card="pool"))
    assert result.rule.startswith("106.")
    assert result.reason


def test_118_3_a_cost_no_permanent_can_pay_says_how_many_could() -> None:
    """ "needs 1 card; Alice has only 0" read oddly to a learner walking the app."""
    spec = scenario(
        zones={"Alice": {"battlefield": ["Springleaf Drum#drum"]}},
        resolve=activate("drum", "Alice"),
    )
    result = evaluate_claim(spec, claim("can_activate", card="drum"))
    assert result.value is False and result.rule == "118.3"
    assert result.reason == (
        "The cost “Tap an untapped creature you control” needs 1 card; Alice has 0 that could "
        "pay it."
    )

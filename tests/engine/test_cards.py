"""Cards as data: the catalog, filters, and validation of card definitions."""

from __future__ import annotations

import pytest

from rules.engine import ScenarioError, default_catalog, parse_card_definition

from .builders import BASIC_LAND_FILTER, card, search_spell

CARDS_THE_CONTRACT_NAMES = (
    "Archive Trap",
    "Ashiok, Dream Render",
    "Aven Mindcensor",
    "Demonic Tutor",
    "Evolving Wilds",
    "Forest",
    "Howling Mine",
    "Island",
    "Leonin Arbiter",
    "Lobotomy",
    "Mindlock Orb",
    "Mountain",
    "Ob Nixilis, Unshackled",
    "Path to Exile",
    "Plains",
    "Reflecting Pool",
    "Splinter",
    "Stinkweed Imp",
    "Stranglehold",
    "Swamp",
    "Veteran Explorer",
)


def _filter_of(raw_filter: dict | None):
    definition = parse_card_definition(
        search_spell("Filter Probe", {"search": {"for": {"count": 1, "filter": raw_filter}}})
    )
    return definition.spell[0].spec["filter"]


@pytest.mark.parametrize("name", CARDS_THE_CONTRACT_NAMES)
def test_the_catalog_defines_every_card_the_contract_names(name: str) -> None:
    assert name in default_catalog()


def test_every_catalog_card_with_abilities_has_oracle_text() -> None:
    """A vanilla creature (Grizzly Bears) has no rules text; anything with abilities does."""
    missing = [
        definition.name
        for definition in default_catalog().definitions()
        if (
            definition.spell
            or definition.activated
            or definition.triggered
            or definition.static
            or definition.keywords
        )
        and not definition.oracle.strip()
    ]
    assert missing == []


def test_basic_lands_are_basic_lands() -> None:
    forest = default_catalog().get("Forest")
    assert "Basic" in forest.supertypes
    assert "Land" in forest.types
    assert "Forest" in forest.subtypes


def test_a_basic_land_filter_matches_a_basic_land() -> None:
    assert _filter_of(BASIC_LAND_FILTER).matches(default_catalog().get("Forest"), {})


def test_a_basic_land_filter_does_not_match_a_nonbasic_land() -> None:
    wilds = default_catalog().get("Evolving Wilds")
    assert not _filter_of(BASIC_LAND_FILTER).matches(wilds, {})


def test_any_of_matches_either_subtype() -> None:
    swamp_or_mountain = _filter_of(
        {"any_of": [{"subtypes": ["Swamp"]}, {"subtypes": ["Mountain"]}]}
    )
    catalog = default_catalog()
    assert swamp_or_mountain.matches(catalog.get("Mountain"), {})
    assert not swamp_or_mountain.matches(catalog.get("Island"), {})


def test_not_excludes_basic_lands() -> None:
    nonbasic = _filter_of({"not": BASIC_LAND_FILTER})
    catalog = default_catalog()
    assert nonbasic.matches(catalog.get("Howling Mine"), {})
    assert not nonbasic.matches(catalog.get("Island"), {})


def test_same_name_as_the_target_reads_the_remembered_name() -> None:
    same_name = _filter_of({"same_name_as": "target"})
    mine = default_catalog().get("Howling Mine")
    assert same_name.matches(mine, {"target": "Howling Mine"})
    assert not same_name.matches(mine, {"target": "Island"})


def test_no_filter_is_a_search_for_a_quantity() -> None:
    assert _filter_of(None).has_quality is False


def test_a_type_filter_is_a_stated_quality() -> None:
    assert _filter_of({"types": ["Instant"]}).has_quality is True


def test_different_names_is_a_stated_quality() -> None:
    assert _filter_of({"different_names": True}).has_quality is True


def test_an_unknown_trigger_event_is_rejected() -> None:
    bad = card("Odd Watcher", types=["Creature"], triggered=[{"when": "sneezes", "effect": []}])
    with pytest.raises(ScenarioError) as caught:
        parse_card_definition(bad)
    assert "when" in caught.value.path
    assert "sneezes" in caught.value.message


def test_an_unknown_prohibition_scope_is_rejected() -> None:
    bad = card(
        "Odd Lock",
        types=["Artifact"],
        static=[{"search_prohibition": {"who": "teammates"}}],
    )
    with pytest.raises(ScenarioError) as caught:
        parse_card_definition(bad)
    assert "who" in caught.value.path


def test_an_unknown_static_kind_is_rejected() -> None:
    bad = card("Odd Static", types=["Enchantment"], static=[{"draw_replacement": {}}])
    with pytest.raises(ScenarioError) as caught:
        parse_card_definition(bad)
    assert "draw_replacement" in caught.value.message


def test_a_negative_dredge_is_rejected() -> None:
    bad = card("Odd Dredger", types=["Creature"], keywords={"dredge": -1})
    with pytest.raises(ScenarioError) as caught:
        parse_card_definition(bad)
    assert "dredge" in caught.value.path


def test_a_search_count_that_is_not_a_number_is_rejected() -> None:
    bad = search_spell("Odd Count", {"search": {"for": {"count": "several"}}})
    with pytest.raises(ScenarioError) as caught:
        parse_card_definition(bad)
    assert caught.value.path.endswith("count")

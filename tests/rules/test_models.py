"""Rules: numbers resolve through editions and aliases; cards validate their definition."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from rules.models import Rule, headings_of, nearest_heading
from tests.factories import CardFactory, RuleAliasFactory, RuleFactory

pytestmark = pytest.mark.django_db


def test_resolve_number_finds_the_current_rule_itself():
    rule = RuleFactory(number="701.23b")
    assert Rule.objects.resolve_number("701.23b") == rule
    assert Rule.objects.resolve_number(" 701.23b. ") == rule


def test_resolve_number_follows_an_alias():
    rule = RuleFactory(number="701.23b")
    RuleAliasFactory(rule=rule, number="701.19b")
    assert Rule.objects.resolve_number("701.19b") == rule


def test_resolve_number_follows_an_edition_row_to_its_canonical_rule():
    rule = RuleFactory(number="701.23d")
    RuleFactory(number="701.14c", language="de", edition_name="German", canonical=rule)
    assert Rule.objects.resolve_number("701.14c") == rule


def test_resolve_number_of_an_unknown_number_is_none():
    assert Rule.objects.resolve_number("999.99z") is None


def test_current_excludes_older_and_translated_editions():
    rule = RuleFactory(number="701.23a")
    RuleFactory(number="701.15a", language="it", edition_name="Fondamenti", canonical=rule)
    assert list(Rule.objects.current()) == [rule]


def test_an_edition_must_point_at_a_current_rule_not_another_edition():
    rule = RuleFactory(number="701.23a")
    edition = RuleFactory(number="701.15a", language="it", edition_name="It", canonical=rule)
    chained = RuleFactory.build(number="701.14a", edition_name="Old", canonical=edition)
    with pytest.raises(ValidationError) as error:
        chained.full_clean()
    assert "canonical" in error.value.message_dict


def test_card_clean_names_the_definition_field_on_a_bad_definition():
    card = CardFactory.build(name="Broken", definition={"name": "Broken", "types": ["Wizardry"]})
    with pytest.raises(ValidationError) as error:
        card.full_clean()
    assert "definition" in error.value.message_dict
    assert "types" in error.value.message_dict["definition"][0]


def test_card_clean_rejects_a_definition_with_another_name():
    card = CardFactory.build(
        name="Alpha", definition={"name": "Beta", "types": ["Artifact"], "oracle": ""}
    )
    with pytest.raises(ValidationError) as error:
        card.full_clean()
    assert "definition" in error.value.message_dict


def test_card_clean_names_localized_names_when_they_are_not_an_object():
    card = CardFactory.build(localized_names=["Scheggia"])
    with pytest.raises(ValidationError) as error:
        card.full_clean()
    assert "localized_names" in error.value.message_dict


def test_card_save_derives_type_line_and_oracle():
    card = CardFactory(
        name="Forestish",
        definition={
            "name": "Forestish",
            "supertypes": ["Basic"],
            "types": ["Land"],
            "subtypes": ["Forest"],
            "oracle": "({T}: Add {G}.)",
        },
    )
    card.refresh_from_db()
    assert card.type_line == "Basic Land — Forest"
    assert card.oracle == "({T}: Add {G}.)"


def test_resolve_numbers_resolves_many_at_once():
    current = RuleFactory(number="701.23b")
    RuleAliasFactory(rule=current, number="701.19b")
    RuleFactory(number="701.14b", language="de", edition_name="German", canonical=current)
    assert Rule.objects.resolve_numbers(["701.23b", "701.19b", "701.14b", "1.1"]) == {
        "701.23b": current,
        "701.19b": current,
        "701.14b": current,
    }


@pytest.mark.parametrize("language", ["en", "de", "it", ""])
def test_section_titles_in_are_each_rules_section_title_in(db, language):
    search = RuleFactory(number="701.23", title="Search", text="Search")
    RuleFactory(number="701.23b", text="If a player is searching a hidden zone ...")
    RuleFactory(number="701.23z", text="A subrule of a section with a title ...")
    RuleFactory(number="106", title="Mana", text="Mana")
    RuleFactory(number="106.7", text="Some abilities produce mana ...")
    RuleFactory(number="106.12", text="To “tap [a permanent] for mana” is ...")  # no title
    RuleFactory(number="106.12a", text="An ability that triggers whenever ...")
    RuleFactory(number="999.1a", text="A subrule whose section is not stored ...")
    RuleFactory(
        number="701.14",
        title="Durchsuchen",
        text="Durchsuchen",
        language="de",
        edition_name="Duskmourn",
        canonical=search,
    )
    titles = Rule.objects.section_titles_in(language)
    one_by_one = {
        rule.number: Rule.objects.section_title_in(rule, language)
        for rule in Rule.objects.current()
    }
    assert titles == one_by_one
    assert titles["701.23b"] == (("Durchsuchen", "de") if language == "de" else ("Search", "en"))
    assert titles["106.7"] == titles["106.12a"] == ("Mana", "en")
    assert titles["999.1a"] == ("", "en")


@pytest.mark.parametrize(
    ("number", "headings"),
    [
        ("106.12a", ("106.12a", "106.12", "106")),
        ("106.12", ("106.12", "106")),
        ("106.7", ("106.7", "106")),
        ("106", ("106",)),
        ("Search", ("Search",)),  # a glossary entry
    ],
)
def test_a_rules_headings_run_from_itself_to_its_section(number, headings):
    assert headings_of(number) == headings


def test_the_nearest_titled_heading_gives_the_title():
    assert nearest_heading("106.12a", {"106"}) == "106"  # 106.12 has no title
    assert nearest_heading("701.23b", {"701.23", "701"}) == "701.23"
    assert nearest_heading("701.23", {"701.23", "701"}) == "701.23"  # a titled rule: its own
    assert nearest_heading("999.1a", {"106"}) == ""


def test_a_subrule_takes_its_sections_title_past_an_untitled_rule():
    RuleFactory(number="106", title="Mana", text="Mana")
    RuleFactory(number="106.12", text="To “tap [a permanent] for mana” is ...")
    rule = RuleFactory(number="106.12a", text="An ability that triggers whenever ...")
    assert Rule.objects.section_title(rule) == "Mana"
    assert Rule.objects.section_title_in(rule, "de") == ("Mana", "en")  # no German edition


def test_the_nearest_heading_wins_over_its_section():
    RuleFactory(number="702", title="Keyword Abilities", text="Keyword Abilities")
    RuleFactory(number="702.33", title="Kicker", text="Kicker")
    rule = RuleFactory(number="702.33a", text="Kicker is a static ability ...")
    assert Rule.objects.section_title(rule) == "Kicker"

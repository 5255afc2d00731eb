"""A bank's own cards travel with its JSON export (quizzes/instructors/bank_cards.py): another
instructor's import takes them as their own; a clash is refused in words, with its place."""

from __future__ import annotations

import json

import pytest

from quizzes.instructors import interchange, saving
from quizzes.models import Bank, Scenario
from rules.models import Card
from tests.factories import BankFactory, CardFactory
from tests.quizzes.instructor_fixtures import document

pytestmark = pytest.mark.django_db

SCROLL = {"name": "Bribery Scroll", "mana_cost": "{1}", "types": ["Artifact"], "oracle": ""}


def own_card_bank(instructor, own_bank) -> Bank:
    CardFactory(owner=instructor, name=SCROLL["name"], definition=SCROLL)
    doc = document("scroll", zones={"Alice": {"library": ["Bribery Scroll#b1", "Island#i1"]}})
    checked = saving.check_save_scenario(instructor, own_bank, json.dumps(doc))
    saving.do_save_scenario(instructor, own_bank, checked)
    return own_bank


def exported(bank: Bank) -> bytes:
    return json.dumps(interchange.export_json(bank)).encode()


def test_the_export_carries_the_instructors_own_cards(instructor, own_bank):
    data = interchange.export_json(own_card_bank(instructor, own_bank))
    assert data["cards"] == [SCROLL]


def test_another_instructor_imports_it_with_the_card(instructor, own_bank, other_instructor):
    content = exported(own_card_bank(instructor, own_bank))
    theirs = BankFactory(owner=other_instructor, slug="their-week")
    plan = interchange.check_import(other_instructor, theirs, content, "week-1.json")
    report = interchange.do_import(other_instructor, theirs, plan)
    card = Card.objects.get(owner=other_instructor, name="Bribery Scroll")
    assert report.cards == [card] and card.definition == SCROLL
    scenario = Scenario.objects.get(bank=theirs)
    assert scenario.engine_status == Scenario.EngineStatus.AGREES
    again = interchange.check_import(other_instructor, theirs, content, "week-1.json")
    assert again.cards == []  # the card they now have, identical: used as it is
    assert Card.objects.filter(name="Bribery Scroll").count() == 2  # each instructor's own


def test_without_the_cards_the_import_is_refused_as_before(instructor, own_bank, other_instructor):
    data = interchange.export_json(own_card_bank(instructor, own_bank))
    del data["cards"]
    theirs = BankFactory(owner=other_instructor, slug="their-week")
    with pytest.raises(interchange.InterchangeError) as caught:
        interchange.check_import(other_instructor, theirs, json.dumps(data).encode(), "w.json")
    assert "unknown card 'Bribery Scroll'" in str(caught.value)


def test_a_card_of_the_importers_own_that_differs_is_refused(
    instructor, own_bank, other_instructor
):
    content = exported(own_card_bank(instructor, own_bank))
    different = {**SCROLL, "mana_cost": "{3}"}
    CardFactory(owner=other_instructor, name=SCROLL["name"], definition=different)
    theirs = BankFactory(owner=other_instructor, slug="their-week")
    with pytest.raises(interchange.InterchangeError) as caught:
        interchange.check_import(other_instructor, theirs, content, "week-1.json")
    assert caught.value.problems[0] == (
        "week-1.json: cards[0]: you have a card named 'Bribery Scroll' that differs from the "
        "file's: rename one of them, or make yours the same"
    )
    assert not Scenario.objects.filter(bank=theirs).exists()


def test_a_card_clashing_with_the_catalog_is_refused_in_words(instructor, own_bank):
    island = {"name": "Island", "mana_cost": "{U}", "types": ["Creature"], "oracle": ""}
    lookalike = {"name": "Is1and", "mana_cost": "", "types": ["Land"], "oracle": ""}
    file = {"format": "tutor-bank/1", "cards": [island, lookalike], "scenarios": [document()]}
    with pytest.raises(interchange.InterchangeError) as caught:
        interchange.check_import(instructor, own_bank, json.dumps(file).encode(), "c.json")
    assert caught.value.problems == [
        "c.json: cards[0]: 'Island' is a different card in this site's catalog: rename the "
        "file's card (in its scenarios too), or use the catalog's",
        "c.json: cards[1]: 'Is1and' looks like 'Island', a card in the catalog: rename it in "
        "the file",
    ]


def test_a_misspelt_claim_is_a_problem_not_a_disagreement(instructor, own_bank):
    misspelt = document("typo", expect=[{"claim": "findz", "card": "i1", "value": "may"}])
    with pytest.raises(interchange.InterchangeError) as caught:
        interchange.check_import(instructor, own_bank, json.dumps([misspelt]).encode(), "t.json")
    assert caught.value.problems[0].startswith(
        "t.json: scenarios[0].expect[0].claim: unknown claim 'findz'"
    )
    assert not Scenario.objects.exists()


def test_the_bank_round_trips_into_another_of_the_same_instructor(instructor, own_bank):
    content = exported(own_card_bank(instructor, own_bank))
    second = BankFactory(owner=instructor, slug="week-1-again")
    plan = interchange.check_import(instructor, second, content, "week-1.json")
    assert plan.cards == []  # their own card: nothing to make
    interchange.do_import(instructor, second, plan)
    assert Scenario.objects.get(bank=second).engine_status == Scenario.EngineStatus.AGREES


def test_an_xml_file_is_said_to_be_xml_not_malformed_json(instructor, own_bank):
    moodle = b'<?xml version="1.0" encoding="UTF-8"?>\n<quiz></quiz>'
    with pytest.raises(interchange.InterchangeError) as caught:
        interchange.check_import(instructor, own_bank, moodle, "week-1-moodle.xml")
    assert caught.value.problems == [
        "week-1-moodle.xml: an XML file, not Tutor's JSON: import a file made with a bank's "
        '"Export JSON" (tutor-bank/1); Moodle XML is for importing into Moodle'
    ]

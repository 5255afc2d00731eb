"""A card made in the database (the admin, or an instructor's card form) is found everywhere a
scenario reaches the engine: authoring, practice, exams, the Moodle export (rules/cards.py)."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from quizzes import rulings
from quizzes.exams import proctor
from quizzes.instructors import interchange, saving
from quizzes.models import Bank, ExamBlueprint, Question
from quizzes.rulings import documents
from tests.factories import BankFactory, CardFactory, ScenarioFactory
from tests.quizzes.conftest import land_tutor_spec, make_question

pytestmark = pytest.mark.django_db


def spec_without_land_tutor() -> dict:
    """Land Tutor's scenario with the card left to the catalog (not in the scenario's `cards`)."""
    spec = land_tutor_spec()
    land_tutor = next(card for card in spec["cards"] if card["name"] == "Land Tutor")
    spec["cards"] = [card for card in spec["cards"] if card["name"] != "Land Tutor"]
    return spec | {"_land_tutor": land_tutor}


@pytest.fixture(params=["site", "instructor"])
def custom_card_question(request, instructor, search_rule):
    """A question on a scenario whose Land Tutor lives in the database: a site card (the admin)
    or the instructor's own card in their public bank."""
    spec = spec_without_land_tutor()
    definition = spec.pop("_land_tutor")
    owner = instructor if request.param == "instructor" else None
    CardFactory(name="Land Tutor", definition=definition, owner=owner)
    bank = BankFactory(owner=owner, visibility=Bank.Visibility.PUBLIC)
    scenario = ScenarioFactory(spec=spec, author=owner, bank=bank if owner else None)
    return make_question(scenario, bank, rules=[search_rule])


def test_practice_serves_and_grades_a_database_card(
    client, learner, custom_card_question, no_variants
):
    client.force_login(learner)
    page = client.get(reverse("practice"))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Alice casts Land Tutor" in html
    token = re.search(r'name="token" value="([^"]+)"', html).group(1)
    answer = client.post(reverse("answer"), {"token": token, "claim_0": "may", "claim_1": "cannot"})
    assert answer.status_code in (200, 302)
    assert custom_card_question.responses.get().correct


def test_an_exam_draws_and_shows_a_database_card(client, learner, custom_card_question):
    blueprint = ExamBlueprint.objects.create(slug="mock", title="Mock", time_limit_minutes=20)
    blueprint.banks.set([custom_card_question.bank])
    blueprint.areas.create(position=0, title="Search", rules="701.23", count=1)
    if custom_card_question.bank.owner_id:
        blueprint.owner = custom_card_question.bank.owner
        blueprint.save()
    sitting = proctor.start(learner, blueprint)
    client.force_login(learner)
    page = client.get(reverse("exam_question", args=[sitting.pk, 1]))
    assert page.status_code == 200
    assert "Land Tutor" in page.content.decode()


def test_the_moodle_export_keeps_a_database_card(custom_card_question):
    xml = interchange.export_moodle(custom_card_question.bank)
    assert "not exported" not in xml
    assert "Land Tutor" in xml and "Search your library for a basic land card" in xml


def test_authoring_finds_the_instructors_own_card_only(instructor, other_instructor, own_bank):
    spec = spec_without_land_tutor()
    definition = spec.pop("_land_tutor")
    CardFactory(name="Land Tutor", definition=definition, owner=instructor)
    text = json.dumps(spec)
    document = saving.check_save_scenario(instructor, own_bank, text)
    saved = saving.do_save_scenario(instructor, own_bank, document)
    assert saved.engine_status == saved.EngineStatus.AGREES
    assert Question.objects.filter(scenario=saved, is_active=True).exists()
    theirs = BankFactory(owner=other_instructor)
    with pytest.raises(documents.AuthoringError, match="unknown card 'Land Tutor'"):
        saving.check_save_scenario(other_instructor, theirs, text)


def test_variants_of_a_site_scenario_never_show_an_instructors_card(instructor, scenario, bank):
    """A variant swaps a plain card for another of the same types from the scenario's catalog:
    a site scenario's catalog has no instructor's card, so none can appear to its learners."""
    secret = {"name": "Secret Bolt", "mana_cost": "{R}", "types": ["Instant"], "oracle": ""}
    CardFactory(name="Secret Bolt", definition=secret, owner=instructor)
    question = make_question(scenario, bank)
    shown = {
        card
        for seed in range(1, 60)
        for card in rulings.ruling_for(question, seed).shown.cards.values()
    }
    assert shown  # variants do swap cards here
    assert "Secret Bolt" not in shown


def test_variants_of_an_instructors_scenario_use_their_card(instructor, search_rule):
    spec = spec_without_land_tutor()
    definition = spec.pop("_land_tutor")
    CardFactory(name="Land Tutor", definition=definition, owner=instructor)
    bank = BankFactory(owner=instructor)
    scenario = ScenarioFactory(spec=spec, author=instructor, bank=bank)
    question = make_question(scenario, bank, rules=[search_rule])
    for seed in range(1, 20):  # every variant parses: the card is found in its catalog
        assert "Land Tutor#tutor" in json.dumps(rulings.ruling_for(question, seed).shown.spec)

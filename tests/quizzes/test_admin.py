"""Admin pages load for every content model, and saving runs the models' validation."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from django.utils.html import escape

from quizzes.models import Scenario
from rules.models import Card
from tests.factories import (
    BankFactory,
    CardFactory,
    QuestionFactory,
    RuleAliasFactory,
    RuleFactory,
    ScenarioFactory,
    simple_spec,
)

pytestmark = pytest.mark.django_db

FACTORIES = {
    "rules_rule": RuleFactory,
    "rules_rulealias": RuleAliasFactory,
    "rules_card": CardFactory,
    "quizzes_bank": BankFactory,
    "quizzes_scenario": ScenarioFactory,
    "quizzes_question": QuestionFactory,
}


@pytest.mark.parametrize("admin_name", sorted(FACTORIES))
def test_changelist_loads_and_lists_the_row(admin_client, admin_name):
    row = FACTORIES[admin_name]()
    response = admin_client.get(reverse(f"admin:{admin_name}_changelist"))
    assert response.status_code == 200
    assert escape(str(row)) in response.content.decode()


@pytest.mark.parametrize("admin_name", sorted(FACTORIES))
def test_change_form_loads(admin_client, admin_name):
    row = FACTORIES[admin_name]()
    response = admin_client.get(reverse(f"admin:{admin_name}_change", args=[row.pk]))
    assert response.status_code == 200


@pytest.mark.parametrize("admin_name", sorted(FACTORIES))
def test_add_form_loads(admin_client, admin_name):
    response = admin_client.get(reverse(f"admin:{admin_name}_add"))
    assert response.status_code == 200


def test_changelist_search_and_filter_work(admin_client):
    ScenarioFactory(title="Splinter on Howling Mine")
    url = reverse("admin:quizzes_scenario_changelist")
    response = admin_client.get(url, {"q": "Splinter", "engine_status__exact": "not_checked"})
    assert response.status_code == 200
    assert "Splinter on Howling Mine" in response.content.decode()


def scenario_form(spec: dict) -> dict:
    return {
        "title": "Demonic Tutor",
        "slug": "demonic-tutor-admin",
        "source": "admin test",
        "spec": json.dumps(spec),
        "stored_ruling": "",
        "stored_expect": "[]",
        "questions-TOTAL_FORMS": "0",
        "questions-INITIAL_FORMS": "0",
        "questions-MIN_NUM_FORMS": "0",
        "questions-MAX_NUM_FORMS": "1000",
    }


def test_saving_a_scenario_with_a_bad_spec_shows_the_field_error(admin_client):
    spec = simple_spec()
    spec["zones"]["Alice"]["librar"] = spec["zones"]["Alice"].pop("library")
    response = admin_client.post(reverse("admin:quizzes_scenario_add"), scenario_form(spec))
    assert response.status_code == 200
    assert "spec.zones.Alice.librar" in response.content.decode()
    assert not Scenario.objects.exists()


def test_saving_a_scenario_checks_it_with_the_engine(admin_client):
    response = admin_client.post(
        reverse("admin:quizzes_scenario_add"), scenario_form(simple_spec("demonic-tutor-admin"))
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    scenario = Scenario.objects.get(slug="demonic-tutor-admin")
    assert scenario.engine_status == Scenario.EngineStatus.AGREES


def test_saving_a_card_with_a_bad_definition_names_the_field(admin_client):
    response = admin_client.post(
        reverse("admin:rules_card_add"),
        {
            "name": "Broken",
            "definition": json.dumps({"name": "Broken", "types": ["Wizardry"]}),
            "localized_names": "{}",
        },
    )
    assert response.status_code == 200
    assert "Wizardry" in response.content.decode()
    assert not Card.objects.exists()


def test_the_demo_instructor_works_in_the_app_not_the_admin(client):
    from io import StringIO

    from django.core.management import call_command

    call_command("create_demo_users", "--force", stdout=StringIO())
    log_in = {"username": "instructor", "password": "teach-the-rulings-2025"}
    assert client.post(reverse("login"), log_in).status_code == 302
    assert client.get(reverse("bank_index")).status_code == 200
    response = client.get(reverse("admin:quizzes_scenario_changelist"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("admin:login"))


def test_the_demo_learner_cannot_use_the_admin(client):
    from io import StringIO

    from django.core.management import call_command

    call_command("create_demo_users", "--force", stdout=StringIO())
    log_in = {"username": "learner", "password": "learn-the-rulings-2025"}
    assert client.post(reverse("login"), log_in).status_code == 302
    response = client.get(reverse("admin:quizzes_scenario_changelist"))
    assert response.status_code == 302

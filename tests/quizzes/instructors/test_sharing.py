"""Sharing a bank with co-instructors (quizzes/instructors/sharing.py), through the test client:
the owner adds and removes co-owners; a co-owner edits; the history says who saved each version;
anyone else reaches nothing of the bank, by any URL (404)."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import Group
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from config import roles
from quizzes.instructors import interchange, saving
from quizzes.models import Scenario
from tests.factories import BankFactory, CardFactory, UserFactory
from tests.quizzes.instructor_fixtures import document, text
from tests.quizzes.instructors.test_builder import posted_fields

pytestmark = pytest.mark.django_db


def make_instructor(username: str):
    user = UserFactory(username=username)
    group, _ = Group.objects.get_or_create(name=roles.INSTRUCTORS_GROUP)
    user.groups.add(group)
    return user


def saved(user, bank, doc) -> Scenario:
    return saving.do_save_scenario(
        user, bank, saving.check_save_scenario(user, bank, json.dumps(doc))
    )


def share(client, bank, username: str):
    return client.post(reverse("bank_sharing", args=[bank.slug]), {"username": username})


def edit_title(client, bank, scenario, title: str):
    url = reverse("scenario_edit", args=[bank.slug, scenario.slug])
    data = posted_fields(client.get(url).content.decode(), source=["builder"])
    data["b-title"] = [title]
    return client.post(url, data)


def test_a_co_owner_edits_and_the_history_says_who(client, instructor, own_bank):
    scenario = saved(instructor, own_bank, document("tutor-three"))
    colleague = make_instructor("colleague")
    client.force_login(instructor)
    assert share(client, own_bank, "colleague").status_code == 302
    assert list(own_bank.co_owners.all()) == [colleague]

    client.force_login(colleague)
    index = client.get(reverse("bank_index")).content.decode()
    assert own_bank.title in index and "co-owner" in index
    assert edit_title(client, own_bank, scenario, "Edited by a colleague").status_code == 302
    scenario.refresh_from_db()
    assert scenario.version == 2 and scenario.author == instructor  # the author stays
    versions = scenario.versions.order_by("number")
    assert [v.changed_by for v in versions] == [instructor, colleague]

    history = client.get(reverse("scenario_history", args=[own_bank.slug, scenario.slug]))
    rows = history.content.decode().split("<tbody>")[1]
    assert rows.index("colleague") < rows.index("teacher")  # the newest first
    assert "Edited by a colleague" in rows


def test_a_co_owner_neither_shares_nor_changes_the_banks_settings(client, instructor, own_bank):
    colleague = make_instructor("colleague")
    third = make_instructor("third")
    own_bank.co_owners.add(colleague)
    client.force_login(colleague)
    assert client.get(reverse("bank_detail", args=[own_bank.slug])).status_code == 200
    assert client.get(reverse("bank_sharing", args=[own_bank.slug])).status_code == 404
    assert share(client, own_bank, "third").status_code == 404
    unshare = reverse("bank_unshare", args=[own_bank.slug, colleague.pk])
    assert client.post(unshare).status_code == 404
    assert client.get(reverse("bank_edit", args=[own_bank.slug])).status_code == 404
    assert list(own_bank.co_owners.all()) == [colleague] and third not in own_bank.co_owners.all()


def test_only_an_instructor_is_added_and_said_so(client, instructor, own_bank):
    UserFactory(username="learner")
    client.force_login(instructor)
    response = share(client, own_bank, "learner")
    assert response.status_code == 400
    assert "No instructor has the username &#x27;learner&#x27;." in response.content.decode()
    assert share(client, own_bank, "teacher").status_code == 400  # the owner
    assert not own_bank.co_owners.exists()


def test_a_removed_co_owner_loses_the_bank(client, instructor, own_bank):
    colleague = make_instructor("colleague")
    own_bank.co_owners.add(colleague)
    client.force_login(instructor)
    assert (
        client.post(reverse("bank_unshare", args=[own_bank.slug, colleague.pk])).status_code == 302
    )
    client.force_login(colleague)
    assert client.get(reverse("bank_detail", args=[own_bank.slug])).status_code == 404


def every_url_of(bank, scenario) -> list[tuple[str, str]]:
    """Every page of a bank and its scenario, with the method that reaches it."""
    on_bank = [
        ("get", "bank_detail"),
        ("get", "bank_edit"),
        ("post", "bank_edit"),
        ("get", "bank_lint"),
        ("get", "bank_export_json"),
        ("get", "bank_export_moodle"),
        ("get", "bank_import"),
        ("get", "bank_sharing"),
        ("post", "bank_sharing"),
        ("get", "scenario_create"),
        ("post", "scenario_create"),
        ("post", "scenario_preview_new"),
    ]
    on_scenario = [
        ("get", "scenario_edit"),
        ("post", "scenario_edit"),
        ("post", "scenario_preview"),
        ("post", "scenario_duplicate"),
        ("get", "scenario_history"),
    ]
    return [(m, reverse(name, args=[bank.slug])) for m, name in on_bank] + [
        (m, reverse(name, args=[bank.slug, scenario.slug])) for m, name in on_scenario
    ]


def test_anyone_else_reaches_nothing_by_any_url(client, instructor, own_bank):
    scenario = saved(instructor, own_bank, document("tutor-three"))
    colleague = make_instructor("colleague")
    own_bank.co_owners.add(colleague)
    stranger = make_instructor("stranger")
    client.force_login(stranger)
    for method, url in every_url_of(own_bank, scenario):
        data = {"document": text(), "username": "stranger", "title": "Mine now"}
        response = getattr(client, method)(url, data)
        assert response.status_code == 404, (method, url)
    upload = SimpleUploadedFile("x.json", b"[]", "application/json")
    import_url = reverse("bank_import", args=[own_bank.slug])
    assert client.post(import_url, {"file": upload}).status_code == 404
    unshare = reverse("bank_unshare", args=[own_bank.slug, colleague.pk])
    assert client.post(unshare).status_code == 404
    assert list(own_bank.co_owners.all()) == [colleague]
    scenario.refresh_from_db()
    assert scenario.version == 1 and Scenario.objects.count() == 1
    own_bank.refresh_from_db()
    assert own_bank.title != "Mine now"
    assert not interchange.banks.banks_of(stranger).exists()


def test_a_shared_bank_with_an_own_card_travels_and_both_appear_in_its_history(client):
    """The done-when: one instructor's bank with their own card, exported; another imports
    it, shares it back; the first edits it; both are in the scenario's history."""
    anna = make_instructor("anna")
    bruno = make_instructor("bruno")
    scroll = {"name": "Bribery Scroll", "mana_cost": "{1}", "types": ["Artifact"], "oracle": ""}
    CardFactory(owner=anna, name=scroll["name"], definition=scroll)
    annas = BankFactory(owner=anna, slug="annas-week")
    saved(anna, annas, document("scroll", zones={"Alice": {"library": ["Bribery Scroll#b1"]}}))
    client.force_login(anna)
    exported = client.get(reverse("bank_export_json", args=[annas.slug])).content

    brunos = BankFactory(owner=bruno, slug="brunos-week")
    client.force_login(bruno)
    upload = SimpleUploadedFile("annas-week.json", exported, "application/json")
    page = b"".join(
        client.post(reverse("bank_import", args=[brunos.slug]), {"file": upload})
    ).decode()
    assert "Imported: 1 new scenario" in page and "Bribery Scroll" in page
    scenario = Scenario.objects.get(bank=brunos)
    assert scenario.engine_status == Scenario.EngineStatus.AGREES
    assert share(client, brunos, "anna").status_code == 302

    client.force_login(anna)
    assert edit_title(client, brunos, scenario, "Anna's edit").status_code == 302
    history = client.get(reverse("scenario_history", args=[brunos.slug, scenario.slug]))
    rows = history.content.decode().split("<tbody>")[1]
    assert "anna" in rows and "bruno" in rows

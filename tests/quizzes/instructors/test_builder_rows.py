"""The builder's step and choice rows keep half-filled input (a row is kept while any field is
set, in the document once complete), each row has its remove button; a stale tick takes the
engine's value; the starter's ticks follow the engine; a taken id is said, nothing lost."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from quizzes.models import Scenario
from tests.quizzes.instructor_fixtures import document
from tests.quizzes.instructors.test_builder import (
    HTMX,
    ask_values,
    document_box,
    edit_url,
    posted_fields,
    preview_url,
    saved,
)

pytestmark = pytest.mark.django_db


def new_row(data: dict, **fields: str) -> dict:
    """`data` with the step's new row (the last of each `b-step-*` list) filled with `fields`."""
    for name, value in fields.items():
        data[f"b-step-{name}"] = [*data[f"b-step-{name}"][:-1], value]
    return data


def test_a_half_filled_step_is_kept_and_left_out_of_the_document(
    teacher_client, instructor, own_bank
):
    scenario = saved(instructor, own_bank, document("tutor-three"))
    page = teacher_client.get(edit_url(own_bank, scenario)).content.decode()
    data = new_row(posted_fields(page, source=["builder"]), verb="activate")
    reply = teacher_client.post(preview_url(own_bank, scenario), data, **HTMX).content.decode()
    assert 'id="b-step-verb-0"' in reply  # the row, kept
    assert '<option value="activate" selected>' in reply.split('id="b-step-verb-0"')[1]
    assert document_box(reply)["history"] == []  # not in the scenario until it says what
    assert "Not in the scenario until it has a step and what." in reply

    data = posted_fields(reply, source=["builder"])  # the kept row, then more typed into it
    data["b-step-what"] = ["trap", ""]
    data["b-step-by"] = ["", ""]
    reply = teacher_client.post(preview_url(own_bank, scenario), data, **HTMX).content.decode()
    assert document_box(reply)["history"] == [{"activate": "trap"}]
    data = posted_fields(reply, source=["builder"])
    data["b-step-by"] = ["Alice", ""]
    reply = teacher_client.post(preview_url(own_bank, scenario), data, **HTMX).content.decode()
    assert document_box(reply)["history"] == [{"activate": "trap", "by": "Alice"}]


def test_a_choice_keeps_its_player_before_its_choice_is_typed(teacher_client, instructor, own_bank):
    scenario = saved(instructor, own_bank, document("tutor-three"))
    page = teacher_client.get(edit_url(own_bank, scenario)).content.decode()
    data = posted_fields(page, source=["builder"])
    data["b-choice-player"] = ["Alice"]
    reply = teacher_client.post(preview_url(own_bank, scenario), data, **HTMX).content.decode()
    assert 'id="b-choice-player-0" name="b-choice-player" value="Alice"' in reply
    assert "resolve" in document_box(reply) and "choices" not in document_box(reply)["resolve"]
    data = posted_fields(reply, source=["builder"])
    data["b-choice-key"] = ["find", ""]
    data["b-choice-value"] = ["f1", ""]
    reply = teacher_client.post(preview_url(own_bank, scenario), data, **HTMX).content.decode()
    assert document_box(reply)["resolve"]["choices"] == {"Alice": {"find": ["f1"]}}


def test_each_row_has_its_remove_button_without_javascript(teacher_client, instructor, own_bank):
    doc = document(
        "tutor-three",
        history=[
            {"fact": "searched_library", "player": "Alice"},
            {"fact": "searched_library", "player": "Nadia"},
        ],
    )
    doc["resolve"]["choices"] = {"Alice": {"find": ["f1"]}}
    scenario = saved(instructor, own_bank, doc)
    page = teacher_client.get(edit_url(own_bank, scenario)).content.decode()
    assert 'value="history:add"' in page and 'value="choice:add"' in page
    data = posted_fields(page, **{"b-action": ["history:0:remove"]})
    reply = teacher_client.post(preview_url(own_bank, scenario), data)
    sent = json.loads(reply.context["form"]["document"].value())
    assert sent["history"] == [{"fact": "searched_library", "player": "Nadia"}]
    data = posted_fields(page, **{"b-action": ["choice:0:remove"]})
    reply = teacher_client.post(preview_url(own_bank, scenario), data)
    assert "choices" not in json.loads(reply.context["form"]["document"].value())["resolve"]


def test_a_stale_tick_takes_the_engines_value(teacher_client, instructor, own_bank):
    stale = {"claim": "shuffles", "player": "Alice", "value": "no"}
    scenario = saved(instructor, own_bank, document("tutor-three", expect=[stale]))
    page = teacher_client.get(edit_url(own_bank, scenario)).content.decode()
    assert "Take the engine's value" in page
    engine = {**stale, "value": "yes"}
    take = "take:" + json.dumps(engine, sort_keys=True)
    data = posted_fields(page, source=["builder"], **{"b-action": [take]})
    response = teacher_client.post(edit_url(own_bank, scenario), data)
    assert response.status_code == 302
    scenario.refresh_from_db()
    assert scenario.spec["expect"] == [engine]
    assert scenario.engine_status == Scenario.EngineStatus.AGREES


def test_the_starters_ticks_follow_the_board(teacher_client, own_bank):
    page = teacher_client.get(reverse("scenario_create", args=[own_bank.slug])).content.decode()
    assert page.count('name="b-follow"') == 2
    data = posted_fields(page, source=["builder"])
    data["b-zone-0-library"] = [*data["b-zone-0-library"][:-1], "Plains#p1", ""]
    data["b-resolve-what"] = ["Rampant Growth"]  # finds a basic land: still one, or none
    url = reverse("scenario_preview_new", args=[own_bank.slug])
    reply = teacher_client.post(url, data, **HTMX).content.decode()
    found = next(json.loads(v) for v in ask_values(reply) if '"found_count"' in v)
    assert found["value"] == [0, 1]  # Rampant Growth may fail to find (701.23b)
    assert "The engine agrees with the stored ruling." in reply
    data = posted_fields(reply, source=["builder"])
    data["b-ask"] = [v for v in data["b-ask"] if '"found_count"' not in v]  # unticked: not followed
    reply = teacher_client.post(url, data, **HTMX).content.decode()
    assert reply.count('name="b-follow"') == 1


def test_a_taken_id_is_said_beside_it_and_nothing_typed_is_lost(
    teacher_client, instructor, own_bank
):
    saved(instructor, own_bank, document("tutor-three"))
    page = teacher_client.get(reverse("scenario_create", args=[own_bank.slug])).content.decode()
    data = posted_fields(page, source=["builder"])
    data["b-id"] = ["tutor-three"]
    data["b-title"] = ["Typed by hand"]
    data["b-ruling"] = ["My own words."]
    response = teacher_client.post(reverse("scenario_create", args=[own_bank.slug]), data)
    html = response.content.decode()
    assert response.status_code == 400
    beside = html.split('id="b-id-errors">')[1].split("</div>")[0]
    assert "&#x27;tutor-three&#x27; is the id of another scenario in this bank" in beside
    assert 'aria-invalid="true" aria-describedby="b-id-errors"' in html
    assert "Not saved:" in html
    assert 'value="Typed by hand"' in html and "My own words." in html
    assert Scenario.objects.filter(bank=own_bank).count() == 1

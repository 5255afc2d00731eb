"""Bounds on scenarios: every way in refuses a scenario past a limit, naming the limit, before the
engine runs; no depth of nesting raises RecursionError; a stored scenario past the limits is
never served."""

from __future__ import annotations

import json
import re

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from quizzes import limits
from quizzes.exams import proctor
from quizzes.instructors import interchange, saving
from quizzes.loading import ContentError, read_content
from quizzes.loading.read import CONTENT_DIR
from quizzes.models import Question, Scenario
from quizzes.practice import selection
from quizzes.rulings import checks, documents, preview
from tests.factories import ScenarioFactory, simple_spec
from tests.quizzes.conftest import land_tutor_spec, make_question
from tests.quizzes.instructor_fixtures import document

DEEP = "[" * 30_000 + "]" * 30_000  # far past the recursion limit, within the size limit


def nested(depth: int):
    value = 1
    for _ in range(depth):
        value = [value]
    return value


def with_players(count: int) -> dict:
    names = [f"P{index}" for index in range(count)]
    return document(players=names, zones={"P0": {"library": ["Island#i1", "Forest#f1"]}})


# What each limit refuses, named in the message.

PAST_LIMITS = [
    (lambda: with_players(limits.MAX_PLAYERS + 1), "players", "over the limit of 6 per scenario"),
    (
        lambda: document(zones={"Alice": {"library": ["Island"] * (limits.MAX_CARDS + 1)}}),
        "zones",
        "more cards than the limit of 500 per scenario",
    ),
    (
        lambda: document(cards=[{"name": f"Card {n}"} for n in range(21)]),
        "cards",
        "21 card definitions, over the limit of 20 per scenario",
    ),
    (
        lambda: document(history=[{"fact": "searched_library", "player": "Alice"}] * 21),
        "history",
        "21 history entries, over the limit of 20 per scenario",
    ),
    (
        lambda: document(zones={"Alice": {"library": ["Island#" + "x" * 41]}}),
        "zones.Alice.library[0]",
        "41 characters, over the limit of 40 for a card's label",
    ),
    (
        lambda: document(players=["Alice", "N" * 41]),
        "players[1]",
        "41 characters, over the limit of 40 for a player's name",
    ),
    (lambda: document(title="t" * 201), "title", "201 characters, over the limit of 200"),
    (
        lambda: document(history=[nested(limits.MAX_DEPTH)]),
        "",
        "nested deeper than the limit of 24 levels",
    ),
]


@pytest.mark.parametrize(("make", "path", "message"), PAST_LIMITS)
def test_a_limit_names_itself(make, path, message):
    with pytest.raises(limits.LimitError) as caught:
        limits.check_spec(make())
    assert caught.value.path == path and message in caught.value.message


def test_the_seed_content_is_within_the_limits():
    for scenario in read_content().scenarios:
        assert limits.spec_problem(scenario.spec) == ""


def test_brackets_inside_strings_do_not_count():
    assert limits.text_depth('{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}') == 1
    assert limits.text_depth(r'["\"[[[[", [[1]]]') == 3


def test_an_unterminated_string_ends_the_scan():
    # every quote opens a string that never closes: a naive regex would rescan to the end
    assert limits.text_depth("[[" + '"\\"' * 200_000) == 2


# Every way in.


def test_the_preview_refuses_deep_nesting_without_recursion_error(db):
    shown = preview.preview(DEEP)
    assert shown.error is not None and "nested deeper than the limit of 24" in str(shown.error)


def test_the_preview_refuses_a_100000_card_scenario_by_its_size(teacher_client, own_bank):
    huge = json.dumps(document(zones={"Alice": {"library": ["Island"] * 100_000}}))
    url = reverse("scenario_preview_new", args=[own_bank.slug])
    response = teacher_client.post(url, {"document": huge}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "over the limit of 65,536 per document" in response.content.decode()


def test_saving_past_a_limit_is_refused(instructor, own_bank):
    with pytest.raises(documents.AuthoringError, match="players: 7 players, over the limit"):
        saving.check_save_scenario(instructor, own_bank, json.dumps(with_players(7)))


def test_an_import_past_a_limit_names_the_entry(instructor, own_bank):
    body = json.dumps([document("a"), with_players(9)]).encode()
    with pytest.raises(interchange.InterchangeError, match=r"scenarios\[1\]\.players: 9 players"):
        interchange.check_import(instructor, own_bank, body, "week.json")


def test_an_import_nested_too_deep_is_refused(instructor, own_bank):
    with pytest.raises(interchange.InterchangeError, match="nested deeper than the limit"):
        interchange.check_import(instructor, own_bank, DEEP.encode(), "deep.json")


def test_an_import_with_too_many_scenarios_is_refused(instructor, own_bank):
    entries = [document(f"s-{n}") for n in range(limits.MAX_IMPORT_SCENARIOS + 1)]
    over = f"{limits.MAX_IMPORT_SCENARIOS + 1} documents, over the limit of "
    with pytest.raises(interchange.InterchangeError, match=over + str(limits.MAX_IMPORT_SCENARIOS)):
        interchange.check_import(instructor, own_bank, json.dumps(entries).encode(), "big.json")


def test_an_import_too_large_is_refused_by_the_view(teacher_client, own_bank):
    body = b" " * (limits.MAX_IMPORT_BYTES + 1)
    upload = SimpleUploadedFile("big.json", body, "application/json")
    response = teacher_client.post(reverse("bank_import", args=[own_bank.slug]), {"file": upload})
    assert (
        response.status_code == 400 and "larger than the limit of 2 MB" in response.content.decode()
    )


def test_the_admin_form_refuses_deep_nesting(admin_client):
    from tests.quizzes.test_admin import scenario_form

    form = scenario_form(simple_spec()) | {"spec": DEEP}
    response = admin_client.post(reverse("admin:quizzes_scenario_add"), form)
    assert (
        response.status_code == 200 and "nested deeper than the limit" in response.content.decode()
    )
    assert not Scenario.objects.exists()


def test_the_model_refuses_a_scenario_past_the_limits(db):
    scenario = Scenario(title="t", slug="t", source="s", spec=with_players(9))
    with pytest.raises(ValidationError, match="spec.players: 9 players"):
        scenario.clean()
    assert checks.check_with_engine(scenario).status == Scenario.EngineStatus.INVALID


def test_a_content_file_past_the_limits_names_the_file(tmp_path):
    import shutil

    content = tmp_path / "content"
    shutil.copytree(CONTENT_DIR, content)
    path = next((content / "scenarios").glob("*.json"))
    raw = json.loads(path.read_text()) | {"players": [f"P{n}" for n in range(7)]}
    path.write_text(json.dumps(raw))
    with pytest.raises(ContentError, match=re.escape(f"{path.name}: spec.players: 7 players")):
        read_content(content)
    path.write_text(DEEP)
    with pytest.raises(ContentError, match="nested deeper than the limit"):
        read_content(content)


# Serving.


def test_a_stored_scenario_past_the_limits_is_skipped_and_marked(learner, bank, search_rule):
    past = ScenarioFactory(spec=with_players(9))  # saved before the limits existed
    make_question(past, bank, rules=[search_rule], difficulty=0.0)
    servable = make_question(ScenarioFactory(spec=land_tutor_spec()), bank, rules=[search_rule])
    Question.objects.filter(pk=servable.pk).update(difficulty=5.0)  # the worse pick by difficulty
    assert selection.next_question(learner).question == servable
    past.refresh_from_db()
    assert past.engine_status == Scenario.EngineStatus.INVALID and "9 players" in past.engine_report
    assert selection.next_question(learner).question == servable  # and stays skipped


def test_an_exam_never_draws_a_scenario_past_the_limits(learner, bank, search_rule):
    from quizzes.models import BlueprintArea, ExamBlueprint

    past = ScenarioFactory(spec=with_players(9))
    make_question(past, bank, rules=[search_rule])
    servable = make_question(ScenarioFactory(spec=land_tutor_spec()), bank, rules=[search_rule])
    blueprint = ExamBlueprint.objects.create(slug="mock", title="Mock", time_limit_minutes=20)
    blueprint.banks.set([bank])
    BlueprintArea.objects.create(blueprint=blueprint, title="Search", rules="701.23", count=2)
    sitting = proctor.start(learner, blueprint)
    assert list(sitting.items.values_list("question", flat=True)) == [servable.pk]
    past.refresh_from_db()
    assert past.engine_status == Scenario.EngineStatus.INVALID


@pytest.mark.parametrize("cards", [1, "x", True, {"name": "X"}])
def test_card_definitions_that_are_no_list_are_the_parsers_to_name(cards):
    """`cards: 1` once raised TypeError here: a 500 in the editor, the import and the API."""
    limits.check_spec(simple_spec() | {"cards": cards})  # the shape is the parser's business
    with pytest.raises(documents.AuthoringError) as refused:
        documents.read_document(simple_spec() | {"cards": cards}, documents.Catalog())
    assert refused.value.path == "cards"

"""The instructors' pages through the test client: access, authoring with the preview, lint."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from quizzes.instructors import banks, saving
from quizzes.models import Bank, Question, Scenario
from tests.factories import BankFactory, UserFactory
from tests.quizzes.instructor_fixtures import document, text

pytestmark = pytest.mark.django_db

BANK_PAGE_QUERIES = 6  # session, user with group (config/auth.py), bank, scenarios, sums, questions
PREVIEW_QUERIES = 5  # session, user with group, bank, scenario, card catalog


def saved_scenario(user, bank, scenario_id="tutor-three", **changes) -> Scenario:
    doc = saving.check_save_scenario(user, bank, text(scenario_id, **changes))
    return saving.do_save_scenario(user, bank, doc)


def bank_urls(bank: Bank, scenario: Scenario) -> list[str]:
    return [
        reverse("bank_detail", args=[bank.slug]),
        reverse("bank_edit", args=[bank.slug]),
        reverse("bank_lint", args=[bank.slug]),
        reverse("bank_export_json", args=[bank.slug]),
        reverse("bank_export_moodle", args=[bank.slug]),
        reverse("bank_import", args=[bank.slug]),
        reverse("scenario_create", args=[bank.slug]),
        reverse("scenario_edit", args=[bank.slug, scenario.slug]),
    ]


# Access.


def test_anonymous_is_sent_to_log_in(client):
    response = client.get(reverse("bank_index"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_learner_is_refused(client):
    client.force_login(UserFactory(username="just-a-learner"))
    assert client.get(reverse("bank_index")).status_code == 403
    assert client.get(reverse("cohort_index")).status_code == 403


def test_a_group_member_and_staff_are_instructors(teacher_client, own_bank, client):
    assert own_bank.title in teacher_client.get(reverse("bank_index")).content.decode()
    client.force_login(UserFactory(username="staffer", is_staff=True))
    assert client.get(reverse("bank_index")).status_code == 200


def test_another_instructors_bank_is_a_404_everywhere(
    client, instructor, own_bank, other_instructor
):
    scenario = saved_scenario(instructor, own_bank)
    client.force_login(other_instructor)
    for url in bank_urls(own_bank, scenario):
        assert client.get(url).status_code == 404, url
    preview = reverse("scenario_preview", args=[own_bank.slug, scenario.slug])
    assert client.post(preview, {"document": text()}).status_code == 404
    response = client.post(
        reverse("scenario_create", args=[own_bank.slug]), {"document": text("x")}
    )
    assert response.status_code == 404
    assert Scenario.objects.count() == 1


def test_a_scenario_of_another_bank_is_a_404(teacher_client, instructor, own_bank):
    elsewhere = BankFactory(owner=instructor, slug="week-2")
    scenario = saved_scenario(instructor, elsewhere)
    url = reverse("scenario_edit", args=[own_bank.slug, scenario.slug])
    assert teacher_client.get(url).status_code == 404


def test_the_nav_links_banks_for_instructors_only(client, teacher_client):
    assert reverse("bank_index") in teacher_client.get(reverse("home")).content.decode()
    client.force_login(UserFactory(username="learner"))
    assert reverse("bank_index") not in client.get(reverse("home")).content.decode()


# Banks.


def test_the_bank_forms_help_text_shows_the_tags_and_opens_none(teacher_client):
    page = teacher_client.get(reverse("bank_create")).content.decode()
    assert "<code>&lt;em&gt;</code>, <code>&lt;strong&gt;</code>, lists, links" in page
    for tag in ("em", "strong", "code"):  # an unclosed tag would style the rest of the page
        assert page.count(f"<{tag}>") == page.count(f"</{tag}>")


def test_create_a_bank(teacher_client, instructor):
    response = teacher_client.post(
        reverse("bank_create"),
        {"title": "Search basics", "description": "Week 1", "visibility": "shared"},
    )
    bank = Bank.objects.get(title="Search basics")
    assert response.status_code == 302 and response["Location"] == f"/banks/{bank.slug}/"
    assert bank.owner == instructor and bank.slug == "search-basics"


def test_a_bank_titled_new_does_not_hide_behind_the_new_page(instructor):
    bank = banks.do_create_bank(instructor, "New", "", "private")
    assert bank.slug == "new-2"


def test_a_bad_bank_form_is_a_400(teacher_client):
    response = teacher_client.post(reverse("bank_create"), {"title": "", "visibility": "x"})
    assert response.status_code == 400 and not Bank.objects.exists()


@pytest.mark.parametrize(
    ("title", "description", "field"),
    [
        ("Week 1", "x" * 10_001, "description"),  # the documented bound, as an import keeps it
        ("   ", "", "title"),
        ("\u202eWeek 1", "", "title"),  # a right-to-left override
        ("Week\u200b 1", "", "title"),  # a zero-width space
    ],
)
def test_a_bank_stored_wrongly_is_refused_with_its_field(teacher_client, title, description, field):
    data = {"title": title, "description": description, "visibility": "shared"}
    response = teacher_client.post(reverse("bank_create"), data)
    assert response.status_code == 400 and field in response.context["form"].errors
    assert not Bank.objects.exists()


def test_the_description_is_sanitised(teacher_client, own_bank):
    teacher_client.post(
        reverse("bank_edit", args=[own_bank.slug]),
        {
            "title": own_bank.title,
            "description": "<em>Read</em> <script>alert(1)</script><img src=x onerror=alert(1)>",
            "visibility": "shared",
        },
    )
    page = teacher_client.get(reverse("bank_detail", args=[own_bank.slug])).content.decode()
    assert "<em>Read</em>" in page and "<script>alert" not in page and "onerror" not in page


def test_the_bank_page_lists_scenarios_and_questions(teacher_client, instructor, own_bank):
    saved_scenario(instructor, own_bank)
    page = teacher_client.get(reverse("bank_detail", args=[own_bank.slug])).content.decode()
    assert "Demonic Tutor with three cards" in page
    assert "Engine agrees with the stored ruling" in page
    assert "Does Alice shuffle" in page  # the generated question, in the item analysis table


@pytest.mark.parametrize("size", [2, 12])
def test_bank_page_queries_do_not_grow(
    teacher_client, instructor, own_bank, size, django_assert_num_queries
):
    for index in range(size):
        saved_scenario(instructor, own_bank, f"tutor-{index}")
    with django_assert_num_queries(BANK_PAGE_QUERIES):
        assert teacher_client.get(reverse("bank_detail", args=[own_bank.slug])).status_code == 200


# Authoring with the live preview.


def test_the_new_scenario_page_starts_from_a_valid_document(teacher_client, own_bank):
    page = teacher_client.get(reverse("scenario_create", args=[own_bank.slug])).content.decode()
    assert 'hx-trigger="input changed delay:500ms"' in page
    assert "The engine agrees with the stored ruling" in page


def test_preview_for_htmx_is_the_fragment(teacher_client, own_bank):
    url = reverse("scenario_preview_new", args=[own_bank.slug])
    response = teacher_client.post(url, {"document": text()}, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<section id="preview"') and "<html" not in body
    assert "Does Alice shuffle?" in body and "701.24a" in body
    assert "The engine agrees with the stored ruling" in body
    assert "Finding cards" in body and 'class="board"' in body


def test_preview_without_htmx_is_the_whole_page_with_the_text(teacher_client, own_bank):
    url = reverse("scenario_preview_new", args=[own_bank.slug])
    sent = text(title="Kept & shown")
    response = teacher_client.post(url, {"document": sent})
    body = response.content.decode()
    assert response.status_code == 200 and "<html" in body and 'id="preview"' in body
    assert "Kept &amp; shown" in body
    assert not Scenario.objects.exists()


def test_preview_shows_each_stored_claim_agreeing_or_not(teacher_client, own_bank):
    doc = document(expect=[
        {"claim": "shuffles", "player": "Alice", "value": "no"},
        {"claim": "searches", "player": "Alice", "value": "must"},
    ])  # fmt: skip
    url = reverse("scenario_preview_new", args=[own_bank.slug])
    body = teacher_client.post(
        url, {"document": json.dumps(doc)}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert "The engine disagrees with 1 stored claim." in body
    assert "Disagrees:" in body and "Agrees:" in body
    assert "Stored: <strong>no</strong>; engine: <strong>yes</strong>" in body


def test_an_engine_error_names_the_path_and_keeps_the_text(teacher_client, own_bank):
    broken = text().replace('"Island#i1"', '"Islnd#i1"')
    url = reverse("scenario_preview_new", args=[own_bank.slug])
    fragment = teacher_client.post(url, {"document": broken}, HTTP_HX_REQUEST="true")
    assert "<code>zones.Alice.library[0]</code>" in fragment.content.decode()
    assert "unknown card &#x27;Islnd&#x27;" in fragment.content.decode()
    page = teacher_client.post(
        reverse("scenario_create", args=[own_bank.slug]), {"document": broken}
    )
    assert page.status_code == 400
    assert "Islnd#i1" in page.content.decode() and "zones.Alice.library[0]" in page.content.decode()
    assert not Scenario.objects.exists()


def test_an_unknown_card_is_said_in_the_instructors_language(teacher_client, own_bank):
    broken = text().replace('"Island#i1"', '"Islnd#i1"')
    german = {"accept-language": "de"}
    url = reverse("scenario_create", args=[own_bank.slug])
    page = teacher_client.post(url, {"document": broken}, headers=german).content.decode()
    beside = page.split('id="b-zone-0-library-0-errors">')[1].split("</div>")[0]
    assert beside == (
        "zones.Alice.library[0]: unbekannte Karte „Islnd“: Der Kartenkatalog hat keine Karte "
        "dieses Namens (prüfe die Schreibweise auf der Seite „Karten“ oder füge sie dort als "
        "eigene Karte hinzu)"
    )
    url = reverse("scenario_preview_new", args=[own_bank.slug])
    fragment = teacher_client.post(
        url, {"document": broken}, HTTP_HX_REQUEST="true", headers=german
    )
    listed = fragment.content.decode().split('<div id="preview-status"')[1].split("</ul>")[0]
    # the path is the format's English words; the message is German, not marked English
    assert (
        '<li><code><span lang="en">zones.Alice.library[0]</span></code>: unbekannte Karte' in listed
    )
    assert listed.count('lang="en"') == 1


def test_malformed_json_names_the_line(teacher_client, own_bank):
    url = reverse("scenario_preview_new", args=[own_bank.slug])
    body = teacher_client.post(url, {"document": '{\n  "a": '}, HTTP_HX_REQUEST="true")
    assert "line 2 column 8" in body.content.decode()


def test_preview_queries(teacher_client, instructor, own_bank, django_assert_num_queries):
    scenario = saved_scenario(instructor, own_bank)
    url = reverse("scenario_preview", args=[own_bank.slug, scenario.slug])
    with django_assert_num_queries(PREVIEW_QUERIES):
        teacher_client.post(url, {"document": text()}, HTTP_HX_REQUEST="true")


def test_saving_stores_checks_and_generates_questions(teacher_client, instructor, own_bank):
    response = teacher_client.post(
        reverse("scenario_create", args=[own_bank.slug]), {"document": text()}
    )
    scenario = Scenario.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/banks/week-1/scenarios/{scenario.slug}/?saved=1"
    assert (scenario.bank, scenario.author, scenario.slug) == (own_bank, instructor, "tutor-three")
    assert scenario.engine_status == Scenario.EngineStatus.AGREES
    assert scenario.stored_ruling == "Alice searches and shuffles."
    assert "stored_ruling" not in scenario.spec
    assert list(own_bank.questions.values_list("key", flat=True)) == ["value-shuffles-alice"]
    page = teacher_client.get(response["Location"]).content.decode()
    assert "Saved (version 1)" in page


def test_editing_bumps_the_version_and_flags_a_disagreement(teacher_client, instructor, own_bank):
    scenario = saved_scenario(instructor, own_bank)
    changed = text(expect=[{"claim": "shuffles", "player": "Alice", "value": "no"}])
    teacher_client.post(
        reverse("scenario_edit", args=[own_bank.slug, scenario.slug]), {"document": changed}
    )
    scenario.refresh_from_db()
    assert scenario.version == 2
    assert scenario.engine_status == Scenario.EngineStatus.DISAGREES


def saved_note(page: str) -> str:
    return page.split('<p class="saved-note', 1)[1].split("</p>", 1)[0]


def test_the_saved_note_is_green_only_when_the_engine_agrees(teacher_client, instructor, own_bank):
    scenario = saved_scenario(instructor, own_bank)
    url = reverse("scenario_edit", args=[own_bank.slug, scenario.slug])
    agreed = saved_note(teacher_client.get(url + "?saved=1").content.decode())
    assert "is-flagged" not in agreed and "Engine agrees with the stored ruling" in agreed
    changed = text(expect=[{"claim": "shuffles", "player": "Alice", "value": "no"}])
    response = teacher_client.post(url, {"document": changed})
    disagreed = saved_note(teacher_client.get(response["Location"]).content.decode())
    assert disagreed.startswith(' is-flagged"')  # red, not the green of a clean save
    assert "Saved (version 2), but check it: engine disagrees with the stored ruling" in disagreed


def test_questions_no_longer_generated_are_deactivated(instructor, own_bank):
    scenario = saved_scenario(instructor, own_bank)
    saved_scenario_again = saving.check_save_scenario(
        instructor,
        own_bank,
        text(expect=[{"claim": "searches", "player": "Alice", "value": "must"}]),
        scenario,
    )
    saving.do_save_scenario(instructor, own_bank, saved_scenario_again, scenario)
    active = Question.objects.filter(scenario=scenario, is_active=True)
    assert list(active.values_list("key", flat=True)) == ["value-searches-alice"]
    assert Question.objects.filter(scenario=scenario, is_active=False).count() == 1


# Lint.


def test_lint_lists_disagreements_with_each_mismatch(teacher_client, instructor, own_bank):
    saved_scenario(instructor, own_bank, "fine")
    wrong = saved_scenario(
        instructor,
        own_bank,
        "wrong",
        expect=[{"claim": "shuffles", "player": "Alice", "value": "no"}],
    )
    page = teacher_client.get(reverse("bank_lint", args=[own_bank.slug])).content.decode()
    assert wrong.title in page and "disagrees" in page
    assert "shuffles" in page and "checked 2 scenarios" in page


def test_lint_of_a_clean_bank(teacher_client, instructor, own_bank):
    saved_scenario(instructor, own_bank)
    page = teacher_client.get(reverse("bank_lint", args=[own_bank.slug])).content.decode()
    assert "No problems" in page


@pytest.mark.parametrize(
    ("language", "warning", "reason", "advice"),
    [
        (
            "en",
            "Warning (CR 307.1, <code>resolve</code>):",
            "Alice casts Demonic Tutor while Nadia is the active player: a sorcery without flash "
            "can be cast only in a main phase of its caster&#x27;s own turn, when the stack is "
            "empty.",
            "To make it legal, make Alice the active player or have Nadia cast the spell.",
        ),
        (
            "de",
            "Warnung (CR 307.1, <code>resolve</code>):",
            "Alice wirkt die Karte „Dämonischer Tutor“, während Nadia der aktive Spieler ist: "
            "Eine Hexerei ohne Aufblitzen",
            "Alice zum aktiven Spieler machen oder Nadia den Zauberspruch wirken lassen.",
        ),
        (
            "it",
            "Avviso (CR 307.1, <code>resolve</code>):",
            "Alice lancia la carta «Precettore Demoniaco» mentre Nadia è il giocatore attivo: "
            "una stregoneria senza lampo",
            "rendi Alice il giocatore attivo oppure fai in modo che la magia la lanci Nadia.",
        ),
    ],
)
def test_lint_warns_of_a_sorcery_cast_out_of_turn(
    teacher_client, instructor, own_bank, language, warning, reason, advice
):
    """The stored ruling agrees, but the board can't happen (CR 307.1): a warning with the
    rule, in the instructor's language."""
    saved_scenario(instructor, own_bank, "out-of-turn", active="Nadia")
    url = reverse("bank_lint", args=[own_bank.slug])
    page = teacher_client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert warning in page and reason in page and advice in page
    assert "badge status-agrees" in page


def test_the_preview_warns_of_a_sorcery_cast_out_of_turn_as_the_lint_does(teacher_client, own_bank):
    """An instructor building a board learns it can't happen while building it, not only from
    the bank's lint."""
    url = reverse("scenario_preview_new", args=[own_bank.slug])
    late = teacher_client.post(url, {"document": text(active="Nadia")}, HTTP_HX_REQUEST="true")
    body = late.content.decode()
    assert "Warning (CR 307.1, <code>resolve</code>):" in body
    assert "To make it legal, make Alice the active player or have Nadia cast the spell." in body
    on_time = teacher_client.post(url, {"document": text()}, HTTP_HX_REQUEST="true")
    assert "Warning (CR" not in on_time.content.decode()


def test_lint_runs_the_engine_afresh(teacher_client, instructor, own_bank):
    scenario = saved_scenario(instructor, own_bank)
    Scenario.objects.filter(pk=scenario.pk).update(
        spec=document("tutor-three", zones={"Alice": {"library": ["Nope#n"]}})
    )
    page = teacher_client.get(reverse("bank_lint", args=[own_bank.slug])).content.decode()
    assert "invalid" in page and "unknown card" in page
    scenario.refresh_from_db()
    assert scenario.engine_status == Scenario.EngineStatus.AGREES  # the lint saves nothing


@pytest.mark.parametrize(
    ("claim", "value", "hint"),
    [
        ({"claim": "found_count", "searcher": "Alice"}, 99, "give the fewest and the most"),
        ({"claim": "found_count", "searcher": "Alice"}, [1, True], "give the fewest and the most"),
        ({"claim": "shuffles", "player": "Alice"}, "yes", None),  # a choice: the engine's words
    ],
)
def test_a_stored_value_of_the_wrong_shape_is_refused_with_its_place(
    teacher_client, own_bank, claim, value, hint
):
    changed = text(expect=[claim | {"value": value}])
    response = teacher_client.post(
        reverse("scenario_create", args=[own_bank.slug]), {"document": changed}
    )
    if hint is None:
        assert response.status_code == 302
        return
    page = response.content.decode()
    assert response.status_code == 400 and not Scenario.objects.exists()
    # refused with its place, not saved and then a 500 on every later visit
    assert f"<code>expect[0].value</code>: {hint}" in page

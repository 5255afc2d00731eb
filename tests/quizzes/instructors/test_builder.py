"""The scenario builder (quizzes/instructors/builder.py): JSON <-> form both ways, edits without
JSON, errors beside their fields, duplicate and start from a seed, access."""

from __future__ import annotations

import json
import re
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.urls import reverse

import quizzes
from quizzes.instructors import saving
from quizzes.instructors.builder import Builder
from quizzes.models import Family, Scenario
from quizzes.rulings import documents
from tests.factories import BankFactory, ScenarioFactory, simple_spec
from tests.quizzes.instructor_fixtures import document, text

pytestmark = pytest.mark.django_db

SEEDS = sorted((Path(quizzes.__file__).parent / "content" / "scenarios").glob("*.json"))
HTMX = {"HTTP_HX_REQUEST": "true"}


def normal(doc: dict) -> dict:
    """A document as the builder writes it: zones, history and expect always present."""
    return {"zones": {}, "history": [], "expect": [], **doc}


@pytest.mark.parametrize("path", SEEDS, ids=lambda path: path.stem)
def test_every_seed_scenario_survives_the_builder(path):
    doc = json.loads(path.read_text())
    assert Builder.of_document(doc).document() == normal(doc)


class FormFields(HTMLParser):
    """The fields a browser would post from the scenario form (checked boxes, selected options)."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: list[tuple[str, str]] = []
        self._select: str | None = None
        self._textarea: str | None = None
        self._text = ""
        self._first_option: tuple[str, str] | None = None
        self._chosen = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        name = attrs.get("name")
        if tag == "input" and name and attrs.get("type") not in ("submit", "button"):
            if attrs.get("type") == "checkbox" and "checked" not in attrs:
                return
            self.fields.append((name, attrs.get("value") or ""))
        elif tag == "select" and name:
            self._select, self._first_option, self._chosen = name, None, False
        elif tag == "option" and self._select:
            option = (self._select, attrs.get("value") or "")
            self._first_option = self._first_option or option
            if "selected" in attrs:
                self.fields.append(option)
                self._chosen = True
        elif tag == "textarea" and name:
            self._textarea, self._text = name, ""

    def handle_endtag(self, tag):
        if tag == "select" and self._select:
            if not self._chosen and self._first_option:
                self.fields.append(self._first_option)
            self._select = None
        elif tag == "textarea" and self._textarea:
            self.fields.append((self._textarea, self._text.removeprefix("\n")))
            self._textarea = None

    def handle_data(self, data):
        if self._textarea:
            self._text += data


def posted_fields(html: str, **changes) -> dict[str, list[str]]:
    parser = FormFields()
    parser.feed(html)
    data: dict[str, list[str]] = {}
    for name, value in parser.fields:
        if name != "csrfmiddlewaretoken":
            data.setdefault(name, []).append(value)
    return data | changes


def document_box(html: str) -> dict:
    """The JSON box of an htmx reply (sent out of band)."""
    parser = FormFields()
    parser.feed(html)
    return json.loads(dict(parser.fields)["document"])


def saved(user, bank, doc: dict) -> Scenario:
    checked = saving.check_save_scenario(user, bank, json.dumps(doc))
    return saving.do_save_scenario(user, bank, checked)


def edit_url(bank, scenario):
    return reverse("scenario_edit", args=[bank.slug, scenario.slug])


def preview_url(bank, scenario):
    return reverse("scenario_preview", args=[bank.slug, scenario.slug])


RICH = document(
    "rich",
    active="Nadia",
    zones={
        "Alice": {"library": ["Island#i1", "Forest#f1", "Swamp#s1"], "hand": []},
        "Nadia": {"battlefield": [{"card": "Forest", "label": "nf", "tapped": True}]},
    },
    history=[{"fact": "searched_library", "player": "Nadia"}],
    resolve={
        "cast": "Demonic Tutor",
        "by": "Alice",
        "choices": {"Alice": {"find": ["f1"]}},
    },
)


def test_the_page_posts_back_the_same_document(teacher_client, instructor, own_bank):
    scenario = saved(instructor, own_bank, RICH)
    page = teacher_client.get(edit_url(own_bank, scenario)).content.decode()
    data = posted_fields(page, source=["builder"])
    reply = teacher_client.post(preview_url(own_bank, scenario), data, **HTMX)
    sent = document_box(reply.content.decode())
    assert sent == normal(documents.document_of(scenario).to_json())
    teacher_client.post(edit_url(own_bank, scenario), data)
    scenario.refresh_from_db()
    assert scenario.version == 1  # saving the untouched builder changes nothing


def test_a_card_added_in_the_builder_reaches_the_json_and_the_board(
    teacher_client, instructor, own_bank
):
    scenario = saved(instructor, own_bank, document("tutor-three"))
    page = teacher_client.get(edit_url(own_bank, scenario)).content.decode()
    data = posted_fields(page, source=["builder"])
    data["b-zone-0-hand"] = ["Plains#p9"]  # typed into "Add a card to hand"
    reply = teacher_client.post(preview_url(own_bank, scenario), data, **HTMX).content.decode()
    assert document_box(reply)["zones"]["Alice"]["hand"] == ["Plains#p9"]
    assert "Plains" in reply.split('id="document-box"')[0]  # on the previewed board


def test_up_and_down_buttons_work_without_javascript(teacher_client, instructor, own_bank):
    scenario = saved(instructor, own_bank, document("tutor-three"))
    page = teacher_client.get(edit_url(own_bank, scenario)).content.decode()
    assert 'value="zone-0-library:1:up"' in page
    data = posted_fields(page, **{"b-action": ["zone-0-library:1:up"]})
    reply = teacher_client.post(preview_url(own_bank, scenario), data)
    assert reply.status_code == 200
    library = json.loads(reply.context["form"]["document"].value())["zones"]["Alice"]["library"]
    assert library == ["Forest#f1", "Island#i1", "Swamp#s1"]
    scenario.refresh_from_db()
    assert scenario.spec["zones"]["Alice"]["library"][0] == "Island#i1"  # moved, not saved


def test_the_json_lays_out_the_builder(teacher_client, own_bank):
    changed = text(zones={"Alice": {"library": ["Swamp#s1", "Island#i1"]}})
    url = reverse("scenario_preview_new", args=[own_bank.slug])
    reply = teacher_client.post(url, {"document": changed, "source": "json"}, **HTMX)
    html = reply.content.decode()
    assert 'id="builder"' in html and 'hx-swap-oob="true"' in html
    assert html.index('value="Swamp#s1"') < html.index('value="Island#i1"')


def ask_values(html: str) -> list[str]:
    """The value of every "ask this" tick on the page."""
    return [unescape(value) for value in re.findall(r'name="b-ask" value="([^"]*)"', html)]


def test_ticking_a_claim_asks_it(teacher_client, instructor, own_bank):
    scenario = saved(instructor, own_bank, document("tutor-three", expect=[]))
    page = teacher_client.get(edit_url(own_bank, scenario)).content.decode()
    data = posted_fields(page, source=["builder"])
    shuffles = next(t for t in ask_values(page) if '"shuffles"' in t)
    data["b-ask"] = [shuffles]
    response = teacher_client.post(edit_url(own_bank, scenario), data)
    assert response.status_code == 302
    scenario.refresh_from_db()
    assert scenario.spec["expect"] == [{"claim": "shuffles", "player": "Alice", "value": "yes"}]
    assert scenario.questions.filter(is_active=True).exists()


def test_each_error_is_beside_its_card_and_the_rest_is_previewed(teacher_client, own_bank):
    changed = text(zones={"Alice": {"library": ["Island#i1", "Mountian#m1", "Forest#f1"]}})
    url = reverse("scenario_create", args=[own_bank.slug])
    response = teacher_client.post(url, {"document": changed, "source": "json"})
    html = response.content.decode()
    assert response.status_code == 400 and not Scenario.objects.exists()
    beside = html.split('id="b-zone-0-library-1-errors"')[1].split("</div>")[0]
    assert "unknown card &#x27;Mountian&#x27;" in beside
    assert 'aria-invalid="true" aria-describedby="b-zone-0-library-1-errors"' in html
    assert "Library (top first)" in html.split('id="preview"')[1]  # the board is kept
    assert "previewed without it" in html


def test_malformed_json_is_shown_at_its_line(teacher_client, own_bank):
    broken = text().replace('"Alice",', '"Alice"', 1)
    url = reverse("scenario_create", args=[own_bank.slug])
    html = teacher_client.post(url, {"document": broken, "source": "json"}).content.decode()
    errors = html.split('id="document-errors"')[1].split("</div>")[0]
    assert "malformed JSON" in errors and "Line " in errors


def test_a_builder_past_the_limits_is_refused(teacher_client, own_bank):
    url = reverse("scenario_create", args=[own_bank.slug])
    data = {"source": "builder", "b-player": [f"P{n}" for n in range(50)], "document": text()}
    response = teacher_client.post(url, data)
    assert response.status_code == 400 and not Scenario.objects.exists()
    assert "over the limit of 6" in response.content.decode()


def test_duplicate_makes_a_copy_in_the_bank(teacher_client, instructor, own_bank):
    scenario = saved(instructor, own_bank, document("tutor-three"))
    url = reverse("scenario_duplicate", args=[own_bank.slug, scenario.slug])
    response = teacher_client.post(url)
    copy = Scenario.objects.exclude(pk=scenario.pk).get()
    assert response.status_code == 302 and copy.bank == own_bank
    assert copy.title.endswith("(copy)") and copy.spec["id"] == "tutor-three-copy"
    assert copy.spec["zones"] == scenario.spec["zones"]


def test_another_instructors_scenario_cannot_be_duplicated(client, other_instructor, own_bank):
    scenario = saved(own_bank.owner, own_bank, document("tutor-three"))
    client.force_login(other_instructor)
    url = reverse("scenario_duplicate", args=[own_bank.slug, scenario.slug])
    assert client.post(url).status_code == 404
    assert Scenario.objects.count() == 1


def test_a_new_scenario_starts_from_a_seed_scenario(teacher_client, own_bank):
    seed_bank = BankFactory()  # public, the site's
    seed = ScenarioFactory(slug="seed-one", spec=simple_spec("seed-one"), title="Seed one")
    seed.bank = None
    seed.save()
    seed_bank.questions.create(scenario=seed, kind="value", claims=[], prompt="?", key="k")
    url = reverse("scenario_create", args=[own_bank.slug])
    page = teacher_client.get(url)
    assert "Start from a seed scenario" in page.content.decode()
    started = teacher_client.get(url, {"from": "seed-one"})
    assert json.loads(started.context["form"]["document"].value())["id"] == "seed-one-copy"


def test_a_private_scenario_is_no_seed(teacher_client, other_instructor, own_bank):
    theirs = BankFactory(owner=other_instructor, visibility="private")
    saved(other_instructor, theirs, document("secret"))
    secret = Scenario.objects.get()
    url = reverse("scenario_create", args=[own_bank.slug])
    started = teacher_client.get(url, {"from": secret.slug})
    assert "secret" not in started.context["form"]["document"].value()


def test_a_huge_number_typed_in_the_builder_is_an_error_beside_its_field(teacher_client, own_bank):
    # found walking the builder: a 20-digit choice value got the door's plain-text 400 for "a
    # number too large for any id" in place of the page (no field of the builder is an id)
    page = teacher_client.get(reverse("scenario_create", args=[own_bank.slug])).content.decode()
    huge = "9" * 20
    data = posted_fields(page, source=["builder"], **{"b-resolve-targets": [huge]})
    url = reverse("scenario_preview_new", args=[own_bank.slug])
    reply = teacher_client.post(url, data, **HTMX)
    assert reply.status_code == 200
    assert f"&#x27;{huge}&#x27; is neither a player nor a card label" in reply.content.decode()
    response = teacher_client.post(reverse("scenario_create", args=[own_bank.slug]), data)
    assert response.status_code == 400 and not Scenario.objects.exists()
    assert 'id="builder"' in response.content.decode()  # the page, with what was typed
    assert f'value="{huge}"' in response.content.decode()


def test_a_familys_generated_instances_are_no_seeds(teacher_client, own_bank):
    # found walking: the seed list held all 853 scenarios, 35 of them "Archive Trap this turn"
    written = ScenarioFactory(slug="seed-one", spec=simple_spec("seed-one"), title="Seed one")
    family = Family.objects.create(slug="fam", title="Fam", level="L1", definition={})
    generated = ScenarioFactory(slug="fam-1", spec=simple_spec("fam-1"), title="Generated one")
    generated.family = family
    for scenario in (written, generated):
        scenario.bank = None
        scenario.save()
        BankFactory().questions.create(
            scenario=scenario, kind="value", claims=[], prompt="?", key="k"
        )
    page = teacher_client.get(reverse("scenario_create", args=[own_bank.slug])).content.decode()
    assert "Seed one" in page and "Generated one" not in page


def test_each_describe_it_even_when_empty_box_names_its_zone(teacher_client, own_bank):
    # found walking with the keyboard: twelve boxes all read "Describe it even when empty"
    page = teacher_client.get(reverse("scenario_create", args=[own_bank.slug])).content.decode()
    boxes = re.findall(r'<input type="checkbox" name="b-written"[^>]*>', page)
    assert len(boxes) == 12  # two players, six zones each
    for box in boxes:
        zone = re.search(r'value="([^"]+)"', box).group(1)
        assert f'aria-describedby="b-{zone}-title"' in box
        assert f'id="b-{zone}-title"' in page


def test_the_saved_note_counts_the_questions_learners_get(teacher_client, instructor, own_bank):
    # found walking: unticking a claim deactivates its questions (answers point at them), but
    # the note after saving still counted them among "questions in this bank"
    scenario = saved(instructor, own_bank, document("tutor-three"))
    page = teacher_client.get(edit_url(own_bank, scenario)).content.decode()
    data = posted_fields(page, source=["builder"])
    data["b-ask"] = [t for t in ask_values(page) if '"shuffles"' in t or '"searches"' in t][:2]
    teacher_client.post(edit_url(own_bank, scenario), data)
    active = scenario.questions.filter(is_active=True).count()
    data["b-ask"] = data["b-ask"][:1]  # untick one of the two
    response = teacher_client.post(edit_url(own_bank, scenario), data, follow=True)
    now = scenario.questions.filter(is_active=True).count()
    assert 0 < now < active and scenario.questions.count() > now
    note = response.content.decode().split('class="saved-note', 1)[1].split("</p>", 1)[0]
    assert f"; {now} question" in note
    in_bank = own_bank.questions.filter(is_active=True).count()
    assert f"from this scenario (the bank serves {in_bank} in all)" in note

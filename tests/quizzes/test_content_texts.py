"""The site's own content in German and Italian (quizzes/content_texts.py): every seed text has
both translations, a generated title is matched by its family's template, an edited text falls
back to its English marked lang="en", and the stored ruling shows Tutor's translation with the
original a click away."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from quizzes import content_texts
from quizzes.loading.read import GENERATED_BANK
from quizzes.models import Question
from quizzes.rulings.generate import build_questions
from tests.factories import BankFactory, QuestionFactory, ScenarioFactory, UserFactory

CONTENT = Path(settings.BASE_DIR) / "quizzes" / "content"
LANGUAGES = ("de", "it")


def _read(path: Path):
    return json.loads(path.read_text(encoding="utf-8"))


def seed_texts() -> list[tuple[str, str, str]]:
    """(where, text, the language it is written in) for every content text a learner reads."""
    found = []
    for path in sorted((CONTENT / "scenarios").glob("*.json")):
        spec = _read(path)
        written = spec.get("language", "en")  # the title and the ruling; sources are English
        found += [(f"{path.name} title", spec["title"], written)]
        found += [(f"{path.name} source", spec["source"], "en")]
        if spec.get("stored_ruling"):
            found += [(f"{path.name} stored_ruling", spec["stored_ruling"], written)]
    for path in sorted((CONTENT / "families").glob("*.json")):
        family = _read(path)
        found += [(f"{path.name} {key}", family[key], "en") for key in ("title", "source")]
        for key in ("title", "source"):
            if family.get("scenario", {}).get(key):
                found += [(f"{path.name} scenario.{key}", family["scenario"][key], "en")]
    banks = [*_read(CONTENT / "banks.json"), GENERATED_BANK]
    found += [
        (f"bank {b['slug']} {k}", b[k], "en") for b in banks for k in ("title", "description")
    ]
    for blueprint in _read(CONTENT / "blueprints.json"):
        found += [
            (f"exam {blueprint['slug']} {k}", blueprint[k], "en") for k in ("title", "description")
        ]
        found += [(f"exam {blueprint['slug']} area", a["title"], "en") for a in blueprint["areas"]]
    return found


def only_a_card_name(template: str) -> bool:
    """A family title that is just its card ("${tutor}"): it reads as that card's name."""
    return content_texts.PLACEHOLDER.fullmatch(template) is not None


def raw_catalog(language: str) -> dict:
    return _read(CONTENT / "localized_texts" / f"{language}.json")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_seed_family_bank_and_exam_text_has_a_translation(language):
    templates = raw_catalog(language)["templates"]
    missing, other_names = [], []
    for where, text, written in seed_texts():
        if written == language or only_a_card_name(text):
            continue
        if "${" in text:  # a family's title template: it keeps its placeholders
            names = set(content_texts.PLACEHOLDER.findall(text))
            if text not in templates:
                missing.append(where)
            elif set(content_texts.PLACEHOLDER.findall(templates[text])) != names:
                other_names.append(where)
        elif content_texts.translated(text, language) is None:
            missing.append(where)
    assert missing == [] and other_names == []
    read = {where.split()[0] for where, _, _ in seed_texts()}
    assert {p.name for p in CONTENT.glob("*/*.json") if p.parent.name != "localized_texts"} <= read


def test_the_catalogs_hold_no_text_the_content_lacks():
    """Say each fact once: a catalog entry is for a text the content has (no stale copies)."""
    texts = {text for _, text, _ in seed_texts()}
    for language in (*LANGUAGES, "en"):
        raw = raw_catalog(language)
        assert set(raw["texts"]) - texts == set(), language
        assert set(raw.get("templates", {})) - texts == set(), language


FEW = "with a library of few cards"
GENERATED = [  # (language, a generated title, how it reads)
    ("de", f"Demonic Tutor {FEW}", "Dämonischer Tutor mit einer Bibliothek aus wenigen Karten"),
    ("it", f"Demonic Tutor {FEW}", "Precettore Demoniaco con un grimorio di poche carte"),
    ("de", f"Vampiric Tutor {FEW}", "Vampiric Tutor mit einer Bibliothek aus wenigen Karten"),
    ("it", "Splinter on Howling Mine", "Scheggia su Miniera Ululante"),
    ("de", "Llanowar Elves: can its ability be activated?", "Llanowarelfen: Kann die Fähigkeit "
     "aktiviert werden?"),
    ("it", "X is 3", "X è 3"),
    ("de", "Demonic Tutor", "Dämonischer Tutor"),  # the family "${tutor}"
]  # fmt: skip


@pytest.mark.parametrize(("language", "generated", "expected"), GENERATED)
def test_a_generated_title_reads_in_the_learner_s_language(language, generated, expected):
    assert content_texts.translated(generated, language) == expected
    with translation.override(language):
        assert content_texts.shown(generated) == expected


def test_an_edited_text_stays_english_marked_so():
    edited = "Demonic Tutor: a search for a quantity of cards (two cards)"
    assert content_texts.shown(edited, language="de") == f'<span lang="en">{edited}</span>'
    assert content_texts.shown(edited, language="en") == edited
    ruling = content_texts.StoredRuling.of("<p>An instructor's ruling</p>", language="it")
    assert ruling == content_texts.StoredRuling("<p>An instructor's ruling</p>", english=True)


def test_a_variant_s_names_are_put_in_the_translation_in_the_reader_s_language():
    title = "Archive Trap mills the top thirteen"  # a seed title, on a board that renames
    names = {"Archive Trap": "Mind Funeral", "Nadia": "Bea", "Plains": "Island"}
    assert content_texts.shown(title, names, "de") == "Mind Funeral millt die obersten dreizehn"
    ruling = content_texts.StoredRuling.of(
        _read(CONTENT / "scenarios" / "mill-definition.json")["stored_ruling"], names, "it"
    )
    assert "Bea mette le prime tredici carte" in ruling.text
    assert "Isola e Isola restano nel suo grimorio" in ruling.text  # Pianura renamed
    assert "Bea puts the top thirteen" in ruling.original and ruling.english


def test_the_sources_german_and_italian_texts_are_not_marked_english():
    german = "Sorgfältige Zerstörung auf Verborgenes Wissen"
    assert content_texts.shown(german, language="de") == german
    assert content_texts.shown(german, language="it") == "Scheggia su Miniera Ululante"
    assert content_texts.shown(german, language="en") == "Splinter on Howling Mine"


@pytest.fixture
def ashiok(db, settings):
    """A seed scenario with its stored ruling, asked as a question of the cards kind."""
    settings.QUIZZES_VARIANTS = False
    spec = _read(CONTENT / "scenarios" / "ashiok-demonic-tutor.json")
    scenario = ScenarioFactory(
        slug=spec["id"], title=spec["title"], source=spec["source"], spec=spec,
        stored_ruling=spec["stored_ruling"],
    )  # fmt: skip
    generated = next(q for q in build_questions(spec) if q.kind == "cards")
    return QuestionFactory(
        scenario=scenario, kind=Question.Kind.CARDS, prompt=generated.prompt,
        claims=generated.claims,
    )  # fmt: skip


def _feedback(client, language: str) -> str:
    client.force_login(UserFactory())
    html = client.get(reverse("practice"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    token = re.search(r'name="token" value="([^"]+)"', html).group(1)
    fields = sorted(set(re.findall(r'name="(claim_\d+)"', html)))
    data = {"token": token, **dict.fromkeys(fields, "may")}
    response = client.post(reverse("answer"), data, HTTP_ACCEPT_LANGUAGE=language, follow=True)
    assert response.status_code == 200
    return response.content.decode()


def test_feedback_shows_the_translated_ruling_with_the_original_a_click_away(client, ashiok):
    feedback = _feedback(client, "de")
    assert "Szenario: Dämonischer Tutor unter Ashiok eines Gegners · aus" in feedback
    assert "Kartenentscheidungen zu Mana und zu Ashiok, Dream Render, ¶11" in feedback
    assert (
        '<blockquote class="stored-ruling">Sagt ein Effekt „Durchsuche deine Bibliothek' in feedback
    )
    assert "Tutors Übersetzung der ursprünglichen Regelentscheidung." in feedback
    original = re.search(
        r'<details class="original-ruling" lang="en"><summary lang="de">(.*?)</details>', feedback
    )
    assert original and "Die ursprüngliche Regelentscheidung" in original[1]
    assert "your opponents shuffle their libraries even though they can’t search" in original[1]


def test_english_feedback_shows_the_ruling_as_its_source_gives_it(client, ashiok):
    feedback = _feedback(client, "en")
    assert '<blockquote class="stored-ruling">If an effect says' in feedback
    assert "original-ruling" not in feedback and "Tutor's translation" not in feedback


def test_a_bank_s_edited_title_and_description_stay_english_marked_so(client, db):
    seed = _read(CONTENT / "banks.json")[0]
    for title, description in (
        (seed["title"], seed["description"]),
        ("My own bank", "<p>Written by <em>me</em></p><script>x</script>"),
    ):
        QuestionFactory(bank=BankFactory(title=title, description=description))
    client.force_login(UserFactory())
    html = client.get(reverse("practice_banks"), HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "<h2>Passare in rassegna e dintorni</h2>" in html
    assert '<div class="bank-description">Passare in rassegna i grimori (CR 701.23)' in html
    assert '<h2><span lang="en">My own bank</span></h2>' in html
    assert '<div class="bank-description" lang="en"><p>Written by <em>me</em></p></div>' in html


def catalog_names() -> set[str]:
    """Every card name the card catalog (rules/catalog) holds."""
    folder = Path(settings.BASE_DIR) / "rules" / "catalog"
    return {card["name"] for path in folder.glob("*.json") for card in _read(path)}


def test_a_seed_scenario_s_title_names_only_cards_on_its_board():
    """Read as a judge: "Scenario: Mana Reflection doubles a Forest's mana" above a board of
    Llanowar Elves and no Forest. A title naming a card the scenario doesn't hold misleads.
    (One naming the wrong card of its board, "Tapping a Forest" where Reflecting Pool is
    tapped beside a Forest, is a judge's reading to catch, not this test's.)"""
    names = catalog_names()
    misnamed = []
    for path in sorted((CONTENT / "scenarios").glob("*.json")):
        spec = _read(path)
        board = json.dumps([spec.get(key) for key in ("zones", "cards", "resolve", "history")])
        named = {n for n in names if re.search(rf"\b{re.escape(n)}\b", spec["title"])}
        misnamed += [(path.name, name) for name in sorted(named) if name not in board]
    assert misnamed == []

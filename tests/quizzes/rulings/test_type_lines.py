"""The board's type lines in German and Italian as printed on official cards (issue 23,
Build 6), English and marked so where a word has no translation here; and "chosen" read as a
word, not quoted as a card's name."""

from __future__ import annotations

import pytest
from django.utils import translation

from quizzes.rulings.descriptions import _words
from quizzes.rulings.reasons import say
from quizzes.rulings.type_lines import localized_type_line
from rules.engine.filters import Filter
from rules.engine.reasons import because

LINES = [
    ("de", "Basic Land — Forest", "Standardland — Wald"),
    ("de", "Basic Snow Land — Island", "Verschneites Standardland — Insel"),
    ("de", "Creature — Elf Druid", "Kreatur — Elf Druide"),
    ("de", "Sorcery", "Hexerei"),
    ("it", "Basic Land — Forest", "Terra Base — Foresta"),
    ("it", "Basic Snow Land — Swamp", "Terra Base Innevata — Palude"),
    ("it", "Creature — Human Soldier", "Creatura — Umano Soldato"),
    ("it", "Instant — Trap", "Istantaneo — Trappola"),
]


@pytest.mark.parametrize(("language", "english", "printed"), LINES)
def test_a_type_line_reads_as_printed_in_the_reader_s_language(language, english, printed):
    with translation.override(language):
        assert localized_type_line(english) == (printed, "")


def test_a_type_line_with_an_untranslated_word_stays_english_marked():
    with translation.override("de"):
        assert localized_type_line("Creature — Ouphe") == ("Creature — Ouphe", "en")
    with translation.override("en"):
        assert localized_type_line("Basic Land — Forest") == ("Basic Land — Forest", "")


@pytest.mark.parametrize(
    ("language", "supertypes", "expected"),
    [
        ("de", ("Basic",), "Karte (Standardland)"),
        ("de", ("Snow", "Basic"), "Karte (verschneites Standardland)"),
        ("de", ("Snow",), "Karte (verschneites Land)"),
        ("it", ("Snow", "Basic"), "carta terra base innevata"),
    ],
)
def test_basic_and_snow_lands_read_as_printed(language, supertypes, expected):
    with translation.override(language):
        assert _words(Filter(supertypes=supertypes, types=("Land",))) == expected


@pytest.mark.parametrize(
    ("language", "chosen", "target"),
    [
        ("de", "wie die gewählte Karte", "wie die Zielkarte"),
        ("it", "della carta scelta", "della carta bersaglio"),
    ],
)
def test_chosen_and_target_are_words_not_names(language, chosen, target):
    with translation.override(language):
        said_chosen = say(because("undefined_quality_chosen"))
        said_target = say(because("undefined_quality_target"))
    assert chosen in said_chosen and "„" not in said_chosen and "«" not in said_chosen
    assert target in said_target


@pytest.mark.django_db
def test_the_board_shows_german_type_lines(client, learner, bank, no_variants):
    from django.conf import settings
    from django.urls import reverse

    from tests.factories import RuleFactory, ScenarioFactory
    from tests.quizzes.conftest import land_tutor_spec, make_question

    make_question(ScenarioFactory(spec=land_tutor_spec()), bank, rules=[RuleFactory()])
    client.force_login(learner)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    html = client.get(reverse("practice")).content.decode()
    assert "Standardland — Wald" in html and "Basic Land" not in html

"""Authoring: who is an instructor, documents and their errors, saving, the lint command."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.management import CommandError, call_command
from django.utils import translation

from config import roles
from quizzes.instructors import banks, lint, saving
from quizzes.models import Scenario
from quizzes.rulings import documents, preview
from rules.engine import default_catalog
from tests.factories import BankFactory, ScenarioFactory, UserFactory
from tests.quizzes.instructor_fixtures import document, text

pytestmark = pytest.mark.django_db


def save(user, bank, scenario_id="tutor-three", **changes) -> Scenario:
    doc = saving.check_save_scenario(user, bank, text(scenario_id, **changes))
    return saving.do_save_scenario(user, bank, doc)


def test_who_is_an_instructor(instructor):
    assert roles.is_instructor(instructor)
    assert roles.is_instructor(UserFactory(username="staffer", is_staff=True))
    assert not roles.is_instructor(UserFactory(username="plain"))
    assert not roles.is_instructor(UserFactory(username="gone", is_staff=True, is_active=False))
    assert not roles.is_instructor(AnonymousUser())


def test_banks_of_is_the_owners_only(instructor, other_instructor, own_bank):
    assert list(banks.banks_of(instructor)) == [own_bank]
    assert not banks.banks_of(other_instructor).exists()
    assert not banks.banks_of(AnonymousUser()).exists()


@pytest.mark.parametrize(
    ("changes", "path", "message"),
    [
        ({"title": " "}, "title", "give the scenario a non-empty title"),
        ({"source": None}, "source", "give the scenario a non-empty source"),
        ({"stored_ruling": 3}, "stored_ruling", "must be text"),
        ({"stored_expect": [{"value": 1}]}, "stored_expect", 'each with a "claim" name'),
        ({"players": ["Alice"], "zones": {"Nadia": {}}}, "zones.Nadia", ""),
        ({"questions": [{"key": "Bad Key"}]}, "questions[0].key", "give a slug"),
    ],
)
def test_document_errors_name_the_field(changes, path, message):
    raw = document() | changes
    with pytest.raises(documents.AuthoringError) as caught:
        documents.read_document(raw, default_catalog())
    assert caught.value.path == path and message in caught.value.message


UNKNOWN_CARD = {
    "en": "unknown card 'Islnd': the card catalog has no card of that name (check its spelling "
    "on the Cards page, or add it there as your own card)",
    "de": "unbekannte Karte „Islnd“: Der Kartenkatalog hat keine Karte dieses Namens (prüfe die "
    "Schreibweise auf der Seite „Karten“ oder füge sie dort als eigene Karte hinzu)",
    "it": "carta sconosciuta «Islnd»: il catalogo delle carte non ha nessuna carta con questo "
    "nome (controlla come si scrive nella pagina «Carte» o aggiungila lì come una tua carta)",
}


@pytest.mark.parametrize("language", sorted(UNKNOWN_CARD))
def test_an_unknown_card_is_named_in_the_authors_words_and_language(language):
    """Not the format's `define it in "cards" or the catalog`: the card, and where cards are."""
    raw = document(zones={"Alice": {"library": ["Islnd"]}})
    with pytest.raises(documents.AuthoringError) as caught:
        documents.read_document(raw, default_catalog())
    with translation.override(language):
        assert caught.value.said == UNKNOWN_CARD[language]
        assert str(caught.value) == f"zones.Alice.library[0]: {UNKNOWN_CARD[language]}"
    assert isinstance(caught.value.said, documents.Said)  # not marked lang="en" on a page


def test_tutor_keys_are_kept_out_of_the_spec():
    doc = documents.read_document(
        document(stored_expect=[{"claim": "mana_value", "value": 4}]), default_catalog()
    )
    assert "stored_ruling" not in doc.spec and "stored_expect" not in doc.spec
    assert doc.stored_expect == [{"claim": "mana_value", "value": 4}]
    assert doc.to_json() == document(stored_expect=[{"claim": "mana_value", "value": 4}])


def test_only_the_owner_may_save(other_instructor, own_bank):
    with pytest.raises(documents.AuthoringError, match="your own banks"):
        saving.check_save_scenario(other_instructor, own_bank, text())


def test_a_scenario_id_taken_elsewhere_gets_a_fresh_slug(instructor, own_bank):
    ScenarioFactory(slug="tutor-three")
    assert save(instructor, own_bank).slug == "tutor-three-2"


def test_stored_expect_makes_it_not_checked(instructor, own_bank):
    scenario = save(instructor, own_bank, stored_expect=[{"claim": "mana_value", "value": 4}])
    assert scenario.engine_status == Scenario.EngineStatus.NOT_CHECKED


def test_the_preview_never_raises_for_an_unknown_claim():
    shown = preview.preview(
        text(expect=[{"claim": "bogus", "player": "Alice", "value": 1}]), default_catalog()
    )
    assert shown.error.path == "expect[0].claim" and "unknown claim" in shown.error.message


@pytest.mark.parametrize("key", ["title", "source"])
def test_an_empty_title_or_source_does_not_blank_the_preview(key):
    # found walking the builder: clearing the title to retype it emptied the board, the claims
    # and the "Ask this" ticks (shown as raw JSON), though the engine reads neither key
    shown = preview.preview(text(**{key: ""}), default_catalog())
    assert shown.error.path == key and "non-empty" in shown.error.message
    assert shown.set_aside == [key]
    assert shown.board is not None and shown.computed and shown.expect
    with pytest.raises(documents.AuthoringError):  # saving still asks for it
        documents.read_document(document(**{key: " "}), default_catalog())


def test_the_starter_document_is_valid_and_agrees():
    shown = preview.preview(documents.starter_text(), default_catalog())
    assert shown.error is None and shown.status == Scenario.EngineStatus.AGREES


# The lint command.


def run_lint(*args) -> tuple[str, int]:
    out = io.StringIO()
    try:
        call_command("lint_banks", *args, stdout=out)
    except CommandError as error:
        return out.getvalue() + str(error), error.returncode
    return out.getvalue(), 0


def test_lint_banks_exits_non_zero_with_each_mismatch(instructor, own_bank):
    save(instructor, own_bank, "fine")
    save(
        instructor,
        own_bank,
        "wrong",
        expect=[{"claim": "shuffles", "player": "Alice", "value": "no"}],
    )
    output, code = run_lint()
    assert code == 1
    assert "FLAGGED wrong (disagrees)" in output and "fine" not in output.split("FLAGGED")[1]
    assert "shuffles" in output and "1 of 2 scenario(s) flagged" in output


def test_lint_banks_of_one_bank(instructor, own_bank):
    save(instructor, own_bank, "fine")
    other = BankFactory(owner=instructor, slug="other")
    save(
        instructor, other, "wrong", expect=[{"claim": "shuffles", "player": "Alice", "value": "no"}]
    )
    output, code = run_lint("--bank", "week-1")
    assert code == 0 and "1 scenario(s) checked" in output
    assert run_lint("--bank", "other")[1] == 1


def test_lint_banks_of_an_unknown_bank(db):
    output, code = run_lint("--bank", "nope")
    assert code == 1 and "No bank with the slug 'nope'" in output


def test_lint_warns_of_a_sorcery_cast_out_of_turn_without_failing(instructor, own_bank):
    """Alice casts Demonic Tutor while Nadia is the active player (CR 307.1): the stored ruling
    still agrees, so the command warns and exits 0."""
    save(instructor, own_bank, "out-of-turn", active="Nadia")
    output, code = run_lint()
    assert code == 0 and "FLAGGED" not in output
    assert (
        "WARNING out-of-turn (resolve, CR 307.1): Alice casts Demonic Tutor while Nadia is the "
        "active player: a sorcery without flash" in output
    )


def test_lint_lists_a_cast_out_of_turn_beside_the_mismatches(instructor, own_bank):
    save(instructor, own_bank, "fine")
    save(instructor, own_bank, "out-of-turn", active="Nadia")
    wrong = [{"claim": "shuffles", "player": "Alice", "value": "no"}]
    save(instructor, own_bank, "both", active="Nadia", expect=wrong)
    entries = {entry.scenario.slug: entry for entry in lint.lint(Scenario.objects.all())}
    assert set(entries) == {"out-of-turn", "both"}
    quiet = entries["out-of-turn"]
    assert (quiet.status, quiet.flagged, quiet.problems) == ("agrees", False, ())
    assert [(w.path, w.card, w.caster, w.active, w.rule) for w in quiet.warnings] == [
        ("resolve", "Demonic Tutor", "Alice", "Nadia", "307.1")
    ]
    both = entries["both"]
    assert both.flagged and "shuffles" in both.problems[0] and len(both.warnings) == 1


def test_a_scenario_the_engine_rejects_has_no_timing_warning(instructor, own_bank):
    scenario = save(instructor, own_bank, "broken", active="Nadia")
    Scenario.objects.filter(pk=scenario.pk).update(
        spec=document("broken", active="Nadia", zones={"Alice": {"library": ["Nope#n"]}})
    )
    (entry,) = lint.lint(Scenario.objects.all())
    assert entry.status == "invalid" and entry.warnings == ()

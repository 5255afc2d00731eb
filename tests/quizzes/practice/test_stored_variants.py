"""Every variant a learner is served is stored with its engine-computed key: a practice page
and an answer run no engine code, and the stored variant says what the engine says."""

from __future__ import annotations

import json
import logging
import random

import pytest
from django.urls import reverse
from django.utils import translation

from quizzes import rulings
from quizzes.models import Presentation, Question, Response, Variant
from quizzes.rulings import kind_of
from quizzes.rulings.generate import build_questions
from quizzes.rulings.ruling import Ruling
from tests.factories import QuestionFactory, ScenarioFactory
from tests.quizzes.conftest import (
    QUESTION_SHAPES,
    land_tutor_spec,
    make_question,
    summoning_sick_elves_spec,
)
from tests.quizzes.pages import token_of

pytestmark = pytest.mark.django_db

# A right answer to each shape of tests/quizzes/conftest.py, as the form posts it.
RIGHT = {
    Question.Kind.CARDS: {"claim_0": "may", "claim_1": "cannot"},
    Question.Kind.COUNT_RANGE: {"low": "0", "high": "1"},  # a hidden zone: may fail to find
    Question.Kind.VALUE: {"claim_0": '"yes"'},
}
# An answer the form takes, right or wrong, to the others.
TAKEN = {
    Question.Kind.YES_NO: {"claim_0": "yes", "claim_1": "yes"},
    Question.Kind.MULTIPLE_CHOICE: {},  # no statement ticked
    Question.Kind.LEGAL_SET: {},  # no card picked
    Question.Kind.OUTCOME_REASON: {"option": "0"},  # the first option shown
}


@pytest.fixture
def logged_in(client, learner):
    client.force_login(learner)
    return client


@pytest.fixture
def no_engine(monkeypatch):
    """Every way into the engine's computing (parse, resolve, a legal set's check) fails."""
    from rules.engine import api

    def refuse(*args, **kwargs):
        raise AssertionError("the engine ran on the request path")

    monkeypatch.setattr(api, "parse_scenario", refuse)
    monkeypatch.setattr(api, "resolve_step", refuse)
    monkeypatch.setattr(api, "_check_find_choice", refuse)


@pytest.mark.parametrize("kind", list(QUESTION_SHAPES))
def test_a_practice_page_and_its_answer_run_no_engine_code(
    logged_in, scenario, bank, kind, monkeypatch, request
):
    question = make_question(scenario, bank, kind)  # written with its variants, as content is
    assert Variant.objects.filter(question=question).count() == rulings.variant_count()
    request.getfixturevalue("no_engine")
    page = logged_in.get(reverse("practice"))
    assert page.status_code == 200
    presentation = Presentation.objects.get(token=token_of(page))
    assert presentation.variant.question == question
    answer = RIGHT.get(kind, TAKEN.get(kind))
    answered = logged_in.post(reverse("answer"), {"token": presentation.token, **answer})
    assert answered.status_code == 302  # graded
    response = Response.objects.get(presentation=presentation)
    assert response.correct or kind not in RIGHT
    assert logged_in.get(reverse("feedback", args=[response.pk])).status_code == 200


def test_each_seed_is_stored_once_per_version(scenario, bank):
    question = make_question(scenario, bank)
    version = scenario.current_version_id
    stored = sorted(Variant.objects.of(question.pk, version).values_list("seed", flat=True))
    assert stored == list(range(rulings.variant_count()))
    assert rulings.store_variants([question]).made == 0  # a second write makes none


@pytest.mark.parametrize("seed", range(rulings.variant_count()))
def test_the_question_selection_finds_comes_with_its_stored_variant_of_the_seed_asked(
    learner, scenario, bank, seed
):
    from quizzes.practice import selection

    question = make_question(scenario, bank)
    pick = selection.next_question(learner, seed=seed)
    assert pick.question == question
    stored = Variant.objects.of(question.pk, scenario.current_version_id).get(seed=seed)
    assert pick.variant == stored
    assert pick.variant.ruled == stored.ruled and pick.variant.shown == stored.shown  # unpacked
    assert selection.next_question(learner).variant is None  # no seed asked: none read


def test_a_page_serves_the_variant_read_with_its_question(logged_in, scenario, bank, monkeypatch):
    question = make_question(scenario, bank)
    monkeypatch.setattr(rulings, "new_seed", lambda: rulings.variant_count() - 1)

    def read_apart(question):
        raise AssertionError("the variant was read in a query of its own")

    monkeypatch.setattr(rulings, "pick_variant", read_apart)
    served = Presentation.objects.get(token=token_of(logged_in.get(reverse("practice"))))
    assert served.question == question
    assert served.variant.seed == rulings.variant_count() - 1


def test_an_edit_makes_new_variants_and_answers_keep_theirs(logged_in, scenario, bank):
    question = make_question(scenario, bank)
    page = logged_in.get(reverse("practice"))
    served = Presentation.objects.get(token=token_of(page))
    first_version = served.variant.scenario_version_id
    spec = land_tutor_spec()
    spec["zones"]["Alice"]["library"].append("Plains#p2")
    scenario.spec = spec
    scenario.save()  # a new version
    assert scenario.current_version_id != first_version
    rulings.store_variants([Question.objects.select_related("scenario").get(pk=question.pk)])
    assert Variant.objects.of(question.pk, scenario.current_version_id).exists()
    served.refresh_from_db()
    assert served.variant.scenario_version_id == first_version  # as it was shown
    answered = logged_in.post(reverse("answer"), {"token": served.token, **RIGHT["cards"]})
    assert answered.status_code == 302
    assert Response.objects.get(presentation=served).scenario_version_id == first_version


def test_a_question_written_without_variants_gets_them_when_first_served(
    logged_in, scenario, bank, caplog
):
    question = Question.objects.create(
        scenario=scenario,
        bank=bank,
        kind=Question.Kind.CARDS,
        prompt="Mark each card.",
        claims=QUESTION_SHAPES[Question.Kind.CARDS],
    )
    with caplog.at_level(logging.WARNING, logger="tutor.content"):
        assert logged_in.get(reverse("practice")).status_code == 200
    assert "had no stored variants" in caplog.text
    assert Variant.objects.filter(question=question).count() == rulings.variant_count()


def test_a_variant_made_with_another_engine_is_made_again(scenario, bank):
    question = make_question(scenario, bank)
    Variant.objects.filter(question=question).update(made_with="old", ruled={"stale": True})
    made = rulings.store_variants([question]).made
    assert made == rulings.variant_count()
    assert all("results" in ruled for ruled in Variant.objects.values_list("ruled", flat=True))


@pytest.mark.parametrize("kind", list(QUESTION_SHAPES))
@pytest.mark.parametrize("language", ["en", "de", "it"])
def test_a_stored_variant_reads_and_grades_as_the_engine(scenario, bank, kind, language):
    """The page (board, line of play, prompt, fields) and the grade of random answers, from
    the stored variant and from the engine on the same variant, in each language."""
    question = make_question(scenario, bank, kind)
    rng = random.Random(kind)
    with translation.override(language):
        for variant in Variant.objects.filter(question=question):
            stored = rulings.served_ruling(question, variant, learner_id=7)
            engine = Ruling.from_shown(kind, stored.shown)
            assert stored.board == engine.board
            assert (stored.premises(), stored.history()) == (engine.premises(), engine.history())
            assert rulings.prompt(question, stored) == rulings.prompt(question, engine)
            fields = kind_of(kind).fields(stored)
            assert _described(fields) == _described(kind_of(kind).fields(engine))
            for _ in range(12):
                answer = kind_of(kind).answer(stored, _random_cleaned(fields, rng))
                graded = rulings.grade(stored, answer).to_json()
                assert graded == rulings.grade(engine, answer).to_json()


def _described(fields) -> str:
    return json.dumps(
        {
            name: [
                str(field.label),
                [[c, str(label)] for c, label in getattr(field, "choices", [])],
            ]
            for name, field in fields.items()
        }
    )


def _random_cleaned(fields, rng: random.Random) -> dict:
    cleaned = {}
    for name, field in fields.items():
        choices = [value for value, _label in getattr(field, "choices", [])]
        if not choices:
            cleaned[name] = rng.randint(0, 4)
        elif type(field).__name__.startswith("Multiple"):
            cleaned[name] = rng.sample(choices, rng.randint(0, len(choices)))
        else:
            cleaned[name] = field.clean(rng.choice(choices))
    return cleaned


def test_a_variant_the_audit_faults_is_flagged_and_the_lint_says_so_in_words(
    teacher_client, own_bank, instructor
):
    """Issue 20: an instructor's save audits every variant it makes; the bank's lint shows what
    fails. Here a statement that could never be told apart: two identical claims."""
    from quizzes.instructors import saving
    from quizzes.rulings.documents import read_document
    from rules.cards import catalog_for

    spec = land_tutor_spec("twice")
    same = {"claim": "shuffles", "player": "Alice", "proposed": "yes"}
    document = read_document(
        {
            **spec,
            "questions": [
                {"key": "twice", "kind": "yes_no", "prompt": "True?", "claims": [same, dict(same)]}
            ],
        },
        catalog_for(instructor.pk),
    )
    saving.do_save_scenario(instructor, own_bank, document)
    flagged = Variant.objects.exclude(problems=[])
    assert flagged.count() == rulings.variant_count()
    assert all("statements_distinct" in " ".join(v.problems) for v in flagged)
    page = teacher_client.get(reverse("bank_lint", args=[own_bank.slug])).content.decode()
    assert "the audit found" in page and "statements_distinct" in page


def test_a_stored_variant_says_an_ability_that_cant_be_activated_is_wanted(bank):
    """Llanowar Elves the turn they came under Alice's control (302.6): their mana ability
    can't be activated, so the page says Alice wants to activate it (quizzes/rulings/generate.py
    `activation_wanted`), from the stored variant as from the engine, in every language."""
    spec = summoning_sick_elves_spec("mana_produced")
    (written,) = build_questions(spec)  # as content is written
    question = QuestionFactory(
        scenario=ScenarioFactory(spec=spec),
        bank=bank,
        kind=written.kind,
        claims=written.claims,
        prompt=written.prompt,
    )
    rulings.store_variants([question])
    wanted = {"en": "wants to activate", "de": "möchte eine Fähigkeit", "it": "vuole attivare"}
    for variant in Variant.objects.filter(question=question):
        stored = rulings.served_ruling(question, variant, learner_id=7)
        engine = Ruling.from_shown(question.kind, stored.shown)
        for language, words in wanted.items():
            with translation.override(language):
                shown = rulings.prompt(question, stored)
                assert words in shown and shown == rulings.prompt(question, engine)

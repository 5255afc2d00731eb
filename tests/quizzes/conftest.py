"""Fixtures for quizzes: a self-contained scenario (local card definitions) and a bank of it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from django.apps import apps

from quizzes.models import Bank, BlueprintArea, ExamBlueprint, Family, Question, Scenario
from quizzes.rulings import certification, store_variants
from rules.models import Card, Rule, RuleAlias
from tests.factories import BankFactory, QuestionFactory, RuleFactory, ScenarioFactory, UserFactory


@contextmanager
def content_loaded_for_a_module(django_db_blocker, load: Callable[[], object]) -> Iterator[object]:
    """`load()` (load_content) once for a module's tests, then every row it wrote removed, so
    no later module sees it: families and exam blueprints once stayed, and other modules'
    exam pages listed them."""
    with django_db_blocker.unblock():
        before = _models_with_rows()
        loaded = load()
    yield loaded
    with django_db_blocker.unblock():
        for model in [ExamBlueprint, BlueprintArea, Question, Scenario, Bank, Card, RuleAlias]:
            model.objects.all().delete()
        for model in [Rule, Family]:
            model.objects.all().delete()
        assert _models_with_rows() == before, "load_content's rows are all removed"


def _models_with_rows() -> set[str]:
    return {model.__name__ for model in apps.get_models() if model.objects.exists()}


def summoning_sick_elves_spec(claim: str) -> dict:
    """Alice activates Llanowar Elves the turn they came under her control (302.6: their {T}
    mana ability can't be activated), and `claim` is asked of them."""
    elves = {"card": "Llanowar Elves", "label": "elves", "entered_this_turn": True}
    return {
        "id": "sick-elves",
        "players": ["Alice", "Nadia"],
        "zones": {"Alice": {"battlefield": [elves]}},
        "resolve": {"activate": "elves", "by": "Alice"},
        "expect": [{"claim": claim, "card": "elves"}],
    }


def land_tutor_spec(scenario_id: str = "land-tutor") -> dict:
    """Alice casts Land Tutor (search for a basic land card, reveal it, shuffle)."""
    basic = {"supertypes": ["Basic"], "types": ["Land"]}
    return {
        "format": "scenario/1",
        "id": scenario_id,
        "title": "Land Tutor with a mixed library",
        "source": "tests/quizzes",
        "players": ["Alice", "Nadia"],
        "cards": [
            {
                "name": "Land Tutor",
                "mana_cost": "{1}{G}",
                "types": ["Sorcery"],
                "oracle": "Search your library for a basic land card, reveal it, put it into "
                "your hand, then shuffle.",
                "spell": [
                    {
                        "search": {
                            "who": "you",
                            "zones": ["library"],
                            "for": {"count": 1, "up_to": False, "filter": basic},
                            "reveal": True,
                            "put": "hand",
                        }
                    },
                    {"shuffle": "you"},
                ],
            },
            {"name": "Forest", "types": ["Land"], "supertypes": ["Basic"],
             "subtypes": ["Forest"], "oracle": "({T}: Add {G}.)"},
            {"name": "Island", "types": ["Land"], "supertypes": ["Basic"],
             "subtypes": ["Island"], "oracle": "({T}: Add {U}.)"},
            {"name": "Plains", "types": ["Land"], "supertypes": ["Basic"],
             "subtypes": ["Plains"], "oracle": "({T}: Add {W}.)"},
            {"name": "Shock", "mana_cost": "{R}", "types": ["Instant"],
             "oracle": "Shock deals 2 damage to any target."},
            {"name": "Opt", "mana_cost": "{U}", "types": ["Instant"],
             "oracle": "Scry 1.\nDraw a card."},
        ],
        "zones": {
            "Alice": {
                "hand": ["Land Tutor#tutor"],
                "library": ["Forest#f1", "Shock#s1", "Island#i1"],
                "graveyard": ["Opt#o1"],
            },
            "Nadia": {"library": ["Plains#p1"], "battlefield": ["Island#ni"]},
        },
        "history": [],
        "resolve": {"cast": "tutor", "by": "Alice"},
        "expect": [{"claim": "finds", "card": "s1", "value": "cannot"}],
    }  # fmt: skip


QUESTION_SHAPES = {
    Question.Kind.CARDS: [{"claim": "finds", "card": "f1"}, {"claim": "finds", "card": "s1"}],
    Question.Kind.COUNT_RANGE: [{"claim": "found_count", "searcher": "Alice"}],
    Question.Kind.VALUE: [{"claim": "shuffles", "player": "Alice"}],
    Question.Kind.YES_NO: [
        {"claim": "revealed", "searcher": "Alice", "proposed": True},
        {"claim": "searches", "player": "Nadia", "proposed": "may"},
    ],
    Question.Kind.MULTIPLE_CHOICE: [
        {"claim": "finds", "card": "i1", "proposed": "may"},
        {"claim": "shuffles", "player": "Alice", "proposed": "no"},
    ],
    Question.Kind.LEGAL_SET: [{"claim": "legal_find_set", "searcher": "Alice"}],
    # Shock is no basic land: it can't be found because it isn't what the search asks for
    certification.KIND: [
        {
            "claim": "finds",
            "card": "s1",
            "proposed": [
                {"values": ["cannot"], "reason": "no_match"},
                {"values": ["cannot"], "reason": "hidden_unfindable"},
                {"values": ["may"], "reason": "any"},
                {"values": ["may"], "reason": "left_anywhere"},
            ],
        }
    ],
}


@pytest.fixture
def learner(db):
    return UserFactory(username="learner")


@pytest.fixture
def other_learner(db):
    return UserFactory(username="someone-else")


@pytest.fixture
def search_rule(db):
    return RuleFactory(number="701.23b", text="If a player is searching a hidden zone ...")


@pytest.fixture
def scenario(db):
    return ScenarioFactory(spec=land_tutor_spec())


@pytest.fixture
def bank(db):
    return BankFactory()


# The kinds an instructor's scenario gets (quizzes/rulings/documents.generate_questions).
INSTRUCTOR_KINDS = [kind for kind in Question.Kind.values if kind != certification.KIND]


def make_question(scenario, bank, kind=Question.Kind.CARDS, rules=(), **kwargs) -> Question:
    question = QuestionFactory(
        scenario=scenario,
        bank=bank,
        kind=kind,
        claims=QUESTION_SHAPES[kind],
        prompt=f"A {kind} question about Land Tutor.",
        **kwargs,
    )
    question.rules.set(rules)
    store_variants([question])  # as every writer of content does
    return question


@pytest.fixture
def question(scenario, bank, search_rule):
    return make_question(scenario, bank, rules=[search_rule])


@pytest.fixture
def no_variants(settings):
    settings.QUIZZES_VARIANTS = False


# Instructors' fixtures (banks, authoring, cohorts): defined in tests/quizzes/instructor_fixtures.py
from tests.quizzes.instructor_fixtures import (  # noqa: E402, F401
    instructor,
    other_instructor,
    own_bank,
    teacher_client,
)

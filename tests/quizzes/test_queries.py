"""Query counts of the practice page and the answer view stay the same as the bank grows."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from quizzes.models import Question
from tests.factories import RuleFactory, ScenarioFactory
from tests.quizzes.conftest import QUESTION_SHAPES, land_tutor_spec

pytestmark = pytest.mark.django_db

# one: is an exam running (practice then pauses); one: is the user an instructor (the nav);
# two: the nearest unseen question above and below the target difficulty; one: the card
# catalog's generation (rules/cards.py: a card saved in any worker is seen at once)
PRACTICE_QUERIES = 11
# two: is an exam running, and the question's row lock; two more: the mix serves a rule the
# learner has not answered yet, so this answer creates its mastery; one: the card catalog's
# generation
ANSWER_QUERIES = 23


def fill_bank(scenario, bank, rule, size: int) -> None:
    """`size` questions over three scenarios and three rules, as a real bank mixes them (the
    mix never serves two in a row from one scenario, nor a rule twice in three questions)."""
    scenarios = [scenario] + [
        ScenarioFactory(slug=f"land-tutor-{index}", spec=land_tutor_spec(f"land-tutor-{index}"))
        for index in (2, 3)
    ]
    rules = [rule, RuleFactory(), RuleFactory()]
    questions = Question.objects.bulk_create(
        Question(
            scenario=scenarios[index % 3],
            bank=bank,
            kind=Question.Kind.CARDS,
            prompt="Mark each card.",
            claims=QUESTION_SHAPES[Question.Kind.CARDS],
            difficulty=(index % 21 - 10) / 5,
            position=index,
        )
        for index in range(size)
    )
    Question.rules.through.objects.bulk_create(
        Question.rules.through(question_id=question.pk, rule_id=rules[question.position % 3].pk)
        for question in questions
    )


@pytest.fixture
def warmed(client, learner, scenario, bank, search_rule, no_variants, request):
    """A learner with a bank of the requested size and one answer already given."""
    fill_bank(scenario, bank, search_rule, request.param)
    client.force_login(learner)
    page = client.get(reverse("practice"))
    token = re.search(r'name="token" value="([^"]+)"', page.content.decode()).group(1)
    client.post(reverse("answer"), {"token": token, "claim_0": "may", "claim_1": "cannot"})
    return client


@pytest.mark.parametrize("warmed", [10, 500], indirect=True)
def test_practice_page_queries(warmed, django_assert_num_queries):
    with django_assert_num_queries(PRACTICE_QUERIES):
        assert warmed.get(reverse("practice")).status_code == 200


@pytest.mark.parametrize("warmed", [10, 500], indirect=True)
def test_answer_view_queries(warmed, django_assert_num_queries):
    page = warmed.get(reverse("practice"))
    token = re.search(r'name="token" value="([^"]+)"', page.content.decode()).group(1)
    with django_assert_num_queries(ANSWER_QUERIES):
        answered = warmed.post(
            reverse("answer"),
            {"token": token, "claim_0": "may", "claim_1": "cannot"},
            HTTP_HX_REQUEST="true",
        )
    assert answered.status_code == 200


@pytest.mark.parametrize("warmed", [10], indirect=True)
def test_an_answer_parses_and_resolves_its_scenario_once(warmed, monkeypatch, settings):
    """One Ruling per request: the scenario is parsed once and resolved once (a variant is
    stored when the question is shown, so answering needs no variant search)."""
    from rules.engine import api

    settings.QUIZZES_VARIANTS = True
    page = warmed.get(reverse("practice"))
    token = re.search(r'name="token" value="([^"]+)"', page.content.decode()).group(1)
    calls = {"parse": 0, "resolve": 0}

    def counted(name, function):
        def wrapper(*args, **kwargs):
            calls[name] += 1
            return function(*args, **kwargs)

        return wrapper

    monkeypatch.setattr(api, "parse_scenario", counted("parse", api.parse_scenario))
    monkeypatch.setattr(api, "resolve_step", counted("resolve", api.resolve_step))
    answered = warmed.post(
        reverse("answer"),
        {"token": token, "claim_0": "may", "claim_1": "cannot"},
        HTTP_HX_REQUEST="true",
    )
    assert answered.status_code == 200 and b"Right!" in answered.content
    assert calls == {"parse": 1, "resolve": 1}

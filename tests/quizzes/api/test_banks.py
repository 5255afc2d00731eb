"""An instructor reads their own banks and questions; another instructor's bank is a 404, and a
learner (who could read answer keys in a scenario's document) gets none."""

from __future__ import annotations

import pytest

from quizzes.models import ApiToken, Bank
from tests.factories import BankFactory, QuestionFactory, ScenarioFactory
from tests.quizzes.api.conftest import API, bearer

pytestmark = pytest.mark.django_db


@pytest.fixture
def question(own_bank, instructor):
    scenario = ScenarioFactory(slug="tutor-three", bank=own_bank, author=instructor)
    return QuestionFactory(bank=own_bank, scenario=scenario, key="shuffles")


def test_an_instructor_lists_only_their_own_banks(
    api_client, own_bank, question, instructor_token, other_instructor
):
    BankFactory(owner=other_instructor, slug="theirs", visibility=Bank.Visibility.PUBLIC)
    BankFactory(owner=None, slug="site", visibility=Bank.Visibility.PUBLIC)
    response = api_client.get(f"{API}/banks", **bearer(instructor_token))
    assert response.status_code == 200
    assert [(b["slug"], b["question_count"]) for b in response.json()] == [("week-1", 1)]


def test_a_bank_lists_its_questions_without_values(
    api_client, own_bank, question, instructor_token
):
    response = api_client.get(f"{API}/banks/week-1", **bearer(instructor_token))
    assert response.status_code == 200
    bank = response.json()
    assert bank["slug"] == "week-1"
    assert [q["id"] for q in bank["questions"]] == [question.pk]
    summary = bank["questions"][0]
    assert set(summary) == {"id", "key", "kind", "level", "is_active", "scenario", "prompt"}


def test_a_question_comes_with_its_scenarios_document(
    api_client, own_bank, question, instructor_token
):
    url = f"{API}/banks/week-1/questions/{question.pk}"
    response = api_client.get(url, **bearer(instructor_token))
    assert response.status_code == 200
    answered = response.json()
    assert answered["claims"] == [{"claim": "shuffles", "player": "Alice"}]
    assert answered["document"]["expect"] == question.scenario.spec["expect"]
    assert answered["bank"] == "week-1" and answered["scenario"] == "tutor-three"


@pytest.mark.parametrize(
    "path",
    ["/banks/theirs", "/banks/theirs/questions/{theirs}", "/banks/week-1/questions/{theirs}"],
)
def test_another_instructors_bank_and_question_are_404(
    api_client, own_bank, question, instructor_token, other_instructor, path
):
    bank = BankFactory(owner=other_instructor, slug="theirs", visibility=Bank.Visibility.PUBLIC)
    theirs = QuestionFactory(bank=bank)
    url = API + path.format(theirs=theirs.pk)
    assert api_client.get(url, **bearer(instructor_token)).status_code == 404
    other_token = ApiToken.issue(other_instructor, "t")[1]
    assert api_client.get(f"{API}/banks/theirs", **bearer(other_token)).status_code == 200


@pytest.mark.parametrize("question_id", ["0", "-1", str(2**63), str(10**30), "x"])
def test_unknown_question_ids_are_4xx_not_500(api_client, own_bank, instructor_token, question_id):
    url = f"{API}/banks/week-1/questions/{question_id}"
    status = api_client.get(url, **bearer(instructor_token)).status_code
    assert status in (404, 422)


def test_a_learner_reads_no_bank_even_a_public_one(api_client, learner_token):
    BankFactory(owner=None, slug="site", visibility=Bank.Visibility.PUBLIC)
    for url in ("/banks", "/banks/site"):
        response = api_client.get(API + url, **bearer(learner_token))
        assert response.status_code == 403
        assert "instructor" in response.json()["detail"]


def test_banks_are_read_only(api_client, own_bank, instructor_token):
    for method in ("post", "put", "delete"):
        response = getattr(api_client, method)(f"{API}/banks/week-1", **bearer(instructor_token))
        assert response.status_code == 405

"""Item analysis on a hand-computed dataset: facility and the item-rest point-biserial."""

from __future__ import annotations

import math

import pytest

from quizzes.instructors import analysis
from quizzes.models import Attempt, Question, Response
from tests.factories import BankFactory, QuestionFactory, ScenarioFactory, UserFactory

pytestmark = pytest.mark.django_db

# First answers (1 right, 0 wrong) of four learners to three questions; totals 3, 2, 1, 1.
MATRIX = {
    "ann": (1, 1, 1),
    "ben": (1, 1, 0),
    "cat": (1, 0, 0),
    "dan": (0, 0, 1),
}


@pytest.fixture
def answered_bank():
    bank = BankFactory()
    scenario = ScenarioFactory()
    questions = [QuestionFactory(bank=bank, scenario=scenario, position=i) for i in range(3)]
    for name, row in MATRIX.items():
        user = UserFactory(username=name)
        attempt = Attempt.objects.create(user=user)
        for question, right in zip(questions, row, strict=True):
            Response.objects.create(
                attempt=attempt,
                question=question,
                user=user,
                correct=bool(right),
                scenario_version=scenario.current_version,
            )
    # a later answer never counts: dan gets q1 right the second time
    dan = UserFactory(username="dan")
    Response.objects.create(
        attempt=Attempt.objects.create(user=dan),
        question=questions[0],
        user=dan,
        correct=True,
        scenario_version=scenario.current_version,
    )
    QuestionFactory(bank=bank, scenario=scenario, position=9)  # never answered
    return bank, questions


def by_question(bank):
    return {item.question.pk: item for item in analysis.item_analysis(bank)}


def test_facility_is_the_share_of_right_first_answers(answered_bank):
    bank, (q1, q2, q3) = answered_bank
    items = by_question(bank)
    assert [items[q.pk].answers for q in (q1, q2, q3)] == [4, 4, 4]
    assert [items[q.pk].facility for q in (q1, q2, q3)] == [0.75, 0.5, 0.5]


def test_discrimination_by_hand(answered_bank):
    """q1: x 1,1,1,0 against rest 2,1,0,1: no covariance, r = 0.
    q2: x 1,1,0,0, rest 2,1,1,1: cov 0.5, Sxx 1, Syy 0.75, r = 0.5 / sqrt(0.75).
    q3: x 1,0,0,1, rest 2,2,1,0: cov -0.5, Sxx 1, Syy 2.75, r = -0.5 / sqrt(2.75)."""
    bank, (q1, q2, q3) = answered_bank
    items = by_question(bank)
    assert items[q1.pk].discrimination == pytest.approx(0.0)
    assert items[q2.pk].discrimination == pytest.approx(0.5 / math.sqrt(0.75))  # 0.577
    assert items[q3.pk].discrimination == pytest.approx(-0.5 / math.sqrt(2.75))  # -0.302
    assert "check the key" in items[q3.pk].flag


def test_an_unanswered_question_has_no_statistics(answered_bank):
    bank, _ = answered_bank
    unanswered = [item for item in analysis.item_analysis(bank) if item.answers == 0]
    assert len(unanswered) == 1
    assert unanswered[0].facility is None and unanswered[0].discrimination is None


def test_no_spread_means_no_discrimination():
    assert analysis.rest_point_biserial(n=3, sum_x=3, sum_t=6, sum_xt=6, sum_tt=14) is None
    assert analysis.rest_point_biserial(n=1, sum_x=1, sum_t=1, sum_xt=1, sum_tt=1) is None


def test_other_banks_answers_do_not_count(answered_bank):
    bank, (q1, *_) = answered_bank
    other = QuestionFactory(scenario=q1.scenario)  # its own bank
    ann = UserFactory(username="ann")
    Response.objects.create(
        attempt=Attempt.objects.create(user=ann), question=other, user=ann, correct=False
    )
    assert by_question(bank)[q1.pk].answers == 4
    assert set(by_question(bank)) <= set(
        Question.objects.filter(bank=bank).values_list("pk", flat=True)
    )


def test_three_queries_whatever_the_number_of_answers(answered_bank, django_assert_num_queries):
    """The sums, the versions answered, the questions."""
    bank, _ = answered_bank
    with django_assert_num_queries(3):
        analysis.item_analysis(bank)

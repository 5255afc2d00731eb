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
    # four learners: below the threshold, no note however the correlation comes out
    assert items[q3.pk].flag == "" and items[q3.pk].too_few_for_notes


def answer_as(user, questions, row, scenario):
    attempt = Attempt.objects.create(user=user)
    for question, right in zip(questions, row, strict=False):
        Response.objects.create(
            attempt=attempt,
            question=question,
            user=user,
            correct=bool(right),
            scenario_version=scenario.current_version,
        )


def test_notes_only_from_ten_learners():
    """Nine learners where the strongest get the last question wrong: no note; the tenth
    learner's answer brings it to the threshold and the note appears."""
    bank, scenario = BankFactory(), ScenarioFactory()
    questions = [QuestionFactory(bank=bank, scenario=scenario, position=i) for i in range(3)]
    rows = [(1, 1, 0)] * 5 + [(0, 0, 1)] * 4
    for index, row in enumerate(rows):
        answer_as(UserFactory(username=f"l{index}"), questions, row, scenario)
    last = by_question(bank)[questions[2].pk]
    assert last.answers == 9 and last.discrimination < 0
    assert last.flag == "" and last.too_few_for_notes
    answer_as(UserFactory(username="tenth"), questions, (1, 1, 0), scenario)
    last = by_question(bank)[questions[2].pk]
    assert last.answers == analysis.MIN_LEARNERS_FOR_NOTES == 10
    assert not last.too_few_for_notes and "check the key" in last.flag


def test_the_rest_score_is_a_share_not_a_count():
    """Two learners answer item q0. ann also answered 4 other items and got 3 right (rest 3/4);
    ben answered 1 other and got it right (rest 1/1). ben is the stronger on the rest: with ben
    right on q0 and ann wrong, r is +1. A count (3 against 1) would make it -1."""
    bank, scenario = BankFactory(), ScenarioFactory()
    questions = [QuestionFactory(bank=bank, scenario=scenario, position=i) for i in range(5)]
    answer_as(UserFactory(username="ann"), questions, (0, 1, 1, 1, 0), scenario)
    answer_as(UserFactory(username="ben"), questions[:2], (1, 1), scenario)
    assert by_question(bank)[questions[0].pk].discrimination == pytest.approx(1.0)


def test_a_learner_with_no_other_answer_has_no_rest_score():
    bank, scenario = BankFactory(), ScenarioFactory()
    questions = [QuestionFactory(bank=bank, scenario=scenario, position=i) for i in range(2)]
    answer_as(UserFactory(username="ann"), questions, (1, 1), scenario)
    answer_as(UserFactory(username="ben"), questions, (0, 0), scenario)
    answer_as(UserFactory(username="cat"), questions[:1], (1,), scenario)  # q0 only
    item = by_question(bank)[questions[0].pk]
    assert item.answers == 3  # facility from all three
    assert item.discrimination == pytest.approx(1.0)  # r from ann and ben


def test_an_unanswered_question_has_no_statistics(answered_bank):
    bank, _ = answered_bank
    unanswered = [item for item in analysis.item_analysis(bank) if item.answers == 0]
    assert len(unanswered) == 1
    assert unanswered[0].facility is None and unanswered[0].discrimination is None


def test_no_spread_means_no_discrimination():
    # everyone right: no spread in x
    assert analysis.rest_correlation(m=3, sum_x=3, sum_y=1.5, sum_xy=1.5, sum_yy=1.25) is None
    # one learner: too few
    assert analysis.rest_correlation(m=1, sum_x=1, sum_y=1.0, sum_xy=1.0, sum_yy=1.0) is None
    # the same rest score for everyone: no spread in y
    assert analysis.rest_correlation(m=2, sum_x=1, sum_y=1.0, sum_xy=0.5, sum_yy=0.5) is None


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

"""Adaptive selection, and a simulated learner driving the whole loop through quizzes.answers."""

from __future__ import annotations

import datetime
from statistics import mean

import pytest
from django.utils import timezone

from quizzes import answers, selection
from quizzes.models import Attempt, Mastery, Question
from tests.factories import BankFactory, RuleFactory
from tests.quizzes.conftest import make_question

pytestmark = pytest.mark.django_db

RIGHT = {"parts": ["may", "cannot"]}
WRONG = {"parts": ["cannot", "may"]}


def spread_bank(scenario, bank, rule, size=161):
    """Questions with difficulties from -4 to 4."""
    for index in range(size):
        make_question(scenario, bank, rules=[rule], difficulty=-4 + 8 * index / (size - 1))


def practise(user, rule, answer, rounds):
    served, masteries = [], []
    for _ in range(rounds):
        question = selection.next_question(user, rule).question
        served.append(question.difficulty)
        attempt = Attempt.objects.open_practice_for(user, question)
        answers.submit(attempt, question, answer)
        masteries.append(Mastery.objects.get(user=user, rule=rule).theta)
    return served, masteries


def test_always_right_raises_mastery_and_served_difficulty(learner, scenario, bank, search_rule):
    spread_bank(scenario, bank, search_rule)
    served, thetas = practise(learner, search_rule, RIGHT, 20)
    assert thetas[-1] > thetas[0] > 0
    assert mean(served[-5:]) > mean(served[:5])


def test_always_wrong_lowers_mastery_and_served_difficulty(learner, scenario, bank, search_rule):
    spread_bank(scenario, bank, search_rule)
    served, thetas = practise(learner, search_rule, WRONG, 20)
    assert thetas[-1] < thetas[0] < 0
    assert mean(served[-5:]) < mean(served[:5])


def test_never_the_question_just_answered(learner, scenario, bank, search_rule):
    first = make_question(scenario, bank, rules=[search_rule])
    second = make_question(scenario, bank, rules=[search_rule])
    answers.submit(Attempt.objects.open_practice_for(learner, first), first, RIGHT)
    assert selection.next_question(learner).question == second
    answers.submit(Attempt.objects.open_practice_for(learner, second), second, RIGHT)
    assert selection.next_question(learner).question == first


def test_unseen_questions_come_first(learner, scenario, bank, search_rule):
    seen = make_question(scenario, bank, rules=[search_rule], difficulty=-0.85)
    other = make_question(scenario, bank, rules=[search_rule], difficulty=3.0)
    unseen = make_question(scenario, bank, rules=[search_rule], difficulty=4.0)
    for question in (seen, other):
        answers.submit(Attempt.objects.open_practice_for(learner, question), question, RIGHT)
    assert selection.next_question(learner).question == unseen


def test_a_due_rule_comes_first(learner, scenario, bank, search_rule):
    other_rule = RuleFactory(number="701.24a")
    make_question(scenario, bank, rules=[search_rule])
    due_question = make_question(scenario, bank, rules=[other_rule])
    Mastery.objects.create(
        user=learner, rule=other_rule, due=timezone.now() - datetime.timedelta(days=1)
    )
    pick = selection.next_question(learner)
    assert pick.question == due_question and pick.due_rule_id == other_rule.pk


def test_a_repeat_starts_a_new_practice_attempt(learner, question):
    first = Attempt.objects.open_practice_for(learner, question)
    answers.submit(first, question, RIGHT)
    second = Attempt.objects.open_practice_for(learner, question)
    assert second != first
    first.refresh_from_db()
    assert first.finished_at is not None


def test_difficulty_moves_only_on_first_attempts(learner, question):
    for _ in range(2):
        attempt = Attempt.objects.open_practice_for(learner, question)
        answers.submit(attempt, question, RIGHT)
    question.refresh_from_db()
    assert question.answer_count == 2
    assert question.difficulty == pytest.approx(-0.5)  # K(0) * (1 - 0.5), once


def test_only_active_questions_in_visible_banks(learner, scenario, search_rule):
    make_question(scenario, BankFactory(visibility="private"), rules=[search_rule])
    make_question(scenario, BankFactory(), rules=[search_rule], is_active=False)
    assert selection.next_question(learner).question is None


def test_engine_disagreement_is_not_served(learner, scenario, bank):
    scenario.engine_status = "disagrees"
    scenario.save()
    make_question(scenario, bank, Question.Kind.CARDS)
    assert selection.next_question(learner).question is None

"""What mastery is measured against: the median difficulty of a rule's active questions, the
same for every learner, kept in the cache for a minute (quizzes/reports.py)."""

from __future__ import annotations

from statistics import median

import pytest
from django.core.cache import cache

from quizzes.models import Question
from quizzes.practice import reports
from tests.factories import QuestionFactory, RuleFactory

pytestmark = pytest.mark.django_db


def questions_on(rule, difficulties, active=True):
    for difficulty in difficulties:
        QuestionFactory(difficulty=difficulty, is_active=active).rules.add(rule)


def test_the_median_of_each_rules_active_questions():
    odd, even, none = RuleFactory(), RuleFactory(), RuleFactory()
    questions_on(odd, [0.5, -1.0, 2.0])
    questions_on(even, [0.5, -1.0, 2.0, 3.0])
    questions_on(even, [100.0], active=False)  # an inactive question does not count
    medians = reports.median_difficulties([odd.pk, even.pk, none.pk])
    assert medians == {odd.pk: 0.5, even.pk: median([0.5, -1.0, 2.0, 3.0]), none.pk: 0.0}


def test_a_second_read_asks_no_query_until_the_entry_expires(django_assert_num_queries):
    rule = RuleFactory()
    questions_on(rule, [1.0, 2.0, 3.0])
    assert reports.median_difficulties([rule.pk]) == {rule.pk: 2.0}
    Question.objects.filter(rules=rule, difficulty=2.0).update(difficulty=2.5)
    with django_assert_num_queries(0):
        assert reports.median_difficulties([rule.pk]) == {rule.pk: 2.0}  # for a minute
    cache.delete(reports._median_key(rule.pk))  # as the minute's end does
    with django_assert_num_queries(1):
        assert reports.median_difficulties([rule.pk]) == {rule.pk: 2.5}
    assert reports.MEDIAN_TIMEOUT == 60


def test_the_progress_page_measures_mastery_against_the_median(client):
    from quizzes.models import Mastery
    from tests.factories import UserFactory

    rule = RuleFactory(number="701.23b")
    questions_on(rule, [0.0, 1.0, 5.0])  # median 1.0
    learner = UserFactory()
    Mastery.objects.create(user=learner, rule=rule, theta=1.0, answers=3, correct=2)
    client.force_login(learner)
    assert "Mastery of 701.23b: 50%" in client.get("/progress/").content.decode()

"""Exams like Judge Foundry's (issue 23): untimed sittings, and a blueprint's short area made up
from the other areas, said on the page."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from quizzes.exams import proctor
from quizzes.models import Attempt, ExamSitting, Question
from tests.quizzes.exams.test_exams import RIGHT, blueprint_of, fill, question_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def logged_in(client, learner):
    client.force_login(learner)
    return client


@pytest.fixture
def untimed(learner, bank, search_rule, no_variants):
    fill(bank, search_rule, 3)
    return proctor.start(learner, blueprint_of(("701.23", 3), minutes=None))


def test_an_untimed_sitting_has_no_deadline_and_never_times_out(untimed):
    assert untimed.attempt.deadline is None and untimed.allowed_minutes is None
    a_year_on = timezone.now() + datetime.timedelta(days=365)
    assert not proctor.close_if_over(untimed, now=a_year_on)
    assert proctor.clock(untimed).label == "Untimed: take the time you need"
    assert not proctor.clock(untimed).over


def test_an_untimed_sitting_takes_answers_and_reports_the_time_taken(logged_in, untimed):
    page = logged_in.get(question_url(untimed))
    html = page.content.decode()
    assert "Untimed" in html and 'hx-trigger="every 15s"' not in html  # nothing to count down
    logged_in.post(question_url(untimed, 1), RIGHT)
    assert untimed.items.filter(answered_at__isnull=False).count() == 1
    logged_in.post(reverse("exam_finish", args=[untimed.pk]))
    report = logged_in.get(reverse("exam_sitting", args=[untimed.pk])).content.decode()
    assert "taken (untimed)" in report and "min used" not in report
    finished = ExamSitting.objects.get(pk=untimed.pk)
    assert finished.right_count == 1 and finished.attempt.finished_at is not None


def test_the_exams_page_says_untimed(logged_in, bank, search_rule):
    fill(bank, search_rule, 3)
    blueprint_of(("701.23", 3), minutes=None)
    html = logged_in.get(reverse("exam_index")).content.decode()
    assert "3 questions · untimed · pass mark 80%" in html


def test_a_short_area_is_made_up_from_the_others_and_said(logged_in, learner, bank, search_rule):
    from tests.factories import RuleFactory

    shuffle = RuleFactory(number="701.24a", text="To shuffle a library is to randomize it.")
    fill(bank, search_rule, 6)
    fill(bank, shuffle, 1)
    blueprint = blueprint_of(("701.23", 3), ("701.24", 3))
    drawn = proctor.draw(learner, blueprint)
    assert len(drawn) == 6  # as many as the blueprint asks
    by_area = {area: sum(d.area == area for d in drawn) for area in {d.area for d in drawn}}
    assert by_area == {"Area 701.23": 5, "Area 701.24": 1}  # each labelled by its real area
    sitting = proctor.start(learner, blueprint)
    assert proctor.shortfalls(sitting) == [("Area 701.24", 3, 1)]
    overview = logged_in.get(reverse("exam_sitting", args=[sitting.pk])).content.decode()
    assert "too few questions for some parts" in overview and "Area 701.24: 1 of 3" in overview


def test_a_full_bank_has_no_shortfall(learner, bank, search_rule, no_variants):
    fill(bank, search_rule, 4)
    sitting = proctor.start(learner, blueprint_of(("701.23", 3)))
    assert proctor.shortfalls(sitting) == []
    assert Question.objects.count() == 4 and sitting.question_count == 3


def test_a_timed_sitting_still_ends(learner, bank, search_rule, no_variants):
    fill(bank, search_rule, 2)
    sitting = proctor.start(learner, blueprint_of(("701.23", 2), minutes=5))
    Attempt.objects.filter(pk=sitting.pk).update(deadline=timezone.now() - datetime.timedelta(1))
    sitting.attempt.refresh_from_db()
    assert proctor.close_if_over(sitting)

"""The attempt history on the exams page and a report: each finished sitting of an exam (date,
score, passed or not) and the trend, better or worse than the sitting before, in words beside
the sparkline (issue 23, Build 5)."""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from quizzes.exams import history
from quizzes.models import Attempt, ExamBlueprint, ExamSitting
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def blueprint(slug: str, title: str, pass_mark: float = 0.8) -> ExamBlueprint:
    return ExamBlueprint.objects.create(
        slug=slug, title=title, time_limit_minutes=None, pass_mark=pass_mark
    )


def sat(learner, exam: ExamBlueprint, right: int, days_ago: int, total: int = 10) -> ExamSitting:
    started = timezone.now() - datetime.timedelta(days=days_ago)
    attempt = Attempt.objects.create(
        user=learner,
        kind=Attempt.Kind.EXAM,
        started_at=started,
        finished_at=started + datetime.timedelta(minutes=30),
    )
    return ExamSitting.objects.create(
        attempt=attempt,
        blueprint=exam,
        title=exam.title,
        pass_mark=exam.pass_mark,
        question_count=total,
        right_count=right,
        passed=right / total >= exam.pass_mark,
    )


@pytest.fixture
def learner(db):
    return UserFactory()


def test_each_exam_lists_its_sittings_with_the_trend(learner):
    level_1 = blueprint("l1", "Level 1 practice", 0.7)
    mock = blueprint("mock", "Mock exam")
    sat(learner, level_1, 6, days_ago=90)
    sat(learner, level_1, 8, days_ago=40)
    sat(learner, level_1, 7, days_ago=1)
    sat(learner, mock, 9, days_ago=5)
    sat(UserFactory(), level_1, 10, days_ago=2)  # another learner's: not theirs to see
    by_title = {h.title: h for h in history.histories(learner)}
    assert set(by_title) == {"Level 1 practice", "Mock exam"}
    level = by_title["Level 1 practice"]
    assert [entry.sitting.score_percent for entry in level.sat] == [60, 80, 70]
    assert [entry.trend for entry in level.sat] == ["first", "better", "worse"]
    assert [entry.change for entry in level.sat] == [None, 20, -10]
    assert level.summary == (
        "Scores, oldest first: 60%, 80%, 70%; the latest: "
        "10 points worse than the previous sitting."
    )
    assert history.histories(learner)[0].title == "Level 1 practice"  # latest sitting first


def test_the_exams_page_shows_each_sitting_and_the_trend_in_words(client, learner):
    level_1 = blueprint("l1", "Level 1 practice", 0.7)
    first = sat(learner, level_1, 6, days_ago=90)
    second = sat(learner, level_1, 8, days_ago=1)
    client.force_login(learner)
    html = client.get(reverse("exam_index")).content.decode()
    assert "Level 1 practice" in html
    for sitting in (first, second):
        assert reverse("exam_sitting", args=[sitting.pk]) in html
    assert "6 / 10 (60%)" in html and "8 / 10 (80%)" in html
    assert "not passed" in html and ">passed<" in html
    assert "20 points better than the previous sitting" in html
    assert "first sitting" in html
    # the sparkline is an image named by its text equivalent, the arrows hidden from readers
    svg = re.search(r'<svg class="sparkline"[^>]*aria-labelledby="([^"]+)"', html)
    assert svg is not None
    assert f'id="{svg.group(1)}">Scores, oldest first: 60%, 80%;' in html
    assert '<span aria-hidden="true">▲</span>' in html


def test_the_page_in_german_names_the_trend_in_german(client, learner):
    level_1 = blueprint("l1", "Level 1 practice", 0.7)
    sat(learner, level_1, 8, days_ago=9)
    sat(learner, level_1, 7, days_ago=1)
    client.force_login(learner)
    html = client.get(reverse("exam_index"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "10 Punkte schlechter als beim vorigen Versuch" in html
    assert "previous sitting" not in html


def test_a_report_shows_the_attempts_up_to_its_sitting(client, learner):
    level_1 = blueprint("l1", "Level 1 practice", 0.7)
    sat(learner, level_1, 6, days_ago=90)
    middle = sat(learner, level_1, 9, days_ago=40)
    sat(learner, level_1, 5, days_ago=1)
    client.force_login(learner)
    html = client.get(reverse("exam_sitting", args=[middle.pk])).content.decode()
    assert "Your attempts at this exam" in html
    assert "Scores, oldest first: 60%, 90%;" in html
    assert "30 points better than the previous sitting" in html
    assert "50%" not in html.split("Your attempts at this exam")[1].split("</section>")[0]


def test_the_exams_page_reads_the_history_in_as_many_queries_for_more_sittings(
    client, learner, django_assert_num_queries
):
    level_1 = blueprint("l1", "Level 1 practice", 0.7)
    mock = blueprint("mock", "Mock exam")
    sat(learner, level_1, 6, days_ago=9)
    sat(learner, mock, 6, days_ago=8)
    client.force_login(learner)
    client.get(reverse("exam_index"))  # the session and user met once
    with django_assert_num_queries(EXAM_INDEX_QUERIES):
        client.get(reverse("exam_index"))
    for days in range(7):
        sat(learner, level_1 if days % 2 else mock, 5 + days % 4, days_ago=days)
    with django_assert_num_queries(EXAM_INDEX_QUERIES):
        html = client.get(reverse("exam_index")).content.decode()
    assert html.count("better than the previous sitting") >= 1


# the session's user, the running sitting, the blueprints offered, each one's start check (two
# blueprints here), the finished sittings with their attempts: one query for all of them
EXAM_INDEX_QUERIES = 9

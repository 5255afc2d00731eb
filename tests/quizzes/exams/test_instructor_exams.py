"""Exams an instructor sets (issue 24): made from their bank, an accommodation, a sitting, the
key corrected, the sitting regraded (its old score kept), the results CSV."""

from __future__ import annotations

import copy
import csv
import datetime
import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from quizzes.exams import proctor, regrade, results
from quizzes.instructors import cohorts, exams, saving
from quizzes.models import Bank, Cohort, ExamBlueprint, ExamItem, SittingRegrade
from tests.factories import RuleFactory, UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-pass-9"
# Rampant Growth finds a basic land: the Bolt can't be found. The "correction" makes it a Swamp.
DOCUMENT = {
    "format": "scenario/1",
    "id": "rampant-bolt",
    "title": "Rampant Growth and a Bolt",
    "source": "CR 305.6",
    "players": ["Alice", "Nadia"],
    "cards": [],
    "zones": {"Alice": {"library": ["Island#i1", "Lightning Bolt#b1"]}},
    "history": [],
    "resolve": {"cast": "Rampant Growth", "by": "Alice"},
    "expect": [{"claim": "finds", "card": "b1", "value": "cannot"}],
    "stored_ruling": "Rampant Growth finds only a basic land card.",
}


def corrected() -> dict:
    document = copy.deepcopy(DOCUMENT)
    document["zones"]["Alice"]["library"] = ["Island#i1", "Swamp#b1"]
    document["expect"] = [{"claim": "finds", "card": "b1", "value": "may"}]
    return document


def save(user, bank, document, scenario=None):
    text = json.dumps(document)
    checked = saving.check_save_scenario(user, bank, text, scenario)
    return saving.do_save_scenario(user, bank, checked, scenario)


@pytest.fixture
def setting(settings):
    settings.QUIZZES_VARIANTS = False
    with open("/dev/null", "w") as quiet:
        call_command("make_instructor", "mentor", "--password", PASSWORD, stdout=quiet)
    mentor = get_user_model().objects.get(username="mentor")
    for number in ("701.23a", "701.23b"):  # the rules the engine cites for the two versions
        RuleFactory(number=number)
    bank = Bank.objects.create(
        slug="lands", title="Lands", owner=mentor, visibility=Bank.Visibility.PRIVATE
    )
    scenario = save(mentor, bank, DOCUMENT)
    cohort = cohorts.do_create_cohort(mentor, "Thursday")
    ann = UserFactory(username="ann", password=PASSWORD)
    ben = UserFactory(username="ben", password=PASSWORD)
    for learner in (ann, ben):
        cohorts.do_join(learner, cohort)
    return mentor, bank, scenario, cohort, ann, ben


def make_exam(mentor, bank) -> ExamBlueprint:
    data = {
        "title": "Week 2 check",
        "description": "",
        "banks": [bank],
        "topics": [],
        "question_count": 5,
        "time_limit_minutes": 10,
        "pass_percent": 100,
        "max_sittings": 1,
        "retake_wait_hours": 0,
    }
    return exams.do_save_exam(mentor, data)


def sit(learner, blueprint, part="may"):
    sitting = proctor.start(learner, blueprint)
    for item in sitting.items.all():
        proctor.record_answer(sitting, item, {"parts": [part]})
    return proctor.finish(sitting)


def test_an_exam_from_the_bank_with_an_accommodation_a_regrade_and_the_csv(setting):
    mentor, bank, scenario, cohort, ann, ben = setting
    blueprint = make_exam(mentor, bank)
    assert blueprint.owner == mentor and list(blueprint.banks.all()) == [bank]
    assert blueprint.areas.get().rules == "701"  # no topic ticked: the sections of the bank
    # not assigned: the learners neither see nor can start it
    assert not proctor.blueprints_for(ann).filter(pk=blueprint.pk).exists()
    cohorts.do_assign(cohort, blueprint=blueprint, due_on=timezone.localdate())
    assert proctor.blueprints_for(ann).filter(pk=blueprint.pk).exists()
    exams.do_accommodate(blueprint, ann, 15, 1)

    sitting = sit(ann, blueprint)
    assert sitting.extra_minutes == 15
    attempt = sitting.attempt
    assert attempt.deadline - attempt.started_at == datetime.timedelta(minutes=25)
    assert sitting.question_count == 1 and sitting.right_count == 0 and not sitting.passed
    # ann's extra sitting: a second start is allowed (max 1 + 1), ben's first only
    assert proctor.start_refusal(ann, blueprint) == ""
    ben_sitting = sit(ben, blueprint, part="cannot")
    assert ben_sitting.right_count == 1
    assert "1 time" in proctor.start_refusal(ben, blueprint)

    save(mentor, bank, corrected(), scenario)  # the key corrected: version 2
    planned = {change.sitting.pk: change for change in regrade.plan(blueprint)}
    assert planned[sitting.pk].right_after == 1 and planned[sitting.pk].passed_after
    assert planned[ben_sitting.pk].right_after == 0
    assert not SittingRegrade.objects.exists(), "the preview writes nothing"

    assert [item.question.pk for item in exams.preview_draw(mentor, blueprint)] == [
        scenario.questions.get().pk
    ], "still drawn once it cites 701.23b"
    regrade.apply(blueprint, mentor)
    sitting.refresh_from_db()
    assert sitting.right_count == 1 and sitting.passed
    history = SittingRegrade.objects.get(sitting=sitting)
    assert (history.right_before, history.right_after) == (0, 1)
    assert regrade.plan(blueprint) == [], "regraded once"
    report = proctor.report(sitting)
    assert report.items[0].correct and report.items[0].regraded

    table = list(csv.reader(io.StringIO(results.csv_text(blueprint))))
    assert table[0] == results.HEADER
    rows = {row[0]: dict(zip(table[0], row, strict=True)) for row in table[1:]}
    assert rows["ann"]["passed"] == "yes" and rows["ann"]["regraded"] == "yes"
    assert rows["ann"]["score_percent"] == "100"
    assert rows["ann"]["score_percent_before_regrade"] == "0"
    assert rows["ann"]["extra_minutes"] == "15"
    assert rows["ben"]["passed"] == "no" and rows["ben"]["score_percent_before_regrade"] == "100"

    assignments = list(cohorts.assignments_of(cohort))
    statuses = cohorts.assignment_statuses(assignments, [ann, ben], timezone.localdate())
    assert statuses[ann.pk][0].done and "passed" in statuses[ann.pk][0].label
    assert statuses[ben.pk][0].state == "due-today"


def test_pages_are_the_owners_alone(setting, client: Client):
    mentor, bank, scenario, cohort, ann, ben = setting
    blueprint = make_exam(mentor, bank)
    with open("/dev/null", "w") as quiet:
        call_command("make_instructor", "other", "--password", PASSWORD, stdout=quiet)
    other = get_user_model().objects.get(username="other")
    client.force_login(other)
    for name in ("instructor_exam", "instructor_exam_results", "instructor_exam_print"):
        assert client.get(reverse(name, args=[blueprint.pk])).status_code == 404
    assert client.post(reverse("instructor_exam_regrade", args=[blueprint.pk])).status_code == 404
    client.force_login(ann)
    assert client.get(reverse("instructor_exams")).status_code == 403
    client.force_login(mentor)
    assert client.get(reverse("instructor_exam", args=[blueprint.pk])).status_code == 200
    printed = client.get(reverse("instructor_exam_print", args=[blueprint.pk]))
    assert printed.status_code == 200 and b"Answer key" in printed.content
    # another instructor's learner can't be given an accommodation here
    stranger = UserFactory(username="stranger")
    reply = client.post(
        reverse("instructor_exam_accommodate", args=[blueprint.pk]),
        {"learner": stranger.pk, "extra_minutes": 5, "extra_sittings": 0},
    )
    assert reply.status_code == 400
    reply = client.post(
        reverse("instructor_exam_accommodate", args=[blueprint.pk]),
        {"learner": ann.pk, "extra_minutes": 601, "extra_sittings": 0},
    )
    assert reply.status_code == 400  # bounded


def test_the_form_makes_an_exam(setting, client: Client):
    mentor, bank, *_ = setting
    client.force_login(mentor)
    page = client.get(reverse("instructor_exam_new"))
    assert page.status_code == 200
    reply = client.post(
        reverse("instructor_exam_new"),
        {
            "title": "Quiz",
            "banks": [bank.pk],
            "question_count": 3,
            "time_limit_minutes": 20,
            "pass_percent": 70,
            "retake_wait_hours": 0,
        },
    )
    assert reply.status_code == 302
    blueprint = ExamBlueprint.objects.get(title="Quiz")
    assert blueprint.owner == mentor and blueprint.pass_mark == 0.7
    assert ExamItem.objects.count() == 0
    assert Cohort.objects.count() == 1


def _cohort_page_queries(client, cohort) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("cohort_detail", args=[cohort.pk])).status_code == 200
    return len(queries)


def test_the_cohort_page_statuses_do_not_grow_with_learners(setting, client: Client):
    """Each learner against a bank and an exam: three queries in all, however many learners."""
    mentor, bank, scenario, cohort, ann, ben = setting
    bank.visibility = Bank.Visibility.SHARED
    bank.save()
    cohorts.do_assign(cohort, bank=bank)
    cohorts.do_assign(cohort, blueprint=make_exam(mentor, bank))
    sit(ann, cohort.assignments.get(blueprint__isnull=False).blueprint)
    client.force_login(mentor)
    _cohort_page_queries(client, cohort)  # the page's cached parts made once
    few = _cohort_page_queries(client, cohort)
    for index in range(5):
        cohorts.do_join(UserFactory(username=f"more-{index}"), cohort)
    assert _cohort_page_queries(client, cohort) == few
    page = client.get(reverse("cohort_detail", args=[cohort.pk])).content.decode()
    assert "0 of 1 met" in page and "1 of 1, not passed" not in page
    assert "0 of 1, not passed" in page  # ann sat it: wrong by the key


def test_topics_are_bounded(setting, client: Client):
    mentor, bank, *_ = setting
    client.force_login(mentor)
    from quizzes.instructors.forms import ExamForm

    topics = [(f"7{index:02d}.1a", "t") for index in range(60)]
    form = ExamForm(
        {
            "title": "Quiz",
            "banks": [bank.pk],
            "topics": [number for number, _ in topics],
            "question_count": 3,
            "time_limit_minutes": 20,
            "pass_percent": 70,
            "retake_wait_hours": 0,
        },
        instructor=mentor,
        topics=topics,
    )
    assert not form.is_valid() and "topics" in form.errors

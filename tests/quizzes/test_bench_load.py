"""bench.load reads pages as a browser does: its form reading and filling against the real
practice and exam pages, and its audit against the database (the run itself is bench-only)."""

from __future__ import annotations

import random
from urllib.parse import urlencode

import pytest
from django.urls import reverse

from bench import load
from quizzes.exams import proctor
from quizzes.models import BlueprintArea, ExamBlueprint, Response
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def post_pairs(client, url, pairs):
    """A form as a browser sends it: name=value pairs, a name possibly repeated."""
    return client.post(url, urlencode(pairs), content_type="application/x-www-form-urlencoded")


def test_the_practice_form_is_read_and_filled_generically(client, learner, question):
    client.force_login(learner)
    page = client.get(reverse("practice")).content.decode()
    form = load.answer_form(page, reverse("answer"))
    assert form is not None and form.action == reverse("answer")
    data = dict(load.fill(form, random.Random(1)))
    hidden = {f["name"]: f["value"] for f in form.fields if f.get("type") == "hidden"}
    assert {name: data[name] for name in hidden} == hidden  # token and CSRF field kept as sent
    radio_groups = {f["name"] for f in form.fields if f.get("type") == "radio"}
    assert radio_groups and radio_groups <= set(data)  # one choice per group
    posted = post_pairs(client, reverse("answer"), load.fill(form, random.Random(1)))
    assert posted.status_code == 302 and Response.objects.count() == 1


def test_the_exam_forms_are_found(client, learner, question, bank):
    blueprint = ExamBlueprint.objects.create(slug="mock", title="Mock", time_limit_minutes=20)
    blueprint.banks.set([bank])
    BlueprintArea.objects.create(blueprint=blueprint, title="Search", rules="701.23", count=1)
    client.force_login(learner)
    start = reverse("exam_start", args=["mock"])
    assert load.answer_form(client.get(reverse("exam_index")).content.decode(), start)
    sitting = proctor.start(learner, blueprint)
    url = reverse("exam_question", args=[sitting.pk, 1])
    form = load.answer_form(client.get(url).content.decode(), url)
    assert (
        form is not None
        and post_pairs(client, url, load.fill(form, random.Random(2))).status_code == 302
    )


def test_the_audit_counts_lost_and_doubled_answers(learner, question):
    from quizzes.models import Attempt

    attempt = Attempt.objects.create(user=learner)
    Response.objects.create(attempt=attempt, question=question, user=learner)
    UserFactory(username="silent")
    counts = load.audit({learner.username: 2, "silent": 0})
    assert counts["practice_lost"] == 1 and counts["practice_doubled"] == 0
    assert counts["counter_drift"] == 1  # stored directly: answer_count never moved
    counts = load.audit({learner.username: 0})
    assert counts["practice_doubled"] == 1

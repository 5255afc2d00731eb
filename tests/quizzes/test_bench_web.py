"""bench.web reads a question page as a browser would: its answer is a complete, graded form."""

from __future__ import annotations

import pytest
from django.urls import reverse

from bench.web import answer_form
from quizzes.models import Question, Response
from tests.quizzes.conftest import make_question

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("kind", list(Question.Kind.values))
def test_the_form_read_off_the_page_is_graded(client, learner, scenario, bank, kind):
    make_question(scenario, bank, kind)
    client.force_login(learner)
    form = answer_form(client.get(reverse("practice")).content.decode())
    assert form is not None and "token" in form
    posted = client.post(reverse("answer"), form, HTTP_HX_REQUEST="true")
    assert posted.status_code == 200 and 'id="feedback-title"' in posted.content.decode()
    assert Response.objects.filter(user=learner).count() == 1

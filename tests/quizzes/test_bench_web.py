"""bench.web reads a question page as a browser would: its answer is a complete, graded form."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest
from django.urls import reverse

from bench.web import Phase, answer_form, practise, workers_cpu
from quizzes.models import Question, Response
from tests.factories import ScenarioFactory
from tests.quizzes.conftest import land_tutor_spec, make_question

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


def test_the_servers_cpu_is_read_from_its_workers():
    """`workers_cpu` sums the CPU of a process's children, as of gunicorn's master."""
    assert workers_cpu(None) is None
    if not os.path.exists(f"/proc/{os.getpid()}/task/{os.getpid()}/children"):
        assert workers_cpu(os.getpid()) is None  # no /proc (not Linux): no figure, no guess
        return
    burn = "import time; sum(i * i for i in range(2_000_000)); time.sleep(10)"
    child = subprocess.Popen([sys.executable, "-c", burn])
    try:
        deadline = time.monotonic() + 10
        spent = 0.0
        while not spent and time.monotonic() < deadline:
            time.sleep(0.1)
            spent = workers_cpu(os.getpid()) or 0.0
        assert spent > 0
    finally:
        child.kill()
        child.wait()


def test_a_phase_gives_the_servers_cpu_per_request():
    assert Phase("rule", 50, 1.0, [], 0, server_cpu=0.25).cpu_ms == 5.0
    assert Phase("rule", 0, 1.0, [], 0, server_cpu=0.25).cpu_ms is None
    assert Phase("rule", 50, 1.0, [], 0).cpu_ms is None


class LearnerOverTestClient:
    """`bench.web.Client`'s one method, over Django's test client."""

    def __init__(self, client) -> None:
        self.client = client

    def request(self, method: str, path: str, body=None) -> tuple[int, str]:
        if method == "GET":
            page = self.client.get(path)
        else:
            page = self.client.post(path, body, HTTP_HX_REQUEST="true")
        return page.status_code, page.content.decode()


def test_the_learners_history_is_one_a_learner_could_have(client, learner, bank):
    """Before the timed pages, each learner answers as a learner does: every answer is to the
    question its page served, so five answers are five questions (serving five pages first and
    then answering them, as the benchmark once did, answered one question five times)."""
    for number in range(6):
        scenario = ScenarioFactory(spec=land_tutor_spec(f"land-tutor-{number}"))
        make_question(scenario, bank, Question.Kind.VALUE)
    client.force_login(learner)
    assert practise(LearnerOverTestClient(client), 5) == 5
    answered = Response.objects.filter(user=learner)
    assert answered.count() == 5
    assert answered.values("question").distinct().count() == 5

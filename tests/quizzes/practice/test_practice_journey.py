"""A learner works through 30 seeded questions with the test client and sees mastery move."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from quizzes.models import Mastery, Response
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

QUESTIONS = 30


@pytest.fixture
def seeded(tmp_path):
    with open(tmp_path / "load.log", "w") as log:
        call_command("load_content", stdout=log)


def first_choices(form) -> dict[str, object]:
    """A guessing learner: the first option of every field, 0..1 for ranges, nothing ticked."""
    data: dict[str, object] = {}
    for name, field in form.fields.items():
        if name in {"low", "number"}:
            data[name] = 0
        elif name == "high":
            data[name] = 1
        elif name in {"statements", "cards"}:
            data[name] = []
        else:
            data[name] = field.choices[0][0]
    return data


def test_thirty_answers_move_mastery_on_the_rules_involved(client, seeded):
    learner = UserFactory()
    client.force_login(learner)
    served = []
    for _ in range(QUESTIONS):
        page = client.get("/practice/")
        assert page.status_code == 200
        question = page.context["question"]
        assert question is not None, "the seed bank ran dry"
        served.append(question.pk)
        data = {"token": page.context["token"], **first_choices(page.context["form"])}
        answered = client.post("/practice/answer/", data, headers={"HX-Request": "true"})
        assert answered.status_code == 200
        assert b'id="feedback-title"' in answered.content

    assert Response.objects.filter(user=learner).count() == QUESTIONS
    # never the question just answered
    assert all(a != b for a, b in zip(served, served[1:], strict=False))
    cited = set(
        Response.objects.filter(user=learner).values_list("question__rules__number", flat=True)
    ) - {None}
    masteries = Mastery.objects.filter(user=learner).select_related("rule")
    moved = {m.rule.number for m in masteries if m.answers and m.theta != 0}
    assert cited and moved, "no rule's skill moved"
    assert moved <= {m.rule.number for m in masteries}
    assert sum(m.answers for m in masteries) >= QUESTIONS

    progress = client.get("/progress/")
    assert progress.status_code == 200
    for number in moved:
        assert number.encode() in progress.content

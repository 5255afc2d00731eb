"""Every seeded question can be drawn, answered, and answered right through the form."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from quizzes.board import build_board
from quizzes.forms import AnswerForm, encode
from quizzes.models import Question
from rules.engine import evaluate_claim

pytestmark = pytest.mark.django_db


@pytest.fixture
def seeded():
    call_command("load_content", verbosity=0, stdout=open("/dev/null", "w"))  # noqa: SIM115
    return list(Question.objects.filter(is_active=True).select_related("scenario"))


def test_every_seeded_question_offers_the_right_answer(seeded):
    assert seeded
    problems = []
    for question in seeded:
        spec = question.scenario.spec
        board = build_board(spec)
        form = AnswerForm(question, question.claims, board)
        if question.kind == Question.Kind.VALUE and "claim_0" in form.fields:
            value = evaluate_claim(spec, question.claims[0]).value
            offered = [key for key, _ in form.fields["claim_0"].choices]
            value = list(value) if isinstance(value, tuple) else value
            if encode(value) not in offered:
                problems.append(f"{question.scenario.slug} {question.claims[0]}: {value!r}")
        if question.kind == Question.Kind.CARDS:
            for claim in question.claims:
                if claim.get("card") not in board.cards:
                    problems.append(f"{question.scenario.slug}: no card {claim.get('card')}")
    assert not problems, json.dumps(problems, indent=1)

"""An order answer says what each player's place is: the order players decide in, or the order
their triggered abilities resolve in (603.3b), never "decides" for the latter."""

from __future__ import annotations

import os

import pytest
from django.core.management import call_command

from quizzes import rulings
from quizzes.models import Question
from tests.factories import UserFactory
from tests.quizzes.rulings.test_seed_questions import page_of, visible_text

pytestmark = pytest.mark.django_db


def test_the_trigger_order_asks_each_players_place():
    with open(os.devnull, "w") as quiet:
        call_command("load_content", "--per-family", "8", stdout=quiet)
    learner = UserFactory()
    asked = [
        question
        for question in Question.objects.filter(is_active=True, kind=Question.Kind.VALUE)
        if [claim["claim"] for claim in question.claims] == ["trigger_order"]
    ]
    assert asked
    for question in asked:
        ruling = rulings.ruling_for(question, 0, learner.pk)
        text = visible_text(page_of(question, ruling, learner))
        players = [player.name for player in ruling.board.players]
        for name in players:
            assert f"Place of {name}'s triggered abilities" in text
        assert "decides" not in text

"""The Level 1 practice exam draws from the sections beyond search: its blueprint takes the
generated families' bank too (casting, triggers, replacements and state-based actions are asked
there, and the turn's steps and priority), so a sitting spans the exam's areas (issues 22 and
23)."""

from __future__ import annotations

import os
import random

import pytest
from django.core.management import call_command

from quizzes.exams import proctor
from quizzes.models import ExamBlueprint
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_the_level_1_exam_draws_from_the_families_sections():
    with open(os.devnull, "w") as quiet:
        call_command("load_content", "--per-family", "8", stdout=quiet)
    blueprint = ExamBlueprint.objects.get(slug="level-1-practice")
    assert {bank.slug for bank in blueprint.banks.all()} == {
        "search-and-its-neighbours",
        "generated-families",
    }
    drawn = proctor.draw(UserFactory(), blueprint, random.Random(7))
    assert len(drawn) == 25
    areas = {item.area for item in drawn}
    for beyond in ("Casting spells and their costs", "Triggered abilities", "Replacement effects"):
        assert beyond in areas
    assert "State-based actions" in areas
    assert "Layers: power and toughness" in areas  # the layers families' questions (613)
    assert "Turn structure and combat" in areas  # priority and turn-based actions (117, 500-514)
    assert len(areas) >= 6

"""Recompute every question's judge level (quizzes/levels.py): facilities move with answers."""

from __future__ import annotations

from django.core.management.base import BaseCommand
from django.db import models

from quizzes import levels
from quizzes.models import Question


class Command(BaseCommand):
    help = "Recompute the judge level (L1, L2, corner) of every question from its board, answers."

    def handle(self, *args, **options) -> None:
        questions = Question.objects.all()
        changed = levels.recompute(questions)  # each board read with its author's catalog
        counts = dict(
            questions.values_list("level").annotate(n=models.Count("id")).order_by("level")
        )
        summary = ", ".join(f"{level} {counts.get(level, 0)}" for level in levels.LEVELS)
        self.stdout.write(f"levels: {summary} ({changed} changed)")

"""Quizzes' models: content (scenarios, questions, banks) and learning (attempts, progress)."""

from __future__ import annotations

from quizzes.models.content import Bank, Question, Scenario
from quizzes.models.progress import Attempt, Mastery, Response

__all__ = ["Bank", "Question", "Scenario", "Attempt", "Mastery", "Response"]

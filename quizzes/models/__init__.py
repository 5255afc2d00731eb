"""Quizzes' models: content (scenarios, questions, banks) and learning (attempts, progress)."""

from __future__ import annotations

from quizzes.models.content import Bank, Question, Scenario
from quizzes.models.progress import Attempt, Mastery, Presentation, Response

__all__ = ["Bank", "Question", "Scenario", "Attempt", "Mastery", "Presentation", "Response"]

from quizzes.models.exams import (  # noqa: E402
    BlueprintArea,
    ExamBlueprint,
    ExamItem,
    ExamSitting,
    SittingQuota,
)

__all__ += ["BlueprintArea", "ExamBlueprint", "ExamItem", "ExamSitting", "SittingQuota"]

from quizzes.models.cohorts import Cohort, CohortMembership  # noqa: E402

__all__ += ["Cohort", "CohortMembership"]

from quizzes.models.preferences import LanguagePreference  # noqa: E402

__all__ += ["LanguagePreference"]

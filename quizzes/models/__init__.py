"""Quizzes' models: content (scenarios, questions, banks) and learning (attempts, progress)."""

from __future__ import annotations

from quizzes.models.content import Bank, Family, Question, Scenario, ScenarioVersion
from quizzes.models.progress import Attempt, Mastery, Presentation, Response

__all__ = [
    "Bank",
    "Family",
    "Question",
    "Scenario",
    "ScenarioVersion",
    "Attempt",
    "Mastery",
    "Presentation",
    "Response",
]

from quizzes.models.exams import (  # noqa: E402
    Accommodation,
    BlueprintArea,
    ExamBlueprint,
    ExamItem,
    ExamSitting,
    SittingQuota,
    SittingRegrade,
)

__all__ += [
    "Accommodation",
    "BlueprintArea",
    "ExamBlueprint",
    "ExamItem",
    "ExamSitting",
    "SittingQuota",
    "SittingRegrade",
]

from quizzes.models.cohorts import Assignment, Cohort, CohortMembership  # noqa: E402

__all__ += ["Assignment", "Cohort", "CohortMembership"]

from quizzes.models.preferences import LanguagePreference  # noqa: E402

__all__ += ["LanguagePreference"]

from quizzes.models.variants import Variant  # noqa: E402

__all__ += ["Variant"]

from quizzes.models.api_tokens import ApiToken  # noqa: E402

__all__ += ["ApiToken"]
from quizzes.models.lti import LtiCohort, LtiGradeTarget, LtiPlatform  # noqa: E402

__all__ += ["LtiCohort", "LtiGradeTarget", "LtiPlatform"]

from quizzes.models.imports import ImportJob  # noqa: E402

__all__ += ["ImportJob"]
from quizzes.models.imported import ImportedQuestion  # noqa: E402

__all__ += ["ImportedQuestion"]

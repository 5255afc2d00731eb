"""The instructors' fixtures, for the card form's tests."""

from __future__ import annotations

from tests.quizzes.instructor_fixtures import (  # noqa: F401
    instructor,
    other_instructor,
    teacher_client,
)

"""Instructors' pages: banks, authoring with the engine's live preview, lint, import/export,
cohorts and item analysis (see docs/instructors.md)."""

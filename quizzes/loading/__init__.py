"""Loading the seed content (rules, cards, scenarios, questions) from data files: see
docs/authoring.md. `read_content` validates every file without touching the database;
`load_content` writes what it read, idempotently, in one transaction."""

from __future__ import annotations

from quizzes.loading.read import CONTENT_DIR, Content, ContentError, read_content
from quizzes.loading.write import LoadReport, load_content

__all__ = ["CONTENT_DIR", "Content", "ContentError", "LoadReport", "load_content", "read_content"]

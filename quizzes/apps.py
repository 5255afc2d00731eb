from __future__ import annotations

from django.apps import AppConfig


class QuizzesConfig(AppConfig):
    name = "quizzes"
    verbose_name = "Quizzes"

    def ready(self) -> None:
        from quizzes import language  # noqa: F401 (the log-in signal that restores a language)

from __future__ import annotations

from django.apps import AppConfig


class QuizzesConfig(AppConfig):
    name = "quizzes"
    verbose_name = "Quizzes"

    def ready(self) -> None:
        # language: the log-in signal that restores a language (imported for it)
        from quizzes import language, visibility  # noqa: F401
        from quizzes.practice import question_topics
        from quizzes.reference import texts

        visibility.connect()
        texts.connect()
        question_topics.connect()

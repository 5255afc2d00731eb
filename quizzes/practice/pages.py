"""A question's page as practice and exams draw it: the question as given, and its feedback."""

from __future__ import annotations

import datetime
from typing import Any

from django.urls import reverse
from django.utils.functional import SimpleLazyObject

from quizzes import content_texts, rulings
from quizzes.models import (
    Question,
    Response,
    ScenarioVersion,
)
from quizzes.practice import answers
from quizzes.practice.forms import AnswerForm
from quizzes.reference import texts

PRESENTATION_MAX_AGE = datetime.timedelta(days=1)  # a question served is answered within a day


def question_context(
    question: Question,
    ruling: rulings.Ruling,
    *,
    form_data=None,
    form: AnswerForm | None = None,
    token: str = "",
    filters: str = "",
    version: ScenarioVersion | None = None,
) -> dict[str, Any]:
    """The question as given: in `version` of its scenario (default: as it is now)."""
    given = version or question.scenario
    return {
        "question": question,
        "title": content_texts.shown(given.title, ruling.shown.names),
        "prompt": rulings.prompt(question, ruling, version),
        "premises": ruling.premises(),
        "history": ruling.history(),
        "stored_ruling": content_texts.StoredRuling.of(given.stored_ruling, ruling.shown.names),
        "renamed": bool(ruling.shown.players or ruling.shown.cards),
        "board": ruling.board,
        "form": form or AnswerForm(ruling, data=form_data),
        "token": token,
        "next_url": practice_url(filters),
    }


def practice_url(filters: str) -> str:
    """/practice/ with the learner's filter (a query string `PracticeFilterForm` made)."""
    url = reverse("practice")
    return f"{url}?{filters}" if filters else url


def feedback_context(
    response: Response, filters: str, shown: rulings.Shown | None = None
) -> dict[str, Any]:
    verdict = answers.Grade.from_json(response.verdict, response)
    scenario = response.scenario_version or response.question.scenario  # as answered
    shown = shown or shown_of(response)
    return {
        "response": response,
        "title": content_texts.shown(scenario.title, shown.names),
        "stored_ruling": content_texts.StoredRuling.of(scenario.stored_ruling, shown.names),
        "renamed": bool(shown.players or shown.cards),
        "verdict": verdict,
        # the rules' markup is kept per process under what it is made of (page_parts), so
        # the rules are read only when it is rendered
        "deciding_key": texts.cited_key(verdict.rule_numbers),
        "deciding_rules": SimpleLazyObject(lambda: texts.cited_rules(verdict.rule_numbers)),
        "next_url": practice_url(filters),
    }


def shown_of(response: Response) -> rulings.Shown:
    """The names the learner saw (exam answers have no presentation: rebuild the variant)."""
    if response.presentation_id is not None:
        return rulings.Shown.from_json(response.presentation.shown)
    return rulings.ruling_answered(response).shown

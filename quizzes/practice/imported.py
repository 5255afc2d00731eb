"""Practising a bank's imported questions (Moodle XML): answered against the key the file
gave, which the page shows only once the question is answered. A bank is reached through
`Bank.objects.visible_to`: another instructor's private bank is a 404."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET, require_http_methods

from quizzes.models import Bank, ImportedQuestion
from quizzes.views import HtmxHttpRequest


def _bank(request: HtmxHttpRequest, slug: str) -> Bank:
    return get_object_or_404(Bank.objects.visible_to(request.user), slug=slug)


@require_GET
@login_required
def imported_questions(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    bank = _bank(request, slug)
    questions = ImportedQuestion.objects.filter(bank=bank).order_by("position", "id")
    added = request.GET.get("added", "")
    context = {"bank": bank, "questions": questions, "added": added if added.isdigit() else ""}
    return render(request, "quizzes/imported_questions.html", context)


def _response(question: ImportedQuestion, data) -> Any:
    """What the learner gave, as `ImportedQuestion.grade` reads it."""
    if question.kind == ImportedQuestion.Kind.MULTICHOICE:
        picked = [int(v) for v in data.getlist("choice")[:50] if v.isdigit()]
        return picked if not question.single else (picked[0] if picked else None)
    return data.get("answer", "")[:200]


@require_http_methods(["GET", "POST"])
@login_required
def imported_question(request: HtmxHttpRequest, slug: str, pk: int) -> HttpResponse:
    """GET: the question and its choices (no key). POST: the mark, the answers matched, the
    key and the feedback."""
    bank = _bank(request, slug)
    question = get_object_or_404(ImportedQuestion.objects.filter(bank=bank), pk=pk)
    context: dict[str, Any] = {"bank": bank, "question": question, "answered": False}
    if request.method == "POST":
        score, matched = question.grade(_response(question, request.POST))
        context |= {
            "answered": True,
            "percent": round(score * 100),
            "matched": [question.answers[i] for i in matched],
            "key": question.key(),
        }
    following = (
        ImportedQuestion.objects.filter(bank=bank, position__gt=question.position)
        .order_by("position", "id")
        .first()
    )
    context["following"] = following
    return render(request, "quizzes/imported_question.html", context)

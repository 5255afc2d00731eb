"""Certification practice: timed exams, graded only at the end (quizzes/exams/proctor.py)."""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from quizzes import rulings
from quizzes.exams import history, proctor
from quizzes.models import (
    ExamSitting,
    Response,
)
from quizzes.practice.pages import feedback_context, question_context
from quizzes.views import HtmxHttpRequest

PRESENTATION_MAX_AGE = datetime.timedelta(days=1)  # a question served is answered within a day


def _sitting(request: HtmxHttpRequest, pk: int) -> ExamSitting:
    """The learner's own sitting (another learner's is a 404), its attempt and user loaded."""
    sitting = get_object_or_404(proctor.sittings_of(request.user), pk=pk)
    sitting.attempt.user = request.user  # owned: spare a query when grading
    return sitting


def _exam_index_context(request: HtmxHttpRequest) -> dict[str, Any]:
    running = proctor.running_sitting(request.user)
    blueprints = list(proctor.blueprints_for(request.user))
    for blueprint in blueprints:
        blueprint.refusal = proctor.start_refusal(request.user, blueprint)
    return {
        "blueprints": blueprints,
        "running": running,
        "clock": proctor.clock(running) if running else None,
        "histories": history.histories(request.user),
    }


@require_GET
@login_required
def exam_index(request: HtmxHttpRequest) -> HttpResponse:
    return render(request, "quizzes/exam_index.html", _exam_index_context(request))


@require_POST
@login_required
def exam_start(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    blueprint = get_object_or_404(proctor.blueprints_for(request.user), slug=slug)
    try:
        sitting = proctor.start(request.user, blueprint)
    except proctor.ExamError as error:
        context = _exam_index_context(request) | {"error": str(error)}
        return render(request, "quizzes/exam_index.html", context, status=409)
    return redirect("exam_question", pk=sitting.pk, position=1)


def _exam_nav(sitting: ExamSitting, statuses: list[dict[str, Any]], current: int) -> dict:
    return {
        "sitting": sitting,
        "statuses": statuses,
        "current": current,
        "total": len(statuses),
        "unanswered": sum(not row["answered"] for row in statuses),
        "clock": proctor.clock(sitting),
    }


@require_http_methods(["GET", "POST"])
@login_required
def exam_question(request: HtmxHttpRequest, pk: int, position: int) -> HttpResponse:
    sitting = _sitting(request, pk)
    # a form sent in the last seconds may arrive just after the deadline
    grace = proctor.ANSWER_GRACE if request.method == "POST" else datetime.timedelta(0)
    if proctor.close_if_over(sitting, grace=grace):
        return redirect("exam_sitting", pk=pk)
    statuses = proctor.item_statuses(sitting)
    answered = {row["position"]: row["answered"] for row in statuses}
    if position not in answered:
        raise Http404("No such question in this exam.")
    following = proctor.next_unanswered(statuses, position)
    skip_url = (
        reverse("exam_question", args=[pk, following])
        if following not in (None, position)
        else reverse("exam_sitting", args=[pk])
    )
    if request.method == "POST" and answered[position]:  # sent twice: the first answer stands
        return redirect(skip_url)
    item = sitting.items.select_related("question__scenario", "scenario_version").get(
        position=position
    )
    version = item.scenario_version
    ruling = rulings.ruling_for(item.question, item.variant_seed, request.user.pk, version=version)
    context = question_context(
        item.question, ruling, form_data=request.POST or None, version=version
    )
    context |= _exam_nav(sitting, statuses, position)
    context |= {"item": item, "answered": answered[position], "skip_url": skip_url}
    if request.method == "POST":
        form = context["form"]
        if not form.is_valid():
            return render(request, "quizzes/exam_question.html", context, status=400)
        try:
            proctor.record_answer(sitting, item, form.answer())
        except proctor.TimeUp:
            return redirect("exam_sitting", pk=pk)
        answered[position] = True
        statuses = [{**row, "answered": answered[row["position"]]} for row in statuses]
        following = proctor.next_unanswered(statuses, position)
        if following is None:
            return redirect("exam_sitting", pk=pk)
        return redirect("exam_question", pk=pk, position=following)
    return render(request, "quizzes/exam_question.html", context)


@require_GET
@login_required
def exam_clock(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The countdown, polled by htmx; once time is up the page moves on to the report."""
    sitting = _sitting(request, pk)
    if proctor.close_if_over(sitting):
        return HttpResponseClientRedirect(reverse("exam_sitting", args=[pk]))
    context = {"sitting": sitting, "clock": proctor.clock(sitting)}
    return render(request, "quizzes/exam_clock.html", context)


@require_GET
@login_required
def exam_sitting(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """While it runs: the questions, answered or not, and the finish button. After: the report."""
    sitting = _sitting(request, pk)
    if not proctor.close_if_over(sitting):
        statuses = proctor.item_statuses(sitting)
        context = _exam_nav(sitting, statuses, 0) | {"shortfalls": proctor.shortfalls(sitting)}
        return render(request, "quizzes/exam_overview.html", context)
    context = {
        "report": proctor.report(sitting),
        "history": history.history_of(request.user, sitting),
    }
    return render(request, "quizzes/exam_report.html", context)


@require_POST
@login_required
def exam_finish(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    proctor.finish(_sitting(request, pk))
    return redirect("exam_sitting", pk=pk)


@require_GET
@login_required
def exam_review(request: HtmxHttpRequest, pk: int, position: int) -> HttpResponse:
    """One question after the end: the learner's answer, the computed ruling, the rules."""
    sitting = _sitting(request, pk)
    if not proctor.close_if_over(sitting):
        return redirect("exam_question", pk=pk, position=position)
    item = get_object_or_404(
        sitting.items.select_related("question__scenario", "scenario_version"), position=position
    )
    response = (
        Response.objects.filter(attempt_id=sitting.pk, question_id=item.question_id)
        .select_related("question__scenario", "scenario_version")
        .first()
    )
    following = position + 1 if position < sitting.question_count else None
    next_url = (
        reverse("exam_review", args=[pk, following])
        if following
        else reverse("exam_sitting", args=[pk])
    )
    version = item.scenario_version
    ruling = rulings.ruling_for(item.question, item.variant_seed, request.user.pk, version=version)
    context = question_context(item.question, ruling, version=version)
    context |= {"sitting": sitting, "item": item, "total": sitting.question_count}
    if response is not None:
        context |= feedback_context(response, "", ruling.shown)
    else:
        rules = item.question.rules.order_by("number").prefetch_related("editions")
        context["deciding_rules"] = rules  # editions: the text in the reader's language
    context["next_url"] = next_url
    return render(request, "quizzes/exam_review.html", context)

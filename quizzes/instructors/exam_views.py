"""Instructors' exam pages: thin views; every exam is looked up through its owner
(`exams.exams_of`), every learner through the owner's cohorts."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from quizzes import rulings
from quizzes.exams import regrade, results
from quizzes.instructors import cohorts, exams
from quizzes.instructors.forms import AccommodationForm, ExamAssignForm, ExamForm
from quizzes.instructors.views import instructor_required
from quizzes.models import ExamBlueprint
from quizzes.practice.pages import question_context
from quizzes.views import HtmxHttpRequest


def _exam(request: HtmxHttpRequest, pk: int) -> ExamBlueprint:
    """The instructor's own exam: another instructor's (or the site's) is a 404."""
    return get_object_or_404(exams.exams_of(request.user), pk=pk)


@require_GET
@instructor_required
def exam_list(request: HtmxHttpRequest) -> HttpResponse:
    context = {"exams": exams.exams_of(request.user)}
    return render(request, "instructors/exam_list.html", context)


@require_http_methods(["GET", "POST"])
@instructor_required
def exam_edit(request: HtmxHttpRequest, pk: int | None = None) -> HttpResponse:
    blueprint = _exam(request, pk) if pk is not None else None
    initial = exams.initial_of(blueprint) if blueprint else {}
    form = ExamForm(
        request.POST or None,
        initial=initial,
        instructor=request.user,
        topics=exams.topics_of(request.user),
    )
    if request.method == "POST" and form.is_valid():
        saved = exams.do_save_exam(request.user, form.cleaned_data, blueprint)
        return redirect("instructor_exam", pk=saved.pk)
    status = 400 if form.is_bound else 200
    context = {"form": form, "blueprint": blueprint}
    return render(request, "instructors/exam_form.html", context, status=status)


def _detail_context(request: HtmxHttpRequest, blueprint: ExamBlueprint, **forms) -> dict:
    learners = exams.learners_of(request.user)
    return {
        "blueprint": blueprint,
        "accommodation_form": forms.get("accommodation") or AccommodationForm(learners=learners),
        "assign_form": forms.get("assign") or ExamAssignForm(instructor=request.user),
        "accommodations": exams.accommodations_of(blueprint),
        "assignments": blueprint.assignments.select_related("cohort").filter(
            cohort__instructor=request.user
        ),
        "sittings": results.finished_sittings(blueprint),
        "regrade_plan": regrade.plan(blueprint),
    }


@require_GET
@instructor_required
def exam_detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    blueprint = _exam(request, pk)
    context = _detail_context(request, blueprint)
    context["regraded"] = request.GET.get("regraded")
    return render(request, "instructors/exam_detail.html", context)


@require_POST
@instructor_required
def exam_accommodate(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    blueprint = _exam(request, pk)
    form = AccommodationForm(request.POST, learners=exams.learners_of(request.user))
    if form.is_valid():
        data = form.cleaned_data
        exams.do_accommodate(
            blueprint, data["learner"], data["extra_minutes"], data["extra_sittings"]
        )
        return redirect(reverse("instructor_exam", args=[pk]) + "#accommodations-title")
    context = _detail_context(request, blueprint, accommodation=form)
    return render(request, "instructors/exam_detail.html", context, status=400)


@require_POST
@instructor_required
def exam_assign(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    blueprint = _exam(request, pk)
    form = ExamAssignForm(request.POST, instructor=request.user)
    if form.is_valid():
        cohort = form.cleaned_data["cohort"]
        cohorts.do_assign(cohort, blueprint=blueprint, due_on=form.cleaned_data["due_on"])
        return redirect(reverse("instructor_exam", args=[pk]) + "#assign-title")
    context = _detail_context(request, blueprint, assign=form)
    return render(request, "instructors/exam_detail.html", context, status=400)


@require_POST
@instructor_required
def exam_regrade(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    blueprint = _exam(request, pk)
    changed = regrade.apply(blueprint, request.user)
    return redirect(reverse("instructor_exam", args=[pk]) + f"?regraded={len(changed)}#results")


@require_GET
@instructor_required
def exam_results_csv(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    blueprint = _exam(request, pk)
    response = HttpResponse(results.csv_text(blueprint), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{blueprint.slug}-results.csv"'
    return response


@require_GET
@instructor_required
def exam_print(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """A draw of the exam as a paper quiz: each question with its board, card texts open; the
    answer key (the engine's ruling and the rules) on pages of its own after them."""
    blueprint = _exam(request, pk)
    questions: list[dict[str, Any]] = []
    for position, item in enumerate(exams.preview_draw(request.user, blueprint), start=1):
        ruling = rulings.ruling_for(item.question, 0, request.user.pk)
        context = question_context(item.question, ruling)
        context["position"] = position
        context["key"] = rulings.answer_key(ruling)
        context["rules"] = item.question.rules.order_by("number")
        questions.append(context)
    context = {"blueprint": blueprint, "questions": questions, "printing": True}
    return render(request, "instructors/exam_print.html", context)

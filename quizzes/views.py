"""Practice, feedback and progress: small views that validate, call one domain function, render."""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect, reswap, retarget
from django_htmx.middleware import HtmxDetails

from quizzes import answers, exams, language, reports, rulings, selection
from quizzes.forms import AnswerForm, SignupForm
from quizzes.models import Attempt, ExamSitting, Mastery, Presentation, Question, Response
from rules.models import Rule

PRESENTATION_MAX_AGE = datetime.timedelta(days=1)  # a question served is answered within a day


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


@require_GET
def home(request: HtmxHttpRequest) -> HttpResponse:
    return render(request, "home.html")


@require_http_methods(["GET", "POST"])
def signup(request: HtmxHttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        language.remember(user)  # the language the learner signed up in
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("practice")
    return render(request, "registration/signup.html", {"form": form})


def _question_context(
    question: Question,
    ruling: rulings.Ruling,
    *,
    form_data=None,
    token: str = "",
    rule_number: str = "",
) -> dict[str, Any]:
    return {
        "question": question,
        "title": ruling.rename(question.scenario.title),
        "prompt": rulings.prompt(question, ruling),
        "premises": ruling.premises(),
        "history": ruling.history(),
        "stored_ruling": ruling.rename(question.scenario.stored_ruling),
        "renamed": bool(ruling.shown.players or ruling.shown.cards),
        "board": ruling.board,
        "form": AnswerForm(ruling, data=form_data),
        "token": token,
        "rule_number": rule_number,
        "next_url": _practice_url(rule_number),
    }


def _practice_url(rule_number: str) -> str:
    url = reverse("practice")
    return f"{url}?{urlencode({'rule': rule_number})}" if rule_number else url


def _paused_by_exam(request: HtmxHttpRequest, status: int = 200) -> HttpResponse | None:
    """While the learner sits an exam, practice (feedback at once, on the exam's pool) waits."""
    sitting = exams.running_sitting(request.user)
    if sitting is None:
        return None
    page = render(request, "quizzes/practice_paused.html", {"sitting": sitting}, status=status)
    if request.htmx:  # htmx swaps no error response: send the whole page instead
        page["HX-Redirect"] = reverse("practice")
    return page


@require_GET
@login_required
def practice(request: HtmxHttpRequest) -> HttpResponse:
    if paused := _paused_by_exam(request):
        return paused
    rule_number = request.GET.get("rule", "").strip()
    rule = Rule.objects.resolve_number(rule_number) if rule_number else None
    if rule_number and rule is None:
        context: dict[str, Any] = {"question": None, "unknown_rule": rule_number}
        return render(request, "quizzes/practice.html", context, status=404)
    pick = selection.next_question(request.user, rule)
    context = {"question": None, "rule": rule, "rule_number": rule.number if rule else ""}
    if pick.question is not None:
        question = pick.question
        ruling = rulings.ruling_for(question, rulings.new_seed(), request.user.pk)
        presentation = Presentation.objects.create(
            user=request.user,
            question=question,
            shown=ruling.shown.to_json(),
            rule_number=context["rule_number"],
        )
        context |= _question_context(
            question, ruling, token=presentation.token, rule_number=context["rule_number"]
        )
    context["rule"] = rule
    return render(request, "quizzes/practice.html", context)


def _feedback_context(
    response: Response, rule_number: str, shown: rulings.Shown | None = None
) -> dict[str, Any]:
    verdict = answers.Verdict.from_json(response.verdict, response)
    scenario = response.question.scenario
    shown = shown or _shown_of(response)
    return {
        "response": response,
        "title": shown.rename(scenario.title),
        "stored_ruling": shown.rename(scenario.stored_ruling),
        "renamed": bool(shown.players or shown.cards),
        "verdict": verdict,
        "deciding_rules": answers.deciding_rules(verdict.rule_numbers),
        "next_url": _practice_url(rule_number),
    }


@require_POST
@login_required
def answer(request: HtmxHttpRequest) -> HttpResponse:
    if paused := _paused_by_exam(request, status=409):
        return paused
    user = request.user
    token = request.POST.get("token", "")[:40]
    # The token is bound to the learner it was shown to: anyone else's is unknown here.
    presentation = (
        Presentation.objects.owned_by(user)
        .served_since(timezone.now() - PRESENTATION_MAX_AGE)
        .filter(token=token, question__in=selection.available_questions(user))
        .select_related("question__scenario", "response")
        .first()
    )
    if presentation is None:
        return HttpResponseBadRequest(_("This question has expired; open the next one."))
    question = presentation.question
    # A form sent twice (double click, back button) gets the feedback it already got.
    response = getattr(presentation, "response", None)
    if response is None:
        ruling = rulings.ruling_shown(question, presentation.shown)
        context = _question_context(
            question,
            ruling,
            form_data=request.POST,
            token=token,
            rule_number=presentation.rule_number,
        )
        form = context["form"]
        if not form.is_valid():
            if request.htmx:  # show the errors in the form, not in the feedback area
                page = render(request, "quizzes/practice.html#answer-form", context)
                return reswap(retarget(page, "#answer-form"), "outerHTML")
            return render(request, "quizzes/practice.html", context, status=400)
        attempt = Attempt.objects.open_practice_for(user, question)
        response = answers.submit(
            attempt,
            question,
            form.answer(),
            seed=ruling.shown.seed,
            ruling=ruling,
            presentation=presentation,
        ).response
    if not request.htmx:
        return redirect("feedback", pk=response.pk)
    context = _feedback_context(response, presentation.rule_number)
    return render(request, "quizzes/practice.html#feedback", context)


def _ruling_of(response: Response) -> rulings.Ruling:
    """The question exactly as the learner saw it when answering."""
    if response.presentation_id is not None:
        return rulings.ruling_shown(response.question, response.presentation.shown)
    return rulings.ruling_for(response.question, response.variant_seed, response.user_id)


def _shown_of(response: Response) -> rulings.Shown:
    """The names the learner saw (exam answers have no presentation: rebuild the variant)."""
    if response.presentation_id is not None:
        return rulings.Shown.from_json(response.presentation.shown)
    return _ruling_of(response).shown


@require_GET
@login_required
def feedback(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    response = get_object_or_404(
        Response.objects.owned_by(request.user).select_related(
            "question__scenario", "presentation"
        ),
        pk=pk,
    )
    rule_number = request.GET.get("rule", "")[:20]
    if not rule_number and response.presentation_id is not None:
        rule_number = response.presentation.rule_number
    ruling = _ruling_of(response)
    context = _question_context(response.question, ruling)
    context |= _feedback_context(response, rule_number, ruling.shown)
    context["answered"] = True
    return render(request, "quizzes/practice.html", context)


@require_GET
@login_required
def progress(request: HtmxHttpRequest) -> HttpResponse:
    user = request.user
    days = reports.accuracy_by_day(user)
    history = Paginator(
        Response.objects.owned_by(user).select_related("question__scenario"), 10
    ).get_page(request.GET.get("page"))
    rules = reports.rule_progress(user)
    context = {
        "rules": rules,
        "weakest": [item for item in rules if not item.mastered][:5],
        "days": days,
        "chart": reports.accuracy_chart(days),
        "streak": reports.streak(days),
        "reviews_due": Mastery.objects.owned_by(user).due().count(),
        "answered": user.responses.count(),
        "history": history,
        "verdicts": [answers.Verdict.from_json(r.verdict, r) for r in history],
    }
    template = "quizzes/progress.html#history" if request.htmx else "quizzes/progress.html"
    return render(request, template, context)


# Certification practice: timed exams, graded only at the end (see quizzes/exams.py).


def _sitting(request: HtmxHttpRequest, pk: int) -> ExamSitting:
    """The learner's own sitting (another learner's is a 404), its attempt and user loaded."""
    sitting = get_object_or_404(exams.sittings_of(request.user), pk=pk)
    sitting.attempt.user = request.user  # owned: spare a query when grading
    return sitting


def _exam_index_context(request: HtmxHttpRequest) -> dict[str, Any]:
    running = exams.running_sitting(request.user)
    blueprints = list(exams.blueprints())
    for blueprint in blueprints:
        blueprint.refusal = exams.start_refusal(request.user, blueprint)
    return {
        "blueprints": blueprints,
        "running": running,
        "clock": exams.clock(running) if running else None,
        "sittings": exams.sittings_of(request.user).exclude(attempt__finished_at=None)[:20],
    }


@require_GET
@login_required
def exam_index(request: HtmxHttpRequest) -> HttpResponse:
    return render(request, "quizzes/exam_index.html", _exam_index_context(request))


@require_POST
@login_required
def exam_start(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    blueprint = get_object_or_404(exams.blueprints(), slug=slug)
    try:
        sitting = exams.start(request.user, blueprint)
    except exams.ExamError as error:
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
        "clock": exams.clock(sitting),
    }


@require_http_methods(["GET", "POST"])
@login_required
def exam_question(request: HtmxHttpRequest, pk: int, position: int) -> HttpResponse:
    sitting = _sitting(request, pk)
    # a form sent in the last seconds may arrive just after the deadline
    grace = exams.ANSWER_GRACE if request.method == "POST" else datetime.timedelta(0)
    if exams.close_if_over(sitting, grace=grace):
        return redirect("exam_sitting", pk=pk)
    statuses = exams.item_statuses(sitting)
    answered = {row["position"]: row["answered"] for row in statuses}
    if position not in answered:
        raise Http404("No such question in this exam.")
    following = exams.next_unanswered(statuses, position)
    skip_url = (
        reverse("exam_question", args=[pk, following])
        if following not in (None, position)
        else reverse("exam_sitting", args=[pk])
    )
    if request.method == "POST" and answered[position]:  # sent twice: the first answer stands
        return redirect(skip_url)
    item = sitting.items.select_related("question__scenario").get(position=position)
    ruling = rulings.ruling_for(item.question, item.variant_seed, request.user.pk)
    context = _question_context(item.question, ruling, form_data=request.POST or None)
    context |= _exam_nav(sitting, statuses, position)
    context |= {"item": item, "answered": answered[position], "skip_url": skip_url}
    if request.method == "POST":
        form = context["form"]
        if not form.is_valid():
            return render(request, "quizzes/exam_question.html", context, status=400)
        try:
            exams.record_answer(sitting, item, form.answer())
        except exams.TimeUp:
            return redirect("exam_sitting", pk=pk)
        answered[position] = True
        statuses = [{**row, "answered": answered[row["position"]]} for row in statuses]
        following = exams.next_unanswered(statuses, position)
        if following is None:
            return redirect("exam_sitting", pk=pk)
        return redirect("exam_question", pk=pk, position=following)
    return render(request, "quizzes/exam_question.html", context)


@require_GET
@login_required
def exam_clock(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The countdown, polled by htmx; once time is up the page moves on to the report."""
    sitting = _sitting(request, pk)
    if exams.close_if_over(sitting):
        return HttpResponseClientRedirect(reverse("exam_sitting", args=[pk]))
    context = {"sitting": sitting, "clock": exams.clock(sitting)}
    return render(request, "quizzes/exam_clock.html", context)


@require_GET
@login_required
def exam_sitting(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """While it runs: the questions, answered or not, and the finish button. After: the report."""
    sitting = _sitting(request, pk)
    if not exams.close_if_over(sitting):
        statuses = exams.item_statuses(sitting)
        return render(request, "quizzes/exam_overview.html", _exam_nav(sitting, statuses, 0))
    return render(request, "quizzes/exam_report.html", {"report": exams.report(sitting)})


@require_POST
@login_required
def exam_finish(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    exams.finish(_sitting(request, pk))
    return redirect("exam_sitting", pk=pk)


@require_GET
@login_required
def exam_review(request: HtmxHttpRequest, pk: int, position: int) -> HttpResponse:
    """One question after the end: the learner's answer, the computed ruling, the rules."""
    sitting = _sitting(request, pk)
    if not exams.close_if_over(sitting):
        return redirect("exam_question", pk=pk, position=position)
    item = get_object_or_404(sitting.items.select_related("question__scenario"), position=position)
    response = (
        Response.objects.filter(attempt_id=sitting.pk, question_id=item.question_id)
        .select_related("question__scenario")
        .first()
    )
    following = position + 1 if position < sitting.question_count else None
    next_url = (
        reverse("exam_review", args=[pk, following])
        if following
        else reverse("exam_sitting", args=[pk])
    )
    ruling = rulings.ruling_for(item.question, item.variant_seed, request.user.pk)
    context = _question_context(item.question, ruling)
    context |= {"sitting": sitting, "item": item, "total": sitting.question_count}
    if response is not None:
        context |= _feedback_context(response, "", ruling.shown)
    else:
        rules = item.question.rules.order_by("number").prefetch_related("editions")
        context["deciding_rules"] = rules  # editions: the text in the reader's language
    context["next_url"] = next_url
    return render(request, "quizzes/exam_review.html", context)

"""Practice, feedback and progress: small views that validate, call one domain function, render."""

from __future__ import annotations

import datetime
import hashlib
import secrets
from typing import Any

from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect, reswap, retarget
from django_htmx.middleware import HtmxDetails

from quizzes import answers, exams, reports, selection, variants
from quizzes.board import build_board
from quizzes.forms import AnswerForm, SignupForm
from quizzes.models import Attempt, ExamSitting, Mastery, Question, Response
from rules.models import Rule

TOKEN_SALT = "quizzes.practice.answer"


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def healthz(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok", content_type="text/plain")


@require_GET
def home(request: HtmxHttpRequest) -> HttpResponse:
    return render(request, "home.html")


@require_http_methods(["GET", "POST"])
def signup(request: HtmxHttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("practice")
    return render(request, "registration/signup.html", {"form": form})


def _question_context(
    question: Question, seed: int, *, form_data=None, token: str = "", rule_number: str = ""
) -> dict[str, Any]:
    variant = variants.build(question.scenario.spec, question.claims, seed)
    board = build_board(variant.spec)
    form = AnswerForm(question, variant.claims, board, data=form_data)
    return {
        "question": question,
        "title": variant.rename_text(question.scenario.title),
        "prompt": variant.rename_text(question.prompt),
        "board": board,
        "form": form,
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
        seed = variants.new_seed()
        # "n" names this serving: its digest is the answer's presentation key
        served = {"q": pick.question.pk, "s": seed, "r": context["rule_number"]}
        token = signing.dumps(served | {"n": secrets.token_urlsafe(12)}, salt=TOKEN_SALT)
        context |= _question_context(
            pick.question, seed, token=token, rule_number=context["rule_number"]
        )
    context["rule"] = rule
    return render(request, "quizzes/practice.html", context)


def presentation_key(token: str) -> str:
    """Names one serving of a question: the digest of the signed token its form carried."""
    return hashlib.sha256(token.encode()).hexdigest()


def _feedback_context(response: Response, rule_number: str) -> dict[str, Any]:
    verdict = answers.Verdict.from_json(response.verdict, response)
    return {
        "response": response,
        "verdict": verdict,
        "deciding_rules": answers.deciding_rules(verdict.rule_numbers),
        "next_url": _practice_url(rule_number),
    }


@require_POST
@login_required
def answer(request: HtmxHttpRequest) -> HttpResponse:
    try:
        served = signing.loads(request.POST.get("token", ""), salt=TOKEN_SALT, max_age=86400)
    except signing.BadSignature:
        return HttpResponseBadRequest("This question has expired; open the next one.")
    if paused := _paused_by_exam(request, status=409):
        return paused
    user = request.user
    question = get_object_or_404(
        selection.available_questions(user).select_related("scenario"), pk=served["q"]
    )
    # A form sent twice (double click, retry, replay) gets the feedback it already got; sent
    # twice at once, `answers.submit` stores it once and returns the first verdict to both.
    key = presentation_key(request.POST["token"])
    response = Response.objects.owned_by(user).filter(presentation_key=key).first()
    if response is None:
        context = _question_context(
            question,
            served["s"],
            form_data=request.POST,
            token=request.POST["token"],
            rule_number=served["r"],
        )
        form = context["form"]
        if not form.is_valid():
            if request.htmx:  # show the errors in the form, not in the feedback area
                page = render(request, "quizzes/practice.html#answer-form", context)
                return reswap(retarget(page, "#answer-form"), "outerHTML")
            return render(request, "quizzes/practice.html", context, status=400)
        attempt = Attempt.objects.open_practice_for(user, question)
        response = answers.submit(
            attempt, question, form.answer(), seed=served["s"], key=key
        ).response
    if not request.htmx:
        return redirect("feedback", pk=response.pk)
    return render(
        request, "quizzes/practice.html#feedback", _feedback_context(response, served["r"])
    )


@require_GET
@login_required
def feedback(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    response = get_object_or_404(
        Response.objects.owned_by(request.user).select_related("question__scenario"), pk=pk
    )
    context = _question_context(response.question, response.variant_seed)
    context |= _feedback_context(response, request.GET.get("rule", ""))
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
    context = _question_context(item.question, item.variant_seed, form_data=request.POST or None)
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
    context = _question_context(item.question, item.variant_seed)
    context |= {"sitting": sitting, "item": item, "total": sitting.question_count}
    if response is not None:
        context |= _feedback_context(response, "")
    else:
        context["deciding_rules"] = item.question.rules.order_by("number")
    context["next_url"] = next_url
    return render(request, "quizzes/exam_review.html", context)

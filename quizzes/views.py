"""Practice, feedback and progress: small views that validate, call one domain function, render."""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import reswap, retarget
from django_htmx.middleware import HtmxDetails

from quizzes import answers, reports, selection, variants
from quizzes.board import build_board
from quizzes.forms import AnswerForm, SignupForm
from quizzes.models import Attempt, Mastery, Question, Response
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


def _new_seed() -> int:
    return secrets.randbelow(2**31 - 2) + 1 if getattr(settings, "QUIZZES_VARIANTS", True) else 0


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


@require_GET
@login_required
def practice(request: HtmxHttpRequest) -> HttpResponse:
    rule_number = request.GET.get("rule", "").strip()
    rule = Rule.objects.resolve_number(rule_number) if rule_number else None
    if rule_number and rule is None:
        context: dict[str, Any] = {"question": None, "unknown_rule": rule_number}
        return render(request, "quizzes/practice.html", context, status=404)
    pick = selection.next_question(request.user, rule)
    context = {"question": None, "rule": rule, "rule_number": rule.number if rule else ""}
    if pick.question is not None:
        seed = _new_seed()
        after = (
            Response.objects.owned_by(request.user).order_by("-id").values_list("id", flat=True)
        ).first() or 0
        token = signing.dumps(
            {"q": pick.question.pk, "s": seed, "a": after, "r": context["rule_number"]},
            salt=TOKEN_SALT,
        )
        context |= _question_context(
            pick.question, seed, token=token, rule_number=context["rule_number"]
        )
    context["rule"] = rule
    return render(request, "quizzes/practice.html", context)


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
    user = request.user
    question = get_object_or_404(
        selection.available_questions(user).select_related("scenario"), pk=served["q"]
    )
    # A form sent twice (double click, back button) gets the feedback it already got.
    response = Response.objects.owned_by(user).filter(question=question, id__gt=served["a"]).first()
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
        response = answers.submit(attempt, question, form.answer(), seed=served["s"]).response
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

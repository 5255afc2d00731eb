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
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect, reswap, retarget
from django_htmx.middleware import HtmxDetails

from config import sql
from quizzes import (
    answer_lookup,
    answers,
    cohorts,
    content_texts,
    exams,
    language,
    reports,
    rulings,
    selection,
)
from quizzes.forms import AnswerForm, PracticeFilterForm, SignupForm
from quizzes.models import (
    ExamSitting,
    Presentation,
    Question,
    Response,
    ScenarioVersion,
)
from quizzes.reference import texts

PRESENTATION_MAX_AGE = datetime.timedelta(days=1)  # a question served is answered within a day


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


@require_GET
def home(request: HtmxHttpRequest) -> HttpResponse:
    """The welcome; for a cohort's learner, what their instructors assigned and their banks."""
    context: dict[str, Any] = {}
    if request.user.is_authenticated:
        context = {
            "assignments": cohorts.assignments_for(request.user),
            "cohort_banks": cohorts.banks_for(request.user),
            "today": timezone.localdate(),
        }
    return render(request, "home.html", context)


@require_GET
@login_required
def practice_banks(request: HtmxHttpRequest) -> HttpResponse:
    """The banks the learner may practise (public, their own, their cohorts'), each with its
    "Practise this bank" button."""
    banks = selection.banks_to_practise(request.user)
    return render(request, "quizzes/practice_banks.html", {"banks": banks})


@require_http_methods(["GET", "POST"])
def signup(request: HtmxHttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        language.remember(user)  # the language the learner signed up in
        login(request, user, backend="config.auth.ModelBackend")
        return redirect("practice")
    return render(request, "registration/signup.html", {"form": form})


def _question_context(
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
        "next_url": _practice_url(filters),
    }


def _practice_url(filters: str) -> str:
    """/practice/ with the learner's filter (a query string `PracticeFilterForm` made)."""
    url = reverse("practice")
    return f"{url}?{filters}" if filters else url


def _paused_by_exam(
    request: HtmxHttpRequest, status: int = 200, sittings: list[ExamSitting] | None = None
) -> HttpResponse | None:
    """While the learner sits an exam, practice (feedback at once, on the exam's pool) waits.
    `sittings`: the learner's unfinished ones, when just read (default: read now)."""
    sitting = exams.running_sitting(request.user, sittings=sittings)
    if sitting is None:
        return None
    page = render(request, "quizzes/practice_paused.html", {"sitting": sitting}, status=status)
    if request.htmx:  # htmx swaps no error response: send the whole page instead
        page["HX-Redirect"] = reverse("practice")
    return page


@require_GET
@login_required
def practice(request: HtmxHttpRequest) -> HttpResponse:
    # one query: the learner's unfinished sittings, and the card table's generation for the
    # catalog the variant is drawn with
    sittings, card_generation = exams.unfinished_sittings_and_cards(request.user.pk)
    if paused := _paused_by_exam(request, sittings=sittings):
        return paused
    filter_form = PracticeFilterForm(request.GET, user=request.user)
    context: dict[str, Any] = {"question": None, "filter_form": filter_form}
    if not filter_form.is_valid():
        # an unknown rule or a bank the learner can't see is not found; a bad level is refused
        unknown = {"rule", "bank"} & set(filter_form.errors)
        context["unknown_rule"] = request.GET.get("rule", "")[:20] if "rule" in unknown else ""
        return render(request, "quizzes/practice.html", context, status=404 if unknown else 400)
    chosen = filter_form.cleaned_data
    filters = filter_form.query()
    pick = selection.next_question(
        request.user, chosen["rule"], level=chosen["level"], bank=chosen["bank"]
    )
    context |= {"rule": chosen["rule"], "level": chosen["level"], "bank": chosen["bank"]}
    if pick.question is not None:
        question = pick.question
        catalog = rulings.catalog_of(question.scenario, card_generation)
        ruling = rulings.ruling_for(question, rulings.new_seed(), request.user.pk, catalog)
        presentation = Presentation(
            user=request.user,
            question=question,
            scenario_version_id=question.scenario.current_version_id,
            shown=ruling.shown.to_json(),
            filters=filters,
        )
        sql.insert(presentation)  # as `save()` stores it, without compiling an INSERT
        context |= _question_context(question, ruling, token=presentation.token, filters=filters)
    else:
        context["just_answered_all"] = selection.only_the_last_answered(
            request.user, chosen["rule"], level=chosen["level"], bank=chosen["bank"]
        )
    return render(request, "quizzes/practice.html", context)


def _feedback_context(
    response: Response, filters: str, shown: rulings.Shown | None = None
) -> dict[str, Any]:
    verdict = answers.Verdict.from_json(response.verdict, response)
    scenario = response.scenario_version or response.question.scenario  # as answered
    shown = shown or _shown_of(response)
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
        "next_url": _practice_url(filters),
    }


@require_POST
@login_required
def answer(request: HtmxHttpRequest) -> HttpResponse:
    user = request.user
    token = request.POST.get("token", "")[:40]
    # One hand-written query (quizzes/answer_lookup.py): whether an exam runs, the presentation
    # (bound to the learner it was shown to: anyone else's token is unknown here) while its
    # question is still available to them, and their open practice attempt.
    found = answer_lookup.find(user, token, timezone.now() - PRESENTATION_MAX_AGE)
    if found.paused and (paused := _paused_by_exam(request, status=409)):
        return paused
    presentation = found.presentation
    if presentation is None:
        return HttpResponseBadRequest(_("This question has expired; open the next one."))
    question = presentation.question
    # A form sent twice (double click, back button) gets the feedback it already got.
    response = getattr(presentation, "response", None)
    if response is None:
        version = presentation.scenario_version
        catalog = rulings.catalog_of(question.scenario, found.card_generation)
        ruling = rulings.ruling_shown(question, presentation.shown, catalog, version=version)
        form = AnswerForm(ruling, data=request.POST)
        if not form.is_valid():  # only now the rest of the page: a graded answer needs none
            context = _question_context(
                question,
                ruling,
                form=form,
                token=token,
                filters=presentation.filters,
                version=version,
            )
            if request.htmx:  # show the errors in the form, not in the feedback area
                page = render(request, "quizzes/practice.html#answer-form", context)
                return reswap(retarget(page, "#answer-form"), "outerHTML")
            return render(request, "quizzes/practice.html", context, status=400)
        attempt = answer_lookup.open_attempt(user, found)
        response = answers.submit(
            attempt,
            question,
            form.answer(),
            seed=ruling.shown.seed,
            ruling=ruling,
            presentation=presentation,
            version=version,
        ).response
    if not request.htmx:
        return redirect("feedback", pk=response.pk)
    context = _feedback_context(response, presentation.filters)
    return render(request, "quizzes/practice.html#feedback", context)


def _shown_of(response: Response) -> rulings.Shown:
    """The names the learner saw (exam answers have no presentation: rebuild the variant)."""
    if response.presentation_id is not None:
        return rulings.Shown.from_json(response.presentation.shown)
    return rulings.ruling_answered(response).shown


@require_GET
@login_required
def feedback(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    response = get_object_or_404(
        Response.objects.owned_by(request.user).select_related(
            "question__scenario", "presentation", "scenario_version"
        ),
        pk=pk,
    )
    filters = response.presentation.filters if response.presentation_id is not None else ""
    ruling = rulings.ruling_answered(response)
    context = _question_context(response.question, ruling, version=response.scenario_version)
    context |= _feedback_context(response, filters, ruling.shown)
    context["answered"] = True
    return render(request, "quizzes/practice.html", context)


@require_GET
@login_required
def progress(request: HtmxHttpRequest) -> HttpResponse:
    user = request.user
    days = tuple(reports.accuracy_by_day(user))  # a key of the rendered chart: hashable
    history = Paginator(reports.History(user), 10).get_page(request.GET.get("page"))
    rules = reports.rule_progress(user)
    context = {
        "rules": rules,
        "weakest": [item for item in rules if not item.mastered][:5],
        "days": days,
        "chart": reports.accuracy_chart(days),
        "streak": reports.streak(days),
        "reviews_due": reports.reviews_due(rules),
        "answered": history.paginator.count,
        "history": history,
        "verdicts": history.object_list,
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
    item = sitting.items.select_related("question__scenario", "scenario_version").get(
        position=position
    )
    version = item.scenario_version
    ruling = rulings.ruling_for(item.question, item.variant_seed, request.user.pk, version=version)
    context = _question_context(
        item.question, ruling, form_data=request.POST or None, version=version
    )
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
    context = _question_context(item.question, ruling, version=version)
    context |= {"sitting": sitting, "item": item, "total": sitting.question_count}
    if response is not None:
        context |= _feedback_context(response, "", ruling.shown)
    else:
        rules = item.question.rules.order_by("number").prefetch_related("editions")
        context["deciding_rules"] = rules  # editions: the text in the reader's language
    context["next_url"] = next_url
    return render(request, "quizzes/exam_review.html", context)

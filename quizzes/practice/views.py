"""Practice, feedback and progress: small views that validate, call one domain function, render."""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import reswap, retarget

from config import sql
from quizzes import rulings
from quizzes.exams import proctor
from quizzes.models import Presentation, Response
from quizzes.practice import answer_lookup, answers, reports, selection, topics
from quizzes.practice.forms import AnswerForm, PracticeFilterForm
from quizzes.practice.pages import feedback_context, question_context
from quizzes.views import HtmxHttpRequest

PRESENTATION_MAX_AGE = datetime.timedelta(days=1)  # a question served is answered within a day
PLAN_KEY = "practice_plan"  # the session's study plan (a `topics.plan_choices` value)


@require_GET
@login_required
def practice_banks(request: HtmxHttpRequest) -> HttpResponse:
    """The banks the learner may practise (public, their own, their cohorts'), each with its
    "Practise this bank" button."""
    banks = selection.banks_to_practise(request.user)
    return render(request, "quizzes/practice_banks.html", {"banks": banks})


def _paused_by_exam(request: HtmxHttpRequest, status: int = 200) -> HttpResponse | None:
    """While the learner sits an exam, practice (feedback at once, on the exam's pool) waits."""
    sitting = proctor.running_sitting(request.user)
    if sitting is None:
        return None
    page = render(request, "quizzes/practice_paused.html", {"sitting": sitting}, status=status)
    if request.htmx:  # htmx swaps no error response: send the whole page instead
        page["HX-Redirect"] = reverse("practice")
    return page


@require_GET
@login_required
def practice(request: HtmxHttpRequest) -> HttpResponse:
    now = timezone.now()
    # what selection reads of the learner, whether an exam sitting of theirs is unfinished too
    learner = selection.Learner.of(request.user, now)
    if learner.sitting_unfinished and (paused := _paused_by_exam(request)):
        return paused
    data = request.GET.copy()
    if "plan" not in data:  # the study plan last chosen stays chosen (kept in the session)
        data["plan"] = request.session.get(PLAN_KEY, "")
    filter_form = PracticeFilterForm(data, user=request.user)
    context: dict[str, Any] = {"question": None, "filter_form": filter_form}
    if not filter_form.is_valid():
        # an unknown rule or a bank the learner can't see is not found; a bad level is refused
        unknown = {"rule", "bank"} & set(filter_form.errors)
        context["unknown_rule"] = request.GET.get("rule", "")[:20] if "rule" in unknown else ""
        return render(request, "quizzes/practice.html", context, status=404 if unknown else 400)
    chosen = filter_form.cleaned_data
    filters = filter_form.query()
    if request.session.get(PLAN_KEY, "") != chosen["plan"]:  # written only when it changes
        request.session[PLAN_KEY] = chosen["plan"]
    plan = topics.plan_named(chosen["plan"])
    pick = selection.next_question(
        request.user,
        chosen["rule"],
        level=chosen["level"],
        bank=chosen["bank"],
        review=chosen["review"],
        seed=rulings.new_seed(),  # its stored variant read with the question: no query of its own
        plan=plan,
        now=now,
        learner=learner,
    )
    context |= {
        "rule": chosen["rule"],
        "level": chosen["level"],
        "bank": chosen["bank"],
        "review": chosen["review"],
        "plan": plan,
        "pick": pick,
    }
    if pick.question is not None:
        question = pick.question
        # stored and ruled when the content was written (made now if it was not)
        variant = pick.variant or rulings.pick_variant(question)
        ruling = rulings.served_ruling(question, variant, request.user.pk)
        presentation = Presentation(
            user=request.user,
            question=question,
            scenario_version_id=question.scenario.current_version_id,
            shown=ruling.shown.to_json(),
            variant=variant,
            filters=filters,
        )
        sql.insert(presentation)  # as `save()` stores it, without compiling an INSERT
        context |= question_context(question, ruling, token=presentation.token, filters=filters)
    elif not chosen["review"]:  # with review: nothing due (the page says so)
        context["just_answered_all"] = selection.only_the_last_answered(
            request.user, chosen["rule"], level=chosen["level"], bank=chosen["bank"]
        )
    return render(request, "quizzes/practice.html", context)


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
        if presentation.variant_id is not None:  # graded on the stored variant: no engine run
            ruling = rulings.answered_ruling(question, presentation.variant, presentation.shown)
        else:  # served before variants were stored
            catalog = rulings.catalog_of(question.scenario, found.card_generation)
            ruling = rulings.ruling_shown(question, presentation.shown, catalog, version=version)
        form = AnswerForm(ruling, data=request.POST)
        if not form.is_valid():  # only now the rest of the page: a graded answer needs none
            context = question_context(
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
            masteries_missing=found.masteries_missing,
            learned=found.learned,
        ).response
    if not request.htmx:
        return redirect("feedback", pk=response.pk)
    context = feedback_context(response, presentation.filters)
    return render(request, "quizzes/practice.html#feedback", context)


@require_GET
@login_required
def feedback(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    response = get_object_or_404(
        Response.objects.owned_by(request.user).select_related(
            "question__scenario", "presentation__variant", "scenario_version"
        ),
        pk=pk,
    )
    filters = response.presentation.filters if response.presentation_id is not None else ""
    ruling = rulings.ruling_answered(response)
    context = question_context(response.question, ruling, version=response.scenario_version)
    context |= feedback_context(response, filters, ruling.shown)
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
        "rules_shown": tuple(item.shown for item in rules),  # the list's rendering's key
        "weakest": reports.rules_to_work_on(rules),
        "days": days,
        "chart": reports.accuracy_chart(days),
        "streak": reports.streak(days),
        "reviews_due": reports.reviews_due(rules),
        "due_reviews": reports.due_reviews(rules),
        "answered": history.paginator.count,
        "history": history,
        "verdicts": history.object_list,
    }
    template = "quizzes/progress.html#history" if request.htmx else "quizzes/progress.html"
    return render(request, template, context)

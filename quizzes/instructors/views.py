"""Instructors' pages: thin views that look everything up through the owner, call one domain
function (.banks, .saving, .lint, .cohorts, .analysis, .interchange) and render once."""

from __future__ import annotations

import functools
import json
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.http import HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from config import roles
from config.inputs import form_fields_are_text
from quizzes import limits, tasks
from quizzes.instructors import (
    analysis,
    builder,
    cohorts,
    import_jobs,
    importing,
    interchange,
    lint,
    moodle,
    saving,
    sharing,
)
from quizzes.instructors.banks import (
    banks_of,
    card_names_for,
    catalog_owner,
    do_create_bank,
    scenarios_in,
    seed_scenarios,
)
from quizzes.instructors.forms import (
    AssignmentForm,
    BankForm,
    CohortBanksForm,
    CohortForm,
    CoOwnerForm,
    ImportForm,
    JoinForm,
    MoodleImportForm,
    ScenarioDocumentForm,
)
from quizzes.models import Bank, Cohort, Scenario
from quizzes.rulings import documents, preview
from quizzes.views import HtmxHttpRequest
from rules.cards import catalog_for

SCENARIO_PAGE = "instructors/scenario_form.html"
IMPORT_PAGE = "instructors/bank_import.html"


def instructor_required(view):
    """Logged in (else the login page) and an instructor (else 403)."""

    @functools.wraps(view)
    @login_required
    def wrapped(request, *args, **kwargs):
        if not roles.is_instructor(request.user):
            raise PermissionDenied(_("Only instructors can open this page."))
        return view(request, *args, **kwargs)

    return wrapped


def _bank(request: HtmxHttpRequest, slug: str) -> Bank:
    """A bank the instructor owns or co-owns: another instructor's is a 404."""
    return get_object_or_404(banks_of(request.user), slug=slug)


def _owned_bank(request: HtmxHttpRequest, slug: str) -> Bank:
    """A bank the instructor owns (its settings, its sharing): a co-owner's is a 404 too."""
    return get_object_or_404(sharing.banks_shared_by(request.user), slug=slug)


def _scenario(bank: Bank, slug: str) -> Scenario:
    return get_object_or_404(scenarios_in(bank), slug=slug)


# Banks.


@require_GET
@instructor_required
def bank_index(request: HtmxHttpRequest) -> HttpResponse:
    banks = banks_of(request.user).annotate(
        scenario_count=Count("scenarios", distinct=True),
        question_count=Count("questions", filter=Q(questions__is_active=True), distinct=True),
    )
    return render(request, "instructors/bank_index.html", {"banks": banks})


@require_http_methods(["GET", "POST"])
@instructor_required
def bank_create(request: HtmxHttpRequest) -> HttpResponse:
    form = BankForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        bank = do_create_bank(request.user, **form.cleaned_data)
        return redirect("bank_detail", slug=bank.slug)
    status = 400 if form.is_bound else 200
    return render(request, "instructors/bank_form.html", {"form": form}, status=status)


@require_http_methods(["GET", "POST"])
@instructor_required
def bank_edit(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    bank = _owned_bank(request, slug)
    form = BankForm(request.POST or None, instance=bank)
    if request.method == "POST" and form.is_valid():
        form.save()
        return redirect("bank_detail", slug=bank.slug)
    status = 400 if form.is_bound else 200
    context = {"form": form, "bank": bank}
    return render(request, "instructors/bank_form.html", context, status=status)


@require_GET
@instructor_required
def bank_detail(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    bank = _bank(request, slug)
    scenarios = scenarios_in(bank).annotate(
        question_count=Count("questions", filter=Q(questions__is_active=True, questions__bank=bank))
    )
    context = {
        "bank": bank,
        "scenarios": scenarios,
        "items": analysis.item_analysis(bank),
        "min_learners": analysis.MIN_LEARNERS_FOR_NOTES,
    }
    return render(request, "instructors/bank_detail.html", context)


@require_GET
@instructor_required
def bank_lint(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    bank = _bank(request, slug)
    scenarios = Scenario.objects.in_bank(bank)
    context = {"bank": bank, "entries": lint.lint(scenarios), "checked": scenarios.count()}
    return render(request, "instructors/bank_lint.html", context)


# Sharing a bank with co-instructors.


@require_http_methods(["GET", "POST"])
@instructor_required
def bank_sharing(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The owner's page: who co-owns the bank; add one by username, remove one."""
    bank = _owned_bank(request, slug)
    form = CoOwnerForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = sharing.check_add_co_owner(request.user, bank, form.cleaned_data["username"])
        except sharing.SharingError as error:
            form.add_error("username", str(error))
        else:
            sharing.do_add_co_owner(bank, user)
            return redirect("bank_sharing", slug=bank.slug)
    context = {"bank": bank, "form": form, "co_owners": sharing.co_owners_of(bank)}
    status = 400 if form.errors else 200
    return render(request, "instructors/bank_sharing.html", context, status=status)


@require_POST
@instructor_required
def bank_unshare(request: HtmxHttpRequest, slug: str, user_id: int) -> HttpResponse:
    bank = _owned_bank(request, slug)
    sharing.do_remove_co_owner(bank, get_object_or_404(bank.co_owners.all(), pk=user_id))
    return redirect("bank_sharing", slug=bank.slug)


@require_GET
@instructor_required
def scenario_history(request: HtmxHttpRequest, slug: str, scenario_slug: str) -> HttpResponse:
    """Every version of a scenario, with who saved it and when."""
    bank = _bank(request, slug)
    scenario = _scenario(bank, scenario_slug)
    context = {"bank": bank, "scenario": scenario, "versions": sharing.history_of(scenario)}
    return render(request, "instructors/scenario_history.html", context)


# Authoring a scenario, with the engine's live preview.


def _scenario_urls(bank: Bank, scenario: Scenario | None) -> dict[str, str]:
    if scenario is None:
        return {
            "save_url": reverse("scenario_create", args=[bank.slug]),
            "preview_url": reverse("scenario_preview_new", args=[bank.slug]),
        }
    return {
        "save_url": reverse("scenario_edit", args=[bank.slug, scenario.slug]),
        "preview_url": reverse("scenario_preview", args=[bank.slug, scenario.slug]),
    }


def _scenario_page(
    request: HtmxHttpRequest,
    bank: Bank,
    scenario: Scenario | None,
    form: ScenarioDocumentForm,
    preview,
    posted: builder.Posted | None = None,
    refused: documents.AuthoringError | None = None,
) -> dict[str, Any]:
    """The page's context: the builder laid out from the same document as the JSON box, the
    errors beside the builder's fields (with why a save was `refused`: a taken id), the
    author's card names for completion."""
    laid_out = posted.builder if posted else builder.builder_of_text(preview.text)
    errors = list(preview.errors)
    if refused and all(str(refused) != str(error) for error in errors):  # a taken id: Tutor's
        errors.append(refused)
    errors_at = builder.field_errors(laid_out, errors)
    if laid_out is not None:
        laid_out.attach(errors_at)
    context = {
        "bank": bank,
        "scenario": scenario,
        "form": form,
        "preview": preview,
        "builder": laid_out,
        "builder_problem": posted.problem if posted else "",
        "save_error": refused.told() if refused else "",
        "errors_at": errors_at,
        "ask_rows": builder.ask_rows(laid_out, preview.computed),
        # asked for only where the page renders the completion list (not in htmx fragments)
        "card_names": functools.partial(card_names_for, request.user),
        "zone_names": builder.ZONES,
        "step_verbs": builder.STEP_CHOICES,
        "facts": builder.FACTS,
        "choice_keys": builder.CHOICE_KEYS,
    }
    if scenario is None:
        context["seeds"] = seed_scenarios(request.user)
    return context | _scenario_urls(bank, scenario)


def _read_posted(
    request: HtmxHttpRequest, scenario: Scenario | None
) -> tuple[builder.Posted, preview.Preview]:
    """The posted document and the engine's preview of it (with the cards of the scenario's
    author); the starter's claims (`b-follow`) take the engine's values first, so its ticks
    never go stale as the board changes."""
    catalog = catalog_for(catalog_owner(request.user, scenario))
    posted = builder.read_post(request.POST)
    shown = preview.preview(posted.text, catalog)
    laid_out = posted.builder
    if laid_out is not None and not posted.problem and laid_out.follow_engine(shown.computed):
        posted = builder.Posted(laid_out.text(), laid_out)
        shown = preview.preview(posted.text, catalog)
    return posted, shown


@form_fields_are_text  # the builder's fields are text: its own checks place an error beside one
@require_http_methods(["GET", "POST"])
@instructor_required
def scenario_edit(
    request: HtmxHttpRequest, slug: str, scenario_slug: str | None = None
) -> HttpResponse:
    """GET: the builder, the JSON and the preview (a new scenario: the starter, or a seed
    scenario's copy with `?from=`). POST: validate, store, engine-check, regenerate questions."""
    bank = _bank(request, slug)
    scenario = _scenario(bank, scenario_slug) if scenario_slug else None
    if request.method == "GET":
        if scenario is not None:
            text = documents.document_text(scenario)
        else:
            seed = seed_scenarios(request.user).filter(slug=request.GET.get("from", "")[:120])
            text = documents.copy_text(seed.first()) if seed else documents.starter_text()
        form = ScenarioDocumentForm(initial={"document": text})
        shown = preview.preview(text, catalog_for(catalog_owner(request.user, scenario)))
        context = _scenario_page(request, bank, scenario, form, shown)
        if scenario is None and not seed and context["builder"] is not None:
            context["builder"].follow = documents.starter_claim_keys()  # never stale
        context["saved"] = scenario is not None and "saved" in request.GET
        if context["saved"]:  # what learners are served: unticked claims' questions are kept off
            active = scenario.questions.filter(bank=bank, is_active=True)
            context["question_count"] = active.count()
            context["bank_question_count"] = bank.questions.filter(is_active=True).count()
        context["flagged"] = scenario is not None and scenario.engine_status in lint.FLAGGED
        return render(request, SCENARIO_PAGE, context)
    posted, shown = _read_posted(request, scenario)
    form = ScenarioDocumentForm({"document": posted.text})
    refused = None
    if form.is_valid() and not posted.problem:
        try:
            document = saving.check_save_scenario(request.user, bank, posted.text, scenario)
        except documents.AuthoringError as error:
            refused = error  # shown beside its field, and above the form: nothing typed is lost
        else:
            saved = saving.do_save_scenario(request.user, bank, document, scenario)
            return redirect(reverse("scenario_edit", args=[bank.slug, saved.slug]) + "?saved=1")
    context = _scenario_page(request, bank, scenario, form, shown, posted, refused)
    return render(request, SCENARIO_PAGE, context, status=400)


@form_fields_are_text
@require_POST
@instructor_required
def scenario_preview(
    request: HtmxHttpRequest, slug: str, scenario_slug: str | None = None
) -> HttpResponse:
    """The computed ruling for the posted builder or JSON: for htmx the preview with the other
    side kept in step (out of band), else the whole page."""
    bank = _bank(request, slug)
    scenario = _scenario(bank, scenario_slug) if scenario_slug else None
    posted, shown = _read_posted(request, scenario)
    form = ScenarioDocumentForm(initial={"document": posted.text})
    context = _scenario_page(request, bank, scenario, form, shown, posted)
    if request.htmx:
        context["from_builder"] = request.POST.get("source") == "builder"
        return render(request, "instructors/_scenario_sync.html", context)
    return render(request, SCENARIO_PAGE, context)


@require_POST
@instructor_required
def scenario_duplicate(request: HtmxHttpRequest, slug: str, scenario_slug: str) -> HttpResponse:
    """A copy of the scenario in the same bank (a new id and title), opened for editing."""
    bank = _bank(request, slug)
    scenario = _scenario(bank, scenario_slug)
    document = saving.check_save_scenario(request.user, bank, documents.copy_text(scenario), None)
    saved = saving.do_save_scenario(request.user, bank, document)
    return redirect(reverse("scenario_edit", args=[bank.slug, saved.slug]) + "?saved=1")


# Import and export.


@require_GET
@instructor_required
def bank_export_json(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    bank = _bank(request, slug)
    body = json.dumps(interchange.export_json(bank), indent=2, ensure_ascii=False)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{bank.slug}.json"'
    return response


@require_GET
@instructor_required
def bank_export_moodle(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    bank = _bank(request, slug)
    response = HttpResponse(interchange.export_moodle(bank), content_type="application/xml")
    response["Content-Disposition"] = f'attachment; filename="{bank.slug}-moodle.xml"'
    return response


@require_http_methods(["GET", "POST"])
@instructor_required
def bank_moodle(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Moodle XML both ways: what the export leaves out and why (the download stays on the
    bank's page too), and the import form. POST: every question checked, then all saved, or
    every problem listed (each with its question's name) and nothing saved."""
    bank = _bank(request, slug)
    form = MoodleImportForm(request.POST or None, request.FILES or None)
    context: dict[str, Any] = {"bank": bank, "form": form, "problems": [], "more": 0}
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        content = upload.read(limits.MAX_IMPORT_BYTES + 1)
        try:
            plan = moodle.check_moodle(request.user, bank, content, upload.name)
        except interchange.InterchangeError as error:
            context |= {"problems": error.problems, "more": error.more}
        else:
            saved = moodle.do_import_moodle(request.user, bank, plan)
            return redirect(
                reverse("imported_questions", args=[bank.slug]) + f"?added={len(saved)}"
            )
    context["export"] = interchange.moodle_export(bank)
    status = 400 if form.is_bound else 200
    return render(request, "instructors/bank_moodle.html", context, status=status)


@require_http_methods(["GET", "POST"])
@instructor_required
def bank_import(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """GET: the form. POST: a page streamed as the import runs: its progress (checked, then
    saved), then the report or every problem found. No script needed: each step arrives as
    the page loads (the stylesheet shows the latest as the bar)."""
    bank = _bank(request, slug)
    form = ImportForm(request.POST or None, request.FILES or None)
    context: dict[str, Any] = {"bank": bank, "form": form}
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        content = upload.read(limits.MAX_IMPORT_BYTES + 1)
        if too_large := interchange.size_problem(content, upload.name):
            form.add_error("file", too_large)  # refused before anything is read
            return render(request, IMPORT_PAGE, context, status=400)
        if import_jobs.runs_in_background(content):  # a large file: a worker imports it
            job = tasks.start_import(
                request.user,
                bank,
                content,
                upload.name,
                form.cleaned_data["on_existing"],
                form.cleaned_data["bank_details"],
            )
            return redirect("bank_import_job", slug=bank.slug, pk=job.pk)
        steps = importing.steps(
            request.user,
            bank,
            content,
            upload.name,
            form.cleaned_data["on_existing"],
            form.cleaned_data["bank_details"],
        )

        def page(result: dict) -> str:  # the steps go at the marker; the result's end after it
            live = context | result | {"live": importing.MARKER}
            return render_to_string(IMPORT_PAGE, live, request)

        response = StreamingHttpResponse(importing.stream(page, steps, translation.get_language()))
        response["X-Accel-Buffering"] = "no"  # a proxy passes each step on as it comes
        return response
    status = 400 if form.is_bound else 200
    return render(request, IMPORT_PAGE, context, status=status)


@require_GET
@instructor_required
def bank_import_job(request: HtmxHttpRequest, slug: str, pk: int) -> HttpResponse:
    """A background import's progress, then its result; htmx polls the progress part."""
    bank = _bank(request, slug)
    job = get_object_or_404(import_jobs.jobs_of(request.user, bank).defer("content"), pk=pk)
    context = {"bank": bank, "job": job} | import_jobs.result_context(job)
    if request.htmx:
        return render(request, "instructors/import_job.html#job-progress", context)
    return render(request, "instructors/import_job.html", context)


# Cohorts.


def _cohort(request: HtmxHttpRequest, pk: int) -> Cohort:
    """The instructor's own cohort: another instructor's is a 404."""
    return get_object_or_404(cohorts.cohorts_of(request.user), pk=pk)


@require_http_methods(["GET", "POST"])
@instructor_required
def cohort_index(request: HtmxHttpRequest) -> HttpResponse:
    form = CohortForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        cohort = cohorts.do_create_cohort(request.user, form.cleaned_data["name"])
        return redirect("cohort_detail", pk=cohort.pk)
    taught = cohorts.cohorts_of(request.user).annotate(
        member_count=Count("members", distinct=True), bank_count=Count("banks", distinct=True)
    )
    context = {"form": form, "cohorts": taught}
    return render(
        request, "instructors/cohort_index.html", context, status=400 if form.errors else 200
    )


def _cohort_context(
    request: HtmxHttpRequest,
    cohort: Cohort,
    form: CohortBanksForm,
    assignment_form: AssignmentForm | None = None,
) -> dict:
    join_url = request.build_absolute_uri(reverse("cohort_join")) + f"?code={cohort.join_code}"
    signup_url = request.build_absolute_uri(reverse("signup")) + f"?code={cohort.join_code}"
    members = list(cohorts.members_of(cohort))
    assignments = list(cohorts.assignments_of(cohort))
    return {
        "cohort": cohort,
        "form": form,
        "assignment_form": assignment_form or AssignmentForm(instructor=request.user),
        "assignments": assignments,
        "members": members,
        "statuses": cohorts.assignment_statuses(assignments, members, timezone.localdate()),
        "banks": cohort.banks.all(),
        "join_url": join_url,
        "signup_url": signup_url,
    }


@require_GET
@instructor_required
def cohort_detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    cohort = _cohort(request, pk)
    form = CohortBanksForm(instructor=request.user, initial={"banks": cohort.banks.all()})
    context = _cohort_context(request, cohort, form)
    context["banks_saved"] = request.GET.get("saved") == "banks"
    return render(request, "instructors/cohort_detail.html", context)


@require_POST
@instructor_required
def cohort_banks(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    cohort = _cohort(request, pk)
    form = CohortBanksForm(request.POST, instructor=request.user)
    if form.is_valid():
        cohorts.do_assign_banks(cohort, form.cleaned_data["banks"])
        # back to the banks, saying so: the page as it was is no sign anything happened
        return redirect(reverse("cohort_detail", args=[cohort.pk]) + "?saved=banks#banks-title")
    context = _cohort_context(request, cohort, form)
    return render(request, "instructors/cohort_detail.html", context, status=400)


@require_POST
@instructor_required
def cohort_assign(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    cohort = _cohort(request, pk)
    form = AssignmentForm(request.POST, instructor=request.user)
    if form.is_valid():
        cohorts.do_assign(cohort, **form.cleaned_data)
        return redirect("cohort_detail", pk=cohort.pk)
    banks = CohortBanksForm(instructor=request.user, initial={"banks": cohort.banks.all()})
    context = _cohort_context(request, cohort, banks, form)
    return render(request, "instructors/cohort_detail.html", context, status=400)


@require_POST
@instructor_required
def cohort_unassign(request: HtmxHttpRequest, pk: int, assignment_id: int) -> HttpResponse:
    cohort = _cohort(request, pk)
    get_object_or_404(cohorts.assignments_of(cohort), pk=assignment_id).delete()
    return redirect("cohort_detail", pk=cohort.pk)


@require_GET
@instructor_required
def cohort_member(request: HtmxHttpRequest, pk: int, user_id: int) -> HttpResponse:
    cohort = _cohort(request, pk)
    member = get_object_or_404(cohort.members.all(), pk=user_id)
    context = {"cohort": cohort, "progress": cohorts.member_progress(cohort, member)}
    return render(request, "instructors/cohort_member.html", context)


@require_http_methods(["GET", "POST"])
@login_required
def cohort_join(request: HtmxHttpRequest) -> HttpResponse:
    """Any learner joins a cohort with its code; its shared banks join their practice."""
    form = JoinForm(request.POST or request.GET or None)
    context: dict[str, Any] = {"form": form}
    if request.method == "POST" and form.is_valid():
        try:
            cohort = cohorts.check_join(request.user, form.cleaned_data["code"])
        except cohorts.CohortError as error:
            form.add_error("code", str(error))
        else:
            context |= {"joined": cohort, "new": cohorts.do_join(request.user, cohort)}
            context["banks"] = cohorts.banks_for(request.user, cohort)
            return render(request, "instructors/cohort_join.html", context)
    status = 400 if request.method == "POST" else 200
    return render(request, "instructors/cohort_join.html", context, status=status)

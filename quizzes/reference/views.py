"""Rule pages: the text in every edition and language, scenarios that exercise it, your mastery."""

from __future__ import annotations

from urllib.parse import urlencode

from django.core.cache import cache
from django.core.paginator import Paginator
from django.db.models import Count, Exists, OuterRef, Prefetch, Q, Subquery, Value
from django.db.models.functions import Coalesce
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from quizzes import visibility
from quizzes.instructors.views import instructor_required
from quizzes.models import Question, Response, Scenario
from quizzes.practice import adaptive, reports
from quizzes.reference import search, texts
from quizzes.reference.forms import CardForm, engine_reading
from quizzes.reference.queries import scenario_rows_and_mastery
from rules.models import Card, Rule, number_order

MAX_QUERY_LENGTH = 100  # a card browser search
CARDS_PER_PAGE = 60


@require_GET
def rule_index(request: HttpRequest) -> HttpResponse:
    rules = (
        Rule.objects.current()
        .filter(kind=Rule.Kind.RULE)
        .annotate(question_count=Count("questions", filter=Q(questions__is_active=True)))
        .order_by("number")
    )
    language = translation.get_language() or "en"
    if not language.startswith("en"):  # the official translations, for the reader (one query)
        in_language = Rule.objects.filter(language=language)
        rules = rules.prefetch_related(Prefetch("editions", queryset=in_language))
    rules = sorted(rules, key=lambda rule: number_order(rule.number))  # 106.5 before 106.12
    return render(request, "rules/rule_index.html", {"rules": rules})


def listed(scenarios, user):
    """`scenarios` in a stable order, each as its title, its active question count and
    `answered` (whether `user` answered one of their questions: only then is a title shown).
    Rows of values: the scenario's JSON stays unread."""
    active = (
        Question.objects.filter(scenario=OuterRef("pk"), is_active=True)
        .order_by()
        .values("scenario")
        .annotate(count=Count("pk"))
        .values("count")
    )
    answered = Value(False)
    if user.is_authenticated:
        answered = Exists(Response.objects.filter(user=user, question__scenario=OuterRef("pk")))
    return (
        scenarios.annotate(question_count=Coalesce(Subquery(active), 0), answered=answered)
        .order_by("pk")
        .values("pk", "title", "question_count", "answered")
    )


@require_GET
def rule_detail(request: HttpRequest, number: str) -> HttpResponse:
    # The visitor first: without Redis their session's read brings the rules' version with it
    # (config/versions.py), so that the rule's text then costs no query.
    request.user.is_authenticated  # noqa: B018 (read for its query)
    page = texts.rule_page(number)
    if page is None:
        current = Rule.objects.resolve_number(number)
        if current is None:  # the site's own 404 page, with debug on too
            return render(request, "404.html", {"missing_rule": number}, status=404)
        target = reverse("rule_detail", args=[current.number])
        if number.lower() == current.number.lower():  # 701.23B is 701.23b
            return redirect(target)
        # Say on the page which edition the number followed belongs to.
        return redirect(f"{target}?{urlencode({'from': number})}")
    rule = page.rule
    # the banks the visitor may practise from and, signed in, the rule's median difficulty (for
    # their mastery, when they have one) in one round trip to the cache; then the visitor's
    # scenarios and mastery of the rule, in one query
    signed_in = request.user.is_authenticated
    medians = reports.median_keys([rule.pk]) if signed_in else []
    kept = cache.get_many([visibility.bank_ids_key(request.user), *medians])
    scenarios, mastery = scenario_rows_and_mastery(rule, request.user, kept)
    mastery_value = None
    if mastery:
        median = reports.median_difficulties([rule.pk], kept)[rule.pk]
        mastery_value = adaptive.mastery(mastery.theta, median)
    context = {
        "rule": rule,
        "section_title": page.section_title,
        "section_title_language": page.section_title_language,
        "rule_text": page.text,
        "scenarios": scenarios,
        "followed": page.alias_named(request.GET.get("from", "")[:20]),
        "mastery": mastery,
        "mastery_value": mastery_value,
    }
    return render(request, "rules/rule_detail.html", context)


# The card browser.


@require_GET
def card_index(request: HttpRequest) -> HttpResponse:
    """The cards the visitor may read (`visibility.cards_visible_to`), searched by name, type or
    text with `?q=`."""
    query = request.GET.get("q", "").strip()[:MAX_QUERY_LENGTH]
    cards = visibility.cards_visible_to(request.user)
    if query:
        cards = cards.filter(
            Q(name__icontains=query) | Q(type_line__icontains=query) | Q(oracle__icontains=query)
        )
    page = Paginator(cards.order_by("name", "pk"), CARDS_PER_PAGE).get_page(
        request.GET.get("page", "")[:10]
    )
    others = urlencode({"q": query}) + "&" if query else ""  # each page link keeps the search
    context = {"query": query, "cards": page, "page_query": others}
    if query and not page.paginator.count:  # "Islnd": the names it was close to
        context["near"] = search.near_matches(query, visibility.cards_visible_to(request.user))
    return render(request, "rules/card_index.html", context)


@require_GET
def card_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """One card's text and the scenarios the visitor may practise that name it."""
    card = visibility.cards_visible_to(request.user).filter(pk=pk).first()
    if card is None:
        return render(request, "404.html", status=404)
    uses = Scenario.objects.visible_to(request.user).filter(cards_named=card)
    context = {"card": card, "scenarios": listed(uses, request.user)}
    return render(request, "rules/card_detail.html", context)


# The card form: an instructor's own cards.

CARD_FORM = "rules/card_form.html"


@require_http_methods(["GET", "POST"])
@instructor_required
def card_edit(request: HttpRequest, pk: int | None = None) -> HttpResponse:
    """GET: the form with the engine's reading. POST: validate, store, back to the card."""
    card = get_object_or_404(Card.objects.owned_by(request.user), pk=pk) if pk else None
    form = CardForm(request.POST or None, owner=request.user, instance=card)
    if request.method == "POST" and form.is_valid():
        saved = form.save()
        return redirect("card_detail", pk=saved.pk)
    preview_url = reverse("card_preview")
    context = {"form": form, "card": card, "preview_url": preview_url} | _card_reading(form)
    return render(request, CARD_FORM, context, status=400 if form.is_bound else 200)


@require_POST
@instructor_required
def card_preview(request: HttpRequest) -> HttpResponse:
    """The engine's reading of the posted card (the form's live preview fragment)."""
    card_id = request.POST.get("card", "")
    card = (
        Card.objects.owned_by(request.user).filter(pk=card_id).first()
        if card_id.isdigit()
        else None
    )
    form = CardForm(request.POST, owner=request.user, instance=card)
    return render(request, CARD_FORM + "#reading", _card_reading(form))


def _card_reading(form: CardForm) -> dict:
    if not form.is_bound:
        if form.instance is None:
            return {"reading": None}
        form = CardForm(form.initial, owner=form.owner, instance=form.instance)
    if not form.is_valid():
        errors = [
            (form[name].label if name in form.fields else "", e) for name, e in form.errors.items()
        ]
        return {"reading": None, "reading_errors": errors}
    return {"reading": engine_reading(form.parsed)}

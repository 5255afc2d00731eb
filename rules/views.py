"""Rule pages: the text in every edition and language, scenarios that exercise it, your mastery."""

from __future__ import annotations

from urllib.parse import urlencode

from django.db.models import Count, Exists, OuterRef, Q, Value
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from quizzes import adaptive
from quizzes.models import Mastery, Response, Scenario
from rules import texts
from rules.models import Rule


@require_GET
def rule_index(request: HttpRequest) -> HttpResponse:
    rules = (
        Rule.objects.current()
        .filter(kind=Rule.Kind.RULE)
        .annotate(question_count=Count("questions", filter=Q(questions__is_active=True)))
        .order_by("number")
    )
    return render(request, "rules/rule_index.html", {"rules": rules})


def scenarios_for(rule: Rule, user):
    """The scenarios exercising `rule` that `user` may practise, each with its active question
    count and whether `user` has answered one of its questions (only then is its title shown:
    a title can state the ruling)."""
    scenarios = (
        Scenario.objects.visible_to(user)
        .filter(rules_exercised=rule)
        .only("pk", "title")  # the list shows no more: the scenario's JSON stays unread
        .annotate(question_count=Count("questions", filter=Q(questions__is_active=True)))
        .order_by("pk")
    )
    if user.is_authenticated:
        answers = Response.objects.filter(user=user, question__scenario=OuterRef("pk"))
        return scenarios.annotate(answered=Exists(answers))
    return scenarios.annotate(answered=Value(False))


@require_GET
def rule_detail(request: HttpRequest, number: str) -> HttpResponse:
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
    mastery = None
    if request.user.is_authenticated:
        mastery = Mastery.objects.owned_by(request.user).filter(rule=rule).first()
    mastery_value = None
    if mastery:
        difficulties = rule.questions.filter(is_active=True).values_list("difficulty", flat=True)
        mastery_value = adaptive.mastery(mastery.theta, list(difficulties))
    context = {
        "rule": rule,
        "section_title": page.section_title,
        "rule_text": page.text,
        "scenarios": scenarios_for(rule, request.user),
        "followed": page.alias_named(request.GET.get("from", "")[:20]),
        "mastery": mastery,
        "mastery_value": mastery_value,
    }
    return render(request, "rules/rule_detail.html", context)

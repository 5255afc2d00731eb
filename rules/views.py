"""Rule pages: the text in every edition and language, scenarios that exercise it, your mastery."""

from __future__ import annotations

from urllib.parse import urlencode

from django.db.models import Count, Exists, OuterRef, Prefetch, Q, Value
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.views.decorators.http import require_GET

from quizzes import adaptive
from quizzes.models import Mastery, Response, Scenario
from rules.models import Rule


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
    return render(request, "rules/rule_index.html", {"rules": rules})


def scenarios_for(rule: Rule, user):
    """The scenarios exercising `rule` that `user` may practise, each with its active question
    count and whether `user` has answered one of its questions (only then is its title shown:
    a title can state the ruling)."""
    scenarios = (
        Scenario.objects.visible_to(user)
        .filter(rules_exercised=rule)
        .annotate(question_count=Count("questions", filter=Q(questions__is_active=True)))
        .order_by("pk")
    )
    if user.is_authenticated:
        answers = Response.objects.filter(user=user, question__scenario=OuterRef("pk"))
        return scenarios.annotate(answered=Exists(answers))
    return scenarios.annotate(answered=Value(False))


@require_GET
def rule_detail(request: HttpRequest, number: str) -> HttpResponse:
    rule = (
        Rule.objects.current().filter(number=number).prefetch_related("aliases", "editions").first()
    )
    if rule is None:
        current = Rule.objects.resolve_number(number)
        if current is None:  # the site's own 404 page, with debug on too
            return render(request, "404.html", {"missing_rule": number}, status=404)
        target = reverse("rule_detail", args=[current.number])
        if number.lower() == current.number.lower():  # 701.23B is 701.23b
            return redirect(target)
        # Say on the page which edition the number followed belongs to.
        return redirect(f"{target}?{urlencode({'from': number})}")
    followed = request.GET.get("from", "")[:20]
    mastery = None
    if request.user.is_authenticated:
        mastery = Mastery.objects.owned_by(request.user).filter(rule=rule).first()
    difficulties = list(rule.questions.filter(is_active=True).values_list("difficulty", flat=True))
    language = translation.get_language() or "en"
    section_title, section_language = Rule.objects.section_title_in(rule, language)
    context = {
        "rule": rule,
        "section_title": section_title,
        "section_title_language": section_language,
        "scenarios": scenarios_for(rule, request.user),
        "followed": next((a for a in rule.aliases.all() if a.number == followed), None),
        "former_meanings": rule.former_meanings(),
        "mastery": mastery,
        "mastery_value": adaptive.mastery(mastery.theta, difficulties) if mastery else None,
    }
    return render(request, "rules/rule_detail.html", context)

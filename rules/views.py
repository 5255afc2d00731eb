"""Rule pages: the text in every edition and language, scenarios that exercise it, your mastery."""

from __future__ import annotations

from urllib.parse import urlencode

from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from quizzes import adaptive
from quizzes.models import Mastery
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


@require_GET
def rule_detail(request: HttpRequest, number: str) -> HttpResponse:
    rule = (
        Rule.objects.current()
        .filter(number=number)
        .prefetch_related("aliases", "editions", "scenarios")
        .first()
    )
    if rule is None:
        current = Rule.objects.resolve_number(number)
        if current is None:
            raise Http404(f"No rule numbered {number}.")
        # Say on the page which edition the number followed belongs to.
        target = reverse("rule_detail", args=[current.number])
        return redirect(f"{target}?{urlencode({'from': number})}")
    followed = request.GET.get("from", "")
    mastery = None
    if request.user.is_authenticated:
        mastery = Mastery.objects.owned_by(request.user).filter(rule=rule).first()
    difficulties = list(rule.questions.filter(is_active=True).values_list("difficulty", flat=True))
    context = {
        "rule": rule,
        "followed": next((a for a in rule.aliases.all() if a.number == followed), None),
        "former_meanings": rule.former_meanings(),
        "mastery": mastery,
        "mastery_value": adaptive.mastery(mastery.theta, difficulties) if mastery else None,
    }
    return render(request, "rules/rule_detail.html", context)

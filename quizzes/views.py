"""The site's door: the welcome page and sign-up."""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods
from django_htmx.middleware import HtmxDetails

from quizzes import language
from quizzes.instructors import cohorts
from quizzes.practice.forms import SignupForm

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


@require_http_methods(["GET", "POST"])
def signup(request: HtmxHttpRequest) -> HttpResponse:
    """A new account; with a cohort's join code (`?code=`, the link on the cohort's page) the
    learner joins it at once, and its sign-ups are throttled apart (config/urls.py)."""
    form = SignupForm(request.POST or None, initial={"code": request.GET.get("code", "")[:16]})
    if request.method == "POST" and form.is_valid():
        user = form.save()
        language.remember(user)  # the language the learner signed up in
        login(request, user, backend="config.auth.ModelBackend")
        if form.cohort is not None:
            cohorts.do_join(user, form.cohort)
            return redirect("home")  # the cohort's banks and assignments
        return redirect("practice")
    return render(request, "registration/signup.html", {"form": form})

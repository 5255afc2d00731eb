"""The page where a user makes and revokes their rulings API tokens (`/account/api-tokens/`): a
new token is shown once, on the answer to the POST that made it; every lookup goes through the
user's own tokens."""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from config.inputs import plain_name
from quizzes.models import ApiToken

MAX_ACTIVE_TOKENS = 20  # per user: enough for every tool, few enough to review


class TokenForm(forms.Form):
    name = forms.CharField(
        label=_("What is it for?"),
        max_length=100,
        help_text=_("A name you will recognise, such as “rules desk bot”."),
    )

    def clean_name(self) -> str:
        return plain_name(self.cleaned_data["name"], str(_("The name")))


@never_cache
@require_http_methods(["GET", "POST"])
@login_required
def api_tokens(request: HttpRequest) -> HttpResponse:
    tokens = ApiToken.objects.filter(owner_id=request.user.pk)
    form = TokenForm(request.POST if request.method == "POST" else None)
    new_token = ""
    status = 200
    if request.method == "POST":
        if tokens.filter(revoked_at__isnull=True).count() >= MAX_ACTIVE_TOKENS:
            form.add_error(None, _("Revoke a token first: you have the most a user may have."))
        if form.is_valid():
            _row, new_token = ApiToken.issue(request.user, form.cleaned_data["name"])
            form = TokenForm()
        else:
            status = 400
    context = {"tokens": tokens, "form": form, "new_token": new_token}
    return render(request, "api/tokens.html", context, status=status)


@require_http_methods(["POST"])
@login_required
def api_token_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    get_object_or_404(ApiToken.objects.filter(owner_id=request.user.pk), pk=pk).revoke()
    return redirect("api_tokens")

"""The interface language: Django's LocaleMiddleware picks it (cookie, then the browser's
Accept-Language); the switcher posts to `set_language` here, which also remembers a logged-in
learner's choice; at log-in the remembered choice becomes the language cookie again.

No query on an ordinary request: the preference is read once, at log-in, and travels as the
language cookie from then on.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from quizzes.models import LanguagePreference

_REMEMBERED = "_tutor_language"


def supported(code: str | None) -> str | None:
    """The code if it is one of settings.LANGUAGES, else None."""
    return code if code in dict(settings.LANGUAGES) else None


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's set_language (cookie and redirect back), remembered for a logged-in learner."""
    language = supported(request.POST.get("language"))
    if language is None:  # not one of Tutor's: Django would still set its cookie
        request.POST = request.POST.copy()
        request.POST.pop("language", None)
    response = django_set_language(request)
    if language and request.user.is_authenticated:
        remember(request.user, language)
    return response


def remember(user, language: str | None = None) -> None:
    """Keep `language` (default: the one in use) as the learner's, e.g. at sign-up."""
    language = supported(language or translation.get_language())
    if language:
        LanguagePreference.objects.update_or_create(user=user, defaults={"language": language})


@receiver(user_logged_in, dispatch_uid="tutor-language-at-login")
def _restore_at_login(sender, request: HttpRequest | None, user, **kwargs) -> None:
    """At log-in: the learner's remembered language, as the language cookie from now on."""
    if request is None:
        return
    preference = LanguagePreference.objects.filter(user=user).values_list("language", flat=True)
    language = supported(next(iter(preference), None))
    if language is None:
        return
    translation.activate(language)
    request.LANGUAGE_CODE = language
    setattr(request, _REMEMBERED, language)


class RememberedLanguageMiddleware:
    """Sets the language cookie on the response to a log-in that restored a remembered language."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        language = getattr(request, _REMEMBERED, None)
        if language:
            response.set_cookie(
                settings.LANGUAGE_COOKIE_NAME,
                language,
                max_age=settings.LANGUAGE_COOKIE_AGE,
                path=settings.LANGUAGE_COOKIE_PATH,
                domain=settings.LANGUAGE_COOKIE_DOMAIN,
                secure=settings.LANGUAGE_COOKIE_SECURE,
                httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
                samesite=settings.LANGUAGE_COOKIE_SAMESITE,
            )
        return response

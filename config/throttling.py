"""Throttles on the doors an attacker knocks on: log-in (the app's and the admin's), sign-up and
password reset, per account and per address, counted in the shared "throttle" cache so every
worker sees the same counts (Redis with REDIS_URL, else a database table).

- Failed log-ins per account: django-axes (`AXES_*` settings); a locked account is refused even
  with the right password until the wait has passed.
- Requests per address, and sign-ups and reset requests per account: django-ratelimit's counters
  (`THROTTLE_RATES`), checked by `throttled(scope)` on POST.
Both answer 429 with the page `registration/throttled.html`, which says how long to wait.
"""

from __future__ import annotations

import functools
import logging
import math

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import ngettext
from django_ratelimit.core import get_usage

# What each scope counts: (ratelimit key, the THROTTLE_RATES entry holding its rate).
KEYS = {
    "login": [("config.throttling.address_key", "login_per_address")],
    "signup": [
        ("config.throttling.address_key", "signup_per_address"),
        ("post:username", "signup_per_account"),
    ],
    "password_reset": [
        ("config.throttling.address_key", "password_reset_per_address"),
        ("post:email", "password_reset_per_account"),
    ],
}


def client_address(request: HttpRequest) -> str:
    """The client's address: REMOTE_ADDR, or the entry that the last of THROTTLE_TRUSTED_PROXIES
    proxies added to X-Forwarded-For (entries further left are the client's to forge)."""
    proxies = settings.THROTTLE_TRUSTED_PROXIES
    if proxies:
        header = request.META.get("HTTP_X_FORWARDED_FOR", "")
        forwarded = [part.strip() for part in header.split(",") if part.strip()]
        if len(forwarded) >= proxies:
            return forwarded[-proxies]
    return request.META.get("REMOTE_ADDR", "")


def address_key(group: str, request: HttpRequest) -> str:
    return client_address(request)


def wait_text(seconds: float) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    if minutes < 60:
        return ngettext("%(n)s minute", "%(n)s minutes", minutes) % {"n": minutes}
    hours = math.ceil(minutes / 60)
    return ngettext("%(n)s hour", "%(n)s hours", hours) % {"n": hours}


def throttled_response(request: HttpRequest, wait_seconds: float, reason: str) -> HttpResponse:
    logging.getLogger("tutor.throttle").warning("throttled: %s", reason, extra={"scope": reason})
    context = {"wait": wait_text(wait_seconds), "reason": reason}
    response = render(request, "registration/throttled.html", context, status=429)
    response["Retry-After"] = str(max(1, math.ceil(wait_seconds)))
    return response


def over_limit(request: HttpRequest, scope: str) -> float | None:
    """Count this POST in every counter of `scope`; the longest wait if any is over its rate."""
    waits = []
    for key, rate_name in KEYS[scope]:
        usage = get_usage(
            request,
            group=f"tutor.{scope}.{rate_name}",
            key=key,
            rate=settings.THROTTLE_RATES[rate_name],
            method="POST",
            increment=True,
        )
        if usage and usage["should_limit"]:
            waits.append(max(usage["time_left"], 1))
    return max(waits) if waits else None


def throttled(scope: str):
    """A view decorator: POSTs over any of the scope's rates get the 429 page instead."""

    def decorator(view):
        @functools.wraps(view)
        def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            wait = over_limit(request, scope) if request.method == "POST" else None
            if wait is not None:
                return throttled_response(request, wait, scope)
            return view(request, *args, **kwargs)

        return wrapper

    return decorator


def lockout_response(request: HttpRequest, original_response=None, credentials=None):
    """django-axes' answer to a locked account (AXES_LOCKOUT_CALLABLE): the same 429 page. Each
    attempt during the lock restarts the wait, so the whole cool-off is the honest wait."""
    return throttled_response(request, settings.AXES_COOLOFF_TIME.total_seconds(), "account")

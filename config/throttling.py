"""Throttles on the doors an attacker knocks on: log-in (the app's and the admin's), sign-up and
password reset, per account and per address, counted in the shared "throttle" cache so every
worker sees the same counts (Redis with REDIS_URL, else a database table).

They stop attackers, not classes: a cohort logs in from behind one school address (NAT).
- Failed log-ins per account *and* address together: django-axes (`AXES_*` settings). Wrong
  passwords from one place lock that place out of that account, never the account's owner
  logging in from elsewhere.
- Failed log-ins per address: only failures count (a log-in answered with anything but a
  redirect), so any number of right passwords from one address get in; the rate bounds how many
  passwords one address may try across accounts.
- Sign-ups per address (sized for a cohort signing up at once) and per username, and reset
  requests per address and per e-mail address: every POST counts. A door may count some POSTs
  apart (`throttled(scope, apart=...)`): sign-ups that carry a cohort's join code are counted
  per address *for that cohort*, so a class signing up by its code is never refused because
  others at its address used up the address's count (a wrong code counts as the address's).
Both answer 429 with the page `registration/throttled.html`, which says how long to wait. With
Redis away the counts are not kept (config/cache.py): the throttles let everyone through.
"""

from __future__ import annotations

import functools
import logging
import math
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import ngettext
from django_ratelimit.core import get_usage

# What each scope counts: (ratelimit key, the THROTTLE_RATES entry holding its rate, which POSTs
# count: EVERY one, or only the FAILED ones).
EVERY, FAILED = "every", "failed"
ADDRESS = "address"  # the client's address, with the group a POST is counted apart in if any
KEYS = {
    "login": [(ADDRESS, "login_failures_per_address", FAILED)],
    "signup": [
        (ADDRESS, "signup_per_address", EVERY),
        ("post:username", "signup_per_account", EVERY),
    ],
    "password_reset": [
        (ADDRESS, "password_reset_per_address", EVERY),
        ("post:email", "password_reset_per_account", EVERY),
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


def address_key(apart: str | None):
    """The ratelimit key of an address count: the client's address, or its count for `apart`."""

    def key(group: str, request: HttpRequest) -> str:
        address = client_address(request)
        return f"{address} {apart}" if apart else address

    return key


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


def _usage(
    request: HttpRequest, scope: str, key: str, rate_name: str, increment: bool, apart: str | None
):
    return get_usage(
        request,
        group=f"tutor.{scope}.{rate_name}",
        key=address_key(apart) if key == ADDRESS else key,
        rate=settings.THROTTLE_RATES[rate_name],
        method="POST",
        increment=increment,
    )


def over_limit(request: HttpRequest, scope: str, apart: str | None = None) -> float | None:
    """Count this POST in every counter of `scope` that counts every POST; the longest wait if
    any counter is over its rate (one that counts failures: already full). `apart`: the group
    whose own count at this address the POST goes to instead of the address's."""
    waits = []
    for key, rate_name, counted in KEYS[scope]:
        usage = _usage(request, scope, key, rate_name, counted == EVERY, apart)
        if not usage:
            continue
        # a peek (no increment) reads the count so far: this POST would be one more
        full = usage["count"] >= usage["limit"] if counted == FAILED else usage["should_limit"]
        if full:
            waits.append(max(usage["time_left"], 1))
    return max(waits) if waits else None


def count_failure(request: HttpRequest, scope: str, apart: str | None = None) -> None:
    """Count a POST the view refused in the counters of `scope` that count failures."""
    for key, rate_name, counted in KEYS[scope]:
        if counted == FAILED:
            _usage(request, scope, key, rate_name, True, apart)


def throttled(scope: str, apart: Callable[[HttpRequest], str | None] | None = None):
    """A view decorator: POSTs over any of the scope's rates get the 429 page instead. A POST
    the view answers with anything but a redirect (a form shown again) is a failure. `apart`
    names the group a POST belongs to (or None), whose count at an address is its own."""

    def decorator(view):
        @functools.wraps(view)
        def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            if request.method != "POST":
                return view(request, *args, **kwargs)
            group = apart(request) if apart is not None else None
            wait = over_limit(request, scope, group)
            if wait is not None:
                return throttled_response(request, wait, scope)
            response = view(request, *args, **kwargs)
            if not 300 <= response.status_code < 400:
                count_failure(request, scope, group)
            return response

        return wrapper

    return decorator


def lockout_response(request: HttpRequest, original_response=None, credentials=None):
    """django-axes' answer to a locked account (AXES_LOCKOUT_CALLABLE): the same 429 page. Each
    attempt during the lock restarts the wait, so the whole cool-off is the honest wait."""
    return throttled_response(request, settings.AXES_COOLOFF_TIME.total_seconds(), "account")

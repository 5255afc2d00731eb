"""The API's throttles, counted with django-ratelimit in the shared "throttle" cache as the
site's other throttles (config/throttling.py): every request of a token's owner, and per address
every request whose token is missing or wrong. Rates: THROTTLE_RATES `api_per_user` and
`api_failures_per_address`. With the cache away the counts are not kept: requests go through."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django_ratelimit import ALL  # type: ignore[import-untyped]
from django_ratelimit.core import get_usage  # type: ignore[import-untyped]
from ninja.throttling import BaseThrottle

from config.throttling import client_address


def _usage(request: HttpRequest, rate_name: str, key, increment: bool):
    return get_usage(
        request,
        group=f"tutor.api.{rate_name}",
        key=key,
        rate=settings.THROTTLE_RATES[rate_name],
        method=ALL,
        increment=increment,
    )


def _owner_key(group: str, request: HttpRequest) -> str:
    return str(request.auth.pk)  # type: ignore[attr-defined]


def _address_key(group: str, request: HttpRequest) -> str:
    return client_address(request)


def failures_wait(request: HttpRequest) -> float | None:
    """The wait before this address may try a token again, if its failures are over the rate."""
    usage = _usage(request, "api_failures_per_address", _address_key, increment=False)
    if usage and usage["count"] >= usage["limit"]:
        return max(usage["time_left"], 1)
    return None


def count_failure(request: HttpRequest) -> None:
    _usage(request, "api_failures_per_address", _address_key, increment=True)


class PerOwner(BaseThrottle):
    """Every request of an authenticated token's owner counts (ninja runs it after the auth)."""

    def allow_request(self, request: HttpRequest) -> bool:
        usage = _usage(request, "api_per_user", _owner_key, increment=True)
        if usage and usage["should_limit"]:
            request._api_wait = max(usage["time_left"], 1)  # type: ignore[attr-defined]
            self._wait = request._api_wait  # type: ignore[attr-defined]
            return False
        return True

    def wait(self) -> float | None:
        return getattr(self, "_wait", None)

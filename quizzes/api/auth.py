"""`Authorization: Bearer <token>`: the owner of an active `ApiToken` (docs/api.md). A missing,
unknown or revoked token is a 401, and counts against its address: past the rate, the address is
answered 429 before any token is looked up. A session cookie is not a credential here."""

from __future__ import annotations

from django.http import HttpRequest
from ninja.errors import Throttled
from ninja.security import HttpBearer

from quizzes.api import throttling
from quizzes.models import ApiToken


class TokenAuth(HttpBearer):
    def __call__(self, request: HttpRequest):
        wait = throttling.failures_wait(request)
        if wait is not None:
            raise Throttled(wait=int(wait))
        user = super().__call__(request)
        if user is None:
            throttling.count_failure(request)
        return user

    def authenticate(self, request: HttpRequest, token: str):
        return ApiToken.owner_of(token.strip())

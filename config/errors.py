"""The answer to an exception no view handled (`handler500`): a database that cannot be reached
(refused, or no pooled connection within its timeout: config/settings.py) is 503 with
Retry-After, as /healthz says, so proxies and clients retry; anything else Django's 500."""

from __future__ import annotations

import sys

from django.db import OperationalError
from django.http import HttpRequest, HttpResponse
from django.views import defaults

RETRY_AFTER = 5  # seconds


def server_error(request: HttpRequest) -> HttpResponse:
    response = defaults.server_error(request)  # the same page: "please try again in a moment"
    if isinstance(sys.exc_info()[1], OperationalError):
        response.status_code = 503
        response["Retry-After"] = str(RETRY_AFTER)
    return response

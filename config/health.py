"""`/healthz` for load balancers: the database and the cache each answer within a short timeout.

Each check runs in a worker thread so a database or cache that hangs (a dropped connection, a
full pool) costs the probe at most HEALTHZ_TIMEOUT seconds, never the worker's timeout.

Without the database nothing works: 503. Without Redis the site still serves, slower (sessions
from the database, nothing cached: config/cache.py): 200, "degraded", naming what failed, so a
load balancer keeps the app servers that all share the one Redis.
"""

from __future__ import annotations

import secrets
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout

from django.conf import settings
from django.core.cache import caches
from django.db import DEFAULT_DB_ALIAS, connections
from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

# A few threads shared by all probes: a hung check keeps one busy, later probes then time out.
_checks = ThreadPoolExecutor(max_workers=4, thread_name_prefix="healthz")


def database_connection():
    return connections[DEFAULT_DB_ALIAS]


def check_database() -> None:
    connection = database_connection()
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    finally:
        connection.close()  # this thread's connection: back to the pool, or closed


def check_cache() -> None:
    cache = getattr(caches["default"], "strict", caches["default"])  # its errors, not forgiven
    token = secrets.token_hex(8)
    key = f"healthz:{token}"  # one key per probe: probes from several workers never collide
    cache.set(key, token, timeout=30)
    try:
        if cache.get(key) != token:
            raise RuntimeError("read back a different value")
    finally:
        cache.delete(key)


CHECKS = {"database": check_database, "cache": check_cache}
REQUIRED = {"database"}  # the checks without which the site cannot serve


def run_checks(timeout: float) -> dict[str, str]:
    """{name: "ok" or what went wrong}; both checks run at once."""
    running = {name: _checks.submit(check) for name, check in CHECKS.items()}
    results = {}
    for name, future in running.items():
        try:
            future.result(timeout=timeout)
            results[name] = "ok"
        except FutureTimeout:
            results[name] = f"no answer within {timeout:g} s"
        except Exception as error:  # noqa: BLE001 (any failure is the answer)
            results[name] = f"failed ({type(error).__name__})"
    return results


@never_cache
@require_safe  # GET, and HEAD for load balancers that probe with it
def healthz(request: HttpRequest) -> HttpResponse:
    results = run_checks(settings.HEALTHZ_TIMEOUT)
    failed = {name for name, result in results.items() if result != "ok"}
    body = "".join(f"{name}: {result}\n" for name, result in results.items())
    if failed & REQUIRED:
        heading, status = "unavailable\n", 503
    else:
        heading, status = ("degraded\n" if failed else "ok\n"), 200
    return HttpResponse(heading + body, status=status, content_type="text/plain")

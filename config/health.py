"""`/healthz` for load balancers: the database and the cache each answer within a short timeout.

Each check runs in a worker thread so a database or cache that hangs (a dropped connection, a
full pool) costs the probe at most HEALTHZ_TIMEOUT seconds, never the worker's timeout.

Without the database nothing works: 503. Without Redis the site still serves, slower (sessions
from the database, nothing cached: config/cache.py): 200, "degraded", naming what failed, so a
load balancer keeps the app servers that all share the one Redis.

The same answer on a port of its own (`serve_probes`, started by gunicorn.conf.py when
TUTOR_HEALTHZ_BIND is set): each worker answers it from a thread of its own, outside the
request queue, so a probe never waits behind requests that hold every worker thread (slow
clients, a slow database). `/healthz` on the app's port stays, and waits its turn like a page.
"""

from __future__ import annotations

import secrets
import socket
import threading
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

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


def report(timeout: float) -> tuple[int, str]:
    """(status, body): 200 "ok" or "degraded", or 503 "unavailable", then each check's result."""
    results = run_checks(timeout)
    failed = {name for name, result in results.items() if result != "ok"}
    body = "".join(f"{name}: {result}\n" for name, result in results.items())
    if failed & REQUIRED:
        heading, status = "unavailable\n", 503
    else:
        heading, status = ("degraded\n" if failed else "ok\n"), 200
    return status, heading + body


@never_cache
@require_safe  # GET, and HEAD for load balancers that probe with it
def healthz(request: HttpRequest) -> HttpResponse:
    status, body = report(settings.HEALTHZ_TIMEOUT)
    return HttpResponse(body, status=status, content_type="text/plain")


PROBE_READ_TIMEOUT = 2.0  # seconds a probe's connection may take to send its request


class ProbeHandler(BaseHTTPRequestHandler):
    """GET and HEAD /healthz on the probe port: `report`'s answer; any other path a 404."""

    timeout = PROBE_READ_TIMEOUT
    server_version = "tutor"  # no server software named, as on the app's port
    sys_version = ""

    def do_GET(self) -> None:
        self._answer(with_body=True)

    def do_HEAD(self) -> None:
        self._answer(with_body=False)

    def _answer(self, with_body: bool) -> None:
        if self.path.split("?", 1)[0] != "/healthz":
            status, body = 404, "not found: the probe port answers /healthz only\n"
        else:
            status, body = report(settings.HEALTHZ_TIMEOUT)
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if with_body:
            self.wfile.write(data)

    def log_message(self, format: str, *args) -> None:
        pass  # a probe every few seconds is not worth a log line


def serve_probes(listener: socket.socket) -> threading.Thread:
    """Answer /healthz on `listener` (a listening socket several processes may share) from a
    thread of its own, each probe in a thread of its own too. Returns the serving thread."""
    listener.setblocking(False)  # another process may take a connection first: no hang in accept
    server = ThreadingHTTPServer(listener.getsockname()[:2], ProbeHandler, bind_and_activate=False)
    server.socket.close()
    server.socket = listener
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name="healthz-probes", daemon=True)
    thread.start()
    return thread

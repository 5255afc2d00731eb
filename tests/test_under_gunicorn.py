"""The app under gunicorn with gunicorn.conf.py (the documented production setup,
docs/deployment.md): slow clients and a refusing database cannot hold it.

- Eight connections that declare a 1 MB body and send 10 bytes, held open: `/` and `/healthz`
  still answer within a second; a body that stops arriving ends in 408. With sync workers
  (gunicorn's default) four such connections held all of the documented four workers, and
  `GET /` waited for gunicorn's 30 s timeout: the probes below would time out.
- The probe port (TUTOR_HEALTHZ_BIND): `/healthz` answers within a second even while slow
  bodies hold every worker thread, for each worker answers it from a thread of its own.
- A database that refuses connections: pages answer 503 with Retry-After well before the
  worker timeout (they took the whole 30 s, then 500), /healthz 503 within its timeout."""

from __future__ import annotations

import http.client
import os
import re
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.db import connection

pytestmark = pytest.mark.django_db(transaction=True)

REPO = Path(__file__).resolve().parents[1]
# seconds a probe may wait for its answer: a pinned request waits 30 (gunicorn's timeout); a
# loaded test machine may take a few to render a page
PROBE_TIMEOUT = 10.0
SLOW_HEAD = (
    b"POST /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1048576\r\n\r\n"
    b"username=a"
)


def database_url() -> str:
    """The test database, for a server in another process."""
    settings = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{settings['NAME']}"
    user, host, port = settings["USER"], settings["HOST"] or "127.0.0.1", settings["PORT"] or 5432
    return f"postgres://{user}@{host}:{port}/{settings['NAME']}"


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # nothing listens there once the socket is closed


STATIC_ROOT = tempfile.mkdtemp(prefix="tutor-static-")  # this test process's, once


@contextmanager
def gunicorn(body_timeout: int = 10, database: str = "", probe_port: int = 0) -> Iterator[int]:
    """`gunicorn config.wsgi -c gunicorn.conf.py` with two workers, production settings, and
    the health probes' own port at `probe_port` if given."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DATABASE_URL": database or database_url(),
        "TUTOR_BODY_TIMEOUT": str(body_timeout),
        "TUTOR_HEALTHZ_BIND": f"127.0.0.1:{probe_port}" if probe_port else "",
        # collected apart: another test worker's live server reads the checkout's staticfiles
        "TUTOR_STATIC_ROOT": STATIC_ROOT,
    }
    # production serves the hashed static files collectstatic writes (whitenoise's manifest)
    collect = [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"]
    subprocess.run(collect, cwd=REPO, env=env, check=True)
    command = [sys.executable, "-m", "gunicorn", "config.wsgi", "-c", "gunicorn.conf.py"]
    command += ["--bind", "127.0.0.1:0", "--workers", "2"]
    server = subprocess.Popen(command, cwd=REPO, env=env, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        for line in server.stderr:
            if found := re.search(r"Listening at: http://127\.0\.0\.1:(\d+)", line):
                break
            assert time.monotonic() < deadline, "gunicorn did not start"
        else:
            pytest.fail("gunicorn stopped before listening")
        port = int(found.group(1))
        # the workers booted and warm (a cold one imports Django, compiles the templates)
        for path in ("/healthz", "/") * 3 if not database else ["/healthz"]:
            get(port, path, timeout=60)
        yield port
    finally:
        server.terminate()
        server.wait(timeout=30)


def get(port: int, path: str, timeout: float = PROBE_TIMEOUT) -> int:
    return fetch(port, path, timeout)[0]


def fetch(port: int, path: str, timeout: float = PROBE_TIMEOUT):
    """(status, headers, body) of `GET path`; raises TimeoutError past `timeout` seconds."""
    answer = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        answer.request("GET", path)
        response = answer.getresponse()
        return response.status, dict(response.getheaders()), response.read().decode()
    finally:
        answer.close()


def slow_bodies(port: int, count: int) -> list[socket.socket]:
    sockets = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        sock.sendall(SLOW_HEAD)
        sockets.append(sock)
    time.sleep(0.5)  # each taken up by the server
    return sockets


def timed_get(port: int, path: str, timeout: float) -> float:
    """Seconds `GET path` took to answer 200 (TimeoutError past `timeout`)."""
    started = time.perf_counter()
    assert get(port, path, timeout=timeout) == 200
    return time.perf_counter() - started


def test_eight_slow_bodies_do_not_hold_the_pages_or_healthz():
    probe_port = closed_port()
    with gunicorn(probe_port=probe_port) as port:
        held = slow_bodies(port, 8)
        try:
            for _ in range(3):
                waits = [timed_get(port, "/", 1.0), timed_get(port, "/healthz", 1.0)]
                waits.append(timed_get(probe_port, "/healthz", 1.0))
                assert max(waits) < 1.0, waits
        finally:
            for sock in held:
                sock.close()


def test_the_probe_port_answers_while_slow_bodies_hold_every_worker_thread():
    probe_port = closed_port()
    with gunicorn(probe_port=probe_port) as port:
        held = slow_bodies(port, 2 * 8 + 4)  # two workers of eight threads, and some waiting
        try:
            for _ in range(3):
                assert timed_get(probe_port, "/healthz", 1.0) < 1.0
        finally:
            for sock in held:
                sock.close()


def test_the_probe_port_answers_only_healthz():
    probe_port = closed_port()
    with gunicorn(probe_port=probe_port) as port:
        status, headers, body = fetch(probe_port, "/healthz")
        assert status == 200 and body.startswith("ok\n") and "gunicorn" not in str(headers)
        assert fetch(probe_port, "/")[0] == 404
        assert get(port, "/healthz") == 200  # the app's port keeps it


def test_a_body_that_stops_arriving_ends_in_408():
    with gunicorn(body_timeout=1) as port:
        (sock,) = slow_bodies(port, 1)
        with sock:
            sock.settimeout(PROBE_TIMEOUT)
            answer = sock.recv(200).decode("latin-1")
        assert answer.startswith("HTTP/1.1 408 "), answer


def test_a_database_that_refuses_is_a_503_well_before_the_worker_timeout():
    with gunicorn(database=f"postgres://postgres@127.0.0.1:{closed_port()}/tutor") as port:
        status, headers, _ = fetch(port, "/rules/", timeout=15)  # gunicorn's timeout: 30 s
        assert status == 503
        assert int(headers["Retry-After"]) > 0
        status, _, body = fetch(port, "/healthz")
        assert status == 503 and body.startswith("unavailable\ndatabase: ")

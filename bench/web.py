"""Request benchmark: the app under gunicorn on loopback, against a hello-world view behind the
same middleware, measured in the same run.

    .venv/bin/python -m bench.web [--seconds 4] [--answers 40] [--concurrency 6] [--workers 2]
                                  [--database sqlite|postgresql|both] [--json]

For each database (SQLite in a temporary file; PostgreSQL at 127.0.0.1:5432 when one answers, in a
database of its own that is dropped afterwards) it migrates, loads the content, creates one
learner per client with a session, serves `bench.web_settings` (production settings, no HTTPS
redirect, plus `/bench/hello/`) with gunicorn, and measures, one phase after the other:

  hello      GET /bench/hello/           a view that returns "ok": the yardstick
  answer     POST /practice/answer/      each one a new answer to a question served before the
                                         phase (the form is read off the page as a browser would)
  practice   GET /practice/              choose, draw and store the next question
  progress   GET /progress/
  rule       GET /rules/701.23b/

`ratio` is a phase's requests per second over the hello-world's. Loopback only; every loop is
bounded in count and time, and the server is stopped at the end.
"""

from __future__ import annotations

import argparse
import html
import http.client
import json
import os
import re
import secrets
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from bench.databases import HOST, postgres_answers, scratch_database

REPO = Path(__file__).resolve().parents[1]
PG_BENCH_DB = "tutor_bench_web"
RADIO = re.compile(r'<input type="radio" name="([^"]+)" value="([^"]*)"')
NUMBER = re.compile(r'<input type="number" name="([^"]+)"')
SELECT = re.compile(r'<select name="([^"]+)"')
HIDDEN = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)"')


@dataclass
class Phase:
    name: str
    count: int
    seconds: float
    latencies: list[float]
    errors: int

    @property
    def rps(self) -> float:
        return self.count / self.seconds if self.seconds else 0.0

    def percentile(self, share: float) -> float:
        if not self.latencies:
            return 0.0
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000


class Client:
    """One learner's keep-alive connection with its cookies."""

    def __init__(self, port: int, session_key: str) -> None:
        self.connection = http.client.HTTPConnection(HOST, port, timeout=30)
        self.cookies = {"sessionid": session_key}

    def request(self, method: str, path: str, body: dict[str, Any] | None = None):
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        data = None
        if body is not None:
            data = urlencode(body, doseq=True)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
            headers["HX-Request"] = "true"
        self.connection.request(method, path, body=data, headers=headers)
        response = self.connection.getresponse()
        text = response.read().decode("utf-8", "replace")
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
        return response.status, text


def answer_form(page: str) -> dict[str, Any] | None:
    """A complete answer read off a question page: the first choice of every group, 0 for
    numbers, each player a different place in an order (only the answer form's fields: the
    page's practice filter is a form of its own)."""
    start = page.find('id="answer-form"')
    if start != -1:
        page = page[start : page.find("</form>", start)]
    hidden = {name: html.unescape(value) for name, value in HIDDEN.findall(page)}
    if "token" not in hidden:
        return None
    form: dict[str, Any] = dict(hidden)
    for name, value in RADIO.findall(page):
        form.setdefault(name, html.unescape(value))
    for name in NUMBER.findall(page):
        form[name] = "0"
    for place, name in enumerate(SELECT.findall(page), start=1):
        form[name] = str(place)
    return form


def run_phase(
    name: str, clients: list[Client], work: Callable[[Client, int], bool], until: float, cap: int
) -> Phase:
    latencies: list[float] = []
    errors = [0]
    lock = threading.Lock()

    def loop(client: Client, index: int) -> None:
        done = 0
        while done < cap and time.perf_counter() < until:
            started = time.perf_counter()
            ok = work(client, done)
            elapsed = time.perf_counter() - started
            with lock:
                latencies.append(elapsed)
                errors[0] += not ok
            done += 1

    threads = [threading.Thread(target=loop, args=(c, i)) for i, c in enumerate(clients)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return Phase(name, len(latencies), time.perf_counter() - started, latencies, errors[0])


def wait_for(port: int, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((HOST, port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("gunicorn did not start")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def setup_learners(count: int) -> None:
    """(Run inside the benchmark's Django.) Learners with sessions; prints their session keys."""
    import django

    django.setup()
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.auth.models import User
    from django.contrib.sessions.backends.db import SessionStore

    keys = []
    for index in range(count):
        user, _ = User.objects.get_or_create(username=f"bench-learner-{index}")
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        keys.append(session.session_key)
    print(json.dumps(keys))


def manage(env: dict[str, str], *args: str) -> str:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=REPO,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def bench_database(database: str, args) -> list[Phase]:
    with scratch_database(database, PG_BENCH_DB) as (url, tmp):
        return _serve_and_measure(url, tmp, args)


def _serve_and_measure(url: str, tmp: str, args) -> list[Phase]:
    env = {
        **{k: v for k, v in os.environ.items() if k != "REDIS_URL"},
        "DJANGO_SETTINGS_MODULE": "bench.web_settings",
        "DATABASE_URL": url,
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
        "DJANGO_ALLOWED_HOSTS": HOST,
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_DEBUG": "0",
        "TUTOR_BENCH_STATIC_ROOT": f"{tmp}/static",
    }
    manage(env, "migrate", "--noinput")
    manage(env, "createcachetable")
    manage(env, "collectstatic", "--noinput")
    manage(env, "load_content")
    keys = json.loads(
        subprocess.run(
            [sys.executable, "-m", "bench.web", "--setup-learners", str(args.concurrency)],
            cwd=REPO,
            env=env,
            check=True,
            capture_output=True,
            text=True,
        )
        .stdout.strip()
        .splitlines()[-1]
    )
    port = free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi",
            "--bind",
            f"{HOST}:{port}",
            "--workers",
            str(args.workers),
            "--access-logfile",
            "/dev/null",
            "--error-logfile",
            f"{tmp}/gunicorn.log",
        ],  # fmt: skip
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=open(f"{tmp}/server.log", "w"),  # noqa: SIM115 (closed with the process)
    )
    try:
        wait_for(port)
        return measure(port, keys, args)
    finally:
        server.terminate()
        server.wait(timeout=30)


def measure(port: int, keys: list[str], args) -> list[Phase]:
    clients = [Client(port, key) for key in keys]

    def get(path: str) -> Callable[[Client, int], bool]:
        return lambda client, _: client.request("GET", path)[0] == 200

    for client in clients:  # warm up every worker and collect the CSRF cookie
        for _ in range(3):
            client.request("GET", "/practice/")
    # The questions each learner will answer, served before the timed phase.
    forms: list[list[dict[str, Any]]] = []
    for client in clients:
        mine = []
        for _ in range(args.answers):
            status, page = client.request("GET", "/practice/")
            form = answer_form(page) if status == 200 else None
            if form is not None:
                mine.append(form)
        forms.append(mine)
    by_client = {id(client): forms[index] for index, client in enumerate(clients)}

    def answer(client: Client, done: int) -> bool:
        mine = by_client[id(client)]
        if done >= len(mine):
            return False
        status, text = client.request("POST", "/practice/answer/", mine[done])
        return status == 200 and 'id="feedback-title"' in text  # graded, not a form error

    phases = []
    seconds = args.seconds
    phases.append(run_phase("hello", clients, get("/bench/hello/"), _until(seconds), 10**6))
    phases.append(run_phase("answer", clients, answer, _until(seconds * 4), args.answers))
    phases.append(run_phase("practice", clients, get("/practice/"), _until(seconds), 10**6))
    phases.append(run_phase("progress", clients, get("/progress/"), _until(seconds), 10**6))
    phases.append(run_phase("rule", clients, get("/rules/701.23b/"), _until(seconds), 10**6))
    return phases


def _until(seconds: float) -> float:
    return time.perf_counter() + seconds


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--answers", type=int, default=40, help="answers per client")
    parser.add_argument("--concurrency", type=int, default=6)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--database", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--setup-learners", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.setup_learners is not None:
        setup_learners(args.setup_learners)
        return
    databases = ["sqlite"] if args.database == "sqlite" else ["sqlite", "postgresql"]
    if args.database == "postgresql":
        databases = ["postgresql"]
    for database in databases:
        if database == "postgresql" and not postgres_answers():
            print("PostgreSQL does not answer on 127.0.0.1:5432: skipped", file=sys.stderr)
            continue
        phases = bench_database(database, args)
        hello = phases[0].rps or 1.0
        for phase in phases:
            row = {
                "name": phase.name,
                "database": database,
                "rps": round(phase.rps, 1),
                "p50_ms": round(phase.percentile(0.5), 2),
                "p99_ms": round(phase.percentile(0.99), 2),
                "ratio": round(phase.rps / hello, 3),
                "requests": phase.count,
                "errors": phase.errors,
            }
            if args.json:
                print(json.dumps(row), flush=True)
            else:
                print(
                    f"{database:10} {phase.name:9} {row['rps']:8.1f} rps"
                    f"  p50 {row['p50_ms']:7.2f} ms  p99 {row['p99_ms']:7.2f} ms"
                    f"  ratio {row['ratio']:.3f}  ({phase.count} requests, {phase.errors} errors)",
                    flush=True,
                )


if __name__ == "__main__":
    main()

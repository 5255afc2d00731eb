"""Request benchmark: the app under gunicorn on loopback, against a hello-world view behind the
same middleware, measured in the same run.

    .venv/bin/python -m bench.web [--seconds 4] [--answers 40] [--concurrency 6] [--workers 2]
                                  [--database sqlite|postgresql|both] [--json]
                                  [--postgres-database tutor_bench_web]
                                  [--redis redis://127.0.0.1:6379/8]

For each database (SQLite in a temporary file; PostgreSQL at 127.0.0.1:5432 when one answers, in a
database of its own that is dropped afterwards) it migrates, loads the content, creates one
learner per client with a session, serves `bench.web_settings` (production settings, no HTTPS
redirect, plus `/bench/hello/`) with gunicorn, has each learner answer `--answers` questions
as a learner does (untimed: a page, its answer, the next page), and measures, one phase after
the other:

  hello      GET /bench/hello/           a view that returns "ok": the yardstick
  practice   GET /practice/              choose, draw and store the next question
  progress   GET /progress/
  rule       GET /rules/701.23b/
  answer     POST /practice/answer/      each one a new answer to a question served before the
                                         phase (the form is read off the page as a browser would)

With `--redis`, the PostgreSQL run has `REDIS_URL` set (sessions, caches and throttles in
Redis, as a site that outgrew one machine runs); the database number given is flushed first.

`ratio` is a phase's requests per second over the hello-world's. `cpu_ms` is the CPU the
gunicorn workers spent per request in the phase (read from /proc: Linux only, else null), and
`cpu_ratio` the hello-world's cpu_ms over the phase's: on a machine shared with other work the
requests per second fall with the load, a request's CPU much less. Loopback only; every loop is
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
    server_cpu: float | None = None  # seconds of CPU the gunicorn workers spent in the phase

    @property
    def cpu_ms(self) -> float | None:
        """The workers' CPU per request: what a request costs the server, whatever else the
        machine runs (requests per second fall with the load; this does much less)."""
        if self.server_cpu is None or not self.count:
            return None
        return self.server_cpu / self.count * 1000

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
        try:
            self.connection.request(method, path, body=data, headers=headers)
            response = self.connection.getresponse()
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            # the server closed the kept-alive connection while it sat idle longer than its
            # keepalive (a slow warm-up on a loaded machine): reconnect once, as a browser does
            self.connection.close()
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


def workers_cpu(master: int | None) -> float | None:
    """CPU seconds (user + system) used so far by the gunicorn master's workers, read from
    /proc (Linux); None elsewhere."""
    if master is None:
        return None
    try:
        children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
        total = 0
        for pid in children:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
        return total / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def run_phase(
    name: str,
    clients: list[Client],
    work: Callable[[Client, int], bool],
    until: float,
    cap: int,
    master: int | None = None,
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
    cpu_before = workers_cpu(master)
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seconds = time.perf_counter() - started
    cpu_after = workers_cpu(master)
    phase = Phase(name, len(latencies), seconds, latencies, errors[0])
    if cpu_before is not None and cpu_after is not None:
        phase.server_cpu = cpu_after - cpu_before
    return phase


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
        session[BACKEND_SESSION_KEY] = "config.auth.ModelBackend"
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
    redis = args.redis if database == "postgresql" else None
    with scratch_database(database, args.postgres_database) as (url, tmp):
        return _serve_and_measure(url, tmp, args, redis)


def _serve_and_measure(url: str, tmp: str, args, redis: str | None = None) -> list[Phase]:
    if redis:
        import redis as redis_client  # a dependency of the app: only for this flag

        redis_client.Redis.from_url(redis).flushdb()
    env = {
        **{k: v for k, v in os.environ.items() if k != "REDIS_URL"},
        **({"REDIS_URL": redis} if redis else {}),
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
        return measure(port, keys, args, server.pid)
    finally:
        server.terminate()
        server.wait(timeout=30)


def practise(client: Client, answers: int) -> int:
    """`client` answers up to `answers` questions as a learner does: a page, its answer, the
    next page. Returns how many it answered."""
    answered = 0
    for _ in range(answers):
        status, page = client.request("GET", "/practice/")
        form = answer_form(page) if status == 200 else None
        if form is None:
            break
        status, _text = client.request("POST", "/practice/answer/", form)
        answered += status == 200
    return answered


def measure(port: int, keys: list[str], args, master: int | None = None) -> list[Phase]:
    clients = [Client(port, key) for key in keys]

    def get(path: str) -> Callable[[Client, int], bool]:
        return lambda client, _: client.request("GET", path)[0] == 200

    for client in clients:  # warm up every worker and collect the CSRF cookie
        for _ in range(3):
            client.request("GET", "/practice/")
    # Each learner first answers as a learner does (a page, its answer, the next page),
    # untimed: the practice, progress and rule pages are then drawn for a learner with a real
    # history. (Serving the answer phase's forms first, as this did before, left each learner
    # one question answered forty times: a state no learner reaches.)
    for client in clients:
        practise(client, args.answers)

    def answer(client: Client, done: int) -> bool:
        mine = by_client[id(client)]
        if done >= len(mine):
            return False
        status, text = client.request("POST", "/practice/answer/", mine[done])
        return status == 200 and 'id="feedback-title"' in text  # graded, not a form error

    seconds = args.seconds
    timed = [
        ("hello", get("/bench/hello/"), seconds, 10**6),
        ("practice", get("/practice/"), seconds, 10**6),
        ("progress", get("/progress/"), seconds, 10**6),
        ("rule", get("/rules/701.23b/"), seconds, 10**6),
    ]
    phases = [
        run_phase(name, clients, work, _until(limit), cap, master)
        for name, work, limit, cap in timed
    ]
    # Last, the answers: the questions each learner will answer are served before the timed
    # phase (all from one state: the same question in new variants), so this phase comes after
    # the pages above have been drawn.
    by_client: dict[int, list[dict[str, Any]]] = {}
    for client in clients:
        mine = []
        for _ in range(args.answers):
            status, page = client.request("GET", "/practice/")
            form = answer_form(page) if status == 200 else None
            if form is not None:
                mine.append(form)
        by_client[id(client)] = mine
    phases.insert(
        1, run_phase("answer", clients, answer, _until(seconds * 4), args.answers, master)
    )
    return phases


def _database_name(name: str) -> str:
    if not re.fullmatch(r"[a-z_][a-z0-9_]{0,62}", name):
        raise argparse.ArgumentTypeError("a plain lower-case PostgreSQL name")
    return name


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
    parser.add_argument(
        "--postgres-database",
        default=PG_BENCH_DB,
        type=_database_name,
        help=f"the scratch PostgreSQL database, created and dropped (default {PG_BENCH_DB})",
    )
    parser.add_argument(
        "--redis", help="a Redis URL (a database of its own: it is flushed) for the PostgreSQL run"
    )
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
        with_redis = database == "postgresql" and args.redis
        hello = phases[0].rps or 1.0
        hello_cpu = phases[0].cpu_ms
        for phase in phases:
            row = {
                "name": phase.name,
                "database": f"{database} + redis" if with_redis else database,
                "rps": round(phase.rps, 1),
                "p50_ms": round(phase.percentile(0.5), 2),
                "p99_ms": round(phase.percentile(0.99), 2),
                "ratio": round(phase.rps / hello, 3),
                "cpu_ms": None if phase.cpu_ms is None else round(phase.cpu_ms, 2),
                "cpu_ratio": (
                    round(hello_cpu / phase.cpu_ms, 3) if phase.cpu_ms and hello_cpu else None
                ),
                "requests": phase.count,
                "errors": phase.errors,
            }
            if args.json:
                print(json.dumps(row), flush=True)
            else:
                print(
                    f"{database:10} {phase.name:9} {row['rps']:8.1f} rps"
                    f"  p50 {row['p50_ms']:7.2f} ms  p99 {row['p99_ms']:7.2f} ms"
                    f"  ratio {row['ratio']:.3f}  server cpu {row['cpu_ms'] or 0:6.2f} ms"
                    f" (ratio {row['cpu_ratio'] or 0:.3f})"
                    f"  ({phase.count} requests, {phase.errors} errors)",
                    flush=True,
                )


if __name__ == "__main__":
    main()

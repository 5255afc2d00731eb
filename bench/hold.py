"""Does the site hold when parts fail? The app under gunicorn as docs/deployment.md runs it
(`-c gunicorn.conf.py --workers 4`), SQLite in a temporary folder, production limits:

    .venv/bin/python -m bench.hold [--part redis|classroom|slow|database|all] [--json]

  redis      a throwaway redis-server of its own (port 6390 by default) as REDIS_URL: signed-in
             practice, rule pages and /healthz while Redis answers, once it is stopped, and
             while it is paused (SIGSTOP): status codes and latencies
  classroom  70 learners log in and 30 sign up from one address with right passwords: how many
             got in; then 100 sign-ups without a code use up the address's count, and 30
             more sign up with their cohort's join code; then 12 wrong passwords for one
             learner from one address, and the right one from another
  slow       8 connections that declare a 1 MB body and send 10 bytes, held open: how long
             `GET /` and `/healthz` take meanwhile, on the app's port and on the probe port
             (TUTOR_HEALTHZ_BIND); then 36, more than the 32 worker threads: the probe port
  database   DATABASE_URL at a closed PostgreSQL port: how long a page and /healthz take to fail

Loopback only; every wait is bounded, and the servers it started are stopped at the end.
"""

from __future__ import annotations

import argparse
import functools
import http.client
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlencode

from bench.databases import HOST, scratch_database
from bench.web import free_port, manage, wait_for


@functools.cache
def static_root() -> str:
    """This run's collectstatic folder (never the checkout's, which a test server may read)."""
    return tempfile.mkdtemp(prefix="tutor-static-")


REPO = Path(__file__).resolve().parents[1]
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
PASSWORD = "a-classroom-passphrase-7"
COHORT_CODE = "EXAMDAY2"
CLIENT_TIMEOUT = 40.0  # longer than gunicorn's 30 s: a pinned request shows its real wait


class Browser:
    """One visitor: a connection per request, the cookies kept."""

    def __init__(self, port: int, address: str = "") -> None:
        self.port = port
        self.cookies: dict[str, str] = {}
        self.address = address  # sent as X-Forwarded-For when the app trusts one proxy

    def request(self, method: str, path: str, form: dict | None = None):
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if self.address:
            headers["X-Forwarded-For"] = self.address
        body = None
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Referer"] = f"http://{HOST}:{self.port}{path}"
        connection = http.client.HTTPConnection(HOST, self.port, timeout=CLIENT_TIMEOUT)
        started = time.perf_counter()
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            text = response.read().decode("utf-8", "replace")
            status = response.status
            for header, value in response.getheaders():
                if header.lower() == "set-cookie":
                    name, _, rest = value.partition("=")
                    self.cookies[name.strip()] = rest.split(";", 1)[0]
        except OSError as error:
            status, text = type(error).__name__, ""
        finally:
            connection.close()
        return status, text, time.perf_counter() - started

    def post_form(self, path: str, fields: dict):
        status, page, _ = self.request("GET", path)
        token = CSRF.search(page)
        if status != 200 or token is None:
            return status, page, 0.0
        return self.request("POST", path, {"csrfmiddlewaretoken": token.group(1), **fields})


def summary(results: list[tuple]) -> dict:
    """Status counts and latencies (ms) of (status, text, seconds) results."""
    seconds = sorted(result[2] for result in results)
    if not seconds:
        return {"requests": 0}
    return {
        "requests": len(results),
        "statuses": dict(Counter(str(result[0]) for result in results)),
        "median_ms": round(seconds[len(seconds) // 2] * 1000, 1),
        "max_ms": round(seconds[-1] * 1000, 1),
    }


def environment(url: str, tmp: str, **extra: str) -> dict[str, str]:
    return {
        **{k: v for k, v in os.environ.items() if k != "REDIS_URL"},
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "TUTOR_STATIC_ROOT": static_root(),
        "DATABASE_URL": url,
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
        "DJANGO_ALLOWED_HOSTS": HOST,
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_DEBUG": "0",
        **extra,
    }


def prepare(env: dict[str, str], learners: int) -> None:
    manage(env, "migrate", "--noinput")
    manage(env, "createcachetable")
    manage(env, "collectstatic", "--noinput")
    manage(env, "load_content")
    script = (
        "from django.contrib.auth.models import User\n"
        "from quizzes.models import Cohort\n"
        f"for n in range({learners}):\n"
        f"    User.objects.create_user(f'student-{{n}}', password={PASSWORD!r})\n"
        "teacher = User.objects.create_user('teacher', password=None)\n"
        f"Cohort.objects.create(name='Exam day', instructor=teacher, join_code={COHORT_CODE!r})\n"
    )
    manage(env, "shell", "-c", script)


@contextmanager
def gunicorn(env: dict[str, str], tmp: str, workers: int = 4):
    """The app as docs/deployment.md serves it."""
    port = free_port()
    command = [sys.executable, "-m", "gunicorn", "config.wsgi", "-c", "gunicorn.conf.py"]
    command += ["--bind", f"{HOST}:{port}", "--workers", str(workers)]
    command += ["--access-logfile", "/dev/null", "--error-logfile", f"{tmp}/gunicorn.log"]
    log = open(f"{tmp}/server.log", "a")  # noqa: SIM115 (closed below)
    server = subprocess.Popen(command, cwd=REPO, env=env, stdout=log, stderr=log)
    try:
        wait_for(port)
        time.sleep(1)  # every worker booted
        yield port
    finally:
        server.terminate()
        server.wait(timeout=40)
        log.close()


@contextmanager
def redis_server(port: int):
    """A redis-server of this benchmark's own, no persistence; stopped at the end."""
    command = ["redis-server", "--port", str(port), "--save", "", "--appendonly", "no"]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(port)
        yield server
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGCONT)
            server.terminate()
            server.wait(timeout=10)


def log_in(port: int, username: str, password: str = PASSWORD, address: str = "") -> Browser:
    browser = Browser(port, address)
    fields = {"username": username, "password": password}
    status, _, _ = browser.post_form("/accounts/login/", fields)
    browser.logged_in = status == 302
    browser.status = status
    return browser


def signed_in_round(browsers: list[Browser], seconds: float) -> dict[str, dict]:
    """Signed-in practice and a rule page from every browser, and /healthz, for `seconds`."""
    results: dict[str, list] = {"practice": [], "rule": [], "healthz": []}
    until = time.monotonic() + seconds
    lock = threading.Lock()

    def loop(browser: Browser) -> None:
        while time.monotonic() < until:
            for name, path in (("practice", "/practice/"), ("rule", "/rules/701.23b/")):
                result = browser.request("GET", path)
                with lock:
                    results[name].append(result)

    def probe() -> None:
        while time.monotonic() < until:
            results["healthz"].append(Browser(browsers[0].port).request("GET", "/healthz"))
            time.sleep(0.5)

    threads = [threading.Thread(target=loop, args=(b,)) for b in browsers]
    threads.append(threading.Thread(target=probe))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {name: summary(found) for name, found in results.items()}


def part_redis(args) -> dict:
    with (
        scratch_database("sqlite", "tutor_bench_hold") as (url, tmp),
        redis_server(args.redis_port) as redis,
    ):
        env = environment(url, tmp, REDIS_URL=f"redis://{HOST}:{args.redis_port}/0")
        prepare(env, 4)
        with gunicorn(env, tmp) as port:
            browsers = [log_in(port, f"student-{n}") for n in range(4)]
            assert all(browser.logged_in for browser in browsers), "log-in failed"
            found = {"redis answers": signed_in_round(browsers, args.seconds)}
            redis.send_signal(signal.SIGSTOP)
            found["redis paused"] = signed_in_round(browsers, args.seconds)
            redis.send_signal(signal.SIGCONT)
            redis.terminate()
            redis.wait(timeout=10)
            found["redis stopped"] = signed_in_round(browsers, args.seconds)
            return found


def part_classroom(args) -> dict:
    with scratch_database("sqlite", "tutor_bench_hold") as (url, tmp):
        env = environment(url, tmp)
        prepare(env, 70)
        with gunicorn(env, tmp) as port:
            found = {}
            statuses = Counter(str(log_in(port, f"student-{n}").status) for n in range(70))
            found["70 log-ins, right passwords, one address"] = dict(statuses)
            statuses = Counter()
            for n in range(30):
                browser = Browser(port)
                fields = {"username": f"newcomer-{n}", "password1": PASSWORD, "password2": PASSWORD}
                statuses[str(browser.post_form("/accounts/signup/", fields)[0])] += 1
            found["30 sign-ups, one address"] = dict(statuses)
            statuses = Counter()
            for n in range(100):  # the address's count used up (an empty password: refused)
                fields = {"username": f"walk-in-{n}", "password1": "", "password2": ""}
                statuses[str(Browser(port).post_form("/accounts/signup/", fields)[0])] += 1
            found["100 more sign-ups without a code, one address"] = dict(statuses)
            statuses = Counter()
            for n in range(30):
                fields = {"username": f"member-{n}", "password1": PASSWORD, "password2": PASSWORD}
                fields["code"] = COHORT_CODE
                statuses[str(Browser(port).post_form("/accounts/signup/", fields)[0])] += 1
            found["then 30 sign-ups with the cohort's join code, one address"] = dict(statuses)
            return found


def part_lockout(args) -> dict:
    """Wrong passwords from one address, then the right one from another (one trusted proxy)."""
    with scratch_database("sqlite", "tutor_bench_hold") as (url, tmp):
        env = environment(url, tmp, DJANGO_TRUSTED_PROXIES="1")
        prepare(env, 1)
        with gunicorn(env, tmp) as port:
            wrong = Counter(
                str(log_in(port, "student-0", f"guess-{n}", "203.0.113.9").status)
                for n in range(12)
            )
            right = log_in(port, "student-0", PASSWORD, "198.51.100.4").status
            return {"12 wrong from one address": dict(wrong), "right from another": right}


def slow_body(port: int, sockets: list[socket.socket]) -> None:
    """A POST that declares 1 MB and sends 10 bytes, left open."""
    sock = socket.create_connection((HOST, port), timeout=5)
    head = (
        "POST /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1048576\r\n\r\n"
    )
    sock.sendall(head.encode() + b"username=a")
    sockets.append(sock)


def part_slow(args) -> dict:
    probe_port = free_port()
    with scratch_database("sqlite", "tutor_bench_hold") as (url, tmp):
        env = environment(url, tmp, TUTOR_HEALTHZ_BIND=f"{HOST}:{probe_port}")
        prepare(env, 0)
        with gunicorn(env, tmp) as port:

            def probes(rounds: int) -> dict:
                """The probe port first: the app's port may then wait for a thread."""
                found = {
                    "probe port /healthz": summary(
                        [Browser(probe_port).request("GET", "/healthz") for _ in range(rounds)]
                    )
                }
                for path in ("/healthz", "/"):
                    found[path] = summary(
                        [Browser(port).request("GET", path) for _ in range(rounds)]
                    )
                return found

            found = {"before": probes(1)}
            for held in (8, 36):  # 36: more than 4 workers x 8 threads
                sockets: list[socket.socket] = []
                try:
                    for _ in range(held):
                        slow_body(port, sockets)
                    time.sleep(0.5)
                    # with every thread held, the app's port waits for TUTOR_BODY_TIMEOUT
                    found[f"{held} slow bodies open"] = probes(3) if held == 8 else probes(1)
                finally:
                    for sock in sockets:
                        sock.close()
                time.sleep(11)  # the held threads end (408) before the next round
            return found


def part_database(args) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        closed = free_port()  # nothing listens there: connections are refused
        env = environment(f"postgres://postgres@{HOST}:{closed}/nothing", tmp)
        with gunicorn(env, tmp, workers=2) as port:
            return {
                path: summary([Browser(port).request("GET", path) for _ in range(2)])
                for path in ("/rules/701.23b/", "/healthz")
            }


PARTS = {
    "redis": part_redis,
    "classroom": part_classroom,
    "lockout": part_lockout,
    "slow": part_slow,
    "database": part_database,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=[*PARTS, "all"], default="all")
    parser.add_argument("--seconds", type=float, default=6)
    parser.add_argument("--redis-port", type=int, default=6390)
    args = parser.parse_args()
    parts = PARTS if args.part == "all" else {args.part: PARTS[args.part]}
    for name, part in parts.items():
        print(json.dumps({name: part(args)}, indent=1), flush=True)


if __name__ == "__main__":
    main()

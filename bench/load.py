"""Load test: many learners at once through gunicorn, as a browser would drive the app.

    .venv/bin/python -m bench.load                   # SQLite, then PostgreSQL when one answers
    .venv/bin/python -m bench.load --database sqlite --learners 10 --answers 5 --json

For each database it prepares a throwaway database (a temporary SQLite file; for PostgreSQL the
database named by --postgres-url, created when missing and flushed: never point it at real
data), loads the seed content, creates the learners, serves the app with gunicorn on loopback
under the production settings, then:

1. practice: every learner logs in, then `--answers` times opens /practice/, reads the answer
   form's fields generically (hidden fields as they are, one random choice per radio group or
   select, a random subset of check boxes) and posts it; `--double` of the posts are sent twice at
   the same moment (a double click) and `--replay` are sent again afterwards (a retry);
2. exams: every learner starts the same exam at the same moment (`--double` of them click twice),
   answers each question (again with double posts) and all finish at the same moment.

Then it reads the database and reports, per phase: requests, server errors (5xx), lost answers
(a post that got its feedback but no stored response), doubled answers (more responses than
distinct forms answered), counter drift (responses not counted in `Question.answer_count`),
extra sittings, answer pairs whose two replies differ, throughput and latency.

Bounded: learners, answers and sittings are counted, every request has a timeout, each phase
stops at --time-limit, gunicorn is stopped at the end; it only ever connects to 127.0.0.1.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import random
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from html.parser import HTMLParser
from http.client import HTTPConnection
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit


@functools.cache
def static_root() -> str:
    """This run's collectstatic folder (never the checkout's, which a test server may read)."""
    return tempfile.mkdtemp(prefix="tutor-static-")


REPO = Path(__file__).resolve().parents[1]
PYTHON = Path(sys.executable)
HOST = "127.0.0.1"  # loopback only
PASSWORD = "load-test-" + "x" * 12
DEFAULT_POSTGRES = "postgres://postgres@127.0.0.1:5432/tutor_load"


# A browser's view of a page: its forms and their fields -----------------------------------


@dataclass
class Form:
    action: str
    method: str
    fields: list[dict[str, Any]] = field(default_factory=list)  # tag, type, name, value, ...


class FormParser(HTMLParser):
    """Every form of a page with its inputs, selects (and their options) and textareas."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self._select: dict[str, Any] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {name: value or "" for name, value in attrs}
        if tag == "form":
            self.forms.append(
                Form(attributes.get("action", ""), attributes.get("method", "get").lower())
            )
        elif not self.forms:
            return
        elif tag in ("input", "textarea") and "name" in attributes:
            self.forms[-1].fields.append({"tag": tag, **attributes})
        elif tag == "select" and "name" in attributes:
            self._select = {"tag": "select", "options": [], **attributes}
            self.forms[-1].fields.append(self._select)
        elif tag == "option" and self._select is not None:
            self._select["options"].append(attributes.get("value", ""))

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None


def forms_of(html: str) -> list[Form]:
    parser = FormParser()
    parser.feed(html)
    return parser.forms


def answer_form(html: str, action: str | None = None) -> Form | None:
    """The page's answer form: the POST form with the most fields (not log-out, not a button)."""
    candidates = [
        form
        for form in forms_of(html)
        if form.method == "post"
        and "logout" not in form.action
        and (action is None or form.action in ("", action))
    ]
    return max(candidates, key=lambda form: len(form.fields), default=None)


def fill(form: Form, rng: random.Random) -> list[tuple[str, str]]:
    """Values a learner could send: hidden fields kept, a random choice for everything else."""
    data: list[tuple[str, str]] = []
    radios: dict[str, list[str]] = {}
    for item in form.fields:
        kind = item.get("type", "text").lower()
        name = item["name"]
        if item["tag"] == "select":
            options = [value for value in item["options"] if value != ""] or item["options"]
            if "multiple" in item:
                data += [(name, value) for value in options if rng.random() < 0.5]
            elif options:
                data.append((name, rng.choice(options)))
        elif kind == "radio":
            radios.setdefault(name, []).append(item.get("value", "on"))
        elif kind == "checkbox":
            if rng.random() < 0.5:
                data.append((name, item.get("value", "on")))
        elif kind in ("submit", "button", "reset", "image", "file"):
            continue
        elif kind == "hidden":
            data.append((name, item.get("value", "")))
        elif kind == "number":
            data.append((name, item.get("min") or "1"))
        else:
            data.append((name, item.get("value", "")))
    data += [(name, rng.choice(values)) for name, values in radios.items()]
    # An order is asked with one place per player (order_0, order_1, ...): a person gives each
    # player a different place, so the form is never refused for a repeated place.
    places = [
        item
        for item in form.fields
        if item["tag"] == "select" and item["name"].startswith("order_")
    ]
    if places:
        shuffled = [value for value in places[0]["options"] if value != ""]
        rng.shuffle(shuffled)
        chosen = dict(zip((item["name"] for item in places), shuffled, strict=False))
        data = [(name, chosen.get(name, value)) for name, value in data]
    return data


# A browser: cookies, CSRF, one connection per request (gunicorn's sync workers close them) ---


@dataclass
class Reply:
    status: int
    location: str
    body: str
    seconds: float


class Browser:
    """One learner's browser. Each learner comes from an address of their own, as a proxy in
    front of the app would report it (X-Forwarded-For, with DJANGO_TRUSTED_PROXIES=1), so the
    per-address log-in throttle counts each learner, as it would in a classroom of laptops."""

    def __init__(self, port: int, stats: Stats, address: str = HOST) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}
        self.stats = stats
        self.address = address

    def request(self, method: str, path: str, data: list[tuple[str, str]] | None = None) -> Reply:
        headers = {
            "Host": f"{HOST}:{self.port}",
            "User-Agent": "bench.load",
            "X-Forwarded-For": self.address,
        }
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if data is not None:
            body = urlencode(data).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Referer"] = f"http://{HOST}:{self.port}{path}"
        started = time.perf_counter()
        connection = HTTPConnection(HOST, self.port, timeout=60)
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            text = response.read().decode("utf-8", "replace")
            for name, value in response.getheaders():
                if name.lower() == "set-cookie":
                    pair = value.split(";", 1)[0]
                    key, _, cookie = pair.partition("=")
                    self.cookies[key.strip()] = cookie.strip()
            reply = Reply(response.status, response.getheader("Location", ""), text, 0.0)
        except OSError as error:
            reply = Reply(0, "", str(error), 0.0)
        finally:
            connection.close()
        reply.seconds = time.perf_counter() - started
        self.stats.note(method, reply)
        return reply

    def log_in(self, username: str) -> bool:
        page = self.request("GET", "/accounts/login/")
        form = answer_form(page.body)
        if form is None:
            return False
        kept = fill(form, random.Random(0))
        data = [(key, value) for key, value in kept if key not in ("username", "password")]
        data += [("username", username), ("password", PASSWORD)]
        return self.request("POST", "/accounts/login/", data).status == 302


def path_of(location: str) -> str:
    parts = urlsplit(location)
    return parts.path + (f"?{parts.query}" if parts.query else "")


# Counting ----------------------------------------------------------------------------------


@dataclass
class Stats:
    statuses: Counter = field(default_factory=Counter)
    answer_seconds: list[float] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    disagreeing_pairs: int = 0
    failed_log_ins: int = 0

    def note(self, method: str, reply: Reply) -> None:
        with self.lock:
            self.statuses[reply.status] += 1
            if method == "POST":
                self.answer_seconds.append(reply.seconds)

    @property
    def server_errors(self) -> int:
        return sum(n for status, n in self.statuses.items() if status >= 500 or status == 0)


def at_once(count: int, job, timeout: float) -> None:
    """`job(index, barrier)` in `count` threads; each may wait on the barrier to act together.
    A thread that fails breaks the barrier (after `timeout` at most), so none waits forever."""
    barrier = threading.Barrier(count, timeout=timeout)

    def guarded(index: int) -> None:
        try:
            job(index, barrier)
        except threading.BrokenBarrierError:
            pass
        except Exception:
            barrier.abort()
            raise

    threads = [threading.Thread(target=guarded, args=(index,)) for index in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def post_twice(browser: Browser, path: str, data, stats: Stats) -> list[Reply]:
    """The same form sent twice at the same moment, from two connections (a double click)."""
    replies: list[Reply] = []
    gate = threading.Barrier(2)

    def send() -> None:
        gate.wait()
        replies.append(browser.request("POST", path, data))

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if len({(reply.status, reply.location) for reply in replies}) > 1:
        with stats.lock:
            stats.disagreeing_pairs += 1
    return replies


# The two phases ----------------------------------------------------------------------------


def learner_address(index: int) -> str:
    """A loopback address per learner, only ever written in a header (never connected to)."""
    return f"127.0.{1 + index // 250}.{1 + index % 250}"


def logged_in_browsers(
    port: int, stats: Stats, usernames: list[str], time_limit: float
) -> dict[str, Browser]:
    """A browser per learner, all logged in at once (failures counted); the log-ins' own
    requests are not part of the phase's figures."""
    browsers = {
        name: Browser(port, stats, learner_address(index)) for index, name in enumerate(usernames)
    }

    def log_in(index: int, barrier) -> None:
        if not browsers[usernames[index]].log_in(usernames[index]):
            with stats.lock:
                stats.failed_log_ins += 1

    at_once(len(usernames), log_in, time_limit)
    stats.statuses.clear()
    stats.answer_seconds.clear()
    return browsers


def practice_phase(port: int, args, usernames: list[str]) -> tuple[Stats, dict[str, int], float]:
    stats = Stats()
    answered: dict[str, int] = {}  # learner -> forms that got their feedback
    browsers = logged_in_browsers(port, stats, usernames, args.time_limit)
    deadline = time.monotonic() + args.time_limit
    started = time.perf_counter()

    def learn(index: int, barrier) -> None:
        name = usernames[index]
        browser, rng = browsers[name], random.Random(index)
        count = 0
        barrier.wait()
        for _ in range(args.answers):
            if time.monotonic() > deadline:
                break
            page = browser.request("GET", "/practice/")
            form = answer_form(page.body, "/practice/answer/")
            if page.status != 200 or form is None:
                continue
            data = fill(form, rng)
            action = form.action or "/practice/answer/"
            if rng.random() < args.double:
                replies = post_twice(browser, action, data, stats)
            else:
                replies = [browser.request("POST", action, data)]
            if rng.random() < args.replay:
                replies.append(browser.request("POST", action, data))
            count += any(reply.status in (200, 302) for reply in replies)
        answered[name] = count

    at_once(len(usernames), learn, args.time_limit)
    return stats, answered, time.perf_counter() - started


def exam_phase(port: int, args, usernames: list[str]) -> tuple[Stats, float]:
    stats = Stats()
    browsers = logged_in_browsers(port, stats, usernames, args.time_limit)
    deadline = time.monotonic() + args.time_limit
    started = time.perf_counter()
    start_path = f"/exams/start/{args.blueprint}/"

    def sit(index: int, barrier) -> None:
        browser, rng = browsers[usernames[index]], random.Random(1000 + index)
        page = browser.request("GET", "/exams/")
        form = answer_form(page.body, start_path)
        data = fill(form, rng) if form else []
        barrier.wait()  # every learner starts at the same moment
        if rng.random() < args.double:
            replies = post_twice(browser, start_path, data, stats)
        else:
            replies = [browser.request("POST", start_path, data)]
        location = next((r.location for r in replies if r.status == 302), "")
        while location and "/q/" in location and time.monotonic() < deadline:
            path = path_of(location)
            page = browser.request("GET", path)
            form = answer_form(page.body, path)
            if page.status != 200 or form is None:
                break
            answer = fill(form, rng)
            if rng.random() < args.double:
                replies = post_twice(browser, path, answer, stats)
            else:
                replies = [browser.request("POST", path, answer)]
            location = next((r.location for r in replies if r.status == 302), "")
        sitting = path_of(location).split("/")[2] if location.startswith("/exams/") else ""
        overview = browser.request("GET", f"/exams/{sitting}/") if sitting.isdigit() else None
        finish = answer_form(overview.body, f"/exams/{sitting}/finish/") if overview else None
        barrier.wait()  # and every learner finishes at the same moment
        if finish is not None:
            browser.request("POST", f"/exams/{sitting}/finish/", fill(finish, rng))

    at_once(len(usernames), sit, args.time_limit)
    return stats, time.perf_counter() - started


# Setting up and reading the database (in child processes: one Django settings per run) ------


def django_env(database_url: str, port: int) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "TUTOR_STATIC_ROOT": static_root(),
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": HOST,
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DATABASE_URL": database_url,
        "REDIS_URL": os.environ.get("LOAD_REDIS_URL", ""),
        "DJANGO_LOG_LEVEL": "ERROR",
        "DJANGO_TRUSTED_PROXIES": "1",
    }


def manage(env: dict[str, str], *command: str) -> None:
    subprocess.run(
        [str(PYTHON), "manage.py", *command], cwd=REPO, env=env, check=True,
        stdout=subprocess.DEVNULL, timeout=600,
    )  # fmt: skip


def child(env: dict[str, str], *command: str) -> Any:
    done = subprocess.run(
        [str(PYTHON), "-m", "bench.load", *command], cwd=REPO, env=env, check=True,
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    return json.loads(done.stdout.strip().splitlines()[-1])


def setup_users(count: int) -> list[str]:
    """In a child process: the load test's learners (one password hash computed for all)."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    password = make_password(PASSWORD)
    names = [f"load-{index:03d}" for index in range(count)]
    get_user_model().objects.bulk_create(
        get_user_model()(username=name, password=password) for name in names
    )
    return names


def audit(answered: dict[str, int]) -> dict[str, int]:
    """In a child process: what the database holds, against what the learners were told."""
    import django

    django.setup()
    from django.db.models import Count, Sum

    from quizzes.models import Attempt, ExamSitting, Question, Response

    practice = dict(
        Response.objects.filter(attempt__kind=Attempt.Kind.PRACTICE)
        .values_list("user__username")
        .annotate(n=Count("id"))
    )
    lost = sum(max(0, n - practice.get(name, 0)) for name, n in answered.items())
    doubled = sum(max(0, practice.get(name, 0) - n) for name, n in answered.items())
    sittings = Counter(ExamSitting.objects.values_list("attempt__user__username", flat=True))
    exam_responses = Response.objects.filter(attempt__kind=Attempt.Kind.EXAM).count()
    from quizzes.models import ExamItem

    answered_items = ExamItem.objects.filter(answered_at__isnull=False).count()
    counted = Question.objects.aggregate(total=Sum("answer_count"))["total"] or 0
    return {
        "practice_lost": lost,
        "practice_doubled": doubled,
        "practice_responses": sum(practice.values()),
        "sittings": sum(sittings.values()),
        "extra_sittings": sum(n - 1 for n in sittings.values() if n > 1),
        "unfinished_sittings": ExamSitting.objects.filter(attempt__finished_at=None).count(),
        "exam_lost": max(0, answered_items - exam_responses),
        "exam_doubled": max(0, exam_responses - answered_items),
        "counter_drift": Response.objects.count() - counted,
    }


# Serving -----------------------------------------------------------------------------------


def free_port(first: int, last: int) -> int:
    for port in range(first, last + 1):
        with socket.socket() as probe:
            if probe.connect_ex((HOST, port)) != 0:
                return port
    raise SystemExit(f"no free port in {first}-{last}")


def serve(env: dict[str, str], port: int, workers: int) -> subprocess.Popen:
    gunicorn = PYTHON.parent / "gunicorn"
    server = subprocess.Popen(
        [str(gunicorn), "config.wsgi", "--bind", f"{HOST}:{port}", "--workers", str(workers),
         "--timeout", "30", "--log-level", "error"],
        cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    for _ in range(200):
        with socket.socket() as probe:
            if probe.connect_ex((HOST, port)) == 0:
                return server
        time.sleep(0.1)
    server.terminate()
    raise SystemExit("gunicorn did not start")


def postgres_answers(url: str) -> bool:
    parts = urlsplit(url)
    with socket.socket() as probe:
        probe.settimeout(1)
        return probe.connect_ex((parts.hostname or HOST, parts.port or 5432)) == 0


def prepare_postgres(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as connection:
        found = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        if not found.fetchone():
            connection.execute(f'CREATE DATABASE "{name}"')


def run(database: str, url: str, args) -> dict[str, Any]:
    port = free_port(args.port, args.port + 6)
    env = django_env(url, port)
    manage(env, "migrate", "--noinput")
    manage(env, "createcachetable")  # the throttles' table (no Redis)
    manage(env, "flush", "--noinput")
    manage(env, "load_content")
    manage(env, "collectstatic", "--noinput")
    usernames = child(env, "--setup-users", str(args.learners))
    server = serve(env, port, args.workers)
    try:
        practice, answered, practice_seconds = practice_phase(port, args, usernames)
        exam, exam_seconds = exam_phase(port, args, usernames[: args.sittings])
    finally:
        server.terminate()
        server.wait(timeout=30)
    counts = child(env, "--audit", json.dumps(answered))
    posts = len(practice.answer_seconds)
    return {
        "database": database,
        "learners": len(usernames),
        "practice_requests": sum(practice.statuses.values()),
        "failed_log_ins": practice.failed_log_ins + exam.failed_log_ins,
        "practice_answer_posts": posts,
        "practice_5xx": practice.server_errors,
        "practice_pairs_disagreeing": practice.disagreeing_pairs,
        "practice_rps": round(sum(practice.statuses.values()) / practice_seconds, 1),
        "answers_per_s": round(sum(answered.values()) / practice_seconds, 1),
        "answer_p50_ms": round(1000 * statistics.median(practice.answer_seconds or [0]), 1),
        "answer_p99_ms": round(1000 * _quantile(practice.answer_seconds, 0.99), 1),
        "exam_requests": sum(exam.statuses.values()),
        "exam_5xx": exam.server_errors,
        "exam_seconds": round(exam_seconds, 1),
        "statuses": dict(sorted((practice.statuses + exam.statuses).items())),
        **counts,
    }


def _quantile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", choices=["sqlite", "postgres", "both"], default="both")
    postgres = os.environ.get("LOAD_DATABASE_URL", DEFAULT_POSTGRES)
    parser.add_argument("--postgres-url", default=postgres, help="a throwaway database")
    parser.add_argument("--learners", type=int, default=50)
    parser.add_argument("--answers", type=int, default=20)
    parser.add_argument("--sittings", type=int, default=50)
    parser.add_argument("--blueprint", default="searching-quick-check")
    parser.add_argument("--double", type=float, default=0.2, help="posts sent twice at once")
    parser.add_argument("--replay", type=float, default=0.05, help="posts sent again later")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--port", type=int, default=8013)
    parser.add_argument("--time-limit", type=float, default=300, help="seconds per phase at most")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--setup-users", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--audit", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    # stopped from outside, still stop gunicorn (the `finally` in `run`)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if args.setup_users is not None:
        print(json.dumps(setup_users(min(args.setup_users, 500))))
        return 0
    if args.audit is not None:
        print(json.dumps(audit(json.loads(args.audit))))
        return 0
    args.learners = max(1, min(args.learners, 200))
    args.answers = max(1, min(args.answers, 100))
    args.sittings = max(1, min(args.sittings, args.learners))
    if urlsplit(args.postgres_url).hostname not in (HOST, "localhost"):
        raise SystemExit("bench.load only connects to 127.0.0.1")
    runs = []
    if args.database in ("sqlite", "both"):
        with tempfile.TemporaryDirectory() as scratch:
            runs.append(run("sqlite", f"sqlite:///{scratch}/load.sqlite3", args))
    if args.database in ("postgres", "both"):
        if postgres_answers(args.postgres_url):
            prepare_postgres(args.postgres_url)
            runs.append(run("postgresql", args.postgres_url, args))
        else:
            print(f"no PostgreSQL answers at {args.postgres_url}: skipped", file=sys.stderr)
    for result in runs:
        if args.json:
            print(json.dumps(result))
        else:
            print(f"== {result['database']}")
            for key, value in result.items():
                print(f"  {key:28} {value}")
    failed = any(
        r["failed_log_ins"] or not r["practice_answer_posts"]  # a run that answered nothing
        or r["practice_5xx"] or r["exam_5xx"] or r["practice_lost"] or r["practice_doubled"]
        or r["exam_lost"] or r["exam_doubled"] or r["extra_sittings"] or r["counter_drift"]
        for r in runs
    )  # fmt: skip
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""Redis is optional in fact (config/cache.py): a real redis-server of the test's own is stopped or
paused under the production cache settings, and signed-in practice goes on without a server
error, sessions read from the database; /healthz says "degraded" naming the cache."""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import time

import pytest
from django.contrib.auth import SESSION_KEY
from django.core.cache import caches
from django.urls import reverse

from config import cache as forgiving
from config import settings as production
from tests.factories import BankFactory, ScenarioFactory, UserFactory
from tests.quizzes.conftest import land_tutor_spec, make_question
from tests.quizzes.practice.test_practice_journey import first_choices

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server"),
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def redis():
    """A throwaway redis-server (no persistence) on a free port; stopped at the end."""
    port = free_port()
    command = ["redis-server", "--port", str(port), "--save", "", "--appendonly", "no"]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            break
        except OSError:
            time.sleep(0.05)
    server.port = port
    yield server
    server.send_signal(signal.SIGCONT)
    server.terminate()
    server.wait(timeout=10)


@pytest.fixture
def on_redis(settings, redis, monkeypatch):
    """The production settings with REDIS_URL at the throwaway server: every cache on it, sessions
    cached in it. A failure keeps the process off Redis briefly (the test need not wait 5 s)."""
    default = {**production.CACHES["default"], "BACKEND": "config.cache.ForgivingRedisCache"}
    default |= {"LOCATION": f"redis://127.0.0.1:{redis.port}/0"}
    settings.CACHES = {
        "default": default,
        "throttle": {**default, "KEY_PREFIX": "tutor-throttle"},
        "shared": {**default, "KEY_PREFIX": "tutor-shared"},
    }
    settings.SESSION_ENGINE = "config.sessions.cached_db"
    monkeypatch.setattr(forgiving, "RETRY_AFTER", 0.3)
    return redis


@pytest.fixture
def learner():
    user = UserFactory(username="outage-learner")
    bank = BankFactory(owner=user, slug="outage-bank")
    for n in range(6):  # more than the test answers: a question is always due
        make_question(ScenarioFactory(spec=land_tutor_spec(f"land-tutor-{n}"), bank=bank), bank)
    return user


def practise(client) -> list[int]:
    """A question drawn and answered, the feedback and a rule page: their status codes."""
    page = client.get(reverse("practice"))
    statuses = [page.status_code]
    data = {"token": page.context["token"], **first_choices(page.context["form"])}
    statuses.append(client.post("/practice/answer/", data, follow=True).status_code)  # feedback
    statuses.append(client.get(reverse("progress")).status_code)
    statuses.append(client.get(reverse("rule_index")).status_code)
    return statuses


def log_in(client) -> None:
    response = client.post(
        reverse("login"), {"username": "outage-learner", "password": "correct-horse-battery"}
    )
    assert response.status_code == 302


def test_the_session_is_kept_in_redis_while_it_answers(client, on_redis, learner):
    log_in(client)
    assert practise(client) == [200] * 4
    cached = caches["default"].get("django.contrib.sessions.cached_db" + client.session.session_key)
    assert cached[SESSION_KEY] == str(learner.pk)


def test_signed_in_practice_goes_on_when_redis_stops(client, on_redis, learner):
    client.raise_request_exception = False
    log_in(client)
    assert practise(client) == [200] * 4
    on_redis.terminate()
    on_redis.wait(timeout=10)
    for _ in range(3):
        assert practise(client) == [200] * 4  # the same learner: the session from the database
    assert client.get(reverse("progress")).context["user"] == learner
    client.logout()
    log_in(client)  # the throttles fail open for a right password
    assert practise(client) == [200] * 4
    response = client.get(reverse("healthz"))
    assert response.status_code == 200
    body = response.content.decode()
    assert body.startswith("degraded\n")
    assert "database: ok" in body and "cache: failed (ConnectionError)" in body


def test_a_paused_redis_is_reported_and_bypassed(client, on_redis, learner, settings):
    client.raise_request_exception = False
    log_in(client)
    on_redis.send_signal(signal.SIGSTOP)  # takes connections, answers nothing
    assert practise(client) == [200] * 4
    response = client.get(reverse("healthz"))
    assert response.status_code == 200
    body = response.content.decode()
    assert "degraded" in body
    # the client's socket timeout and the probe's are both half a second: either says it
    timed_out = f"cache: no answer within {settings.HEALTHZ_TIMEOUT:g} s"
    assert timed_out in body or "cache: failed (TimeoutError)" in body


def redis_misses_a_beat(redis) -> None:
    """Redis paused for one request's timeout, then back: the process now keeps off it for
    RETRY_AFTER, while Redis holds everything it held."""
    redis.send_signal(signal.SIGSTOP)
    assert caches["default"].get("anything") is None  # times out: the breaker opens
    redis.send_signal(signal.SIGCONT)


def test_a_log_out_while_redis_is_away_stays_a_log_out_when_it_returns(client, on_redis, learner):
    log_in(client)
    assert client.get(reverse("progress")).status_code == 200  # the session now cached in Redis
    cookie = client.cookies["sessionid"].value
    redis_misses_a_beat(on_redis)
    client.post(reverse("logout"))  # the cached copy is not deleted now
    time.sleep(forgiving.RETRY_AFTER + 0.1)
    client.cookies["sessionid"] = cookie  # someone replays the old cookie
    response = client.get(reverse("progress"))
    assert response.status_code == 302  # to the log-in page: the session is gone
    cache_key = "django.contrib.sessions.cached_db" + cookie
    assert caches["default"].get(cache_key) is None


def test_a_rules_version_bumped_while_redis_is_away_is_not_read_stale_after(on_redis):
    from config import versions

    before = versions.current(versions.RULES)
    redis_misses_a_beat(on_redis)
    versions.bump(versions.RULES)  # lost: Redis still holds `before`
    time.sleep(forgiving.RETRY_AFTER + 0.1)
    assert versions.current(versions.RULES) not in {before, ""}

"""/healthz: 200 "ok" when the database and the cache both answer; 200 "degraded" naming the cache
when only Redis fails (the site serves without it); 503 naming the database without it."""

from __future__ import annotations

import time

import pytest
from django.db import connections
from django.db.utils import load_backend
from django.urls import reverse

from config import health

pytestmark = pytest.mark.django_db(transaction=True)


def broken_database():
    """A real connection to a database that cannot be opened (its directory does not exist)."""
    backend = load_backend("django.db.backends.sqlite3")
    settings_dict = {**connections["default"].settings_dict}
    settings_dict |= {"ENGINE": "django.db.backends.sqlite3", "NAME": "/nonexistent/dir/db.sqlite3"}
    settings_dict["OPTIONS"] = {}
    return backend.DatabaseWrapper(settings_dict, alias="broken")


def test_healthy_when_the_database_and_the_cache_answer(client):
    response = client.get(reverse("healthz"))
    assert response.status_code == 200
    assert response.content.decode() == "ok\ndatabase: ok\ncache: ok\n"
    assert "no-cache" in response["Cache-Control"]


def test_503_naming_the_database_when_it_cannot_be_reached(client, monkeypatch):
    monkeypatch.setattr(health, "database_connection", broken_database)
    response = client.get(reverse("healthz"))
    assert response.status_code == 503
    body = response.content.decode()
    assert "database: failed (OperationalError)" in body
    assert "cache: ok" in body


@pytest.mark.parametrize(
    "backend", ["django.core.cache.backends.redis.RedisCache", "config.cache.ForgivingRedisCache"]
)
def test_degraded_naming_the_cache_when_redis_refuses(client, settings, backend):
    # a real Redis client pointed at a port where nothing listens: the connection is refused
    settings.CACHES = {
        "default": {
            "BACKEND": backend,
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
    response = client.get(reverse("healthz"))
    assert response.status_code == 200
    body = response.content.decode()
    assert body.startswith("degraded\n")
    assert "database: ok" in body
    assert "cache: failed (ConnectionError)" in body


def test_a_database_that_hangs_is_reported_after_the_timeout(client, monkeypatch, settings):
    settings.HEALTHZ_TIMEOUT = 0.2
    original = health.check_database

    def hanging_database():
        time.sleep(1)  # longer than the timeout: the probe must not wait for it
        original()

    monkeypatch.setitem(health.CHECKS, "database", hanging_database)
    response = client.get(reverse("healthz"))
    assert response.status_code == 503
    assert "database: no answer within 0.2 s" in response.content.decode()


def test_healthz_is_served_over_plain_http_with_debug_off(client, settings):
    settings.SECURE_SSL_REDIRECT = True
    assert client.get(reverse("healthz")).status_code == 200


def test_a_head_probe_gets_the_same_status(client):
    assert client.head(reverse("healthz")).status_code == 200


def test_the_probe_port_gives_the_same_answer_from_a_thread_of_its_own(monkeypatch):
    import http.client
    import socket

    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    thread = health.serve_probes(listener)
    assert thread.daemon and thread.name == "healthz-probes"

    def probe(method: str, path: str) -> tuple[int, str]:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        try:
            connection.request(method, path)
            response = connection.getresponse()
            return response.status, response.read().decode()
        finally:
            connection.close()

    assert probe("GET", "/healthz") == (200, "ok\ndatabase: ok\ncache: ok\n")
    assert probe("HEAD", "/healthz") == (200, "")
    assert probe("GET", "/")[0] == 404
    monkeypatch.setattr(health, "database_connection", broken_database)
    status, body = probe("GET", "/healthz")
    assert status == 503 and body.startswith("unavailable\ndatabase: failed")

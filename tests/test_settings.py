"""Settings from the environment: debug off refuses to serve without a key; deploy checks pass."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REAL_KEY = "x7Qp2Lm9Vt4Rw8Ks1Zb6Nd3Hf5Jg0Yc-" + "a9B8c7D6e5F4g3H2i1J0" * 2


def run_python(code: str, **env: str) -> subprocess.CompletedProcess:
    # the settings read from the environment only what each test gives them
    unset = ("DJANGO_", "DATABASE_URL", "REDIS_URL")
    base = {k: v for k, v in os.environ.items() if not k.startswith(unset)}
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**base, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_wsgi_refuses_to_start_without_a_secret_key_when_debug_is_off():
    result = run_python("import config.wsgi", DJANGO_DEBUG="0")
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


def test_a_short_secret_key_is_refused_when_debug_is_off():
    result = run_python("import django; django.setup()", DJANGO_DEBUG="0", DJANGO_SECRET_KEY="x")
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr


def test_wsgi_starts_with_a_real_key():
    result = run_python(
        "import config.wsgi; print('ok')",
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=REAL_KEY,
        DJANGO_ALLOWED_HOSTS="tutor.example.org",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_check_deploy_is_clean_with_a_real_key():
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={
            **{k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")},
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DJANGO_SECRET_KEY": REAL_KEY,
            "DJANGO_ALLOWED_HOSTS": "tutor.example.org",
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_debug_off_uses_secure_cookies_hsts_and_manifest_static_files():
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_HSTS_SECONDS > 0, "
        "s.STORAGES['staticfiles']['BACKEND'].endswith('CompressedManifestStaticFilesStorage'))"
    )
    result = run_python(code, DJANGO_DEBUG="0", DJANGO_SECRET_KEY=REAL_KEY)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "True", "True", "True"]


def test_sqlite_runs_with_wal_immediate_transactions_and_a_busy_timeout():
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "o = s.DATABASES['default']['OPTIONS']; "
        "print(o['transaction_mode'], 'journal_mode=WAL' in o['init_command'], o['timeout'])"
    )
    result = run_python(code, DJANGO_DEBUG="1")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["IMMEDIATE", "True", "20"]


def test_redis_url_selects_the_redis_cache():
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.CACHES['default']['BACKEND'])"
    )
    result = run_python(code, DJANGO_DEBUG="1", REDIS_URL="redis://127.0.0.1:6379/0")
    assert result.stdout.strip() == "config.cache.ForgivingRedisCache", result.stderr


def test_each_xdist_worker_has_its_own_redis_database():
    """The autouse cache.clear() is a FLUSHDB: gw0 keeps REDIS_URL's database, gw1 the next."""
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(sorted({c.get('LOCATION', '') for c in s.CACHES.values()}))"
    )
    url = "redis://127.0.0.1:6379/13"
    for worker, database in [("gw0", 13), ("gw1", 14)]:
        result = run_python(
            code,
            DJANGO_SETTINGS_MODULE="config.settings_test",
            REDIS_URL=url,
            PYTEST_XDIST_WORKER=worker,
        )
        assert result.stdout.strip() == f"['redis://127.0.0.1:6379/{database}']", result.stderr


def test_sessions_are_cached_only_where_the_cache_is_shared():
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.SESSION_ENGINE)"
    )
    shared = run_python(code, DJANGO_DEBUG="1", REDIS_URL="redis://127.0.0.1:6379/0")
    assert shared.stdout.strip() == "config.sessions.cached_db", shared.stderr
    local = run_python(code, DJANGO_DEBUG="1")
    assert local.stdout.strip() == "config.sessions.db", local.stderr


def test_the_wsgi_process_collects_garbage_less_often_and_freezes_what_it_loaded():
    result = run_python(
        "import gc, config.wsgi; print(gc.get_threshold()[0], gc.get_freeze_count() > 10_000)",
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=REAL_KEY,
        DJANGO_ALLOWED_HOSTS="tutor.example.org",
    )
    assert result.stdout.split() == ["10000", "True"], result.stderr

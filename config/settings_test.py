"""Settings for the test suite: production settings with a throwaway key and plain HTTP."""

from __future__ import annotations

import os
import tempfile

os.environ.setdefault("DJANGO_SECRET_KEY", "test-only-" + "k" * 50)
os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver,localhost,127.0.0.1")

from config.settings import *  # noqa: E402,F403

# The test client and live_server speak plain HTTP.
SECURE_SSL_REDIRECT = False
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
SECURE_HSTS_SECONDS = 0
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed, tests only
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# The suite logs in, signs up and fails passwords far more often than a person: raised limits
# keep it deterministic. tests/test_throttling.py puts the production limits back to prove them.
AXES_FAILURE_LIMIT = 1000
THROTTLE_RATES = dict.fromkeys(THROTTLE_RATES, "10000/h")  # noqa: F405

# SQLite tests use a file, not the shared in-memory database: threads with their own connections
# (tests/quizzes/test_concurrency.py) then lock and wait as in production (WAL, busy timeout)
# instead of failing with "database table is locked".
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": os.path.join(tempfile.gettempdir(), f"tutor-test-{os.getpid()}.sqlite3")
    }

# Background tasks run at once, in the request that queues them: a test sees their result
# without a worker (tests/quizzes/instructors/test_import_jobs.py runs the database backend's
# worker itself).
TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}

# A small amount of generated questions, so tests that load content stay fast;
# tests/quizzes/test_generated_bank.py proves the default amount reaches the targets.
TUTOR_FAMILY_INSTANCES = 2

# Sessions from the database whatever REDIS_URL says: the suite's query pins count the
# session's one read on every page. The cached sessions Redis brings are tested on their own
# (tests/test_page_parts.py: log-out and password change with both engines; tests/test_settings.py).
SESSION_ENGINE = "config.sessions.db"

# pytest-xdist: each worker its own Redis database, counted up from REDIS_URL's (gw0 the same,
# gw1 the next...), since the autouse `cache.clear()` (tests/conftest.py) is a FLUSHDB that would
# wipe the other workers' keys mid-test.
_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
if REDIS_URL and _WORKER:  # noqa: F405
    from urllib.parse import urlsplit

    _url = urlsplit(REDIS_URL)  # noqa: F405
    _db = int(_url.path.strip("/") or 0) + int(_WORKER.removeprefix("gw"))
    for _cache in CACHES.values():  # noqa: F405
        if _cache["BACKEND"].endswith("RedisCache"):
            _cache["LOCATION"] = _url._replace(path=f"/{_db}").geturl()

"""Tutor's settings, read from the environment.

DJANGO_SECRET_KEY, DJANGO_DEBUG, DJANGO_ALLOWED_HOSTS, DATABASE_URL and REDIS_URL are the knobs;
everything else is fixed here. With debug off the app refuses to start without a real secret key.
"""

from __future__ import annotations

import datetime
import os
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DJANGO_DEBUG", False)

_DEV_SECRET_KEY = "django-insecure-tutor-development-only"
# Without a key and with debug off, SECRET_KEY stays empty: Django then refuses anything that
# signs (sessions, CSRF), and config/wsgi.py and asgi.py refuse to start the server at all.
# Pure commands such as `manage.py ruling` still work, as the engine needs no secret.
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", _DEV_SECRET_KEY if DEBUG else "")
if not DEBUG and SECRET_KEY and (SECRET_KEY.startswith("django-insecure") or len(SECRET_KEY) < 32):
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY must be a long random value (50+ characters) when DJANGO_DEBUG is off."
    )


ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "config.apps.TutorAdminConfig",  # the admin, for superusers only
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "axes",
    "django_ratelimit",
    "csp",
    "template_partials",
    "ninja",  # the rulings API's Swagger UI served from our own static files (CSP: 'self')
    "lti_tool",  # django-lti: platform registrations, deployments, the tool's keys (docs/lti.md)
    "django_tasks",  # background work: large imports (quizzes/tasks.py)
    "django_tasks_db",  # ... queued in the database, run by `manage.py db_worker`
    "rules",
    "quizzes",
]

# Background tasks (quizzes/tasks.py): queued in the database, run by `manage.py db_worker`
# (docs/deployment.md; `python3 dev.py serve` starts one beside the server).
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "config.inputs.RejectUnstorableInput",  # 400 for NUL bytes, lone surrogates (config/inputs.py)
    # outside the session, CSRF and X-Frame-Options middleware: a session begun by an LTI launch
    # is framed by its platform alone, its cookies SameSite=None (quizzes/lti/framing.py)
    "quizzes.lti.framing.LtiFramingMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",  # the language: cookie, then Accept-Language
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "quizzes.language.RememberedLanguageMiddleware",  # a log-in's remembered language cookie
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",  # last: turns a locked-out log-in into the 429 page
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: refuses a locked account before checking
    # Django's, with the instructor flag loaded with the user (a session saved under Django's own
    # path logs in again: get_user accepts only listed backends)
    "config.auth.ModelBackend",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

# SQLite by default: WAL lets readers and one writer work together; IMMEDIATE transactions take
# the write lock up front so concurrent writers wait (busy timeout) instead of failing mid-way.
SQLITE_PATH = BASE_DIR / "db.sqlite3"
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{SQLITE_PATH}", conn_max_age=0, conn_health_checks=True
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Kept open between requests: opening one (Django registers its SQL functions, then the
    # pragmas) cost 1.2 ms, more than a whole page's queries (docs/benchmarks.md).
    DATABASES["default"]["CONN_MAX_AGE"] = 600
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": (
            "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=20000;"
        ),
    }
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool below keeps connections instead
    # A database that refuses or does not answer fails a request within seconds (a 503:
    # config/errors.py), well before gunicorn's 30 s: 3 s to open a connection, and 5 s to
    # wait for one from the pool (psycopg's default, 30 s, was the whole worker timeout).
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": 10,
        "timeout": 5,
    }
    DATABASES["default"]["OPTIONS"]["connect_timeout"] = 3
    # Only the hand-written queries that ask for it are prepared (config/sql.py): psycopg
    # prepares nothing by itself below this many runs, and nothing at all with None.
    DATABASES["default"]["OPTIONS"]["prepare_threshold"] = 2**31 - 1
    # and what is prepared is planned once: left to choose, PostgreSQL planned the learner's
    # rows afresh on every run (a custom plan, 3 ms of planning for 1.5 ms of work), since a
    # generic plan's estimate never beat them; prepared queries are the lookups of one shape
    # config/sql.py lists, whose plan does not hang on their values
    DATABASES["default"]["OPTIONS"]["options"] = "-c plan_cache_mode=force_generic_plan"

REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CACHES = {
        "default": {
            # Redis is optional in fact: down or slow, it is an empty cache (config/cache.py),
            # and a call waits at most half a second for it (it answers in a millisecond)
            "BACKEND": "config.cache.ForgivingRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "tutor",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# Sessions: with a shared cache, read from it (every page reads the session) and written through
# to the database; a log-out clears both, and a changed password still ends the other sessions
# (the hash checked on every request); with Redis away, from the database alone. Without a
# shared cache, from the database only: a local cache per worker would keep a logged-out session
# alive in the other workers.
SESSION_ENGINE = "config.sessions.cached_db" if REDIS_URL else "config.sessions.db"
# Throttle counters must be shared by every worker: Redis, or without it a database table
# (made by `migrate`: quizzes/migrations/0002_cache_tables.py; SQLite serialises its writes).
CACHES["throttle"] = (
    {**CACHES["default"], "KEY_PREFIX": "tutor-throttle"}
    if REDIS_URL
    else {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "tutor_throttle_cache",
    }
)
# What every worker must read alike (the rules' version: quizzes/reference/texts.py), beside the
# throttles.
CACHES["shared"] = {**CACHES["throttle"], "KEY_PREFIX": "tutor-shared"}
# LTI 1.3 launches (quizzes/lti/): the OIDC state, the one-use nonces and the launch data must be
# seen by whichever worker receives the platform's POST: shared as the throttles are.
CACHES["lti"] = {**CACHES["throttle"], "KEY_PREFIX": "tutor-lti"}

# Throttling (config/throttling.py). Failed log-ins per account, with django-axes:
AXES_HANDLER = "axes.handlers.cache.AxesCacheHandler"
AXES_CACHE = "throttle"
AXES_FAILURE_LIMIT = 10
# the account and the address together: wrong passwords from one place never lock the account's
# owner out from another (a cohort's usernames are easy to learn)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_COOLOFF_TIME = datetime.timedelta(minutes=15)
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "config.throttling.lockout_response"
AXES_CLIENT_IP_CALLABLE = "config.throttling.client_address"
AXES_ENABLE_ADMIN = False  # the cache handler keeps no rows to show
# Failed log-ins per address, sign-ups and reset requests per address and per account, with
# django-ratelimit. A cohort logs in and signs up from one school address: right passwords never
# count, and 100 sign-ups an hour let a cohort of 70 in with a retry each for a third of them;
# sign-ups with a cohort's join code are counted apart, per address and cohort (config/urls.py).
RATELIMIT_USE_CACHE = "throttle"
RATELIMIT_FAIL_OPEN = True  # a count the cache could not keep lets the request through
THROTTLE_RATES = {
    "login_failures_per_address": "100/15m",
    "signup_per_address": "100/h",
    "signup_per_account": "5/h",
    "password_reset_per_address": "10/h",
    "password_reset_per_account": "3/h",
    # the rulings API (quizzes/api/): requests per token owner, and per address requests whose
    # token is missing or wrong (docs/api.md)
    "api_per_user": "1000/h",
    "api_failures_per_address": "100/15m",
}
# How many proxies in front of the app append to X-Forwarded-For (0: use REMOTE_ADDR).
THROTTLE_TRUSTED_PROXIES = int(os.environ.get("DJANGO_TRUSTED_PROXIES", "0"))
SILENCED_SYSTEM_CHECKS = [
    # security.W021 asks for HSTS preload; Tutor preloads only with DJANGO_HSTS_PRELOAD=1.
    "security.W021",
    # django-ratelimit knows only django-redis and memcached: Django's own RedisCache counts
    # with atomic INCR too; the database cache's non-atomic increment may undercount a few
    # concurrent requests on one machine, which a throttle can afford.
    "django_ratelimit.W001",
    "django_ratelimit.E003",
]

# /healthz gives the database and the cache this long each (seconds) before it names them.
HEALTHZ_TIMEOUT = float(os.environ.get("DJANGO_HEALTHZ_TIMEOUT", "0.5"))

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

EMAIL_BACKEND = os.environ.get(
    "DJANGO_EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend"
)
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_DEFAULT_FROM_EMAIL", "tutor@localhost")

# The interface in the three languages of the sources (quizzes/language.py; docs/i18n.md).
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("de", "Deutsch"), ("it", "Italiano")]
LOCALE_PATHS = [BASE_DIR / "locale"]
FORMAT_MODULE_PATH = ["config.formats"]  # English dates stay ISO and 24-hour
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Where collectstatic writes (a deploy may put it elsewhere; a test or benchmark that collects
# writes to a folder of its own, never under a test server reading the checkout's).
STATIC_ROOT = Path(os.environ.get("TUTOR_STATIC_ROOT") or BASE_DIR / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Content-Security-Policy (django-csp): scripts, styles and everything else from this origin
# only; no inline script or style anywhere (htmx's own indicator style is turned off in
# base.html's htmx-config, and htmx may not eval), no plugins, no framing, forms post here.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
# Browser features Tutor never uses, switched off for it and anything it might embed.
PERMISSIONS_POLICY = dict.fromkeys(
    [
        "accelerometer", "autoplay", "camera", "display-capture", "encrypted-media",
        "fullscreen", "geolocation", "gyroscope", "magnetometer", "microphone", "midi",
        "payment", "picture-in-picture", "publickey-credentials-get", "screen-wake-lock",
        "usb", "xr-spatial-tracking",
    ],
    [],
)  # fmt: skip

SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # htmx reads the token from the page, not the cookie
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

if not DEBUG:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", 60 * 60 * 24 * 365))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    # Preloading asks browsers to hard-code HTTPS for the domain and its subdomains, which is
    # slow to undo: only when the operator asks for it.
    SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", False)
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

# Logs go to the console (stderr): one JSON object per line with debug off (config/logs.py) or
# DJANGO_LOG_FORMAT=json, readable lines otherwise. Logged: django.request, requests that failed
# (4xx at WARNING, 5xx at ERROR with the traceback); tutor.throttle, every 429; axes, log-ins and
# lock-outs; tutor.content, content loads and bank imports; tutor.audit, roles granted.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "text": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
        "json": {"()": "config.logs.JsonFormatter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": os.environ.get("DJANGO_LOG_FORMAT", "text" if DEBUG else "json"),
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
    "loggers": {
        name: {"level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")}
        for name in ("tutor", "axes", "django.request")
    }
    | {"axes.apps": {"level": "WARNING"}},  # not its banner at every start
}

# Scenario families (docs/families.md): how many instances of each family `load_content` and
# `generate_questions` store, and the seed they are drawn with (same seed, same instances).
TUTOR_FAMILY_INSTANCES = 60
TUTOR_FAMILY_SEED = 0

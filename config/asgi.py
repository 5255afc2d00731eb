"""ASGI entry point."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from django.conf import settings  # noqa: E402

# A server never starts without a real key (Django raises ImproperlyConfigured on an empty one).
assert settings.SECRET_KEY, "DJANGO_SECRET_KEY is required to serve"

application = get_asgi_application()

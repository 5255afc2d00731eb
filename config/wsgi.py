"""WSGI entry point (gunicorn config.wsgi)."""

from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from django.conf import settings  # noqa: E402

# A server never starts without a real key: reading an empty SECRET_KEY raises
# ImproperlyConfigured, and this read happens at import, before any request.
settings.SECRET_KEY  # noqa: B018

application = get_wsgi_application()

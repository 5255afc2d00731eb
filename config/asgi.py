"""ASGI entry point."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from config.checks import require_secret_key  # noqa: E402

require_secret_key()  # a server never starts without a real key

application = get_asgi_application()

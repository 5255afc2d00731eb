"""Start-up guards for the servers (WSGI/ASGI)."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured


def require_secret_key() -> None:
    """Refuse to serve with no secret key: sessions and CSRF tokens would be forgeable."""
    try:
        key = settings.SECRET_KEY
    except ImproperlyConfigured:
        key = ""
    if not key:
        raise ImproperlyConfigured(
            "Set DJANGO_SECRET_KEY to a long random value to serve Tutor with DJANGO_DEBUG off "
            "(or DJANGO_DEBUG=1 for local work)."
        )

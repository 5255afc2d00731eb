"""gunicorn's settings for Tutor, read by `gunicorn config.wsgi` run from the repository root
(gunicorn loads ./gunicorn.conf.py by itself; `-c gunicorn.conf.py` says so explicitly).

gunicorn has no setting for its `Server: gunicorn` header, which tells an attacker the server
software; the response's default headers are filtered here so no Server header is sent.
Everything else stays on the command line (bind, workers).
"""

from __future__ import annotations

from gunicorn.http import wsgi

_default_headers = wsgi.Response.default_headers


def _default_headers_without_server(self) -> list[str]:
    return [line for line in _default_headers(self) if not line.lower().startswith("server:")]


wsgi.Response.default_headers = _default_headers_without_server

"""Django's cached database sessions, read by hand on a cache miss (config/sessions):
`SESSION_ENGINE` with Redis."""

from __future__ import annotations

from django.contrib.sessions.backends import cached_db

from config.sessions import ReadByHand


class SessionStore(ReadByHand, cached_db.SessionStore):
    pass

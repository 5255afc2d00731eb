"""Django's database sessions, read by hand (config/sessions): `SESSION_ENGINE` without Redis."""

from __future__ import annotations

from django.contrib.sessions.backends import db

from config.sessions import ReadByHand


class SessionStore(ReadByHand, db.SessionStore):
    pass

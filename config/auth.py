"""The log-in backend: Django's, loading a session's user together with whether they are an
instructor, in one hand-written query (config/user_rows.py), or with no query of its own when
the request read the user with its session (config/sessions)."""

from __future__ import annotations

from django.contrib.auth import backends

from config import sessions, sql, user_rows


class ModelBackend(backends.ModelBackend):
    def get_user(self, user_id):
        # read with the request's session when it could be (config/sessions), else now
        row = sessions.user_read_with_session(user_id)
        if row is None:
            parameters = [user_rows.role_parameter(), user_id]
            row = sql.first(user_rows.user_with_role(), parameters, prepared=True)
        user = None if row is None else user_rows.read(row)  # None: no such user
        if user is None or not self.user_can_authenticate(user):
            return None
        return user

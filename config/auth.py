"""The log-in backend: Django's, loading a session's user together with whether they are an
instructor, which the navigation asks on every page (one query instead of two), and with a
hand-written query: every page loads the user, and building the ORM's query (or a `raw()`
one) cost more than the database's answer (docs/benchmarks.md)."""

from __future__ import annotations

import functools

from django.contrib.auth import backends, get_user_model

from config import sql
from config.model_rows import Columns
from config.roles import INSTRUCTORS_GROUP


@functools.cache
def _user_columns() -> Columns:
    return Columns(get_user_model(), "u")


@functools.cache
def user_select() -> str:
    """The user's own columns on `u`, then authoring's `_instructor_cache` (in the instructors'
    group?), for a query that reads the user; one parameter: the group's name."""
    groups = get_user_model().groups.through._meta.db_table
    return (
        f"{_user_columns().sql}, EXISTS(SELECT 1 FROM {groups} ug JOIN auth_group g"
        " ON g.id = ug.group_id WHERE ug.user_id = u.id AND g.name = %s)"
    )


def user_select_width() -> int:
    """How many columns `user_select` reads."""
    return len(_user_columns()) + 1


@functools.cache
def _user_with_role() -> str:
    return f"SELECT {user_select()} FROM {get_user_model()._meta.db_table} u WHERE u.id = %s"


class ModelBackend(backends.ModelBackend):
    def get_user(self, user_id):
        from config import sessions

        # read with the request's session when it could be (config/sessions), else now
        row = sessions.user_read_with_session(user_id)
        if row is None:
            row = sql.first(_user_with_role(), [INSTRUCTORS_GROUP, user_id], prepared=True)
        user = None if row is None else _user_columns().read(row)  # None: no such user
        if user is None or not self.user_can_authenticate(user):
            return None
        user._instructor_cache = bool(row[-1])  # SQLite: 0/1
        return user

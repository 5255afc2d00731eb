"""The log-in backend: Django's, loading a session's user together with whether they are an
instructor, which the navigation asks on every page (one query instead of two), and with a
hand-written query: every page loads the user, and building the ORM's query (or a `raw()`
one) cost more than the database's answer (docs/benchmarks.md)."""

from __future__ import annotations

import functools

from django.contrib.auth import backends, get_user_model

from config import sql
from config.model_rows import Columns


@functools.cache
def _user_columns() -> Columns:
    return Columns(get_user_model(), "u")


@functools.cache
def _user_with_role() -> str:
    """The user's own columns, and authoring's `_instructor_cache`: in the instructors' group?"""
    groups = get_user_model().groups.through._meta.db_table
    return (
        f"SELECT {_user_columns().sql}, EXISTS(SELECT 1 FROM {groups} ug JOIN auth_group g"
        " ON g.id = ug.group_id WHERE ug.user_id = u.id AND g.name = %s)"
        f" FROM {get_user_model()._meta.db_table} u WHERE u.id = %s"
    )


class ModelBackend(backends.ModelBackend):
    def get_user(self, user_id):
        from quizzes.authoring import INSTRUCTORS_GROUP

        row = sql.first(_user_with_role(), [INSTRUCTORS_GROUP, user_id], prepared=True)
        if row is None:
            return None
        user = _user_columns().read(row)  # converted as the ORM does (SQLite's text dates)
        if not self.user_can_authenticate(user):
            return None
        user._instructor_cache = bool(row[-1])  # SQLite: 0/1
        return user

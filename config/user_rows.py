"""A user and their role read as one row, by hand: every page loads the user with whether they
are an instructor, which the navigation asks (one query instead of two), and building the ORM's
query (or a `raw()` one) cost more than the database's answer (docs/benchmarks.md).

Read on its own by the log-in backend (config/auth.py), or joined to the session's read
(config/sessions): both take the columns from here.
"""

from __future__ import annotations

import functools

from django.contrib.auth import get_user_model

from config.model_rows import Columns
from config.roles import INSTRUCTORS_GROUP


@functools.cache
def _user_columns() -> Columns:
    return Columns(get_user_model(), "u")


@functools.cache
def user_select() -> str:
    """The user's own columns on `u`, then `roles.is_instructor`'s `_instructor_cache` (in the
    instructors' group?), for a query that reads the user; its one parameter: `role_parameter()`."""
    groups = get_user_model().groups.through._meta.db_table
    return (
        f"{_user_columns().sql}, EXISTS(SELECT 1 FROM {groups} ug JOIN auth_group g"
        " ON g.id = ug.group_id WHERE ug.user_id = u.id AND g.name = %s)"
    )


def role_parameter() -> str:
    """The parameter `user_select` takes: the instructors' group's name."""
    return INSTRUCTORS_GROUP


def user_select_width() -> int:
    """How many columns `user_select` reads."""
    return len(_user_columns()) + 1


@functools.cache
def user_with_role() -> str:
    """The query of one user (parameters: `role_parameter()`, the user's id)."""
    return f"SELECT {user_select()} FROM {get_user_model()._meta.db_table} u WHERE u.id = %s"


def read(row: tuple):
    """The user of a row `user_select` read, their role set; None when its columns are NULL (no
    such user)."""
    user = _user_columns().read(row)
    if user is not None:
        user._instructor_cache = bool(row[-1])  # SQLite: 0/1
    return user


def kept_row_key(user_id: object) -> str:
    """The default cache's key of user `user_id`'s kept row (config/auth.py keeps it; the
    session's first read brings it: config/sessions)."""
    return f"user-row:{user_id}"

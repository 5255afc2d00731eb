"""Django's database sessions (`db`, and `cached_db` in front of a shared cache), the stored
session read with one hand-written query: every page reads it, and building the ORM's query
cost several times what the database takes to answer it (docs/benchmarks.md). Everything else,
saving, expiring, flushing, is Django's.

The same query reads, during a request, what the request will ask next:
- without Redis, the shared versions (config/versions.py);
- the session's user with their role (config/user_rows.py), when this process has read that session
  before: a session key belongs to one user all its life (Django gives a new key on every log-in
  and log-out), so the process remembers whose it was, and the user's row comes with the
  session's. Only a guess of which row to read: the log-in backend takes it only for the user
  the session names (Django then checks the session's hash against it as ever), else reads the
  user as without it.
"""

from __future__ import annotations

import datetime
import threading
from collections import OrderedDict
from typing import Any, NamedTuple

from asgiref.local import Local
from django.conf import settings
from django.contrib.auth import SESSION_KEY, get_user_model
from django.core.exceptions import ValidationError
from django.core.signals import request_finished, request_started
from django.utils import timezone

from config import sql, user_rows, versions

MAX_REMEMBERED = 20_000  # session keys whose user the process knows (an int each)
_users_of: OrderedDict[str, Any] = OrderedDict()  # session key -> its user's id
_lock = threading.Lock()
_request = Local()  # `.active`: in a request; `.user`: (user id, their row) read with its session


class Stored(NamedTuple):
    """What Django's stores read of a `Session` row."""

    session_key: str
    session_data: str
    expire_date: datetime.datetime


def unexpired(session_key: str | None) -> Stored | None:
    """The stored session under `session_key` unless it has expired (as Django's
    `Session.objects.get(session_key=..., expire_date__gt=now)`)."""
    if not session_key:
        return None
    columns, joined, params = "NULL, s.session_data, s.expire_date", "", []
    user_id = _user_of(session_key) if getattr(_request, "active", False) else None
    width = 0  # the user's columns and role, when read too
    if user_id is not None:
        columns += f", {user_rows.user_select()}"
        joined = f" LEFT JOIN {get_user_model()._meta.db_table} u ON u.id = %s"
        params += [user_rows.role_parameter(), user_id]
        width = user_rows.user_select_width()
    query = (
        f"SELECT {columns} FROM django_session s{joined}"
        " WHERE s.session_key = %s AND s.expire_date > %s"
    )
    params += [session_key, sql.at(timezone.now())]
    # Without Redis, the shared versions come with it: no query of their own.
    tokens = versions.table_rows(padding=width)
    if tokens is not None:
        query = f"{query} UNION ALL {tokens[0]}"
        params += tokens[1]
    rows = sql.rows(query, params, prepared=True)
    if tokens is not None:
        versions.take_rows(row[:3] for row in rows if row[0] is not None)
    row = next((row for row in rows if row[0] is None), None)
    if row is None:
        return None
    if user_id is not None:
        _request.user = (user_id, row[3:])
    return Stored(session_key, row[1], sql.moment(row[2]))


def user_read_with_session(user_id: Any) -> tuple | None:
    """The row of user `user_id` with their role (as config/user_rows.py reads it; its columns NULL
    when there is no such user) if this request read it with its session, else None."""
    read = getattr(_request, "user", None)
    if read is None or read[0] != user_id:
        return None
    return read[1]


def user_keys(session_key: str) -> tuple[str, ...]:
    """For a session read from the cache: the keys of the default cache to read with it, its
    user's row kept there (config/auth.py), when the process knows whose the session is (as
    for the database's read above); `take_user_row` then takes what was found."""
    user_id = _user_of(session_key) if getattr(_request, "active", False) else None
    if user_id is None or not settings.REDIS_URL:  # a row is kept only in Redis
        return ()
    return (user_rows.kept_row_key(user_id),)


def take_user_row(session_key: str, found: dict[str, Any]) -> None:
    """The user's row among `found` (read with the session, `user_keys`) becomes this
    request's, as a row read with the session from the database does."""
    user_id = _user_of(session_key) if getattr(_request, "active", False) else None
    if user_id is None:
        return
    row = found.get(user_rows.kept_row_key(user_id))
    if row is not None:
        _request.user = (user_id, row)


def _user_of(session_key: str) -> Any:
    with _lock:
        return _users_of.get(session_key)


def _remember(session_key: str, user_id: Any) -> None:
    with _lock:
        _users_of[session_key] = user_id
        _users_of.move_to_end(session_key)
        while len(_users_of) > MAX_REMEMBERED:
            _users_of.popitem(last=False)


class ReadByHand:
    """Django's `_get_session_from_db`, through `unexpired`: the row, or None with the key
    forgotten (so that a new session gets a new key). A loaded session's user is remembered
    under its key (see above)."""

    def _get_session_from_db(self):
        stored = unexpired(self.session_key)
        if stored is None:
            self._session_key = None
        return stored

    def load(self):
        return self._remembered(super().load())

    def _remembered(self, data):
        if SESSION_KEY in data and self.session_key:
            try:
                user_id = get_user_model()._meta.pk.to_python(data[SESSION_KEY])
            except ValidationError:  # Django's `get_user` says nobody then: nobody to remember
                return data
            _remember(self.session_key, user_id)
        return data


def _start(**_: object) -> None:
    _request.active, _request.user = True, None


def _finish(**_: object) -> None:
    _request.active, _request.user = False, None


request_started.connect(_start, dispatch_uid="sessions-start")
request_finished.connect(_finish, dispatch_uid="sessions-finish")

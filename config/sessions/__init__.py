"""Django's database sessions (`db`, and `cached_db` in front of a shared cache), the stored
session read with one hand-written query: every page reads it, and building the ORM's query
cost several times what the database takes to answer it (docs/benchmarks.md). Everything else,
saving, expiring, flushing, is Django's."""

from __future__ import annotations

import datetime
from typing import NamedTuple

from django.utils import timezone

from config import sql, versions


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
    query = (
        "SELECT NULL, session_data, expire_date FROM django_session"
        " WHERE session_key = %s AND expire_date > %s"
    )
    params = [session_key, sql.at(timezone.now())]
    # Without Redis, the shared versions (config/versions.py) come with it: no query of their own.
    tokens = versions.table_rows()
    if tokens is not None:
        query = f"{query} UNION ALL {tokens[0]}"
        params += tokens[1]
    rows = sql.rows(query, params, prepared=True)
    if tokens is not None:
        versions.take_rows(row for row in rows if row[0] is not None)
    row = next((row for row in rows if row[0] is None), None)
    return None if row is None else Stored(session_key, row[1], sql.moment(row[2]))


class ReadByHand:
    """Django's `_get_session_from_db`, through `unexpired`: the row, or None with the key
    forgotten (so that a new session gets a new key)."""

    def _get_session_from_db(self):
        stored = unexpired(self.session_key)
        if stored is None:
            self._session_key = None
        return stored

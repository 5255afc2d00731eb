"""PostgreSQL's prepared statements for `config.sql` (psycopg 3: imported only on PostgreSQL).

Django binds parameters on the client (`ClientCursor`), which never prepares. A query that asks
to be prepared runs on a server-binding cursor with `prepare=True`, through Django's cursor
wrapper (its errors, transactions and query log). The connection's `prepare_threshold`
(settings.py) is so high that nothing else is ever prepared by itself; with None, psycopg would
not prepare even when asked.
"""

from __future__ import annotations

import psycopg
from django.db.backends.postgresql.psycopg_any import register_tzloader
from django.db.backends.utils import CursorDebugWrapper, CursorWrapper
from psycopg.pq import Format


class PreparingCursor(psycopg.Cursor):
    """A server-binding cursor that prepares every statement it executes."""

    def execute(self, query, params=None, *, prepare=None, binary=None):
        return super().execute(query, params, prepare=True, binary=binary)


class LoggedCursor(CursorDebugWrapper):
    """Django's logging wrapper (tests, DEBUG): psycopg keeps no text of a prepared execution,
    so the log holds the query as the client-side cursor would have sent it."""

    def execute(self, sql, params=None):
        try:
            with self.debug_sql(sql, params):
                return CursorWrapper.execute(self, sql, params)
        finally:
            self.db.queries_log[-1]["sql"] = self.db.ops.compose_sql(sql, params)


def cursor(connection) -> CursorWrapper:
    """A wrapped preparing cursor on Django's `connection` (opened if need be), its time zone
    set as Django's `create_cursor` sets it."""
    connection.validate_thread_sharing()
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    raw = PreparingCursor(connection.connection)
    timestamptz = raw.adapters.types["timestamptz"].oid
    if connection.timezone != raw.adapters.get_loader(timestamptz, Format.TEXT).timezone:
        register_tzloader(connection.timezone, raw)
    if connection.queries_logged:
        return LoggedCursor(raw, connection)
    return connection.make_cursor(raw)

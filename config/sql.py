"""Hand-written SQL for the few queries every page pays, where building and compiling the ORM's
query costs more than the database's answer (docs/benchmarks.md: about half a practice page was
Django building querysets). Plain SQL both SQLite and PostgreSQL run; `%s` placeholders (Django's
cursor adapts them). Each such query has a test that it returns what its queryset would.

What a raw cursor gives back differs by database, so values are read through these helpers:
SQLite returns a `DateTimeField` as text and a `BooleanField` as 0/1.

On PostgreSQL a query run with `prepared=True` is parsed and planned once per connection (the
pool keeps connections, so once per process and connection), then only executed: planning a
page's queries cost PostgreSQL more than running them (docs/benchmarks.md). Planned once means
a generic plan: the connection's `plan_cache_mode` forces it (settings.py), where PostgreSQL,
left to choose, planned the learner's rows afresh on every run. Only for queries of one shape
whose plan does not hang on their values: the selection's walks stay planned for each target,
where a generic plan walked the whole question table.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection
from django.db.models import Model
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from config import prepared_statements


def rows(sql: str, params: Sequence[Any] = (), *, prepared: bool = False) -> list[tuple]:
    """Every row `sql` returns, as tuples."""
    with _cursor(prepared) as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def first(sql: str, params: Sequence[Any] = (), *, prepared: bool = False) -> tuple | None:
    """The first row `sql` returns, or None."""
    with _cursor(prepared) as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


def run(sql: str, params: Sequence[Any] = (), *, prepared: bool = False) -> int:
    """Run a statement that returns no rows (an INSERT, UPDATE or DELETE); the rows it touched."""
    with _cursor(prepared) as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount


def _cursor(prepared: bool):
    """Django's cursor; on PostgreSQL with `prepared`, one that prepares what it runs."""
    if not prepared or connection.vendor != "postgresql":
        return connection.cursor()
    return prepared_statements.cursor(connection)


def placeholders(values: Iterable[Any]) -> str:
    """`%s, %s, ...` for an `IN (...)` of `values`; `NULL` for none (`IN (NULL)` matches no row,
    where `IN ()` is a syntax error)."""
    count = len(list(values))
    return ", ".join(["%s"] * count) if count else "NULL"


def at(value: datetime.datetime) -> Any:
    """A datetime as a parameter compared with a `DateTimeField` column, as the ORM sends it
    (SQLite stores text in UTC; PostgreSQL takes the datetime)."""
    return connection.ops.adapt_datetimefield_value(value)


def moment(value: Any) -> datetime.datetime | None:
    """A `DateTimeField` column read by hand, as the ORM would give it (aware, in UTC)."""
    if value is None or isinstance(value, datetime.datetime):
        return value if value is None or timezone.is_aware(value) else _utc(value)
    return _utc(parse_datetime(value))


def _utc(value: datetime.datetime) -> datetime.datetime:
    return value if timezone.is_aware(value) else value.replace(tzinfo=datetime.UTC)


def day(value: Any) -> datetime.date | None:
    """A date computed in SQL (`connection.ops.datetime_cast_date_sql`): SQLite gives text."""
    return datetime.date.fromisoformat(value) if isinstance(value, str) else value


def document(value: Any) -> Any:
    """A `JSONField` column read by hand: text on SQLite, and on PostgreSQL as Django's
    connection reads jsonb (text too)."""
    return json.loads(value) if isinstance(value, str | bytes) else value


def flag(value: Any) -> bool | None:
    """A `BooleanField` column (or an `EXISTS`) read by hand: SQLite gives 0/1."""
    return None if value is None else bool(value)


def refresh_statistics() -> None:
    """After a bulk load, PostgreSQL's planner still describes the tables as they were (empty,
    on a new database) until autovacuum gets to them: a rule page's list was planned for 20
    questions where there were 5,000, and took 8 ms instead of 0.5. `ANALYZE` brings the
    statistics up to date, as its documentation advises after bulk loading. (SQLite keeps
    none unless asked, and its plans here are fixed by the queries' shape.)"""
    if connection.vendor == "postgresql":
        run("ANALYZE")


def insert(instance: Model, *, ignore_conflicts: bool = False) -> bool:
    """Store a new `instance` (its pk automatic) in one INSERT, each value prepared by its field
    as `save()` prepares it; sets its pk. No signals: only for a model no receiver listens to.
    With `ignore_conflicts`, a row that would break a unique constraint is not stored (`ON
    CONFLICT DO NOTHING`, no error: no savepoint needed around it): False then."""
    meta = instance._meta
    fields = [field for field in meta.concrete_fields if not field.primary_key]
    values = [
        field.get_db_prep_save(field.pre_save(instance, True), connection) for field in fields
    ]
    names = ", ".join(f'"{field.column}"' for field in fields)
    statement = (
        f'INSERT INTO "{meta.db_table}" ({names}) VALUES ({placeholders(values)})'
        f'{" ON CONFLICT DO NOTHING" if ignore_conflicts else ""} RETURNING "{meta.pk.column}"'
    )
    stored = first(statement, values, prepared=True)
    if stored is None:
        return False
    instance.pk = stored[0]
    instance._state.adding = False
    instance._state.db = connection.alias
    return True

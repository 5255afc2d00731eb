"""Versions every worker reads alike: one random token per kind of cached data, replaced when that
data changes, so that entries cached under an older token are never read again.

The tokens live in the `shared` cache (Redis, or the database table every worker reads). A
request reads all of them at its first need, in one round trip (one query without Redis), and
keeps them until it ends; outside a request each read asks the cache again. Without Redis, a
request with a session reads them with its session, in the same query (`table_rows`,
config/sessions): no query of their own.
"""

from __future__ import annotations

import base64
import pickle
import secrets
from collections.abc import Iterable
from typing import Any

from asgiref.local import Local
from django.core.cache import caches
from django.core.cache.backends.db import DatabaseCache
from django.core.signals import request_finished, request_started
from django.db import DEFAULT_DB_ALIAS, connection, router, transaction
from django.db.models.signals import post_delete, post_save
from django.utils import timezone

from config import sql

RULES = "rules-version"  # rule texts (quizzes/reference/texts.py)
BANKS = "banks-version"  # the banks each visitor may practise from (quizzes/visibility.py)
NAMES = (RULES, BANKS)

_request = Local()  # `.read`: the tokens this request has read, or None outside a request


def shared_reads_database() -> bool:
    """Whether reading the tokens is a database query (no Redis): query counts include it."""
    return caches["shared"].__class__.__name__ == "DatabaseCache"


def _read_all() -> dict[str, str]:
    shared = caches["shared"]
    tokens = shared.get_many(NAMES)
    missing = [name for name in NAMES if name not in tokens]
    if missing:  # first use, or culled from the table: a new token misses, never stales
        for name in missing:
            shared.add(name, secrets.token_hex(8), timeout=None)
        tokens |= shared.get_many(missing)
    return tokens


def current(name: str) -> str:
    """The current token of `name` (one of NAMES)."""
    read = getattr(_request, "read", None)
    if read is None:
        return _read_all().get(name, "")
    if name not in read:
        read |= _read_all()
    return read.get(name, "")


def unread() -> tuple[str, ...]:
    """The names to read with a read this request makes anyway (its session's, from Redis:
    config/sessions/cached_db.py), to hand to `take`; none outside a request or once read."""
    read = getattr(_request, "read", None)
    return NAMES if read == {} else ()


def take(found: dict[str, str]) -> None:
    """The tokens `found` (name: token, as read from the shared cache) become this request's
    when every one was there; else the first `current` reads them as without this (adding a
    missing one)."""
    read = getattr(_request, "read", None)
    if read is not None and not read and all(name in found for name in NAMES):
        read |= {name: found[name] for name in NAMES}


def table_rows(padding: int = 0) -> tuple[str, list[str]] | None:
    """For a query this request makes anyway on the default database (the session's read): a
    `SELECT` of the tokens' rows in the shared cache's table, as (key, value, expires) and
    `padding` NULL columns, to join to it with `UNION ALL`, and its parameters. None when the
    tokens are not rows of that database (Redis), outside a request, or when this request has
    read them already."""
    read = getattr(_request, "read", None)
    if read is None or read:
        return None
    shared = caches["shared"]
    if not isinstance(shared, DatabaseCache):
        return None
    if router.db_for_read(shared.cache_model_class) != DEFAULT_DB_ALIAS:
        return None
    keys = [shared.make_and_validate_key(name) for name in NAMES]
    table = connection.ops.quote_name(shared._table)
    listed = sql.placeholders(keys)
    nulls = ", NULL" * padding
    where = f'"cache_key" IN ({listed})'
    query = f'SELECT "cache_key", "value", "expires"{nulls} FROM {table} WHERE {where}'
    return query, keys


def take_rows(rows: Iterable[tuple[str, str, Any]]) -> None:
    """The tokens among `rows` (as `table_rows` reads them) become this request's, each decoded
    as `DatabaseCache.get_many` decodes it. One missing or expired is not taken: the first
    `current` that needs it reads them all from the cache as without this (which adds a
    missing one and deletes an expired one)."""
    read = getattr(_request, "read", None)
    if read is None or read:
        return
    shared = caches["shared"]
    names = {shared.make_and_validate_key(name): name for name in NAMES}
    found = {}
    now = timezone.now()
    for key, value, expires in rows:
        if key in names and sql.moment(expires) >= now:
            found[names[key]] = pickle.loads(base64.b64decode(value.encode()))
    if len(found) == len(NAMES):
        read |= found


def bump(name: str) -> None:
    """Forget everything cached under `name`, in every worker (call once the change commits)."""
    token = secrets.token_hex(8)
    caches["shared"].set(name, token, timeout=None)
    read = getattr(_request, "read", None)
    if read is not None:
        read[name] = token


def bump_after_commit(name: str) -> None:
    """Bump `name` once the current transaction commits: a reader that fetched before the commit
    must not store under the new token, so the token moves only once the change is visible."""
    transaction.on_commit(lambda: bump(name))


def bump_on_change(name: str, models: Iterable[type]) -> None:
    """Bump `name` after every save or delete of a row of `models` commits (from an app's
    `ready`: what is cached under `name` is made of those rows)."""

    def changed(**_: object) -> None:
        bump_after_commit(name)

    for model in models:
        post_save.connect(changed, sender=model, weak=False, dispatch_uid=f"{name}-{model}")
        post_delete.connect(changed, sender=model, weak=False, dispatch_uid=f"{name}-del-{model}")


def _start(**_: object) -> None:
    _request.read = {}


def _finish(**_: object) -> None:
    _request.read = None


request_started.connect(_start, dispatch_uid="versions-start")
request_finished.connect(_finish, dispatch_uid="versions-finish")

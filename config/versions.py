"""Versions every worker reads alike: one random token per kind of cached data, replaced when that
data changes, so that entries cached under an older token are never read again.

The tokens live in the `shared` cache (Redis, or the database table every worker reads). A
request reads all of them at its first need, in one round trip (one query without Redis), and
keeps them until it ends; outside a request each read asks the cache again.
"""

from __future__ import annotations

import secrets

from asgiref.local import Local
from django.core.cache import caches
from django.core.signals import request_finished, request_started

RULES = "rules-version"  # rule texts (rules/texts.py)
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


def bump(name: str) -> None:
    """Forget everything cached under `name`, in every worker (call once the change commits)."""
    token = secrets.token_hex(8)
    caches["shared"].set(name, token, timeout=None)
    read = getattr(_request, "read", None)
    if read is not None:
        read[name] = token


def _start(**_: object) -> None:
    _request.read = {}


def _finish(**_: object) -> None:
    _request.read = None


request_started.connect(_start, dispatch_uid="versions-start")
request_finished.connect(_finish, dispatch_uid="versions-finish")

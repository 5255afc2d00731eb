"""Django's Redis cache made optional in fact: while Redis is down or too slow, it answers as an
empty cache that keeps nothing, so pages are computed (and sessions read from the database)
instead of failing.

- Every call is bounded by the client's short socket timeouts (config/settings.py).
- A failed call opens a breaker for RETRY_AFTER seconds: meanwhile this process does not ask
  Redis at all, so a request pays for a dead Redis at most once per process per breaker, not
  once per cache call.
- A write or delete that could not reach Redis would leave an older value there for when it
  comes back (a logged-out session, a rules' version that was bumped): its key is remembered,
  and deleted before this process asks Redis anything else once it answers again (past
  LOST_KEYS remembered, the whole cache is cleared instead). Another process may read such a
  key before: docs/deployment.md says when to flush Redis after an outage.
- Failures are logged once per breaker, as warnings naming the error.

One state per Redis location, shared by the aliases on it (default, throttle, shared).
/healthz asks Redis through `strict`, the same cache without any of this.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

logger = logging.getLogger("config.cache")

RETRY_AFTER = 5.0  # seconds a failure keeps this process from asking Redis again
LOST_KEYS = 10_000  # writes remembered while Redis is away; past that, clear on return


@dataclass
class Breaker:
    """What one process knows about one Redis: when to ask again, and what it failed to write."""

    closed_at: float = 0.0  # monotonic time from which Redis may be asked again
    lost: set[str] = field(default_factory=set)  # keys whose write or delete was lost
    lost_everything: bool = False  # too many lost keys, or a lost clear()
    lock: threading.Lock = field(default_factory=threading.Lock)

    def is_open(self) -> bool:
        return time.monotonic() < self.closed_at

    def trip(self, error: Exception) -> None:
        with self.lock:
            first = not self.is_open()
            self.closed_at = time.monotonic() + RETRY_AFTER
        if first:
            logger.warning(
                "Redis unavailable (%s: %s); the cache is bypassed", type(error).__name__, error
            )

    def lose(self, keys) -> None:
        with self.lock:
            self.lost.update(keys)
            if len(self.lost) > LOST_KEYS:
                self.lost_everything, self.lost = True, set()


_breakers: dict[str, Breaker] = {}
_breakers_lock = threading.Lock()


def breaker_for(location: str) -> Breaker:
    with _breakers_lock:
        return _breakers.setdefault(location, Breaker())


# What each call answers while Redis is away (a function of its arguments), and which calls
# write (their keys are remembered as lost).
_MISSING = {
    "get": lambda key, default=None, version=None: default,
    "get_many": lambda keys, version=None: {},
    "has_key": lambda key, version=None: False,
    "add": lambda *args, **kwargs: False,
    "set": lambda *args, **kwargs: False,
    "touch": lambda *args, **kwargs: False,
    "delete": lambda *args, **kwargs: False,
    "set_many": lambda data, *args, **kwargs: list(data),  # every key failed
    "delete_many": lambda *args, **kwargs: None,
    "clear": lambda: None,
    # django-ratelimit's count: as for a new key (the first request), so a throttle fails open
    "incr": lambda key, delta=1, version=None: delta,
    # keys made already, by any alias on this Redis (`get_across`)
    "raw_get_many": lambda keys: {},
}
_WRITES_ONE = {"add", "set", "touch", "delete", "incr"}  # first argument: a key
_WRITES_MANY = {"set_many", "delete_many"}  # first argument: keys (or a dict of them)


class ForgivingRedisCache(RedisCache):
    """`CACHES[...]["BACKEND"]` for Redis: Django's RedisCache that never raises RedisError."""

    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._location, self._params = server, params
        self.breaker = breaker_for(str(server))

    @functools.cached_property
    def strict(self) -> RedisCache:
        """The same cache raising its errors (for /healthz), with a client of its own."""
        return RedisCache(self._location, self._params)

    def _lost_keys(self, name: str, args: tuple, kwargs: dict) -> list[str] | None:
        """The full keys a failed call `name` would have changed; None: it changes everything."""
        if name == "clear":
            return None
        version = kwargs.get("version")
        if name in _WRITES_ONE:
            key = args[0] if args else kwargs["key"]
            return [self.make_key(key, version=version)]
        if name in _WRITES_MANY:
            keys = args[0] if args else kwargs.get("keys", kwargs.get("data", ()))
            return [self.make_key(key, version=version) for key in keys]
        return []

    def _recover(self) -> None:
        """Once Redis answers: delete what was written while it was away (raises RedisError)."""
        breaker = self.breaker
        with breaker.lock:
            lost, everything = breaker.lost, breaker.lost_everything
            breaker.lost, breaker.lost_everything = set(), False
        try:
            if everything:
                self._cache.clear()
            elif lost:
                self._cache.delete_many(list(lost))
        except RedisError:
            with breaker.lock:
                breaker.lost |= lost
                breaker.lost_everything |= everything
            raise
        if everything or lost:
            logger.warning(
                "Redis answers again: %s",
                "cleared" if everything else f"{len(lost)} stale keys deleted",
            )

    def _call(self, name: str, *args, **kwargs):
        breaker = self.breaker
        if not breaker.is_open():
            try:
                if breaker.lost or breaker.lost_everything:
                    self._recover()
                if name.startswith("raw_"):  # the client's own call, on full keys
                    return getattr(self._cache, name[4:])(*args, **kwargs)
                return getattr(super(), name)(*args, **kwargs)
            except RedisError as error:
                breaker.trip(error)
        lost = self._lost_keys(name, args, kwargs)
        if lost is None:
            with breaker.lock:
                breaker.lost_everything = True
        elif lost:
            breaker.lose(lost)
        return _MISSING[name](*args, **kwargs)


def _forgiving(name: str):
    def method(self, *args, **kwargs):
        return self._call(name, *args, **kwargs)

    method.__name__ = name
    method.__doc__ = f"RedisCache.{name}, answered as an empty cache while Redis is away."
    return method


for _name in _MISSING:
    setattr(ForgivingRedisCache, _name, _forgiving(_name))


def get_across(wanted: list[tuple[str, str]]) -> dict[tuple[str, str], Any]:
    """The values found under `wanted`'s (cache alias, key) pairs: in one round trip (one MGET)
    when every alias is a `ForgivingRedisCache` on one Redis, as a request's first read of its
    session, its user's row and the shared versions is (they live under different aliases:
    their prefixes differ); else one `get_many` per alias."""
    if not wanted:
        return {}
    backends = {alias: caches[alias] for alias, _ in wanted}
    first = next(iter(backends.values()))
    if all(
        isinstance(backend, ForgivingRedisCache) and backend._location == first._location
        for backend in backends.values()
    ):
        full = {backends[alias].make_and_validate_key(key): (alias, key) for alias, key in wanted}
        found = first._call("raw_get_many", list(full))
        return {full[key]: value for key, value in found.items()}
    values: dict[tuple[str, str], Any] = {}
    for alias, backend in backends.items():
        keys = [key for each, key in wanted if each == alias]
        values |= {(alias, key): value for key, value in backend.get_many(keys).items()}
    return values

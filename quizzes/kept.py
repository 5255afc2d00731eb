"""A small per-process LRU for things many requests compute alike from immutable inputs.

Per process only (never a shared cache), and keyed by everything the value is made from, so a
kept value is exactly what computing it again would give.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

Value = TypeVar("Value")
_EVERY: list[Kept] = []  # every Kept made, for `clear_all`


class Kept(Generic[Value]):
    """At most `size` values, the least recently used dropped first; safe across threads."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._values: OrderedDict[Hashable, Value] = OrderedDict()
        self._lock = threading.Lock()
        _EVERY.append(self)

    def get(self, key: Hashable, make: Callable[[], Value]) -> Value:
        with self._lock:
            if key in self._values:
                self._values.move_to_end(key)
                return self._values[key]
        value = make()  # outside the lock: two threads may both make it, alike
        with self._lock:
            self._values[key] = value
            while len(self._values) > self.size:
                self._values.popitem(last=False)
        return value

    def clear(self) -> None:
        with self._lock:
            self._values.clear()

    def __len__(self) -> int:
        return len(self._values)


def clear_all() -> None:
    """Forget every kept value of this process (tests start from nothing kept)."""
    for kept in _EVERY:
        kept.clear()

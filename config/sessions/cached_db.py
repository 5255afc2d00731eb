"""Django's cached database sessions, read by hand on a cache miss (config/sessions):
`SESSION_ENGINE` with Redis.

A page's session is read from the cache in one round trip with what the request reads next
from the same Redis: its user's kept row (config/auth.py, when the process knows whose the
session is) and the shared versions (config/versions.py). Was three: a GET, a GET, an MGET.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.sessions.backends import cached_db

from config import versions
from config.cache import get_across
from config.sessions import ReadByHand, take_user_row, user_keys


class SessionStore(ReadByHand, cached_db.SessionStore):
    def load(self):
        if not self.session_key:
            return super().load()
        alias = settings.SESSION_CACHE_ALIAS
        wanted = [(alias, self.cache_key)]
        wanted += [("default", key) for key in user_keys(self.session_key)]
        wanted += [("shared", name) for name in versions.unread()]
        found = get_across(wanted)
        versions.take({key: value for (each, key), value in found.items() if each == "shared"})
        data = found.get((alias, self.cache_key))
        if data is None:  # not cached: from the database, as Django's `load`
            return super().load()
        take_user_row(
            self.session_key, {k: v for (each, k), v in found.items() if each == "default"}
        )
        return self._remembered(data)

"""The log-in backend: Django's, loading a session's user together with whether they are an
instructor, in one hand-written query (config/user_rows.py), or with no query of its own when
the request read the user with its session (config/sessions), or, with Redis, from Redis.

With Redis, sessions are read from it (`cached_db`) and so is their user's row: a page then
reads neither from the database. The row is forgotten whenever the user is saved or deleted or
their groups change (the signals below), and kept at most `USER_ROW_SECONDS` in any case (a
change that bypasses the signals, a queryset's `update()`, lasts no longer than that). Without
Redis the row is never kept: a cache per process would keep it after another worker changed it.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import backends, get_user_model
from django.core.cache import caches
from django.db.models.signals import m2m_changed, post_delete, post_save

from config import sessions, sql, user_rows

USER_ROW_SECONDS = 300


class ModelBackend(backends.ModelBackend):
    def get_user(self, user_id):
        # read with the request's session when it could be (config/sessions), else kept in
        # Redis, else now
        row = sessions.user_read_with_session(user_id)
        if row is None:
            row = _kept_row(user_id)
        if row is None:
            parameters = [user_rows.role_parameter(), user_id]
            row = sql.first(user_rows.user_with_role(), parameters, prepared=True)
            if row is not None:
                _keep_row(user_id, row)
        user = None if row is None else user_rows.read(row)  # None: no such user
        if user is None or not self.user_can_authenticate(user):
            return None
        return user


def _shared() -> Any:
    """Redis when it is configured (None without it)."""
    return caches["default"] if settings.REDIS_URL else None


def _kept_row(user_id: Any) -> tuple | None:
    shared = _shared()
    return None if shared is None else shared.get(user_rows.kept_row_key(user_id))


def _keep_row(user_id: Any, row: tuple) -> None:
    shared = _shared()
    if shared is not None:
        shared.set(user_rows.kept_row_key(user_id), tuple(row), USER_ROW_SECONDS)


def forget_user_row(user_id: Any) -> None:
    """The kept row of user `user_id` is stale: the next page reads it from the database."""
    shared = _shared()
    if shared is not None:
        shared.delete(user_rows.kept_row_key(user_id))


def _forget_saved(sender, instance, **_: object) -> None:
    forget_user_row(instance.pk)


def _forget_regrouped(sender, instance, action: str, reverse: bool, pk_set, **_: object) -> None:
    if not action.startswith("post_"):
        return
    if not reverse:  # user.groups changed
        forget_user_row(instance.pk)
        return
    users = pk_set if pk_set is not None else []  # group.user_set changed (clear: unknown)
    for user_id in users:
        forget_user_row(user_id)


def connect_signals() -> None:
    """Forget a user's kept row when it changes (config/apps.py, once the apps are ready)."""
    user = get_user_model()
    post_save.connect(_forget_saved, sender=user, dispatch_uid="auth-forget-saved-user")
    post_delete.connect(_forget_saved, sender=user, dispatch_uid="auth-forget-deleted-user")
    m2m_changed.connect(
        _forget_regrouped, sender=user.groups.through, dispatch_uid="auth-forget-regrouped-user"
    )

"""App configs of the project itself (no models: imported before the app registry is ready)."""

from __future__ import annotations

from django.contrib.admin.apps import AdminConfig


class TutorAdminConfig(AdminConfig):
    """The admin, with its site restricted to superusers (config/admin.py)."""

    default_site = "config.admin.SuperuserAdminSite"

    def ready(self) -> None:
        super().ready()
        # the users' rows kept in Redis are forgotten on every change, in every process that
        # may change one (a request, a management command)
        from config import auth

        auth.connect_signals()

"""The admin site: for superusers only. Instructors work in the app (/banks/, /cohorts/), where
every lookup goes through its owner; the admin's generic pages see every row, so a staff
instructor must not reach them."""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm

from config.throttling import throttled

NOT_FOR_INSTRUCTORS = (
    "The admin is for site administrators. Instructors work in the app: banks at /banks/, "
    "cohorts at /cohorts/."
)


class SuperuserAuthenticationForm(AdminAuthenticationForm):
    def confirm_login_allowed(self, user) -> None:
        super().confirm_login_allowed(user)
        if not user.is_superuser:
            raise forms.ValidationError(NOT_FOR_INSTRUCTORS, code="not_superuser")


class SuperuserAdminSite(admin.AdminSite):
    site_header = "Tutor administration"
    site_title = "Tutor admin"
    login_form = SuperuserAuthenticationForm

    def has_permission(self, request) -> bool:
        return request.user.is_active and request.user.is_superuser

    def login(self, request, extra_context=None):
        # the same per-address throttle as the app's log-in (axes locks accounts on both)
        return throttled("login")(super().login)(request, extra_context)

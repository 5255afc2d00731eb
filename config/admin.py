"""The admin site: for superusers only. Instructors work in the app (/banks/, /cohorts/), where
every lookup goes through its owner; the admin's generic pages see every row, so a staff
instructor must not reach them."""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.admin.widgets import AutocompleteSelect, AutocompleteSelectMultiple
from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db import models

from config.inputs import StorableJSONField
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


def _cleanable(field, values) -> list:
    """The values the related model's key field could hold (a form re-shown with a bad value)."""
    kept = []
    for value in values:
        try:
            field.target_field.to_python(value)
        except ValidationError:
            continue
        kept.append(value)
    return kept


class SafeAutocompleteSelect(AutocompleteSelect):
    def optgroups(self, name, value, attr=None):
        return super().optgroups(name, _cleanable(self.field, value), attr)


class SafeAutocompleteSelectMultiple(AutocompleteSelectMultiple):
    def optgroups(self, name, value, attr=None):
        return super().optgroups(name, _cleanable(self.field, value), attr)


class ModelAdmin(admin.ModelAdmin):
    """The base of Tutor's model admins, hardened against bad input: JSON fields refuse
    unstorable text; related fields drop values no row could have (from `?rule=x` or a form
    posted back) instead of failing with a 500."""

    formfield_overrides = {models.JSONField: {"form_class": StorableJSONField}}

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        formfield = super().formfield_for_dbfield(db_field, request, **kwargs)
        widget = getattr(formfield, "widget", None)
        inner = getattr(widget, "widget", widget)  # inside the add/change-related wrapper
        for unsafe, safe in (
            (AutocompleteSelectMultiple, SafeAutocompleteSelectMultiple),
            (AutocompleteSelect, SafeAutocompleteSelect),
        ):
            if type(inner) is unsafe:
                inner.__class__ = safe
                break
        return formfield

    def get_changeform_initial_data(self, request) -> dict:
        initial = super().get_changeform_initial_data(request)
        for name, value in list(initial.items()):
            try:
                field = self.model._meta.get_field(name)
            except FieldDoesNotExist:
                continue
            if not field.is_relation or field.target_field is None:
                continue
            try:
                for item in value if isinstance(value, list) else [value]:
                    field.target_field.to_python(item)
            except ValidationError:
                del initial[name]
        return initial

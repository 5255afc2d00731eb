"""The administrator's LTI pages: django-lti's registration (issuer, client ID, URLs, deployment
IDs) with Tutor's frame origins beside it, and the tool's keys (made by `manage.py rotate_keys`)."""

from __future__ import annotations

from django.contrib import admin
from django.db import models
from lti_tool.admin import LtiDeploymentInline, LtiRegistrationAdmin
from lti_tool.models import Key, LtiRegistration

from config.admin import ModelAdmin
from quizzes.models import LtiPlatform

# a platform's URLs are HTTPS: typed without a scheme, they are read as such
HTTPS_URLS = {models.URLField: {"assume_scheme": "https"}}


class LtiPlatformInline(admin.StackedInline):
    model = LtiPlatform
    can_delete = False
    max_num = 1


class DeploymentInline(LtiDeploymentInline):
    formfield_overrides = HTTPS_URLS


class RegistrationAdmin(LtiRegistrationAdmin):
    """django-lti's registration page; its deployments' `is_active` must be ticked for their
    launches to be taken (quizzes/lti/launches.py)."""

    inlines = [DeploymentInline, LtiPlatformInline]
    formfield_overrides = HTTPS_URLS


admin.site.unregister(LtiRegistration)
admin.site.register(LtiRegistration, RegistrationAdmin)


@admin.register(Key)
class KeyAdmin(ModelAdmin):
    """The tool's key pairs: listed, switched off; made only by `manage.py rotate_keys` (a
    private key is never typed into a form)."""

    list_display = ["__str__", "is_active", "datetime_created"]
    fields = ["public_key", "is_active", "datetime_created"]
    readonly_fields = ["public_key", "datetime_created"]

    def has_add_permission(self, request) -> bool:
        return False

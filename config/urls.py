"""Tutor's URLs: the public map is in docs/architecture.md."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from config.health import healthz
from quizzes.views import signup

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/signup/", signup, name="signup"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("rules.urls")),
    path("", include("quizzes.urls")),
]

"""Tutor's URLs: the public map is in docs/architecture.md."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from quizzes.views import signup

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/signup/", signup, name="signup"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("rules.urls")),
    path("", include("quizzes.urls")),
]

"""Tutor's URLs: the public map is in docs/architecture.md."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("rules.urls")),
    path("", include("quizzes.urls")),
]

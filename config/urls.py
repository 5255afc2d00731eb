"""Tutor's URLs: the public map is in docs/architecture.md."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from config.health import healthz
from config.throttling import throttled
from quizzes.api.views import api
from quizzes.instructors.cohorts import signup_apart
from quizzes.language import set_language
from quizzes.views import signup

handler500 = "config.errors.server_error"  # 503 while the database cannot be reached

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("i18n/setlang/", set_language, name="set_language"),
    # throttled doors (config/throttling.py); the rest of django.contrib.auth.urls as it is
    # a cohort's join code counts its sign-ups apart from its address's others
    path("accounts/signup/", throttled("signup", signup_apart)(signup), name="signup"),
    path("accounts/login/", throttled("login")(auth_views.LoginView.as_view()), name="login"),
    path(
        "accounts/password_reset/",
        throttled("password_reset")(auth_views.PasswordResetView.as_view()),
        name="password_reset",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/v1/", api.urls),  # the rulings API (docs/api.md)
    path("", include("quizzes.reference.urls")),
    path("", include("quizzes.urls")),
]

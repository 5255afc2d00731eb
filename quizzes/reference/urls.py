from __future__ import annotations

from django.urls import path

import config.converters  # noqa: F401 (registers id, bounded_slug, rule_number)
from quizzes.reference import views

urlpatterns = [
    path("rules/", views.rule_index, name="rule_index"),
    path("rules/<rule_number:number>/", views.rule_detail, name="rule_detail"),
    path("cards/", views.card_index, name="card_index"),
    path("cards/new/", views.card_edit, name="card_create"),
    path("cards/preview/", views.card_preview, name="card_preview"),
    path("cards/<id:pk>/", views.card_detail, name="card_detail"),
    path("cards/<id:pk>/edit/", views.card_edit, name="card_edit"),
]

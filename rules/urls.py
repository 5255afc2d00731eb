from __future__ import annotations

from django.urls import path

import config.converters  # noqa: F401 (registers id, bounded_slug, rule_number)
from rules import views

urlpatterns = [
    path("rules/", views.rule_index, name="rule_index"),
    path("rules/<rule_number:number>/", views.rule_detail, name="rule_detail"),
]

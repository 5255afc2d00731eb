from __future__ import annotations

from django.urls import path

from rules import views

urlpatterns = [
    path("rules/", views.rule_index, name="rule_index"),
    path("rules/<str:number>/", views.rule_detail, name="rule_detail"),
]

from __future__ import annotations

from django.urls import path

from rules import views

urlpatterns = [path("rules/<str:number>/", views.rule_detail, name="rule_detail")]

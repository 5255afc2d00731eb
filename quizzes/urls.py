from __future__ import annotations

from django.urls import path

from quizzes import views

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("", views.home, name="home"),
    path("practice/", views.practice, name="practice"),
    path("practice/answer/", views.answer, name="answer"),
    path("practice/answers/<int:pk>/", views.feedback, name="feedback"),
    path("progress/", views.progress, name="progress"),
]

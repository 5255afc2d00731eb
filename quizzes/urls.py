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

urlpatterns += [
    path("exams/", views.exam_index, name="exam_index"),
    path("exams/start/<slug:slug>/", views.exam_start, name="exam_start"),
    path("exams/<int:pk>/", views.exam_sitting, name="exam_sitting"),
    path("exams/<int:pk>/q/<int:position>/", views.exam_question, name="exam_question"),
    path("exams/<int:pk>/clock/", views.exam_clock, name="exam_clock"),
    path("exams/<int:pk>/finish/", views.exam_finish, name="exam_finish"),
    path("exams/<int:pk>/review/<int:position>/", views.exam_review, name="exam_review"),
]

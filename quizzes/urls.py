from __future__ import annotations

from django.urls import path

from quizzes import views
from quizzes.instructors import views as instructors

urlpatterns = [
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

urlpatterns += [
    path("banks/", instructors.bank_index, name="bank_index"),
    path("banks/new/", instructors.bank_create, name="bank_create"),
    path("banks/<slug:slug>/", instructors.bank_detail, name="bank_detail"),
    path("banks/<slug:slug>/edit/", instructors.bank_edit, name="bank_edit"),
    path("banks/<slug:slug>/lint/", instructors.bank_lint, name="bank_lint"),
    path("banks/<slug:slug>/export.json", instructors.bank_export_json, name="bank_export_json"),
    path("banks/<slug:slug>/moodle.xml", instructors.bank_export_moodle, name="bank_export_moodle"),
    path("banks/<slug:slug>/import/", instructors.bank_import, name="bank_import"),
    path("banks/<slug:slug>/scenarios/new/", instructors.scenario_edit, name="scenario_create"),
    path(
        "banks/<slug:slug>/scenarios/new/preview/",
        instructors.scenario_preview,
        name="scenario_preview_new",
    ),
    path(
        "banks/<slug:slug>/scenarios/<slug:scenario_slug>/",
        instructors.scenario_edit,
        name="scenario_edit",
    ),
    path(
        "banks/<slug:slug>/scenarios/<slug:scenario_slug>/preview/",
        instructors.scenario_preview,
        name="scenario_preview",
    ),
    path("cohorts/", instructors.cohort_index, name="cohort_index"),
    path("cohorts/join/", instructors.cohort_join, name="cohort_join"),
    path("cohorts/<int:pk>/", instructors.cohort_detail, name="cohort_detail"),
    path("cohorts/<int:pk>/banks/", instructors.cohort_banks, name="cohort_banks"),
    path(
        "cohorts/<int:pk>/learners/<int:user_id>/",
        instructors.cohort_member,
        name="cohort_member",
    ),
]

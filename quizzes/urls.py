from __future__ import annotations

from django.urls import path

import config.converters  # noqa: F401 (registers id, bounded_slug, rule_number)
from quizzes import views
from quizzes.api import pages as api_pages
from quizzes.exams import views as exams
from quizzes.instructors import exam_views as exam_pages
from quizzes.instructors import views as instructors
from quizzes.lti import views as lti
from quizzes.practice import imported
from quizzes.practice import views as practice

urlpatterns = [
    path("", views.home, name="home"),
    path("practice/", practice.practice, name="practice"),
    path("practice/answer/", practice.answer, name="answer"),
    path("practice/plan/", practice.choose_plan, name="choose_plan"),
    path("practice/banks/", practice.practice_banks, name="practice_banks"),
    path(
        "practice/banks/<bounded_slug:slug>/imported/",
        imported.imported_questions,
        name="imported_questions",
    ),
    path(
        "practice/banks/<bounded_slug:slug>/imported/<id:pk>/",
        imported.imported_question,
        name="imported_question",
    ),
    path("practice/answers/<id:pk>/", practice.feedback, name="feedback"),
    path("progress/", practice.progress, name="progress"),
    path("account/api-tokens/", api_pages.api_tokens, name="api_tokens"),
    path("account/api-tokens/<id:pk>/revoke/", api_pages.api_token_revoke, name="api_token_revoke"),
]

urlpatterns += [
    path("exams/", exams.exam_index, name="exam_index"),
    path("exams/start/<bounded_slug:slug>/", exams.exam_start, name="exam_start"),
    path("exams/<id:pk>/", exams.exam_sitting, name="exam_sitting"),
    path("exams/<id:pk>/q/<id:position>/", exams.exam_question, name="exam_question"),
    path("exams/<id:pk>/clock/", exams.exam_clock, name="exam_clock"),
    path("exams/<id:pk>/finish/", exams.exam_finish, name="exam_finish"),
    path("exams/<id:pk>/review/<id:position>/", exams.exam_review, name="exam_review"),
]

urlpatterns += [
    path("banks/", instructors.bank_index, name="bank_index"),
    path("banks/new/", instructors.bank_create, name="bank_create"),
    path("banks/<bounded_slug:slug>/", instructors.bank_detail, name="bank_detail"),
    path("banks/<bounded_slug:slug>/edit/", instructors.bank_edit, name="bank_edit"),
    path("banks/<bounded_slug:slug>/lint/", instructors.bank_lint, name="bank_lint"),
    path(
        "banks/<bounded_slug:slug>/export.json",
        instructors.bank_export_json,
        name="bank_export_json",
    ),
    path(
        "banks/<bounded_slug:slug>/moodle.xml",
        instructors.bank_export_moodle,
        name="bank_export_moodle",
    ),
    path("banks/<bounded_slug:slug>/import/", instructors.bank_import, name="bank_import"),
    path("banks/<bounded_slug:slug>/sharing/", instructors.bank_sharing, name="bank_sharing"),
    path(
        "banks/<bounded_slug:slug>/sharing/<id:user_id>/remove/",
        instructors.bank_unshare,
        name="bank_unshare",
    ),
    path(
        "banks/<bounded_slug:slug>/scenarios/<bounded_slug:scenario_slug>/history/",
        instructors.scenario_history,
        name="scenario_history",
    ),
    path(
        "banks/<bounded_slug:slug>/import/<id:pk>/",
        instructors.bank_import_job,
        name="bank_import_job",
    ),
    path("banks/<bounded_slug:slug>/moodle/", instructors.bank_moodle, name="bank_moodle"),
    path(
        "banks/<bounded_slug:slug>/scenarios/new/",
        instructors.scenario_edit,
        name="scenario_create",
    ),
    path(
        "banks/<bounded_slug:slug>/scenarios/new/preview/",
        instructors.scenario_preview,
        name="scenario_preview_new",
    ),
    path(
        "banks/<bounded_slug:slug>/scenarios/<bounded_slug:scenario_slug>/",
        instructors.scenario_edit,
        name="scenario_edit",
    ),
    path(
        "banks/<bounded_slug:slug>/scenarios/<bounded_slug:scenario_slug>/duplicate/",
        instructors.scenario_duplicate,
        name="scenario_duplicate",
    ),
    path(
        "banks/<bounded_slug:slug>/scenarios/<bounded_slug:scenario_slug>/preview/",
        instructors.scenario_preview,
        name="scenario_preview",
    ),
    path("cohorts/", instructors.cohort_index, name="cohort_index"),
    path("cohorts/join/", instructors.cohort_join, name="cohort_join"),
    path("cohorts/<id:pk>/", instructors.cohort_detail, name="cohort_detail"),
    path("cohorts/<id:pk>/banks/", instructors.cohort_banks, name="cohort_banks"),
    path("cohorts/<id:pk>/assignments/", instructors.cohort_assign, name="cohort_assign"),
    path(
        "cohorts/<id:pk>/assignments/<id:assignment_id>/delete/",
        instructors.cohort_unassign,
        name="cohort_unassign",
    ),
    path(
        "cohorts/<id:pk>/learners/<id:user_id>/",
        instructors.cohort_member,
        name="cohort_member",
    ),
]

# LTI 1.3 (docs/lti.md): the URLs a platform's administrator registers
urlpatterns += [
    path("lti/jwks.json", lti.jwks, name="lti_jwks"),
    path("lti/login/", lti.oidc_login, name="lti_login"),
    path("lti/launch/", lti.launch, name="lti_launch"),
    path("lti/deep-link/", lti.deep_link, name="lti_deep_link"),
    path("lti/canvas.json", lti.canvas_configuration, name="lti_canvas_configuration"),
]

# Exams instructors set (quizzes/instructors/exam_views.py)
urlpatterns += [
    path("teach/exams/", exam_pages.exam_list, name="instructor_exams"),
    path("teach/exams/new/", exam_pages.exam_edit, name="instructor_exam_new"),
    path("teach/exams/<id:pk>/", exam_pages.exam_detail, name="instructor_exam"),
    path("teach/exams/<id:pk>/edit/", exam_pages.exam_edit, name="instructor_exam_edit"),
    path(
        "teach/exams/<id:pk>/accommodations/",
        exam_pages.exam_accommodate,
        name="instructor_exam_accommodate",
    ),
    path("teach/exams/<id:pk>/assign/", exam_pages.exam_assign, name="instructor_exam_assign"),
    path("teach/exams/<id:pk>/regrade/", exam_pages.exam_regrade, name="instructor_exam_regrade"),
    path(
        "teach/exams/<id:pk>/results.csv",
        exam_pages.exam_results_csv,
        name="instructor_exam_results",
    ),
    path("teach/exams/<id:pk>/print/", exam_pages.exam_print, name="instructor_exam_print"),
]

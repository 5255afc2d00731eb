"""The admin is for superusers: a staff instructor (with the old admin permissions, even) probes
every page of every registered model, holding another instructor's objects, and gets none."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.contrib.auth.models import Group, Permission
from django.test import RequestFactory, override_settings
from django.urls import reverse
from lti_tool.models import Key, LtiRegistration

from quizzes.models import ApiToken, Attempt, Bank, ExamBlueprint, ExamSitting, LtiPlatform
from quizzes.tasks import run_import
from tests.factories import (
    BankFactory,
    CardFactory,
    QuestionFactory,
    RuleAliasFactory,
    RuleFactory,
    ScenarioFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def victims_objects():
    """One row of every model the admin registers, owned by (or about) another instructor."""
    victim = UserFactory(username="victim-teacher", is_staff=True)
    bank = BankFactory(owner=victim, title="Victim's private bank", visibility="private")
    scenario = ScenarioFactory(author=victim, bank=bank, title="Victim's private scenario")
    QuestionFactory(scenario=scenario, bank=bank)
    RuleAliasFactory(rule=RuleFactory(number="701.23b"))
    CardFactory()
    blueprint = ExamBlueprint.objects.create(slug="level-1", title="L1", time_limit_minutes=30)
    attempt = Attempt.objects.create(user=victim, kind=Attempt.Kind.EXAM)
    ExamSitting.objects.create(
        attempt=attempt, blueprint=blueprint, title="L1", pass_mark=0.8, time_limit_minutes=30
    )
    Group.objects.get_or_create(name="Instructors")
    ApiToken.issue(victim, "Victim's rulings bot")
    registration = LtiRegistration.objects.create(
        name="LMS",
        issuer="https://lms.example.org",
        client_id="tutor",
        auth_url="https://lms.example.org/auth",
        token_url="https://lms.example.org/token",
        keyset_url="https://lms.example.org/jwks",
    )
    LtiPlatform.objects.create(registration=registration)
    Key.objects.generate()
    # a queued background import, as production's database backend keeps it (the tests' own
    # backend runs tasks at once and keeps no row)
    with override_settings(TASKS={"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}):
        run_import.enqueue(0)
    return victim


@pytest.fixture
def staff_instructor():
    """A staff instructor holding every admin permission an instructor used to get."""
    user = UserFactory(username="prober", is_staff=True)
    user.user_permissions.set(Permission.objects.all())
    return user


def admin_pages(superuser) -> list[str]:
    """Every admin page of every registered model's first row (a new model is probed too), as
    far as the site offers it to a superuser."""
    as_superuser = RequestFactory().get("/admin/")
    as_superuser.user = superuser
    urls = [reverse("admin:index")]
    for model, model_admin in admin.site._registry.items():
        meta = model._meta
        row = model._default_manager.first()
        assert row is not None, f"the probe needs a {meta.label} row: add one to the fixture"
        urls.append(reverse("admin:app_list", args=[meta.app_label]))
        urls.append(reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist"))
        for view in ("change", "history"):
            urls.append(reverse(f"admin:{meta.app_label}_{meta.model_name}_{view}", args=[row.pk]))
        if model_admin.has_delete_permission(as_superuser, row):  # a task's result: never
            urls.append(reverse(f"admin:{meta.app_label}_{meta.model_name}_delete", args=[row.pk]))
        if model_admin.has_add_permission(as_superuser):
            urls.append(reverse(f"admin:{meta.app_label}_{meta.model_name}_add"))
    return urls


def test_a_staff_instructor_reaches_no_admin_page(
    client, victims_objects, staff_instructor, superuser
):
    client.force_login(staff_instructor)
    pages = admin_pages(superuser)
    assert len(pages) > 20
    reached = []
    for url in pages:
        response = client.get(url)
        if response.status_code != 302 or not response.url.startswith(reverse("admin:login")):
            reached.append((url, response.status_code))
    assert reached == []


def test_a_staff_instructor_cannot_change_another_instructors_bank(
    client, victims_objects, staff_instructor
):
    bank = Bank.objects.get(owner=victims_objects)
    client.force_login(staff_instructor)
    url = reverse("admin:quizzes_bank_change", args=[bank.pk])
    form = {"title": "Taken", "slug": bank.slug, "visibility": "public", "description": ""}
    response = client.post(url, form)
    assert response.status_code == 302
    bank.refresh_from_db()
    assert (bank.title, bank.visibility) == ("Victim's private bank", "private")


def test_the_admin_login_refuses_a_staff_instructor_with_a_reason(client, db):
    UserFactory(username="teacher", is_staff=True)
    response = client.post(
        reverse("admin:login"), {"username": "teacher", "password": "correct-horse-battery"}
    )
    assert response.status_code == 200
    assert "Instructors work in the app" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_a_superuser_reaches_every_admin_page(admin_client, victims_objects, superuser):
    pages = admin_pages(superuser)
    failed = [
        (url, status) for url in pages if (status := admin_client.get(url).status_code) != 200
    ]
    assert failed == []

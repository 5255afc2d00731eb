"""Roles: `make_instructor` creates or promotes an instructor; the navigation offers an
instructor Banks and Cohorts, and a learner the way to join a cohort."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.urls import reverse

from config import roles
from quizzes.instructors import cohorts
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "teach-judges-at-gp-2026"


def make_instructor(*args: str) -> str:
    out = StringIO()
    call_command("make_instructor", *args, stdout=out)
    return out.getvalue()


def log_in(client, username: str, password: str = PASSWORD) -> None:
    """Through the log-in page, as a person does (the password the command set)."""
    response = client.post(reverse("login"), {"username": username, "password": password})
    assert response.status_code == 302, response.content.decode()[:500]


def nav_links(client) -> list[str]:
    """The hrefs of the main navigation of the home page."""
    page = client.get(reverse("home")).content.decode()
    nav = page.split('<nav class="nav"', 1)[1].split("</nav>", 1)[0]
    return [chunk.split('"', 1)[0] for chunk in nav.split('href="')[1:]]


def test_a_new_instructor_logs_in_and_opens_the_banks(client):
    said = make_instructor("nadia", "--password", PASSWORD, "--email", "nadia@example.org")
    user = get_user_model().objects.get(username="nadia")
    assert "Created instructor 'nadia'" in said
    assert user.email == "nadia@example.org"
    assert roles.is_instructor(user) and not user.is_staff and not user.is_superuser
    log_in(client, "nadia")
    assert client.get(reverse("bank_index")).status_code == 200
    assert client.get(reverse("cohort_index")).status_code == 200


def test_a_learner_is_promoted_and_keeps_their_password(client):
    learner = UserFactory(username="lea")
    client.force_login(learner)
    assert client.get(reverse("bank_index")).status_code == 403
    assert "is now an instructor" in make_instructor("lea")
    assert client.get(reverse("bank_index")).status_code == 200
    learner.refresh_from_db()
    assert learner.check_password("correct-horse-battery")


def test_promoting_twice_changes_nothing():
    UserFactory(username="lea")
    make_instructor("lea")
    assert "already an instructor" in make_instructor("lea")
    assert get_user_model().objects.get(username="lea").groups.count() == 1


def test_a_new_user_needs_a_password():
    with pytest.raises(CommandError, match="give --password"):
        make_instructor("nobody")
    assert not get_user_model().objects.filter(username="nobody").exists()


def test_a_weak_password_is_refused_and_nothing_is_made():
    with pytest.raises(CommandError, match="too common|too short"):
        make_instructor("nadia", "--password", "password")
    assert not get_user_model().objects.filter(username="nadia").exists()


def test_an_instructor_is_not_let_into_the_admin(client):
    make_instructor("nadia", "--password", PASSWORD)
    log_in(client, "nadia")
    assert client.get("/admin/").status_code == 302  # to the admin's log-in, which refuses them


def test_an_instructor_sees_banks_and_cohorts_in_the_navigation(client):
    make_instructor("nadia", "--password", PASSWORD)
    log_in(client, "nadia")
    links = nav_links(client)
    assert reverse("bank_index") in links and reverse("cohort_index") in links


def test_a_learner_sees_the_way_to_join_a_cohort_and_joins(client):
    teacher = UserFactory(username="teacher")
    make_instructor("teacher")
    cohort = cohorts.do_create_cohort(teacher, "Tuesday class")
    learner = UserFactory(username="lea")
    client.force_login(learner)
    links = nav_links(client)
    assert reverse("cohort_join") in links
    assert reverse("bank_index") not in links and reverse("cohort_index") not in links
    page = client.get(reverse("cohort_join"))
    assert page.status_code == 200
    joined = client.post(reverse("cohort_join"), {"code": cohort.join_code.lower()})
    assert joined.status_code == 200 and cohort.members.filter(pk=learner.pk).exists()


def test_a_visitor_sees_neither(client):
    links = nav_links(client)
    assert reverse("cohort_join") not in links and reverse("bank_index") not in links

"""Fixtures shared by the instructors' tests: instructors (a group member, staff), their banks."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import Group

from config import roles
from quizzes.models import Bank
from tests.factories import BankFactory, UserFactory, simple_spec


def document(scenario_id: str = "tutor-three", **changes) -> dict:
    """A valid scenario document (Demonic Tutor, three cards) with Tutor's keys."""
    spec = simple_spec(scenario_id) | {"stored_ruling": "Alice searches and shuffles."}
    return spec | changes


def text(scenario_id: str = "tutor-three", **changes) -> str:
    return json.dumps(document(scenario_id, **changes), indent=2)


@pytest.fixture
def instructor(db):
    """A member of the Instructors group who is not staff."""
    user = UserFactory(username="teacher")
    group, _ = Group.objects.get_or_create(name=roles.INSTRUCTORS_GROUP)
    user.groups.add(group)
    return user


@pytest.fixture
def other_instructor(db):
    return UserFactory(username="other-teacher", is_staff=True)


@pytest.fixture
def own_bank(instructor):
    return BankFactory(owner=instructor, slug="week-1", visibility=Bank.Visibility.SHARED)


@pytest.fixture
def teacher_client(client, instructor):
    client.force_login(instructor)
    return client

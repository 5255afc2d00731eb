"""Fixtures for the rulings API: a user's token, a client that sends it."""

from __future__ import annotations

import pytest
from django.core.cache import caches
from django.test import Client

from quizzes.models import ApiToken
from tests.factories import UserFactory
from tests.quizzes.instructor_fixtures import instructor, other_instructor, own_bank  # noqa: F401

API = "/api/v1"


@pytest.fixture(autouse=True)
def fresh_throttle_counts():
    caches["throttle"].clear()  # counts of earlier tests (a shared Redis keeps them)
    yield
    caches["throttle"].clear()


def bearer(token: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"}


@pytest.fixture
def learner(db):
    return UserFactory(username="api-learner")


@pytest.fixture
def learner_token(learner) -> str:
    return ApiToken.issue(learner, "tests")[1]


@pytest.fixture
def instructor_token(instructor) -> str:  # noqa: F811
    return ApiToken.issue(instructor, "tests")[1]


@pytest.fixture
def api_client() -> Client:
    """A client that enforces CSRF as a browser's request would meet it."""
    return Client(enforce_csrf_checks=True)

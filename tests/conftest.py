"""Shared fixtures: factories are in tests/factories.py."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory


@pytest.fixture
def superuser(db):
    return UserFactory(username="root", is_staff=True, is_superuser=True)


@pytest.fixture
def admin_client(client, superuser):
    client.force_login(superuser)
    return client

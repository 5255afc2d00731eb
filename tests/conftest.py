"""Shared fixtures: factories are in tests/factories.py."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory


@pytest.fixture(autouse=True)
def _fresh_rule_texts():
    """No test reads rule texts another test cached (its rows rolled back since): without Redis
    the rules' version is a row of the rolled-back cache table, with Redis it outlives the test,
    so each test starts from a new one."""
    from rules import texts

    if not texts.version_reads_database():
        texts.bump()


@pytest.fixture
def superuser(db):
    return UserFactory(username="root", is_staff=True, is_superuser=True)


@pytest.fixture
def admin_client(client, superuser):
    client.force_login(superuser)
    return client

"""Shared fixtures: factories are in tests/factories.py."""

from __future__ import annotations

import pytest
from hypothesis import settings

from tests.factories import UserFactory

# Speed is measured in bench/, never timed in tests: hypothesis' 200 ms deadline per example only
# failed tests on a busy machine (two xdist workers on two cores).
settings.register_profile("tutor", deadline=None)
settings.load_profile("tutor")


@pytest.fixture(autouse=True)
def _empty_cache():
    """Each test starts from an empty default cache, so it never reads rule texts an earlier test
    cached from rows that are gone (a browser test commits the rules' version to the cache
    table, which no flush empties; with Redis the version outlives every test)."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def _nothing_kept():
    """Each test starts with no engine session or rendered fragment kept in this process (a
    test that swaps the engine or a template sees its own)."""
    from quizzes.kept import clear_all

    clear_all()


@pytest.fixture(autouse=True)
def _english_after_each_test():
    """Each test ends in the default language: LocaleMiddleware activates a request's language in
    the thread and leaves it active, so a German request would leak into the next test."""
    yield
    from django.utils import translation

    translation.deactivate()


@pytest.fixture
def superuser(db):
    return UserFactory(username="root", is_staff=True, is_superuser=True)


@pytest.fixture
def admin_client(client, superuser):
    client.force_login(superuser)
    return client

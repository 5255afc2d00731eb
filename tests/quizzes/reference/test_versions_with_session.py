"""Without Redis, a request with a session reads the shared versions (config/versions.py) in its
session's query: the same tokens the cache gives, never stale, and a missing or expired token
still read and added as before."""

from __future__ import annotations

import datetime

import pytest
from django.core.cache import caches
from django.core.management import call_command
from django.db import connection
from django.urls import reverse

from config import versions
from quizzes.reference import texts
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def versions_in_the_database(settings):
    """The shared cache as it is without Redis, whatever this run's REDIS_URL: its table holds
    the versions (with Redis they are no query, and these tests would prove nothing)."""
    if not versions.shared_reads_database():
        settings.CACHES = {
            **settings.CACHES,
            "shared": {
                "BACKEND": "django.core.cache.backends.db.DatabaseCache",
                "LOCATION": "tutor_throttle_cache",
                "KEY_PREFIX": "tutor-shared",
            },
        }
        call_command("createcachetable", verbosity=0)
    assert versions.shared_reads_database()


def rule_page(client) -> str:
    return client.get(reverse("rule_detail", args=["701.23b"])).content.decode()


def test_a_signed_in_page_reads_the_versions_with_its_session(
    client, search_rule, django_assert_num_queries
):
    client.force_login(UserFactory())
    rule_page(client)
    # the session with the versions and the user, the scenarios with the mastery: no query of
    # the cache table of its own
    with django_assert_num_queries(2) as queries:
        rule_page(client)
    read = [query["sql"] for query in queries.captured_queries if "tutor_throttle" in query["sql"]]
    assert len(read) == 1 and "django_session" in read[0]


def test_the_tokens_read_with_the_session_are_the_caches(client, search_rule, monkeypatch):
    client.force_login(UserFactory())
    taken = []
    take_rows = versions.take_rows

    def spy(rows):
        take_rows(rows)
        taken.append(dict(versions._request.read))

    rule_page(client)  # the first read adds the tokens
    monkeypatch.setattr(versions, "take_rows", spy)
    rule_page(client)
    assert taken == [caches["shared"].get_many(versions.NAMES)]


def test_a_version_replaced_by_another_worker_shows_at_once(client, search_rule):
    client.force_login(UserFactory())
    assert "searching a hidden zone" in rule_page(client)
    # another worker saved the rule and replaced the version: this one's cache is stale
    type(search_rule).objects.filter(pk=search_rule.pk).update(text="Reworded by another worker")
    caches["shared"].set(versions.RULES, "another-workers-token", timeout=None)
    assert "Reworded by another worker" in rule_page(client)


def test_missing_tokens_are_added_as_before(client, search_rule):
    client.force_login(UserFactory())
    caches["shared"].delete_many(versions.NAMES)
    assert "searching a hidden zone" in rule_page(client)
    assert set(caches["shared"].get_many(versions.NAMES)) == set(versions.NAMES)


def test_an_expired_token_is_not_taken(client, search_rule):
    client.force_login(UserFactory())
    rule_page(client)
    before = caches["shared"].get(versions.RULES)
    past = datetime.datetime(2000, 1, 1, tzinfo=datetime.UTC)
    key = caches["shared"].make_and_validate_key(versions.RULES)
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE tutor_throttle_cache SET expires = %s WHERE cache_key = %s",
            [connection.ops.adapt_datetimefield_value(past), key],
        )
    assert "searching a hidden zone" in rule_page(client)
    # read as the cache reads it: expired, so a new token replaced it
    assert caches["shared"].get(versions.RULES) not in (None, before)
    assert texts.version() == caches["shared"].get(versions.RULES)


def test_outside_a_request_nothing_is_read_with_a_session():
    assert versions.table_rows() is None

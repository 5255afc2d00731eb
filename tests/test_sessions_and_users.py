"""Every page's two reads written by hand (config/sessions, config/auth.py): they give what
Django's own queries give."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import Group
from django.contrib.sessions.models import Session
from django.urls import reverse
from django.utils import timezone

from config import sessions
from config.auth import ModelBackend
from config.roles import INSTRUCTORS_GROUP
from config.sessions import db, unexpired
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def stored_session(**data) -> db.SessionStore:
    store = db.SessionStore()
    store.update(data)
    store.create()
    return store


def test_a_stored_session_reads_as_djangos_row():
    key = stored_session(answer=42).session_key
    row = Session.objects.get(session_key=key)
    found = unexpired(key)
    assert (found.session_data, found.expire_date) == (row.session_data, row.expire_date)
    assert timezone.is_aware(found.expire_date)
    assert db.SessionStore(key).load() == {"answer": 42}


def test_an_expired_session_is_not_read_and_its_key_is_forgotten():
    key = stored_session(answer=42).session_key
    Session.objects.filter(session_key=key).update(
        expire_date=timezone.now() - datetime.timedelta(seconds=1)
    )
    assert unexpired(key) is None
    store = db.SessionStore(key)
    assert store.load() == {}
    assert store.session_key is None  # a save makes a new key, never the expired one's


def test_an_unknown_or_empty_key_reads_nothing():
    assert unexpired("x" * 32) is None
    assert unexpired("") is None and unexpired(None) is None


def test_the_user_is_the_orms_with_their_role():
    learner, instructor = UserFactory(), UserFactory()
    instructor.groups.add(Group.objects.get_or_create(name=INSTRUCTORS_GROUP)[0])
    backend = ModelBackend()
    for user, role in ((learner, False), (instructor, True)):
        found = backend.get_user(user.pk)
        assert found == user and found._instructor_cache is role
        fresh = type(user).objects.get(pk=user.pk)
        fields = [field.attname for field in type(user)._meta.concrete_fields]
        assert [getattr(found, f) for f in fields] == [getattr(fresh, f) for f in fields]
        assert found._state.adding is False  # a saved object: `save()` updates its row


def test_an_inactive_or_missing_user_is_nobody():
    backend = ModelBackend()
    inactive = UserFactory(is_active=False)
    assert backend.get_user(inactive.pk) is None
    assert backend.get_user(inactive.pk + 1000) is None


# The user read with the session (config/sessions): only ever the user the session names.


def _page_user(client) -> str:
    page = client.get(reverse("progress"))
    assert page.status_code == 200
    return page.content.decode().split('class="visually-hidden">')[1].split("<")[0]


def _reads(queries) -> list[str]:
    """Which of the session and the user each query of a page read."""
    reads = []
    for query in queries.captured_queries:
        text = query["sql"]
        if "django_session" in text:
            reads.append("session with user" if "auth_user" in text else "session")
        elif text.startswith("SELECT u."):
            reads.append("user")
    return reads


def test_the_user_comes_with_the_session_once_the_process_has_met_it(
    client, django_assert_max_num_queries
):
    user = UserFactory(username="reader")
    client.force_login(user)
    with django_assert_max_num_queries(20) as first:
        client.get(reverse("progress"))
    with django_assert_max_num_queries(20) as second:
        client.get(reverse("progress"))
    assert _reads(first) == ["session", "user"]
    assert _reads(second) == ["session with user"]
    assert _page_user(client) == "reader"


def test_a_wrong_guess_of_the_sessions_user_is_never_taken(client, django_assert_max_num_queries):
    user, other = UserFactory(username="owner-of-it"), UserFactory(username="someone-else")
    client.force_login(user)
    sessions._remember(client.session.session_key, other.pk)  # as if it were other's
    with django_assert_max_num_queries(20) as queries:
        assert _page_user(client) == "owner-of-it"
    # other's row came with the session and was left: the session's own user was read
    assert _reads(queries) == ["session with user", "user"]
    assert sessions._user_of(client.session.session_key) == user.pk  # learnt from the session


def test_a_deleted_or_deactivated_user_read_with_the_session_is_nobody(client):
    user = UserFactory()
    client.force_login(user)
    assert client.get(reverse("progress")).status_code == 200
    type(user).objects.filter(pk=user.pk).update(is_active=False)
    assert client.get(reverse("progress")).status_code == 302  # to the log-in page
    client.force_login(other := UserFactory())
    assert client.get(reverse("progress")).status_code == 200
    other.delete()
    assert client.get(reverse("progress")).status_code == 302


def test_outside_a_request_the_session_reads_no_user():
    user = UserFactory()
    store = stored_session(**{"_auth_user_id": str(user.pk)})
    assert db.SessionStore(store.session_key).load()["_auth_user_id"] == str(user.pk)
    assert sessions._user_of(store.session_key) == user.pk
    assert unexpired(store.session_key) is not None
    assert sessions.user_read_with_session(user.pk) is None


@pytest.fixture
def with_shared_cache(settings):
    """Sessions and users as with Redis (`cached_db`, the user's row kept), a per-process cache
    standing in for Redis."""
    settings.REDIS_URL = "redis://stand-in"
    settings.SESSION_ENGINE = "config.sessions.cached_db"
    settings.CACHES = {
        **settings.CACHES,
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    }


def _tables_read(queries) -> set[str]:
    return {
        table
        for query in queries
        for table in ("django_session", "auth_user")
        if f'"{table}"' in query["sql"] or f" {table} " in query["sql"]
    }


def test_with_redis_a_page_reads_neither_session_nor_user_from_the_database(
    client, with_shared_cache
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(UserFactory())
    assert client.get(reverse("progress")).status_code == 200  # the user's row kept from here
    with CaptureQueriesContext(connection) as read:
        assert client.get(reverse("progress")).status_code == 200
    assert _tables_read(read.captured_queries) == set()


def test_with_redis_a_saved_user_is_read_again(client, with_shared_cache):
    user = UserFactory()
    client.force_login(user)
    client.get(reverse("progress"))
    user.is_active = False
    user.save()  # the kept row is forgotten: deactivated at once
    assert client.get(reverse("progress")).status_code == 302  # to the log-in page


def test_with_redis_a_new_instructor_sees_the_instructors_pages_at_once(client, with_shared_cache):
    user = UserFactory()
    client.force_login(user)
    assert reverse("bank_index") not in client.get(reverse("progress")).content.decode()
    user.groups.add(Group.objects.get_or_create(name=INSTRUCTORS_GROUP)[0])
    assert reverse("bank_index") in client.get(reverse("progress")).content.decode()
    Group.objects.get(name=INSTRUCTORS_GROUP).user_set.remove(user)  # from the group's side
    assert reverse("bank_index") not in client.get(reverse("progress")).content.decode()

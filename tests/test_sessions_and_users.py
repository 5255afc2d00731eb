"""Every page's two reads written by hand (config/sessions, config/auth.py): they give what
Django's own queries give."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import Group
from django.contrib.sessions.models import Session
from django.utils import timezone

from config.auth import ModelBackend
from config.sessions import db, unexpired
from quizzes.authoring import INSTRUCTORS_GROUP
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

"""/account/api-tokens/: a user makes a token (shown once), sees only their own, revokes it."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from quizzes.models import ApiToken
from quizzes.models.api_tokens import digest_of
from tests.factories import UserFactory
from tests.quizzes.api.conftest import API, bearer

pytestmark = pytest.mark.django_db


@pytest.fixture
def logged_in(client, learner):
    client.force_login(learner)
    return client


def test_the_page_needs_a_log_in(client):
    response = client.get(reverse("api_tokens"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_made_token_is_shown_once_and_works(logged_in, learner):
    response = logged_in.post(reverse("api_tokens"), {"name": "rules desk"})
    assert response.status_code == 200
    token = re.search(r"tutor_[A-Za-z0-9_-]{40,}", response.content.decode()).group()
    row = ApiToken.objects.get(owner=learner)
    assert row.digest == digest_of(token) and row.name == "rules desk"
    assert token not in logged_in.get(reverse("api_tokens")).content.decode()
    assert row.prefix in logged_in.get(reverse("api_tokens")).content.decode()
    schema = logged_in.get(f"{API}/banks", **bearer(token))
    assert schema.status_code == 403  # the token is the learner's: known, and no instructor


def test_a_blank_name_is_refused(logged_in):
    response = logged_in.post(reverse("api_tokens"), {"name": "  "})
    assert response.status_code == 400
    assert not ApiToken.objects.exists()


def test_only_ones_own_tokens_are_listed_and_revoked(logged_in, learner):
    theirs, _ = ApiToken.issue(UserFactory(username="other"), "their bot")
    mine, token = ApiToken.issue(learner, "my bot")
    page = logged_in.get(reverse("api_tokens")).content.decode()
    assert "my bot" in page and "their bot" not in page
    url = reverse("api_token_revoke", args=[theirs.pk])
    assert logged_in.post(url).status_code == 404
    theirs.refresh_from_db()
    assert theirs.revoked_at is None
    assert logged_in.get(reverse("api_token_revoke", args=[mine.pk])).status_code == 405
    response = logged_in.post(reverse("api_token_revoke", args=[mine.pk]))
    assert response.status_code == 302
    mine.refresh_from_db()
    assert mine.revoked_at is not None
    assert (
        logged_in.post(
            f"{API}/rulings", "{}", content_type="application/json", **bearer(token)
        ).status_code
        == 401
    )

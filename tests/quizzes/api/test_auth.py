"""Who may call the API: a bearer token of an active owner, never a session cookie; tokens kept
only as hashes, revocable; throttled per owner and, for tokens that fail, per address."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client

from quizzes.models import ApiToken
from quizzes.models.api_tokens import digest_of
from tests.factories import UserFactory, simple_spec
from tests.quizzes.api.conftest import API, bearer

pytestmark = pytest.mark.django_db

BODY = json.dumps(simple_spec())


def rule(client, **headers):
    return client.post(f"{API}/rulings", BODY, content_type="application/json", **headers)


def test_no_token_is_401(api_client):
    response = rule(api_client)
    assert response.status_code == 401
    assert response.json() == {"detail": "Unauthorized"}


@pytest.mark.parametrize(
    "header",
    ["Bearer", "Bearer ", "Bearer tutor_not-a-token", "Token x", "Basic dXNlcjpwYXNz", "tutor_x"],
)
def test_a_wrong_or_malformed_token_is_401(api_client, learner_token, header):
    assert rule(api_client, HTTP_AUTHORIZATION=header).status_code == 401


def test_a_revoked_token_is_401(api_client, learner):
    row, token = ApiToken.issue(learner, "bot")
    assert rule(api_client, **bearer(token)).status_code == 200
    row.revoke()
    assert rule(api_client, **bearer(token)).status_code == 401


def test_another_users_revoked_token_does_not_touch_mine(api_client, learner, learner_token):
    other = UserFactory(username="someone-else")
    row, token = ApiToken.issue(other, "theirs")
    row.revoke()
    assert rule(api_client, **bearer(token)).status_code == 401
    assert rule(api_client, **bearer(learner_token)).status_code == 200


def test_an_inactive_owners_token_is_401(api_client, learner, learner_token):
    learner.is_active = False
    learner.save()
    assert rule(api_client, **bearer(learner_token)).status_code == 401


def test_a_session_is_no_credential_even_with_its_csrf_token(learner):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(learner)
    page = browser.get("/accounts/password_change/")  # any form page sets the CSRF cookie
    csrf = page.cookies["csrftoken"].value if "csrftoken" in page.cookies else ""
    assert rule(browser).status_code == 401
    assert rule(browser, HTTP_X_CSRFTOKEN=csrf).status_code == 401
    assert browser.get(f"{API}/banks").status_code == 401


def test_a_token_needs_no_csrf_token(learner_token):
    assert rule(Client(enforce_csrf_checks=True), **bearer(learner_token)).status_code == 200


def test_only_the_hash_is_stored_and_use_is_noted(api_client, learner):
    row, token = ApiToken.issue(learner, "bot")
    assert token.startswith("tutor_") and len(token) > 40
    assert row.digest == digest_of(token) and token not in row.digest
    assert row.prefix == token[: len(row.prefix)] and len(row.prefix) < 16
    assert row.last_used_at is None
    rule(api_client, **bearer(token))
    row.refresh_from_db()
    assert row.last_used_at is not None


def test_the_command_makes_a_token_shown_once_then_lists_and_revokes_it(api_client, learner):
    out, err = StringIO(), StringIO()
    call_command("api_token", learner.username, "--name", "chat bot", stdout=out, stderr=err)
    token = out.getvalue().strip()
    assert "shown this once" in err.getvalue()
    assert rule(api_client, **bearer(token)).status_code == 200
    listed = StringIO()
    call_command("api_token", learner.username, "--list", stdout=listed)
    assert token not in listed.getvalue()
    assert "chat bot" in listed.getvalue() and "active" in listed.getvalue()
    call_command("api_token", learner.username, "--revoke", token[:12], stdout=StringIO())
    assert rule(api_client, **bearer(token)).status_code == 401


def test_requests_past_the_owners_rate_are_429_with_retry_after(api_client, learner, settings):
    settings.THROTTLE_RATES = settings.THROTTLE_RATES | {"api_per_user": "3/h"}
    _, token = ApiToken.issue(learner, "one")
    _, second = ApiToken.issue(learner, "two")  # the owner's count, whichever token
    statuses = [rule(api_client, **bearer(token)).status_code for _ in range(3)]
    assert statuses == [200, 200, 200]
    response = rule(api_client, **bearer(second))
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    assert api_client.get(f"{API}/banks", **bearer(token)).status_code == 429
    other = ApiToken.issue(UserFactory(username="another"), "x")[1]
    assert rule(api_client, **bearer(other)).status_code == 200  # not another owner's


def test_failed_tokens_past_the_addresss_rate_are_429_even_with_a_right_one(
    api_client, learner_token, settings
):
    settings.THROTTLE_RATES = settings.THROTTLE_RATES | {"api_failures_per_address": "5/15m"}
    statuses = [rule(api_client, **bearer(f"tutor_guess{n}")).status_code for n in range(7)]
    assert statuses == [401] * 5 + [429] * 2
    refused = rule(api_client, **bearer(learner_token))
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 15 * 60
    elsewhere = rule(api_client, REMOTE_ADDR="10.1.2.3", **bearer(learner_token))
    assert elsewhere.status_code == 200


def test_the_admin_makes_a_token_shown_once(admin_client, learner):
    response = admin_client.post(
        "/admin/quizzes/apitoken/add/", {"owner": learner.pk, "name": "desk"}, follow=True
    )
    assert response.status_code == 200
    row = ApiToken.objects.get(owner=learner, name="desk")
    shown = [str(m) for m in response.context["messages"]]
    token = next(word for m in shown for word in m.split() if word.startswith("tutor_"))
    assert digest_of(token) == row.digest
    page = admin_client.get(f"/admin/quizzes/apitoken/{row.pk}/change/").content.decode()
    assert token not in page

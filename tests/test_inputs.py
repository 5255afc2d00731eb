"""The door for bad input (config/inputs.py): a clear 400 instead of a database error."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from quizzes.rulings import documents
from tests.factories import UserFactory, simple_spec

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("/rules/%00/", "the address holds a NUL character"),
        ("/practice/?rule=%00", "the query field 'rule' holds a NUL character"),
        ("/practice/?rule=99999999999999999999", "a number too large for any id"),
    ],
)
def test_bad_text_in_the_address_or_query_is_a_400_that_says_why(client, url, message):
    client.force_login(UserFactory())
    response = client.get(url)
    assert response.status_code == 400
    assert message in response.content.decode()


def test_a_nul_in_a_form_field_is_a_400(client):
    response = client.post(reverse("login"), {"username": "a\x00b", "password": "x"})
    assert response.status_code == 400
    assert "the form field 'username' holds a NUL character" in response.content.decode()


def test_a_nul_in_a_cookie_is_a_400(client):
    client.cookies["sessionid"] = "abc\x00def"
    assert client.get("/").status_code == 400


def test_a_huge_id_in_the_path_is_a_404(client):
    client.force_login(UserFactory())
    assert client.get("/exams/99999999999999999999/").status_code == 404


def test_ordinary_text_and_numbers_pass(client):
    client.force_login(UserFactory())
    assert client.get("/practice/?rule=701.23b&page=123456789012345678").status_code != 400


@pytest.mark.parametrize(
    ("changes", "path"),
    [({"title": "a\x00b"}, "title"), ({"source": "\ud800"}, "source")],
)
def test_a_json_document_with_unstorable_text_names_the_field(changes, path):
    text = json.dumps(simple_spec() | changes)  # written as \\u0000 and \\ud800 escapes
    with pytest.raises(documents.AuthoringError) as raised:
        documents.parse_text(text)
    assert raised.value.path == path


def test_a_long_all_digit_password_is_not_taken_for_an_id(client):
    response = client.post(reverse("login"), {"username": "x", "password": "1" * 25})
    assert response.status_code == 200  # the form's own "enter a correct username and password"


def test_a_huge_number_in_a_form_is_still_refused_where_a_field_may_be_an_id(client):
    client.force_login(UserFactory())
    response = client.post(reverse("cohort_join"), {"code": "9" * 20})
    assert response.status_code == 400
    assert "the form field 'code' holds a number too large for any id" in response.content.decode()

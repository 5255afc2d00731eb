"""POST /api/v1/rulings answers the public acceptance cases exactly as `manage.py ruling` does,
and refuses an oversize or malformed document with a 4xx naming the field."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.management import call_command

from quizzes import limits
from rules.models import Card
from tests.quizzes.api.conftest import API, bearer

pytestmark = pytest.mark.django_db

EXAMPLES = sorted((Path(settings.BASE_DIR).parent / "shared" / "spec" / "examples").glob("*.json"))


def post(client, token: str, body: str | bytes, **extra):
    return client.post(
        f"{API}/rulings", body, content_type="application/json", **bearer(token), **extra
    )


def printed_ruling(path: Path) -> dict:
    out = StringIO()
    call_command("ruling", str(path), stdout=out)
    return json.loads(out.getvalue())


def test_the_public_examples_are_there():
    assert len(EXAMPLES) >= 12


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: path.stem)
def test_each_acceptance_case_is_answered_as_manage_py_ruling_prints_it(
    api_client, learner_token, path
):
    response = post(api_client, learner_token, path.read_bytes())
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "application/json"
    answered = response.json()
    assert answered == printed_ruling(path)
    assert list(answered) == ["id", "title", "claims", "explanation", "given_claims"]
    assert answered["claims"], "every claim, each with value, rule and reason"
    for claim in answered["claims"] + answered["given_claims"]:
        assert {"claim", "value", "rule", "reason"} <= set(claim)


def test_expected_claims_with_given_choices_come_back_on_their_own_line(api_client, learner_token):
    with_given = [p for p in EXAMPLES if '"given"' in p.read_text(encoding="utf-8")]
    for path in with_given:
        answered = post(api_client, learner_token, path.read_bytes()).json()
        given = [c for c in json.loads(path.read_text())["expect"] if "given" in c]
        assert len(answered["given_claims"]) == len(given)


def test_an_oversize_document_is_413_naming_the_limit(api_client, learner_token):
    spec = json.loads(EXAMPLES[0].read_text(encoding="utf-8"))
    spec["padding"] = "x" * limits.MAX_DOCUMENT_BYTES
    body = json.dumps(spec)
    response = post(api_client, learner_token, body)
    assert response.status_code == 413
    limit = f"{len(body.encode()):,} bytes, over the limit of 65,536 bytes per document"
    assert response.json() == {"detail": limit, "field": ""}


def test_a_body_past_djangos_own_limit_is_413_too(api_client, learner_token, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100
    spec = json.loads(EXAMPLES[0].read_text(encoding="utf-8"))
    body = json.dumps(spec)
    response = post(api_client, learner_token, body)
    assert response.status_code == 413
    limit = f"{len(body):,} bytes, over the limit of 100 bytes per request"
    assert response.json() == {"detail": limit, "field": ""}


def test_too_many_players_is_refused_naming_the_field_and_the_limit(api_client, learner_token):
    spec = json.loads(EXAMPLES[0].read_text(encoding="utf-8"))
    spec["players"] = [f"P{n}" for n in range(limits.MAX_PLAYERS + 1)]
    response = post(api_client, learner_token, json.dumps(spec))
    assert response.status_code == 422
    assert response.json() == {
        "detail": "7 players, over the limit of 6 per scenario",
        "field": "players",
    }


def test_nesting_past_the_limit_is_refused_without_parsing(api_client, learner_token):
    response = post(api_client, learner_token, "[" * 10_000 + "]" * 10_000)
    assert response.status_code == 422
    assert "nested deeper than the limit of 24 levels" in response.json()["detail"]


def test_malformed_json_is_400_naming_line_and_column(api_client, learner_token):
    response = post(api_client, learner_token, '{"format": "scenario/1",\n "players": [}')
    assert response.status_code == 400
    problem = response.json()
    assert problem["field"] == "line 2 column 14"  # the "}"
    assert problem["detail"].startswith("malformed JSON")


def test_text_that_is_not_utf8_is_400(api_client, learner_token):
    response = post(api_client, learner_token, b'{"title": "\xff"}')
    assert response.status_code == 400
    assert "UTF-8" in response.json()["detail"]


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"zones": {"Alice": {"libary": ["Island"]}}}, "zones.Alice.libary", "unknown zone"),
        ({"zones": {"Alice": {"library": ["No Such Card"]}}}, "zones.Alice.library[0]", "No Such"),
        ({"players": "Alice"}, "players", "must be a list"),
        ({"cards": 1}, "cards", "must be a list"),  # once a TypeError in limits.check_spec
        ({"title": " "}, "title", "non-empty title"),
        ({"format": "scenario/2"}, "format", "unsupported format"),
        ({"resolve": {"cast": "Demonic Tutor", "by": "Zed"}}, "resolve.by", "not a player"),
        ({"expect": [{"claim": "finds", "card": "nowhere"}]}, "expect[0].claim finds.card", ""),
        ({"expect": [{"claim": "guesses"}]}, "expect[0].claim", "unknown claim"),
        (
            {"expect": [{"claim": "found_count", "searcher": "Alice", "value": 99}]},
            "expect[0].value",
            "two numbers",
        ),
    ],
)
def test_a_malformed_document_is_422_naming_the_field(
    api_client, learner_token, change, field, words
):
    spec = json.loads((EXAMPLES[0].parent / "demonic-tutor.json").read_text(encoding="utf-8"))
    response = post(api_client, learner_token, json.dumps(spec | change))
    assert response.status_code == 422, response.content
    problem = response.json()
    assert problem["field"] == field
    assert words in problem["detail"]


def test_a_document_that_is_no_object_is_422(api_client, learner_token):
    response = post(api_client, learner_token, "[1, 2]")
    assert response.status_code == 422
    assert "must be a JSON object" in response.json()["detail"]


def test_an_instructors_own_card_is_known_to_their_rulings(
    api_client, instructor, instructor_token
):
    definition = {
        "name": "Teacher's Tutor",
        "mana_cost": "{B}",
        "types": ["Sorcery"],
        "oracle": "Search your library for a card, put it into your hand, then shuffle.",
        "spell": [
            {"search": {"who": "you", "zones": ["library"], "for": {"count": 1}, "put": "hand"}},
            {"shuffle": "searcher"},
        ],
    }
    Card.objects.create(name=definition["name"], owner=instructor, definition=definition)
    spec = json.loads((EXAMPLES[0].parent / "demonic-tutor.json").read_text(encoding="utf-8"))
    spec |= {"resolve": {"cast": "Teacher's Tutor", "by": "Alice"}, "expect": []}
    response = post(api_client, instructor_token, json.dumps(spec))
    assert response.status_code == 200, response.content
    finds = [c for c in response.json()["claims"] if c["claim"] == "finds"]
    assert finds and all(c["value"] == "may" for c in finds)


def test_unstorable_text_is_422_naming_the_field(api_client, learner_token):
    spec = json.loads((EXAMPLES[0].parent / "demonic-tutor.json").read_text(encoding="utf-8"))
    spec["title"] = "Demonic\u0000Tutor"
    response = post(api_client, learner_token, json.dumps(spec))
    assert response.status_code == 422
    assert response.json()["field"] == "title"


def test_a_json_answer_keeps_the_sites_security_headers(api_client, learner_token):
    response = post(api_client, learner_token, EXAMPLES[0].read_bytes())
    assert response.status_code == 200
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["X-Frame-Options"] == "DENY"
    assert "default-src" in response["Content-Security-Policy"]


def test_the_openapi_document_describes_every_endpoint(client):
    response = client.get(f"{API}/openapi.json")
    assert response.status_code == 200
    document = response.json()
    assert set(document["paths"]) == {
        "/api/v1/rulings",
        "/api/v1/banks",
        "/api/v1/banks/{slug}",
        "/api/v1/banks/{slug}/questions/{question_id}",
        "/api/v1/schema/scenario-1.json",
    }
    post_rulings = document["paths"]["/api/v1/rulings"]["post"]
    body = post_rulings["requestBody"]["content"]["application/json"]["schema"]
    assert body == {"$ref": "/api/v1/schema/scenario-1.json"}
    assert {"200", "400", "413", "422"} <= set(post_rulings["responses"])
    schemes = document["components"]["securitySchemes"]
    assert [s["scheme"] for s in schemes.values()] == ["bearer"]


def test_the_interactive_docs_load_their_scripts_from_the_site_itself(client):
    response = client.get(f"{API}/docs")
    assert response.status_code == 200
    page = response.content.decode()
    assert "/static/ninja/swagger-ui-bundle.js" in page
    assert "cdn" not in page.lower()
    assert "script-src 'self'" in response["Content-Security-Policy"]
    assert finders.find("ninja/swagger-ui-bundle.js") and finders.find("ninja/swagger-ui-init.js")

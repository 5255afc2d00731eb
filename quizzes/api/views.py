"""The endpoints of the rulings API (docs/api.md), at /api/v1/.

- `POST /rulings`: a scenario/1 document in, the engine's whole ruling out, as `manage.py ruling`
  prints it (`ruling_of_document`: `read_document`, then `ruling_report`); over the size limit a
  413, malformed JSON a 400, a document the reader refuses a 422, each naming the field.
- `GET /banks`, `/banks/{slug}`, `/banks/{slug}/questions/{id}`: an instructor's own banks and
  their questions, read-only, every lookup through the owner (`banks_of`); another's bank is a
  404. Learners get 403: a question read here carries its scenario's `expect`, its answer key.
- `GET /schema/scenario-1.json`: the scenario/1 JSON Schema (`quizzes/rulings/schema.py`).

Every endpoint but the schema takes a bearer token (auth.py) and is throttled per owner.
Problems are said in English, as the format's field names and the engine's rulings are.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.db.models import Count
from django.http import HttpRequest, JsonResponse
from django.shortcuts import get_object_or_404
from django.utils import translation
from ninja import NinjaAPI
from ninja.errors import HttpError, Throttled

from config.roles import is_instructor
from quizzes import limits
from quizzes.api.auth import TokenAuth
from quizzes.api.schemas import BankDetail, BankOut, Problem, QuestionOut, RulingOut
from quizzes.api.throttling import PerOwner
from quizzes.instructors.banks import banks_of
from quizzes.models import Bank, Question
from quizzes.rulings.documents import AuthoringError, document_of, parse_text, ruling_of_document
from quizzes.rulings.schema import scenario_schema
from rules.cards import catalog_for

API_DESCRIPTION = (
    "Tutor's rulings engine for other tools: POST a scenario/1 document, get every claim with its "
    "value, rule and reason. Instructors read their own banks. Authenticate with "
    "`Authorization: Bearer <token>` (docs/api.md says how to get one)."
)

api = NinjaAPI(
    title="Tutor rulings API",
    version="1",
    description=API_DESCRIPTION,
    urls_namespace="api",
    auth=TokenAuth(),
    throttle=[PerOwner()],
    docs_url="/docs",  # Swagger UI, its scripts from our static files ("ninja" in INSTALLED_APPS)
)


@api.exception_handler(Throttled)
def throttled(request: HttpRequest, error: Throttled):
    response = api.create_response(
        request, {"detail": "Too many requests: try again later."}, status=429
    )
    if error.wait is not None:
        response["Retry-After"] = str(max(1, int(error.wait)))
    return response


MAX_ID = 2**63 - 1  # past it, a lookup would overflow the database's integer


def _problem(status: int, detail: str, field: str = "") -> JsonResponse:
    return JsonResponse({"detail": detail, "field": field}, status=status)


# Rulings.

REQUEST_BODY = {
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {
                "schema": {"$ref": "/api/v1/schema/scenario-1.json"},
                "example": {
                    "format": "scenario/1",
                    "title": "Demonic Tutor",
                    "source": "CR 701.23d",
                    "players": ["Alice", "Nadia"],
                    "zones": {"Alice": {"library": ["Island#i1", "Forest#f1"]}},
                    "resolve": {"cast": "Demonic Tutor", "by": "Alice"},
                },
            }
        },
    }
}


def _body(request: HttpRequest) -> bytes | str:
    """The request's body, or why it is too big (its size and the limit it is past), read no
    further than the limit."""
    try:
        size = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        size = 0
    limit, per = limits.MAX_DOCUMENT_BYTES, "document"
    if size <= limit:
        try:
            body = request.body
        except RequestDataTooBig:  # the site's own limit on any request (settings)
            limit, per = settings.DATA_UPLOAD_MAX_MEMORY_SIZE, "request"
        else:
            if len(body) <= limit:
                return body
            size = len(body)
    return f"{size:,} bytes, over the limit of {limit:,} bytes per {per}"


@api.post(
    "/rulings",
    response={200: RulingOut, 400: Problem, 413: Problem, 422: Problem},
    openapi_extra=REQUEST_BODY,
    summary="Rule a scenario/1 document",
)
def rulings(request: HttpRequest):
    """Every claim the engine computes for the document, with value, rule and reason, and each
    `expect` claim with `given` choices on its own line of play: what `manage.py ruling`
    prints. The document's cards come from the catalog, the site's cards and the caller's own."""
    body = _body(request)
    if isinstance(body, str):
        return _problem(413, body)
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        return _problem(400, f"not UTF-8 text (byte {error.start})")
    with translation.override("en"):
        try:
            raw = parse_text(text)
        except AuthoringError as error:
            status = 400 if error.message.startswith("malformed JSON") else 422
            return _problem(status, str(error.said), error.path)
        try:
            report = ruling_of_document(raw, catalog_for(request.auth.pk))  # type: ignore[attr-defined]
        except AuthoringError as error:
            return _problem(422, str(error.said), error.path)
    return JsonResponse(report, json_dumps_params={"ensure_ascii": False})


# An instructor's own banks.


def _own_banks(request: HttpRequest):
    user = request.auth  # type: ignore[attr-defined]
    if not is_instructor(user):
        raise HttpError(403, "Banks and questions are read by their instructor: yours are none.")
    return banks_of(user)


def _bank_out(bank: Bank, question_count: int) -> dict[str, Any]:
    return {
        "slug": bank.slug,
        "title": bank.title,
        "description": bank.description,
        "visibility": bank.visibility,
        "question_count": question_count,
        "created_at": bank.created_at,
        "updated_at": bank.updated_at,
    }


def _summary(question: Question) -> dict[str, Any]:
    return {
        "id": question.pk,
        "key": question.key,
        "kind": question.kind,
        "level": question.level,
        "is_active": question.is_active,
        "scenario": question.scenario.slug,
        "prompt": question.prompt,
    }


@api.get("/banks", response={200: list[BankOut], 403: Problem}, summary="Your banks")
def bank_list(request: HttpRequest):
    banks = _own_banks(request).annotate(count=Count("questions"))
    return [_bank_out(bank, bank.count) for bank in banks]


@api.get(
    "/banks/{slug}",
    response={200: BankDetail, 403: Problem, 404: Problem},
    summary="One of your banks, with its questions",
)
def bank_detail(request: HttpRequest, slug: str):
    bank = get_object_or_404(_own_banks(request), slug=slug)
    questions = list(Question.objects.filter(bank=bank).select_related("scenario"))
    return {**_bank_out(bank, len(questions)), "questions": [_summary(q) for q in questions]}


@api.get(
    "/banks/{slug}/questions/{question_id}",
    response={200: QuestionOut, 403: Problem, 404: Problem},
    summary="One question of one of your banks, with its scenario's document",
)
def question_detail(request: HttpRequest, slug: str, question_id: int):
    bank = get_object_or_404(_own_banks(request), slug=slug)
    if not 0 < question_id <= MAX_ID:
        raise HttpError(404, "Not Found")
    question = get_object_or_404(
        Question.objects.filter(bank=bank).select_related("scenario"), pk=question_id
    )
    return {
        **_summary(question),
        "claims": question.claims,
        "rules": sorted(set(question.rules.values_list("number", flat=True))),
        "bank": bank.slug,
        "scenario_title": question.scenario.title,
        "document": document_of(question.scenario).to_json(),
    }


# The schema.


@api.get("/schema/scenario-1.json", auth=None, throttle=[], summary="The scenario/1 JSON Schema")
def schema(request: HttpRequest):
    """The JSON Schema of a scenario/1 document (also `static/api/scenario-1.json`)."""
    return JsonResponse(scenario_schema(), content_type="application/schema+json")

"""What the API's endpoints answer, as the OpenAPI document describes them (views.py)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ninja import Schema


class Problem(Schema):
    detail: str
    field: str = ""


class Claim(Schema):
    """A claim with its subject keys (`player`, `card`, ...) beside these."""

    model_config = {"extra": "allow"}
    claim: str
    value: Any
    rule: str
    reason: str


class RulingOut(Schema):
    id: str
    title: str
    claims: list[Claim]
    explanation: list[str]
    given_claims: list[Claim]


class BankOut(Schema):
    slug: str
    title: str
    description: str
    visibility: str
    question_count: int
    created_at: datetime
    updated_at: datetime


class QuestionSummary(Schema):
    id: int
    key: str
    kind: str
    level: str
    is_active: bool
    scenario: str  # its slug
    prompt: str


class BankDetail(BankOut):
    questions: list[QuestionSummary]


class QuestionOut(QuestionSummary):
    claims: list[dict[str, Any]]
    rules: list[str]
    bank: str
    scenario_title: str
    document: dict[str, Any]  # the scenario as its author wrote it, with `expect`

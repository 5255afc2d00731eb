"""Tutor's rulings engine: pure Python, no Django.

Parse a scenario/1 document, resolve it under the Comprehensive Rules (search 701.23 and its
neighbours), and get every claim with its value, citation and a plain-language reason.
"""

from __future__ import annotations

from .api import (
    Session,
    check_expectations,
    check_find_choice,
    evaluate_claim,
    resolve,
    ruling_report,
)
from .cards import CardDefinition, Catalog, Filter, default_catalog, parse_card_definition
from .claims import CLAIM_SUBJECTS
from .errors import ScenarioError
from .outcome import ChoiceVerdict, ClaimResult, Mismatch, Outcome
from .scenario import Scenario, parse_scenario
from .state import HIDDEN_ZONES, ZONES, CardInstance, GameState
from .timing import TimingFinding, timing_findings

__all__ = [
    "CLAIM_SUBJECTS",
    "HIDDEN_ZONES",
    "ZONES",
    "CardDefinition",
    "CardInstance",
    "Catalog",
    "ChoiceVerdict",
    "ClaimResult",
    "Filter",
    "GameState",
    "Mismatch",
    "Outcome",
    "Scenario",
    "ScenarioError",
    "Session",
    "TimingFinding",
    "check_expectations",
    "check_find_choice",
    "default_catalog",
    "evaluate_claim",
    "parse_card_definition",
    "parse_scenario",
    "resolve",
    "ruling_report",
    "timing_findings",
]

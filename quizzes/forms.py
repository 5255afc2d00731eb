"""The answer form, built from a question's kind and claims and the board it is asked about."""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Mapping
from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm

from quizzes.board import Board, claim_question, claim_statement, show_value
from quizzes.models import Question

FIND_CHOICES = [("must", "must"), ("may", "may"), ("cannot", "cannot")]
ZONES = ["library", "hand", "graveyard", "battlefield", "exile", "outside", "stack"]
MANA = ["", "{W}", "{U}", "{B}", "{R}", "{G}", "{C}"]
MAX_COUNT = 60
NUMBER_CLAIMS = frozenset({"mills", "triggers"})
BOOLEAN_CLAIMS = frozenset(
    {"revealed", "alt_cost_available", "can_dredge", "can_activate", "may_pay_mana_cost"}
)


class SignupForm(UserCreationForm):
    email = forms.EmailField(required=False, help_text="Only used to reset your password.")

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")


def value_domain(claim: Mapping[str, Any], board: Board) -> list[Any]:
    """The values a learner chooses from for a `value` question about this claim."""
    name = claim.get("claim")
    if name in {"finds", "searches"}:
        return ["must", "may", "cannot"]
    if name in {"shuffles", "searched_library_this_turn"}:
        return ["yes", "no", "if_searched"]
    if name in BOOLEAN_CLAIMS:
        return [True, False]
    if name == "cost_paid":
        return costs_near(board.card_mana_costs(claim.get("card", "")))
    if name in {"searched_portion", "shuffled_portion"}:
        player = claim.get("player")
        library = next(
            (
                zone
                for p in board.players
                if p.name == player
                for zone in p.zones
                if zone.name == "library"
            ),
            None,
        )
        size = len(library.cards) if library else 7
        return ["library", *(f"top {n}" for n in range(1, max(size, 1) + 1))]
    if name == "zone_after":
        return ZONES
    if name == "decision_order":
        return [list(order) for order in itertools.permutations(p.name for p in board.players)]
    if name == "mana_produced":
        return [*MANA, *(symbol * 2 for symbol in MANA if symbol)]  # doubling (Mana Reflection)
    return list(range(0, 11))  # mills, triggers and other counts


def costs_near(costs: list[str]) -> list[str]:
    """Costs a learner picks from: {0}, the card's own costs, and each with {1} or {2} more or
    {1} less generic mana (cost increases and reductions change only the generic part)."""
    options = {"{0}"}
    for cost in costs:
        match = re.match(r"^\{(\d+)\}", cost)
        generic, coloured = (int(match.group(1)), cost[match.end() :]) if match else (0, cost)
        for amount in (generic - 1, generic, generic + 1, generic + 2):
            if amount >= 0:
                options.add((f"{{{amount}}}" if amount or not coloured else "") + coloured)
    options.discard("")
    return sorted(options, key=lambda cost: (len(cost), cost))


def encode(value: Any) -> str:
    """A value as the string a form field carries: JSON, so true, 3 and "3" stay distinct."""
    return json.dumps(value, separators=(",", ":"))


class AnswerForm(forms.Form):
    """Fields named claim_<index> (or lo/hi, statements, cards), one per part of the question."""

    def __init__(self, question: Question, claims: list[dict], board: Board, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.question = question
        self.claims = claims
        self.board = board
        kind = question.kind
        if kind == Question.Kind.CARDS:
            for index, claim in enumerate(claims):
                self.fields[f"claim_{index}"] = forms.ChoiceField(
                    label=board.describe(claim.get("card", "")),
                    choices=FIND_CHOICES,
                    widget=forms.RadioSelect,
                )
        elif kind == Question.Kind.COUNT_RANGE or (
            kind == Question.Kind.VALUE and claims and claims[0].get("claim") == "found_count"
        ):
            self.fields["low"] = forms.IntegerField(
                label="At least", min_value=0, max_value=MAX_COUNT
            )
            self.fields["high"] = forms.IntegerField(
                label="At most", min_value=0, max_value=MAX_COUNT
            )
        elif kind == Question.Kind.VALUE and claims[0].get("claim") in NUMBER_CLAIMS:
            self.fields["number"] = forms.IntegerField(
                label=claim_question(claims[0], board), min_value=0, max_value=MAX_COUNT
            )
        elif kind == Question.Kind.VALUE:
            claim = claims[0]
            self.fields["claim_0"] = forms.ChoiceField(
                label=claim_question(claim, board),
                choices=[(encode(v), show_value(v)) for v in value_domain(claim, board)],
                widget=forms.RadioSelect,
            )
        elif kind == Question.Kind.MULTIPLE_CHOICE:
            self.fields["statements"] = forms.MultipleChoiceField(
                label="Tick every true statement",
                choices=[(str(i), claim_statement(c, board)) for i, c in enumerate(claims)],
                widget=forms.CheckboxSelectMultiple,
                required=False,
            )
        elif kind == Question.Kind.YES_NO:
            for index, claim in enumerate(claims):
                self.fields[f"claim_{index}"] = forms.ChoiceField(
                    label=claim_statement(claim, board),
                    choices=[("yes", "True"), ("no", "False")],
                    widget=forms.RadioSelect,
                )
        elif kind == Question.Kind.LEGAL_SET:
            self.fields["cards"] = forms.MultipleChoiceField(
                label="Cards to find",
                choices=[(label, board.describe(label)) for label in board.cards],
                widget=forms.CheckboxSelectMultiple,
                required=False,
            )

    def clean(self) -> dict:
        cleaned = super().clean()
        low, high = cleaned.get("low"), cleaned.get("high")
        if low is not None and high is not None and low > high:
            raise forms.ValidationError("The lower bound can't be above the upper bound.")
        return cleaned

    @property
    def card_fields(self) -> dict[str, str]:
        """For a `cards` question: card label -> the name of the field that marks it."""
        if self.question.kind != Question.Kind.CARDS:
            return {}
        return {claim.get("card", ""): f"claim_{i}" for i, claim in enumerate(self.claims)}

    @property
    def picks_cards(self) -> bool:
        return self.question.kind == Question.Kind.LEGAL_SET

    def answer(self) -> dict[str, Any]:
        """The cleaned answer as JSON for `quizzes.answers.submit`."""
        data = self.cleaned_data
        if "low" in self.fields:
            return {"range": [data["low"], data["high"]]}
        if "number" in self.fields:
            return {"value": data["number"]}
        if "statements" in self.fields:
            return {"true": sorted(int(i) for i in data["statements"])}
        if "cards" in self.fields:
            return {"cards": list(data["cards"])}
        if self.question.kind == Question.Kind.VALUE:
            return {"value": json.loads(data["claim_0"])}
        return {"parts": [data[f"claim_{i}"] for i in range(len(self.claims))]}

"""Questions imported from Moodle XML: stored with their key, without an engine-ruled board.

They are marked as imported by being rows of their own model: the engine's lint and the
question audit read `Question`/`Scenario` only, so nothing here is ever sent to the engine.
A learner answers one against the key the file gave (`grade`), as Moodle would mark it.
"""

from __future__ import annotations

import math
import re
from typing import Any

from django.db import models
from django.utils.translation import gettext_lazy as _


class ImportedQuestion(models.Model):
    class Kind(models.TextChoices):
        MULTICHOICE = "multichoice", _("Multiple choice")
        TRUEFALSE = "truefalse", _("True or false")
        NUMERICAL = "numerical", _("Number")
        SHORTANSWER = "shortanswer", _("Short answer")

    bank = models.ForeignKey(
        "quizzes.Bank", on_delete=models.CASCADE, related_name="imported_questions"
    )
    source = models.CharField(max_length=20, default="moodle", editable=False)
    name = models.CharField(max_length=255)
    kind = models.CharField(max_length=12, choices=Kind)
    text = models.TextField(help_text="The question as HTML, sanitised on import.")
    feedback = models.TextField(blank=True, help_text="General feedback, sanitised HTML.")
    single = models.BooleanField(default=True, help_text="Multiple choice: one answer only.")
    case_sensitive = models.BooleanField(default=False, help_text="Short answer: match case.")
    answers = models.JSONField(
        default=list,
        help_text='[{"text", "fraction" (percent), "feedback", "tolerance"}, ...] as imported.',
    )
    tags = models.JSONField(default=list, blank=True)
    position = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["bank", "position", "id"]

    def __str__(self) -> str:
        return self.name

    @property
    def is_imported(self) -> bool:
        return True

    def grade(self, response: Any) -> tuple[float, list[int]]:
        """The share of the mark (0 to 1) `response` earns, and the answers it matched.

        multichoice: an answer's index (single) or a list of them (several: their fractions
        add up, never below 0); truefalse: "true"/"false"; numerical: a number within an
        answer's tolerance (the first that matches, "*" matches any); shortanswer: text
        matched as Moodle does (`*` a wildcard, case ignored unless `case_sensitive`).
        """
        if self.kind == self.Kind.MULTICHOICE:
            chosen = response if isinstance(response, list) else [response]
            count = len(self.answers)
            picked = sorted({i for i in chosen if isinstance(i, int) and 0 <= i < count})
            if self.single:
                picked = picked[:1]
            total = sum(float(self.answers[i]["fraction"]) for i in picked) / 100
            return max(0.0, min(1.0, total)), picked
        for index, answer in enumerate(self.answers):
            if self._matches(answer, response):
                return max(0.0, float(answer["fraction"]) / 100), [index]
        return 0.0, []

    def _matches(self, answer: dict, response: Any) -> bool:
        given = str(response if response is not None else "").strip()
        if self.kind == self.Kind.TRUEFALSE:
            return given.lower() == str(answer["text"]).lower()
        if self.kind == self.Kind.NUMERICAL:
            if answer["text"] == "*":
                return bool(given)
            try:
                value = float(given.replace(",", "."))
            except ValueError:
                return False
            return math.isfinite(value) and abs(value - float(answer["text"])) <= float(
                answer.get("tolerance") or 0
            )
        pattern = ".*".join(re.escape(part) for part in str(answer["text"]).split("*"))
        flags = 0 if self.case_sensitive else re.IGNORECASE
        return bool(given) and re.fullmatch(pattern, given, flags) is not None

    def key(self) -> list[dict]:
        """The answers that earn a mark, best first."""
        scored = [a for a in self.answers if float(a["fraction"]) > 0]
        return sorted(scored, key=lambda a: -float(a["fraction"]))

"""Questions imported from Moodle XML: stored with their key, without an engine-ruled board.

They are marked as imported by being rows of their own model: the engine's lint and the
question audit read `Question`/`Scenario` only, so nothing here is ever sent to the engine.
A learner answers one against the key the file gave (`grade`), as Moodle would mark it.
"""

from __future__ import annotations

import math
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
        pattern = str(answer["text"])
        if not self.case_sensitive:
            pattern, given = pattern.casefold(), given.casefold()
        return bool(given) and wildcard_match(pattern, given)

    def key(self) -> list[dict]:
        """The answers that earn a mark, best first."""
        scored = [a for a in self.answers if float(a["fraction"]) > 0]
        return sorted(scored, key=lambda a: -float(a["fraction"]))


def wildcard_match(pattern: str, text: str) -> bool:
    """Whether `text` is `pattern` with each `*` standing for any run of characters (Moodle's
    short answer). Two pointers, back to the last star on a mismatch: at most
    len(pattern) * len(text) steps, never a regular expression's backtracking."""
    p = t = 0
    star, resume = -1, 0
    while t < len(text):
        if p < len(pattern) and pattern[p] != "*" and pattern[p] == text[t]:
            p, t = p + 1, t + 1
        elif p < len(pattern) and pattern[p] == "*":
            star, resume, p = p, t, p + 1
        elif star >= 0:
            resume += 1
            p, t = star + 1, resume
        else:
            return False
    return all(ch == "*" for ch in pattern[p:])

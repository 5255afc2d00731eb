"""Wording tells (issue 26, item 5): can a statement's words predict whether it is true?

A word vote learns, from half the questions, how often each word appears in a true statement,
then guesses the truth of every statement of the other half from its words. Near 50% (and near
the share of the commoner answer) no word gives the key away; "… is untapped" false 46 of 46
times once let it score 61.9%.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

WORD = re.compile(r"\{[^}]+\}|[a-z0-9+/-]+")


@dataclass(frozen=True)
class Vote:
    accuracy: float  # share of held-out statements the vote got right
    base_rate: float  # share of held-out statements that are true
    held_out: int

    @property
    def blind(self) -> float:
        """What always answering the commoner value scores on the held-out half."""
        return max(self.base_rate, 1 - self.base_rate)


def words(text: str) -> set[str]:
    return set(WORD.findall(text.lower()))


def word_vote(statements: Iterable[tuple[int, str, bool]]) -> Vote:
    """(question id, statement text, truth) -> the vote's score on the odd questions, trained
    on the even ones (a question's statements stay on one side)."""
    train: list[tuple[set[str], bool]] = []
    test: list[tuple[set[str], bool]] = []
    for question, text, truth in statements:
        (train if question % 2 == 0 else test).append((words(text), truth))
    seen: Counter[str] = Counter()
    true: Counter[str] = Counter()
    for found, truth in train:
        seen.update(found)
        true.update(found if truth else ())
    prior = sum(truth for _, truth in train) / max(len(train), 1)

    def log_odds(word: str) -> float:
        p = (true[word] + prior) / (seen[word] + 1)  # smoothed towards the prior
        q = min(max(p, 1e-6), 1 - 1e-6)
        r = min(max(prior, 1e-6), 1 - 1e-6)
        return math.log(q / (1 - q)) - math.log(r / (1 - r))

    prior_odds = math.log(max(prior, 1e-6) / max(1 - prior, 1e-6))
    right = sum(
        (prior_odds + sum(log_odds(w) for w in found) > 0) == truth for found, truth in test
    )
    held = len(test)
    return Vote(right / max(held, 1), sum(t for _, t in test) / max(held, 1), held)


def position_vote(statements: Iterable[tuple[int, int, int, bool]]) -> Vote:
    """(question id, position shown, statements in the question, truth) -> how well guessing
    by place scores on the odd questions: per (count, position), the truth commoner among the
    even questions' statements in that place (issue 20: guessing by position or by count must
    score what blind guessing does)."""
    train: list[tuple[tuple[int, int], bool]] = []
    test: list[tuple[tuple[int, int], bool]] = []
    for question, position, count, truth in statements:
        (train if question % 2 == 0 else test).append(((count, position), truth))
    seen: Counter[tuple[int, int]] = Counter()
    true: Counter[tuple[int, int]] = Counter()
    for place, truth in train:
        seen[place] += 1
        true[place] += truth
    prior = sum(truth for _, truth in train) / max(len(train), 1)

    def guess(place: tuple[int, int]) -> bool:
        if not seen[place]:
            return prior > 0.5
        return true[place] / seen[place] > 0.5

    right = sum(guess(place) == truth for place, truth in test)
    held = len(test)
    return Vote(right / max(held, 1), sum(t for _, t in test) / max(held, 1), held)

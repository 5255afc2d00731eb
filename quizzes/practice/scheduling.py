"""Spaced review per (learner, rule) with FSRS: Again when wrong, Good when right."""

from __future__ import annotations

from datetime import datetime

from fsrs import Card, Rating, Scheduler

# No fuzzing: the same history gives the same due date, which keeps tests and support simple.
SCHEDULER = Scheduler(enable_fuzzing=False)


def review(card_state: dict, correct: bool, now: datetime) -> tuple[dict, datetime]:
    """The card after one review, as JSON, and when it is next due."""
    card = Card.from_dict(card_state) if card_state else Card(due=now)
    card, _log = SCHEDULER.review_card(card, Rating.Good if correct else Rating.Again, now)
    return card.to_dict(), card.due

from __future__ import annotations

import datetime

from quizzes.practice import scheduling

NOW = datetime.datetime(2026, 1, 1, 12, tzinfo=datetime.UTC)


def test_a_right_answer_is_due_later_than_a_wrong_one():
    _, due_right = scheduling.review({}, True, NOW)
    _, due_wrong = scheduling.review({}, False, NOW)
    assert due_right > due_wrong > NOW


def test_the_card_round_trips_through_json():
    state, _ = scheduling.review({}, True, NOW)
    later = NOW + datetime.timedelta(days=1)
    state2, due2 = scheduling.review(state, True, later)
    assert state2["stability"] > state["stability"]
    assert due2 > later

"""A Ruling: the question as shown, its line of play in words, statements in a fixed shuffle."""

from __future__ import annotations

from quizzes.rulings import Ruling, grade
from quizzes.rulings.ruling import shown_order
from tests.quizzes.conftest import land_tutor_spec

STATEMENTS = [
    {"claim": "revealed", "searcher": "Alice", "proposed": True},
    {"claim": "searches", "player": "Nadia", "proposed": "may"},
    {"claim": "shuffles", "player": "Alice", "proposed": "yes"},
    {"claim": "finds", "card": "s1", "proposed": "cannot"},
]


def test_statement_order_is_fixed_per_question_variant_and_learner():
    first = shown_order(4, "yes_no", 7, 1, 99)
    assert first == shown_order(4, "yes_no", 7, 1, 99)
    orders = {tuple(shown_order(4, "yes_no", 7, learner, 99)) for learner in range(30)}
    assert len(orders) > 5
    assert shown_order(4, "cards", 7, 1, 99) == [0, 1, 2, 3]  # only statements move


def test_the_shown_order_is_the_graded_order():
    ruling = Ruling.build("yes_no", land_tutor_spec(), STATEMENTS, 0, order_key=(1, 2))
    truths = {"revealed": True, "searches": False, "shuffles": True, "finds": True}
    answer = {"parts": ["yes" if truths[c["claim"]] else "no" for c in ruling.claims]}
    assert grade(ruling, answer).correct


def test_the_line_of_play_is_written_out():
    claim = {"claim": "zone_after", "card": "f1", "given": {"Alice": {"find": ["f1"]}}}
    ruling = Ruling.build("value", land_tutor_spec(), [claim], 0)
    assert ruling.premises() == ["Alice finds the Forest on top of Alice's library."]


def test_an_order_is_asked_with_a_place_per_player_not_every_permutation():
    spec = land_tutor_spec()
    spec["players"] = ["Alice", "Nadia", "Bram", "Chen", "Dalia", "Emeka", "Farah", "Gus", "Hana"]
    ruling = Ruling.build("value", spec, [{"claim": "decision_order"}], 0)
    from quizzes.rulings import kind_of

    fields = kind_of("value").fields(ruling)
    assert len(fields) == 9 and all(len(field.choices) == 9 for field in fields.values())

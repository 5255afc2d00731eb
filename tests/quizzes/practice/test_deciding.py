"""Which parts of an answer decide which rules (quizzes/practice/deciding.py), and relearning
that follows the rule of the part that was missed (issue 23: mastery per part)."""

from __future__ import annotations

from quizzes.practice import deciding, selection
from quizzes.practice.selection import Answered
from quizzes.rulings.verdict import Part

RULES = {1: "118.9", 2: "701.23a", 3: "701.23e"}


def part(rule: str, right: bool) -> Part:
    return Part(question="?", given="", expected="", right=right, rule=rule, reason="")


def test_a_part_counts_for_the_rules_it_cites_alone():
    parts = [part("701.23e", True), part("118.9", False)]
    outcomes = deciding.rule_outcomes(parts, {1: "118.9", 3: "701.23e"}, correct=False)
    assert outcomes == {1: False, 3: True}


def test_a_rule_cited_by_a_right_and_a_wrong_part_is_wrong():
    parts = [part("701.23e", True), part("701.23e, 118.9", False)]
    assert deciding.rule_outcomes(parts, {1: "118.9", 3: "701.23e"}, False) == {1: False, 3: False}


def test_a_rule_no_part_cites_goes_with_the_parts_of_its_rule():
    """701.23a, linked beside 701.23e (a citation of the scenario's), goes with the 701.23e part:
    a miss on the 118.9 part is not a miss on 701.23a."""
    parts = [part("701.23e", True), part("118.9", False)]
    assert deciding.missed_rules(parts, RULES, correct=False) == {1}


def test_a_rule_no_part_is_about_goes_with_the_whole_answer():
    parts = [part("", True), part("", False)]
    assert deciding.rule_outcomes(parts, {1: "118.9"}, correct=False) == {1: False}
    assert deciding.rule_outcomes([part("", True)], {1: "118.9"}, correct=True) == {1: True}


def answered(question_id: int, correct: bool, rule_ids, missed=None) -> Answered:
    return Answered(question_id, question_id, correct, frozenset(rule_ids), "cards", None, missed)


def test_relearning_follows_the_rule_of_the_part_that_was_missed():
    """A miss on a 118.9 part relearns 118.9, not 701.23a (issue 23)."""
    recent = [answered(2, True, {7}), answered(1, False, {1, 2, 3}, missed=frozenset({1}))]
    assert selection.relearning_rules(recent) == {1}


def test_an_answer_whose_missed_parts_were_not_read_relearns_all_its_rules():
    recent = [answered(2, True, {7}), answered(1, False, {1, 2})]
    assert selection.relearning_rules(recent) == {1, 2}


def test_a_right_answer_relearns_nothing():
    recent = [answered(2, True, {7}), answered(1, True, {1, 2})]
    assert selection.relearning_rules(recent) == frozenset()


def test_a_question_since_on_the_missed_rule_relearns_nothing_more():
    recent = [answered(2, True, {1}), answered(1, False, {1, 2, 3}, missed=frozenset({1}))]
    assert selection.relearning_rules(recent) == frozenset()
    # one on a rule of the question that was not missed does not count as relearning it
    recent = [answered(2, True, {2}), answered(1, False, {1, 2, 3}, missed=frozenset({1}))]
    assert selection.relearning_rules(recent) == {1}

"""Which parts of an answer decide which of its question's rules: mastery per part.

A question links the rules its claims cite (and the scenario's citations about them); a graded
answer's parts each carry the engine's rule. A part counts for the rules it cites alone, so a
learner who answers the 701.23e part right and the 118.9 part wrong gets 701.23e right and 118.9
wrong, not both wrong. Pure functions: `answers._learn` (mastery) and `selection` (relearning)
read the same outcome.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from quizzes.rulings.generate import relevant
from quizzes.rulings.verdict import Part


def rule_outcomes(
    parts: Iterable[Part], rules: Mapping[int, str], correct: bool
) -> dict[int, bool]:
    """Whether the learner got each of `rules` ({rule id: its current number}) right.

    A rule is right when every part deciding it is right. A part decides the rules whose number
    it cites; a rule no part cites (a citation the scenario adds, as 701.23a beside 701.23e)
    goes with the parts citing a rule it is about (`relevant`: the same rule, a subrule, a
    sibling subrule), as it was linked; a rule still undecided (parts citing no rule) goes with
    the whole answer, `correct`.
    """
    cited = [(frozenset(part.rule_numbers), part.right) for part in parts]
    outcomes: dict[int, bool] = {}
    for rule_id, number in rules.items():
        deciding = [right for numbers, right in cited if number in numbers]
        if not deciding:
            deciding = [right for numbers, right in cited if numbers and relevant(number, numbers)]
        outcomes[rule_id] = all(deciding) if deciding else correct
    return outcomes


def missed_rules(parts: Iterable[Part], rules: Mapping[int, str], correct: bool) -> frozenset[int]:
    """The rules among `rules` the answer got wrong (`rule_outcomes`)."""
    outcomes = rule_outcomes(parts, rules, correct)
    return frozenset(rule_id for rule_id, right in outcomes.items() if not right)

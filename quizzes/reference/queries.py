"""The reference room's hand-written query: the rule page's one query per visitor.

Invariant: `scenario_rows_and_mastery(rule, user)` returns exactly what the querysets return
that tests/quizzes/reference/test_scenario_rows.py keeps as its specification: the scenarios
exercising `rule` that `user` may practise (authored in a bank they may practise from, or asked
about there by an active question), by id, each with its active question count and whether
`user` answered one of its questions; and `Mastery.objects.of_rule(user, rule)`. Django took ten
times longer to build that query than the database to answer it, on every rule page.
"""

from __future__ import annotations

from typing import NamedTuple

from config import sql
from quizzes import visibility
from quizzes.models import Mastery
from quizzes.practice.recording import MASTERY  # the mastery's reader, as `of_rule`
from rules.models import Rule

SCENARIO_ROWS = """
SELECT s.id, s.title,
  (SELECT COUNT(*) FROM quizzes_question q WHERE q.scenario_id = s.id AND q.is_active),
  {answered}{padding}
FROM quizzes_scenario s
JOIN quizzes_scenario_rules_exercised exercised ON exercised.scenario_id = s.id
WHERE exercised.rule_id = %s
  AND (s.bank_id IN ({banks}) OR EXISTS (SELECT 1 FROM quizzes_question q
       WHERE q.scenario_id = s.id AND q.is_active AND q.bank_id IN ({banks})))
"""
# From the scenario's few questions to the learner's answer to each (the (user, question)
# index): SQLite would otherwise walk all of the learner's answers for every scenario (1 ms at
# 600 answers, 0.08 ms this way). CROSS JOIN is SQLite's way to keep that order; PostgreSQL
# plans it as any join.
ANSWERED = """EXISTS (SELECT 1 FROM quizzes_question asked CROSS JOIN quizzes_response answer
  WHERE asked.scenario_id = s.id AND answer.question_id = asked.id AND answer.user_id = %s)"""


class ScenarioRow(NamedTuple):
    """A row of the rule page's list (as `listed` gives: its fields by the same names)."""

    pk: int
    title: str
    question_count: int
    answered: bool


def scenario_rows(rule: Rule, user) -> tuple[ScenarioRow, ...]:
    """The rule page's list (the scenarios exercising `rule` that `user` may practise) as a
    tuple of rows, so that the page renders the list once per process for each list it shows
    (`{% fixed_part %}`)."""
    return scenario_rows_and_mastery(rule, user)[0]


def scenario_rows_and_mastery(
    rule: Rule, user, kept: dict | None = None
) -> tuple[tuple[ScenarioRow, ...], Mastery | None]:
    """`scenario_rows(rule, user)` and, for a signed-in visitor, their mastery of `rule`
    (`Mastery.objects.of_rule`), in one query: the mastery's row joined to the list's rows with
    `UNION ALL` (each row's other columns NULL). `kept`: what the page read from the cache
    with the visitor's banks (`visibility.bank_ids`)."""
    banks = sorted(visibility.bank_ids(user, kept))
    signed_in = user.is_authenticated
    query = SCENARIO_ROWS.format(
        answered=ANSWERED if signed_in else "1 = 0",
        banks=sql.placeholders(banks),
        padding=", NULL" * len(MASTERY) if signed_in else "",
    )
    params = [*([user.pk] if signed_in else []), rule.pk, *banks, *banks]
    if signed_in:
        query += (
            f"UNION ALL SELECT NULL, NULL, NULL, NULL, {MASTERY.sql} FROM quizzes_mastery m"
            " WHERE m.user_id = %s AND m.rule_id = %s"
        )
        params += [user.pk, rule.pk]
    query += " ORDER BY 1"  # the scenarios by id
    found = sql.rows(query, params, prepared=True)
    rows = tuple(
        ScenarioRow(row[0], row[1], row[2], bool(row[3])) for row in found if row[0] is not None
    )
    mastery = next((MASTERY.read(row, 4) for row in found if row[0] is None), None)
    return rows, mastery

"""An answer's writes, inside `answers.record`'s one transaction: the response, then the
question's counters and the learner's masteries of its rules, written from what the answer's
lookup read (quizzes/practice/answer_lookup.py) where no row moved since; else (and for an
exam's answers) the missing masteries made, the question's row and the masteries read locked,
then both written.

Invariant: no update is lost. Every write of a question's counters or a mastery's learned
values is either conditional on the row being as read (`answer_count`, `answers`: each counts
every change to its row's learned values, so an unchanged count is an unchanged row) or made
under the row's lock read first; a condition that fails writes nothing to that row, and the
answer reads it again locked and learns from the fresh values, as if it came after the answer
that moved it. Row locks are taken in one order by every transaction that learns: the
question's row first (its UPDATE or its locked read), then the learner's masteries in rule-id
order (no cycle of waits). Nothing raises on a second answer (the response's conflict is
ignored), so no savepoint is needed. By hand (config/sql.py): the response's INSERT, the
question's conditional UPDATE, the masteries' conditional upsert (one statement for all: a
missing one inserted, read as missing it had 0 answers), the masteries' INSERT ... SELECT, the
locked read and the masteries' UPDATE (see below); the ORM's statements they replace are the
specification, kept in tests/quizzes/practice/test_recording.py. Row locks only where the
database has them (PostgreSQL); SQLite's IMMEDIATE transactions already run one writer at a
time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import Exists, F, OuterRef

from config import sql
from config.model_rows import Columns
from quizzes.models import Mastery, Question, Response

MASTERY = Columns(Mastery, "m")
LEARNED = ("theta", "answers", "correct", "fsrs_card", "due", "updated_at")
_quote = connection.ops.quote_name

# The question's counters, whether the learner answered it before, how many rules it links and
# of how many the learner has a mastery; then, joined, either the learner's masteries of its
# rules (each with its rule's number, read in a subquery: a join would lock the rule's row too
# under FOR UPDATE, for every learner of it), every row locked, the question's with the first,
# the masteries in rule-id order (the order every transaction that learns keeps). When the
# learner lacks one (the answer made the missing ones before: only a question of no rule, or a
# rule linked since the lookup), `lock_question_and_masteries` reads by the ORM.
_QUESTION_COLUMNS = """
SELECT q.difficulty, q.answer_count,
  EXISTS(SELECT 1 FROM quizzes_response r
         WHERE r.question_id = q.id AND r.user_id = %s AND r.id <> %s),
  (SELECT COUNT(*) FROM quizzes_question_rules qr WHERE qr.question_id = q.id),
  (SELECT COUNT(*) FROM quizzes_question_rules qr
   INNER JOIN quizzes_mastery m ON m.rule_id = qr.rule_id AND m.user_id = %s
   WHERE qr.question_id = q.id)"""
QUESTION_AND_MASTERIES = f"""{_QUESTION_COLUMNS},
  {MASTERY.sql}, (SELECT r.number FROM rules_rule r WHERE r.id = m.rule_id)
FROM quizzes_question q
INNER JOIN quizzes_mastery m ON m.user_id = %s
  AND m.rule_id IN (SELECT qr.rule_id FROM quizzes_question_rules qr WHERE qr.question_id = q.id)
WHERE q.id = %s
ORDER BY m.rule_id"""
# `mastery.save(update_fields=LEARNED)`, by hand: `bulk_update` (one UPDATE for several
# masteries) cost 2.3 ms of an answer's 5.8 in process (its CASE per field, the JSON field's
# cast), where this statement's few microseconds a mastery; one per rule (most link one)
SAVE_LEARNED = (
    f"UPDATE quizzes_mastery SET {', '.join(f'{_quote(name)} = %s' for name in LEARNED)}"
    " WHERE id = %s"
)
# `Question.objects.filter(pk=..., answer_count=<read>).update(answer_count=<read> + 1,
# difficulty=...)`: one row written (and locked: the answer's first row lock), or none if moved
COUNT_ANSWER_IF = """
UPDATE quizzes_question SET answer_count = %s, difficulty = %s
WHERE id = %s AND answer_count = %s"""
# Each mastery's learned values, where its row still has one answer less than written (as read),
# or inserted where it is missing; the rules of the rows written. On a conflict the row is
# locked (PostgreSQL) even where the condition fails and nothing is written.
_LEARN_COLUMNS = ("user_id", "rule_id", *LEARNED)
LEARN_IF_UNCHANGED = f"""
INSERT INTO quizzes_mastery ({", ".join(_quote(name) for name in _LEARN_COLUMNS)})
VALUES {{rows}}
ON CONFLICT (user_id, rule_id) DO UPDATE SET
  {", ".join(f"{_quote(name)} = excluded.{_quote(name)}" for name in LEARNED)}
WHERE quizzes_mastery.answers = excluded.answers - 1
RETURNING rule_id"""
# `Mastery.objects.bulk_create([Mastery(user=..., rule=rule) for rule in question.rules.all()],
# ignore_conflicts=True)` without reading the rules first; the model's defaults, in rule order
CREATE_MASTERIES = """
INSERT INTO quizzes_mastery (user_id, rule_id, theta, answers, correct, fsrs_card, due, updated_at)
SELECT %s, qr.rule_id, 0.0, 0, 0, '{}', NULL, %s FROM quizzes_question_rules qr
WHERE qr.question_id = %s ORDER BY qr.rule_id
ON CONFLICT DO NOTHING"""


def _locking(query: str) -> str:
    """`query` locking the rows it reads."""
    if not connection.features.has_select_for_update:
        return query
    return f"{query} FOR UPDATE"


@dataclass(frozen=True)
class LockedQuestion:
    difficulty: float
    answer_count: int
    answered_before: bool  # the learner has another response to it: not a first attempt
    rule_count: int  # rules linked to it
    mastery_count: int  # ... of which the learner has a mastery

    @property
    def masteries_exist(self) -> bool:
        """Whether the question links rules and the learner has a mastery of each."""
        return 0 < self.rule_count == self.mastery_count


def _locked_question(row: tuple) -> LockedQuestion:
    difficulty, answer_count, answered, rule_count, mastery_count = row[:5]
    return LockedQuestion(
        float(difficulty), int(answer_count), bool(answered), int(rule_count), int(mastery_count)
    )


def lock_question_and_masteries(
    question_id: int, user_id: int, response_id: int
) -> tuple[LockedQuestion, list[tuple[Mastery, str]], dict[int, str]]:
    """The question's counters, its row locked (the first row lock an answer takes), whether
    `user_id` answered it before `response_id` (the response just stored), how many rules it
    links and of how many they have a mastery; and, when they have one of each, those
    masteries locked in rule-id order, each with its rule's number; else none (the caller
    creates the missing ones) but the rules the question links, each id with its number.
    One query when the learner has a mastery of each of its rules; three when not (a question
    of no rule, or a race with a rule linked)."""
    parameters = [user_id, response_id, user_id, user_id, question_id]
    found = sql.rows(_locking(QUESTION_AND_MASTERIES), parameters, prepared=True)
    if found and _locked_question(found[0]).masteries_exist:
        masteries = [(MASTERY.read(row, 5), row[5 + len(MASTERY)]) for row in found]
        return _locked_question(found[0]), masteries, {}
    # the question's row alone locked, and the rules it links (the ORM's statements: seldom)
    question = Question.objects.filter(pk=question_id)
    if connection.features.has_select_for_update:
        question = question.select_for_update()
    answers = Response.objects.filter(question=OuterRef("pk"), user_id=user_id)
    answered = Exists(answers.exclude(pk=response_id))
    values = question.annotate(answered=answered).values_list(
        "difficulty", "answer_count", "answered"
    )
    difficulty, answer_count, answered_before = values.get()
    links = Question.rules.through.objects.filter(question_id=question_id)
    linked = dict(links.values_list("rule_id", "rule__number"))
    mastery_count = _locked_question(found[0]).mastery_count if found else 0
    locked = (difficulty, answer_count, answered_before, len(linked), mastery_count)
    return _locked_question(locked), [], linked


def insert_response(response: Response) -> Response | None:
    """`response` (unsaved) stored as `Response.objects.create` stores it, or None when the
    presentation, or the attempt and question, already have one (where `create` raises
    IntegrityError: no error here, so no savepoint is needed to survive it)."""
    return response if sql.insert(response, ignore_conflicts=True) else None  # no receiver


def create_masteries(question_id: int, user_id: int, now) -> None:
    """A mastery of each of the question's rules `user_id` has none of, with the model's
    defaults (`updated_at` now); the ones that exist are left as they are."""
    sql.run(CREATE_MASTERIES, [user_id, sql.at(now), question_id], prepared=True)


def save_learned(masteries: list[Mastery], now) -> None:
    """`mastery.save(update_fields=[*LEARNED])` for each, `updated_at` now."""
    for mastery in masteries:
        mastery.updated_at = now
        values: dict[str, Any] = {name: getattr(mastery, name) for name in LEARNED}
        sql.run(SAVE_LEARNED, [*MASTERY.prepared(values), mastery.pk], prepared=True)


def count_answer_if(question_id: int, answer_count: int, difficulty: float) -> bool:
    """The question's counters, where it still has the `answer_count` answers read: one more,
    and `difficulty`. False when another answer moved it since (nothing written)."""
    parameters = [answer_count + 1, difficulty, question_id, answer_count]
    return sql.run(COUNT_ANSWER_IF, parameters, prepared=True) == 1


def learn_if_unchanged(masteries: list[Mastery], now) -> set[int]:
    """Each mastery's learned values (`answers` one more than read; a mastery read missing has
    its model's defaults, 0 answers, before), `updated_at` now, written where its row is still
    as read, made where it is missing; the rule ids of the ones written."""
    parameters: list[Any] = []
    for mastery in masteries:
        mastery.updated_at = now
        values = {name: getattr(mastery, name) for name in _LEARN_COLUMNS}
        parameters += MASTERY.prepared(values)
    row = f"({sql.placeholders(_LEARN_COLUMNS)})"
    statement = LEARN_IF_UNCHANGED.replace("{rows}", ", ".join([row] * len(masteries)))
    return {rule_id for (rule_id,) in sql.rows(statement, parameters, prepared=True)}


def set_difficulty(question_id: int, difficulty: float) -> None:
    """The question's difficulty (its counters written already, its row locked)."""
    Question.objects.filter(pk=question_id).update(difficulty=difficulty)


def count_answer(question_id: int, difficulty: float) -> None:
    """One more answer to the question, and its difficulty as Elo moved it."""
    Question.objects.filter(pk=question_id).update(
        answer_count=F("answer_count") + 1, difficulty=difficulty
    )

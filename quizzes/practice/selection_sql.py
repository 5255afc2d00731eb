"""The selection's queries, written as SQL (config/sql.py): building and compiling them as
querysets cost several times what the database takes to answer them (a pick was mostly Django
compiling `exclude`, `Exists` and `AnyOf`). quizzes/selection.py makes the decisions (which
questions, which wishes of the mix); this module only writes them down. Each query has a test
that it returns what its queryset returns (tests/quizzes/test_selection_sql.py).

`Questions` is a set of questions as conditions on `q` (the question) and `s` (its scenario),
the hand-written form of `selection.available_questions` and the mix's filters.
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.db import connection

from config import sql
from config.model_rows import Columns
from quizzes.models import Bank, Question, Scenario, Variant
from quizzes.practice.lookups import any_of
from quizzes.practice.topics import mask

UNSERVABLE = (Scenario.EngineStatus.INVALID.value, Scenario.EngineStatus.DISAGREES.value)
ANSWER, MASTERY, BANK, SITTING = "answer", "mastery", "bank", "sitting"


@dataclass(frozen=True)
class Questions:
    """Questions as SQL conditions (ANDed), with their parameters in order; with `seed`, the
    question found comes with its stored variant of that seed on its scenario's current version
    (`served_variant`: None when none is stored), read in the same query."""

    conditions: tuple[str, ...]
    params: tuple[Any, ...] = ()
    seed: int | None = None

    @classmethod
    def servable(cls, bank_ids) -> Questions:
        """`selection.available_questions`, the banks given by id: SQLite is told not to start
        from the bank's index (it would sort the bank's questions), so it walks the difficulty's."""
        banks, listed = any_of('q."bank_id"', bank_ids, connection.vendor, start_here=False)
        statuses = sql.placeholders(UNSERVABLE)
        return cls(
            (banks, 'q."is_active"', f's."engine_status" NOT IN ({statuses})'),
            (*listed, *UNSERVABLE),
        )

    def where(self, condition: str, *params: Any) -> Questions:
        return dataclasses.replace(
            self, conditions=(*self.conditions, condition), params=(*self.params, *params)
        )

    def serving(self, seed: int) -> Questions:
        """These questions, the one found read with its stored variant `seed`."""
        return dataclasses.replace(self, seed=seed)

    def of_level(self, level: str) -> Questions:
        return self.where('q."level" = %s', level)

    def in_bank(self, bank_id: int) -> Questions:
        return self.where('q."bank_id" = %s', bank_id)

    def with_rules(self, rule_ids) -> Questions:
        """Asking any of `rule_ids`: an EXISTS, not a join, so the difficulty index is walked
        still (a join lets SQLite start from the rule and sort its questions)."""
        return self.where(f"EXISTS ({_asking(rule_ids)})", *sorted(rule_ids))

    def without_rules(self, rule_ids) -> Questions:
        return self.where(f"NOT EXISTS ({_asking(rule_ids)})", *sorted(rule_ids))

    def about(self, topics) -> Questions:
        """About any of `topics` (quizzes/practice/topics.py), by the bits the question stores."""
        return self.where('(q."topics" & %s) <> 0', mask(topics))

    def not_about(self, topics) -> Questions:
        if not topics:
            return self
        return self.where('(q."topics" & %s) = 0', mask(topics))

    def not_from_scenarios(self, scenario_ids) -> Questions:
        listed, params = any_of('q."scenario_id"', scenario_ids, connection.vendor)
        return self.where(f"NOT ({listed})", *params)

    def not_from_families(self, family_ids) -> Questions:
        """Not of the families given (a question of no family, a seed scenario's, stays)."""
        if not family_ids:
            return self
        listed, params = any_of('s."family_id"', family_ids, connection.vendor)
        return self.where(f'(s."family_id" IS NULL OR NOT ({listed}))', *params)

    def of_families_named(self, slugs) -> Questions:
        """Of the families with these slugs."""
        slugs = sorted(slugs)
        if not slugs:
            return self.where("1 = 0")
        named = (
            f'SELECT f."id" FROM "quizzes_family" f WHERE f."slug" IN ({sql.placeholders(slugs)})'
        )
        return self.where(f's."family_id" IN ({named})', *slugs)

    def not_of_kinds(self, kinds) -> Questions:
        kinds = sorted(kinds)
        if not kinds:  # as `exclude(kind__in=[])`: nothing excluded
            return self
        return self.where(f'q."kind" NOT IN ({sql.placeholders(kinds)})', *kinds)

    def not_from_scenario(self, scenario_id: int) -> Questions:
        return self.where('q."scenario_id" <> %s', scenario_id)

    def not_question(self, question_id: int) -> Questions:
        return self.where('q."id" <> %s', question_id)

    @property
    def sql(self) -> str:
        return " AND ".join(self.conditions)


def _asking(rule_ids) -> str:
    listed = sql.placeholders(list(rule_ids))
    return (
        'SELECT 1 FROM "quizzes_question_rules" qr '
        f'WHERE qr."question_id" = q."id" AND qr."rule_id" IN ({listed})'
    )


QUESTIONS = 'FROM "quizzes_question" q INNER JOIN "quizzes_scenario" s ON s."id" = q."scenario_id"'
UNSEEN = 'NOT EXISTS (SELECT 1 FROM "quizzes_response" r WHERE r."question_id" = q."id" AND r."user_id" = %s)'  # noqa: E501


QUESTION = Columns(Question, "q")
SCENARIO = Columns(Scenario, "s")
VARIANT = Columns(Variant, "v")
SERVED_VARIANT = "served_variant"  # the attribute a question read with its variant carries it in
SERVED = (
    'LEFT JOIN "quizzes_variant" v ON v."question_id" = q."id"'
    ' AND v."scenario_version_id" = s."current_version_id" AND v."seed" = %s'
)


def _question_rows(questions: Questions) -> tuple[str, tuple[Any, ...]]:
    """The SELECT of a question with its scenario (and its variant when `questions.seed` is
    set), and the parameters it starts with."""
    if questions.seed is None:
        return f"SELECT {QUESTION.sql}, {SCENARIO.sql} {QUESTIONS}", ()
    return f"SELECT {QUESTION.sql}, {SCENARIO.sql}, {VARIANT.sql} {QUESTIONS} {SERVED}", (
        questions.seed,
    )


def _question(row: tuple | None, questions: Questions) -> Question | None:
    """The question of a `_question_rows` row, its scenario with it (as `select_related`), and
    its variant as `served_variant` when it was read."""
    if row is None:
        return None
    question = QUESTION.read(row)
    Question.scenario.field.set_cached_value(question, SCENARIO.read(row, len(QUESTION)))
    if questions.seed is not None:
        setattr(question, SERVED_VARIANT, VARIANT.read(row, len(QUESTION) + len(SCENARIO)))
    return question


def served_variant(question: Question) -> Variant | None:
    """The stored variant read with `question` (`Questions.serving`), if it was."""
    return getattr(question, SERVED_VARIANT, None)


@dataclass(frozen=True)
class Wish:
    """One wish of the mix: among `questions`, the unseen question nearest `target`; with
    `seen_too`, once none is unseen, the least seen of them."""

    questions: Questions
    target: float
    seen_too: bool = True
    # asked first among the unseen, the first most (each `questions` with more conditions)
    preferred: tuple[Questions, ...] = ()


# A wish's subqueries asked in one query: each only runs when those before it found nothing,
# but PostgreSQL plans every one (about a millisecond each for these walks), so two: a page
# whose first wish finds a question plans one subquery for nothing, and saves a round trip on
# every wish further down (the unseen then the least seen, or the absent topic's then the mix's).
PLACES_PER_QUERY = 2


def _unseen(
    questions: Questions, user_id: int, target: float, preferred: Sequence[Questions] = ()
) -> tuple[str, tuple]:
    """The id of the unseen question nearest `target` (ties: the lower id): the nearest above
    and below, each a `LIMIT 1` walk of the difficulty index out from the target. With
    `preferred` (each `questions` with more conditions, the first preferred most), one of those
    first when there is one (two more walks each). Each walk is written once, with its tier:
    PostgreSQL plans every walk the text holds (written again in a CASE, the preferred walks
    were planned twice)."""
    arms, walked = [], []
    for tier, among in enumerate((*preferred, questions)):
        for op, way in ((">=", "ASC"), ("<", "DESC")):
            arms.append(
                f'SELECT w."id", w."difficulty", {tier} AS "tier" FROM (SELECT q."id",'
                f' q."difficulty" {QUESTIONS} WHERE {among.sql} AND {UNSEEN} AND q."difficulty"'
                f' {op} %s ORDER BY q."difficulty" {way}, q."id" {way} LIMIT 1) w'
            )
            walked += [*among.params, user_id, target]
    query = (
        f'SELECT f."id" FROM ({" UNION ALL ".join(arms)}) f'
        ' ORDER BY f."tier", ABS(f."difficulty" - %s), f."id" LIMIT 1'
    )
    return query, (*walked, target)


def nearest_unseen(
    questions: Questions, user_id: int, target: float, *preferred: Questions
) -> Question | None:
    """The unseen question `_unseen` finds, read with its scenario (and variant)."""
    query, params = _unseen(questions, user_id, target, preferred)
    rows, served = _question_rows(questions)
    return _question(sql.first(f'{rows} WHERE q."id" = ({query})', (*served, *params)), questions)


def _least_seen(questions: Questions, user_id: int, target: float) -> tuple[str, tuple]:
    """The id of the least answered of `questions` the learner has answered, then the nearest
    `target`, then the lowest (the walk starts from the learner's own answers)."""
    query = (
        f'SELECT q."id" {QUESTIONS} INNER JOIN "quizzes_response" r ON r."question_id" = q."id"'
        f' WHERE {questions.sql} AND r."user_id" = %s GROUP BY q."id", q."difficulty"'
        ' ORDER BY COUNT(*), ABS(q."difficulty" - %s), q."id" LIMIT 1'
    )
    return query, (*questions.params, user_id, target)


def first_wished(wishes: Sequence[Wish], user_id: int) -> tuple[Question | None, int, bool]:
    """The question the first wish that has one finds (read with its scenario, and with its
    variant when the wishes' questions are `serving`), that wish's index, and whether the
    learner has seen it; (None, -1, False) when none has one.

    `PLACES_PER_QUERY` subqueries a query, in the wishes' order: the nearest unseen and the
    least seen of each wish are scalar subqueries of one COALESCE, and both databases evaluate
    an uncorrelated subquery only when the COALESCE reaches it (PostgreSQL's initplans, SQLite's
    once-only subroutines). Each subquery answers with the question's id and its own place
    among them, as `id * places + place`; the COALESCE sits in a one-row `LIMIT 1` table, so
    PostgreSQL plans it once (pulled up, it was planned for each join it entered)."""
    every = [
        (index, seen, found)
        for index, wish in enumerate(wishes)
        for seen, found in (
            (False, _unseen(wish.questions, user_id, wish.target, wish.preferred)),
            (True, _least_seen(wish.questions, user_id, wish.target)),
        )
        if wish.seen_too or not seen
    ]
    for start in range(0, len(every), PLACES_PER_QUERY):
        asked = every[start : start + PLACES_PER_QUERY]
        places = len(asked)
        picks = ", ".join(
            f'(SELECT "id" * {places} + {place} FROM ({query}) w)'
            for place, (_index, _seen, (query, _params)) in enumerate(asked)
        )
        params = tuple(param for _index, _seen, (_query, given) in asked for param in given)
        seed = wishes[0].questions.seed
        columns = f"{QUESTION.sql}, {SCENARIO.sql}" + ("" if seed is None else f", {VARIANT.sql}")
        query = (
            f'SELECT {columns}, p."code" FROM (SELECT COALESCE({picks}, NULL) AS "code" LIMIT 1) p'
            f' INNER JOIN "quizzes_question" q ON q."id" = p."code" / {places}'
            ' INNER JOIN "quizzes_scenario" s ON s."id" = q."scenario_id"'
        ) + ("" if seed is None else f" {SERVED}")
        served = () if seed is None else (seed,)
        row = sql.first(query, (*params, *served))
        if row is not None:
            index, seen, _asked = asked[row[-1] % places]
            return _question(row, wishes[0].questions), index, seen
    return None, -1, False


def least_seen(questions: Questions, user_id: int, target: float) -> Question | None:
    """Among `questions` the learner has answered, the least answered, then the nearest
    `target`, then the lowest id."""
    query, params = _least_seen(questions, user_id, target)
    rows, served = _question_rows(questions)
    return _question(sql.first(f'{rows} WHERE q."id" = ({query})', (*served, *params)), questions)


# `Bank.objects.visible_to`: public, the learner's own, shared with a cohort they belong to
VISIBLE_BANK = (
    'b."visibility" = %s OR b."owner_id" = %s OR (b."visibility" = %s AND b."id" IN'
    ' (SELECT cb."bank_id" FROM "quizzes_cohort_banks" cb INNER JOIN "quizzes_cohortmembership"'
    ' cm ON cm."cohort_id" = cb."cohort_id" WHERE cm."user_id" = %s))'
)


def _visible_bank_params(user_id: int) -> tuple:
    return (Bank.Visibility.PUBLIC.value, user_id, Bank.Visibility.SHARED.value, user_id)


class LearnerRow(NamedTuple):
    """A row of `learner_rows`: an answer and one of its rules, a mastery, a bank, or an
    unfinished exam sitting."""

    source: str  # ANSWER, MASTERY, BANK or SITTING
    pk: int | None  # the answer's, the bank's or the sitting's (its attempt's id)
    question_id: int | None
    scenario_id: int | None
    family_id: int | None  # the answer's scenario's family (None: a scenario of no family)
    correct: bool | None
    kind: str | None
    rule_id: int | None
    theta: float | None
    due: datetime.datetime | None  # when the mastery is due
    place: int | None  # the answer's place among the learner's, latest first (1: the latest)
    # a wrong answer at one of the places asked: its verdict and the rule's number (which of
    # its rules the missed parts decide: quizzes/practice/deciding.py); else None
    verdict: dict | None = None
    # the answer's rule's number (one of the last `numbered` answers, or a wrong one at a place
    # asked), or a mastery's due by the moment asked (the page names it)
    rule_number: str | None = None
    family_slug: str | None = None  # the answer's scenario's family's (None: no family)


def learner_rows(
    user_id: int,
    recent: int,
    missed_at: tuple[int, ...] = (),
    due_by: datetime.datetime | None = None,
    numbered: int = 0,
) -> list[LearnerRow]:
    """All `selection.Learner` holds, in one query: the learner's last `recent` answers (a row
    per rule), their masteries, the banks they may see (`Bank.objects.visible_to`) and their
    unfinished exam sittings (`exams.sittings_of(user).unfinished()`: practice pauses); for a
    wrong answer at a place in `missed_at` (1: the latest), its verdict and its rules' numbers;
    for a mastery due by `due_by`, its rule's number; for the last `numbered` answers, their
    rules' numbers (their topics: quizzes/practice/topics.py); for each answer, its scenario's
    family's slug (the example families a topic names are named by slug).

    An answer's order comes as its place, not its time: 150 dates were a sixth of the query's
    time on PostgreSQL (Django reads them through a pure-Python loader) and text to parse on
    SQLite. Verdicts and numbers only where asked: relearning reads one or two answers."""
    places = missed_at or (0,)
    missed = f'recent."place" IN ({sql.placeholders(places)}) AND NOT a."correct"'
    query = (
        'SELECT \'answer\', a."id", a."question_id", q."scenario_id", s."family_id",'
        ' a."correct", q."kind", qr."rule_id", NULL, NULL, recent."place",'
        f' CASE WHEN {missed} THEN a."verdict" END,'
        f' CASE WHEN recent."place" <= %s OR {missed} THEN (SELECT r."number" FROM "rules_rule" r'
        ' WHERE r."id" = qr."rule_id") END, f."slug"'
        ' FROM (SELECT "id", ROW_NUMBER() OVER (ORDER BY "created_at" DESC, "id" DESC) AS "place"'
        ' FROM "quizzes_response" WHERE "user_id" = %s'
        ' ORDER BY "created_at" DESC, "id" DESC LIMIT %s) recent'
        ' INNER JOIN "quizzes_response" a ON a."id" = recent."id"'
        ' INNER JOIN "quizzes_question" q ON q."id" = a."question_id"'
        ' INNER JOIN "quizzes_scenario" s ON s."id" = q."scenario_id"'
        ' LEFT OUTER JOIN "quizzes_family" f ON f."id" = s."family_id"'
        ' LEFT OUTER JOIN "quizzes_question_rules" qr ON qr."question_id" = q."id"'
        " UNION ALL SELECT 'mastery', NULL, NULL, NULL, NULL, NULL, NULL, m.\"rule_id\","
        ' m."theta", m."due", NULL, NULL, CASE WHEN m."due" <= %s THEN (SELECT r."number"'
        ' FROM "rules_rule" r WHERE r."id" = m."rule_id") END, NULL'
        ' FROM "quizzes_mastery" m WHERE m."user_id" = %s'
        " UNION ALL SELECT 'bank', b.\"id\", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,"
        f' NULL, NULL, NULL FROM "quizzes_bank" b WHERE {VISIBLE_BANK}'
        " UNION ALL SELECT 'sitting', es.\"attempt_id\", NULL, NULL, NULL, NULL, NULL, NULL,"
        ' NULL, NULL, NULL, NULL, NULL, NULL FROM "quizzes_examsitting" es'
        ' INNER JOIN "quizzes_attempt" ea ON ea."id" = es."attempt_id"'
        ' WHERE ea."user_id" = %s AND ea."finished_at" IS NULL'
    )
    due = sql.at(due_by) if due_by is not None else None
    params = (
        *places, numbered, *places, user_id, recent, due, user_id, *_visible_bank_params(user_id),
        user_id,
    )  # fmt: skip
    found = sql.rows(query, params, prepared=True)
    return [
        LearnerRow(
            source,
            pk,
            question,
            scenario,
            family,
            sql.flag(right),
            kind,
            rule,
            theta,
            sql.moment(due),
            place,
            sql.document(verdict) if verdict is not None else None,
            number,
            family_slug,
        )
        for (
            source, pk, question, scenario, family, right, kind, rule, theta, due, place, verdict,
            number, family_slug,
        ) in found
    ]  # fmt: skip

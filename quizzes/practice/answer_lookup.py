"""The answer POST's reads before grading, in one hand-written query (config/sql.py).

Building and compiling the ORM's three querysets (is an exam running, the presentation with
its question, scenario, version and response, the open practice attempt) cost more than half
the view; the database answers them in a fraction of a millisecond. The querysets they replace
are the specification, kept in tests/quizzes/test_answer_lookup.py:

- `paused`: `exams.sittings_of(user).unfinished().exists()` (the view then asks
  `exams.running_sitting`, which finishes a sitting whose time is up);
- `presentation`: `Presentation.objects.owned_by(user).served_since(since)
  .filter(Exists(available_questions(user) of its question), token=token)`, with its question,
  scenario (without spec and stored `expect`), version (the same), stored variant (its engine
  answers grade the answer) and response loaded;
- `attempt`: `Attempt.objects.open_practice_for(user, question)`'s read (the learner's latest
  open practice attempt, and whether it already holds the question);
- `card_generation`: `rules.cards.generation()`, so grading needs no query of its own to know
  its card catalog is current;
- `masteries_missing`: whether the learner lacks a mastery of one of the question's rules
  (`Mastery.objects.filter(user=user, rule=OuterRef("rule_id"))` absent for one of its
  `Question.rules.through` rows), so an answer creates them first, with no read before;
- `learned`: what an answer learns from, read before it (see quizzes/practice/recording.py):
  whether the learner answered the question before, and each rule the question links (by id)
  with its number and the learner's mastery of it (None where they have none): the question's
  rules joined, so one row per rule (the rest of the row repeated).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils import timezone

from config import sql
from config.model_rows import Columns
from quizzes.models import (
    Attempt,
    Bank,
    Mastery,
    Presentation,
    Question,
    Response,
    Scenario,
    ScenarioVersion,
    Variant,
)
from quizzes.practice.selection import UNSERVABLE
from rules import cards

PRESENTATION = Columns(Presentation, "p")
QUESTION = Columns(Question, "q")
SCENARIO = Columns(Scenario, "s", skip=("spec", "stored_expect"))  # the variant shown is graded
VERSION = Columns(ScenarioVersion, "v", skip=("spec", "stored_expect"))
VARIANT = Columns(Variant, "vr", skip=("shown",))  # the presentation has it as shown
RESPONSE = Columns(Response, "r")
ATTEMPT = Columns(Attempt, "a")
MASTERY = Columns(Mastery, "m")

# The presentation is found only while its question is one the learner may be served
# (`selection.available_questions`: active, of a servable scenario, in a bank they may use).
LOOKUP = f"""
SELECT
  EXISTS(SELECT 1 FROM quizzes_examsitting es
         INNER JOIN quizzes_attempt ea ON ea.id = es.attempt_id
         WHERE ea.user_id = %s AND ea.finished_at IS NULL),
  EXISTS(SELECT 1 FROM quizzes_question_rules lr WHERE lr.question_id = p.question_id
         AND NOT EXISTS(SELECT 1 FROM quizzes_mastery lm
                        WHERE lm.user_id = %s AND lm.rule_id = lr.rule_id)),
  {PRESENTATION.sql}, {QUESTION.sql}, {SCENARIO.sql}, {VERSION.sql}, {VARIANT.sql},
  {RESPONSE.sql}, {ATTEMPT.sql},
  EXISTS(SELECT 1 FROM quizzes_response ar WHERE ar.attempt_id = a.id
         AND ar.question_id = p.question_id),
  {cards.GENERATION_COLUMNS},
  EXISTS(SELECT 1 FROM quizzes_response ur WHERE ur.user_id = %s
         AND ur.question_id = p.question_id),
  lr.rule_id, rr.number, {MASTERY.sql}
FROM (SELECT 1 AS one) AS one
LEFT JOIN quizzes_presentation p ON p.user_id = %s AND p.token = %s AND p.created_at >= %s
  AND EXISTS(
    SELECT 1 FROM quizzes_question aq
    INNER JOIN quizzes_scenario sq ON sq.id = aq.scenario_id
    WHERE aq.id = p.question_id AND aq.is_active
      AND NOT (sq.engine_status IN ({sql.placeholders(UNSERVABLE)}))
      AND EXISTS(
        SELECT 1 FROM quizzes_bank b WHERE b.id = aq.bank_id
          AND (b.visibility = %s OR b.owner_id = %s
               OR (b.visibility = %s AND b.id IN (
                 SELECT cb.bank_id FROM quizzes_cohort_banks cb
                 INNER JOIN quizzes_cohortmembership cm ON cm.cohort_id = cb.cohort_id
                 WHERE cm.user_id = %s)))))
LEFT JOIN quizzes_question q ON q.id = p.question_id
LEFT JOIN quizzes_scenario s ON s.id = q.scenario_id
LEFT JOIN quizzes_scenarioversion v ON v.id = p.scenario_version_id
LEFT JOIN quizzes_variant vr ON vr.id = p.variant_id
LEFT JOIN quizzes_response r ON r.presentation_id = p.id
LEFT JOIN quizzes_attempt a ON a.id = (
  SELECT oa.id FROM quizzes_attempt oa
  WHERE oa.user_id = %s AND oa.kind = %s AND oa.finished_at IS NULL
  ORDER BY oa.started_at DESC LIMIT 1)
LEFT JOIN quizzes_question_rules lr ON lr.question_id = p.question_id
LEFT JOIN rules_rule rr ON rr.id = lr.rule_id
LEFT JOIN quizzes_mastery m ON m.user_id = %s AND m.rule_id = lr.rule_id
ORDER BY lr.rule_id
"""


@dataclass
class Found:
    paused: bool  # an exam sitting of the learner is unfinished (its time may be up)
    presentation: Presentation | None  # with question, scenario, version and response loaded
    attempt: Attempt | None  # the learner's open practice attempt
    attempt_holds_question: bool  # ... already holds an answer to the presentation's question
    card_generation: tuple  # rules.cards.generation(): the catalog to grade with is current
    masteries_missing: bool = False  # the learner lacks a mastery of one of its rules
    learned: Learned | None = None  # read for the answer's writes (None: no presentation)


@dataclass(frozen=True)
class Learned:
    """What an answer learns from, as read with the presentation (quizzes/practice/recording.py
    writes it back only where no row moved since)."""

    answered_before: bool  # the learner has a response to the question already
    rules: list[tuple[int, str, Mastery | None]] = field(default_factory=list)  # by rule id


def find(user, token: str, since) -> Found:
    """What the answer view reads of `user`'s presentation `token` served since `since`."""
    moment = sql.at(since)
    params = [
        user.pk,
        user.pk,
        user.pk,  # answered before
        user.pk,
        token,
        moment,
        *(str(status) for status in UNSERVABLE),
        str(Bank.Visibility.PUBLIC),
        user.pk,
        str(Bank.Visibility.SHARED),
        user.pk,
        user.pk,
        str(Attempt.Kind.PRACTICE),
        user.pk,
    ]
    found = sql.rows(LOOKUP, params, prepared=True)
    row = found[0]
    start = 2
    parts = []
    for columns in (PRESENTATION, QUESTION, SCENARIO, VERSION, VARIANT, RESPONSE, ATTEMPT):
        parts.append(columns.read(row, start))
        start += len(columns)
    presentation, question, scenario, version, variant, response, attempt = parts
    if presentation is not None:
        _loaded(presentation, question, scenario, version, variant, response)
    if attempt is not None:
        attempt.user = user  # owned: spare a query
    held = bool(sql.flag(row[start]))
    generation = cards.generation_of(*row[start + 1 : start + 3])
    after = start + 3  # answered before, then the rule's id, number and mastery
    learned = None
    if presentation is not None:
        rules = [
            (rule_row[after + 1], rule_row[after + 2], MASTERY.read(rule_row, after + 3))
            for rule_row in found
            if rule_row[after + 1] is not None
        ]
        learned = Learned(bool(sql.flag(row[after])), rules)
    missing = bool(sql.flag(row[1]))
    return Found(sql.flag(row[0]), presentation, attempt, held, generation, missing, learned)


def _loaded(presentation, question, scenario, version, variant, response) -> None:
    """The related objects set as `select_related` sets them (no query when read)."""
    Presentation._meta.get_field("question").set_cached_value(presentation, question)
    Presentation._meta.get_field("variant").set_cached_value(presentation, variant)
    Question._meta.get_field("scenario").set_cached_value(question, scenario)
    Presentation._meta.get_field("scenario_version").set_cached_value(presentation, version)
    link = Response._meta.get_field("presentation")
    link.remote_field.set_cached_value(presentation, response)
    if response is not None:
        link.set_cached_value(response, presentation)


def open_attempt(user, found: Found) -> Attempt:
    """`Attempt.objects.open_practice_for(user, question)` from what `find` read: the open
    practice attempt, or a new one when there is none or it already holds the question (a
    response is unique per attempt and question)."""
    attempt = found.attempt
    if attempt is not None and not found.attempt_holds_question:
        return attempt
    now = timezone.now()
    if attempt is not None:  # once per attempt: the ORM's statements
        Attempt.objects.filter(pk=attempt.pk).update(finished_at=now)
    return Attempt.objects.create(user=user, kind=Attempt.Kind.PRACTICE, started_at=now)

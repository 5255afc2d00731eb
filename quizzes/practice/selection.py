"""The next question, chosen with two indexed queries whatever the size of the bank.

Per DESIGN.md, in this order:
1. a relearning step: a rule missed at the question before last (one other question in
   between) comes back now as another question, of another scenario when there is one, before
   its FSRS review (as Anki's relearning steps do);
2. a rule whose FSRS review is due (the most overdue);
3. a topic of the study plan fewer than two of the last thirty answers were about
   (quizzes/practice/topics.py), an unseen question on it (its examples first: Splinter and
   Lobotomy for search);
4. otherwise the learner's mean skill over their rules is the yardstick, and a topic that had
   its share of the last thirty answers waits.
Among the questions the learner may see, unseen ones come first, then the least seen, then the
one whose difficulty is nearest the difficulty at which the predicted success is 70%
(P = sigmoid(theta - b) is monotonic in b, so "P nearest 0.7" is "b nearest the target").
Never the question just answered; the mix: never two in a row from one scenario (first choice:
none of the last 150, and no family of the last five), first choice a kind neither of the last
two answers had, and outside steps 1-2 no rule of the last two questions (no rule twice in
three), each wish relaxed only when nothing else is left. With the practice filter (a level, a
rule, a bank) all of it happens within the filtered questions.
Two queries a pick (three while a topic of the plan is missing from the last answers: step
3), whatever the size of the bank (bench/selection.py): the learner
(`Learner.of`), then the unseen question nearest the target, found by walking the difficulty
index out from it in both directions (two `LIMIT 1` subqueries of one query). Both are written
as SQL (quizzes/selection_sql.py: compiling them as querysets was most of a pick's time).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import chain
from statistics import fmean

from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from quizzes import limits
from quizzes.models import Bank, ImportedQuestion, Question, Response, Scenario, Variant
from quizzes.practice import adaptive, deciding, topics
from quizzes.practice.selection_sql import (
    ANSWER,
    MASTERY,
    SITTING,
    LearnerRow,
    Questions,
    Wish,
    first_wished,
    learner_rows,
    served_variant,
)
from quizzes.rulings.verdict import Grade
from rules.models import Rule

UNSERVABLE = (Scenario.EngineStatus.INVALID, Scenario.EngineStatus.DISAGREES)
# The mix: a missed rule comes back after one other question; no rule of the last two answers
# (no rule twice in three questions); first choice, a scenario none of the last 150 answers came
# from (a new learner's first thirty questions come from thirty boards, 200 from about 150).
# Kinds mix too: first choice, a kind none of the last two answers had (else the easiest kind,
# one-answer questions, would fill a new learner's first questions). So do families: first
# choice, a family none of the last five answers came from (a family's boards are one situation
# with other cards: a new learner met four Lobotomy boards, all "nothing can be found", in
# seventeen questions).
RELEARN_AFTER = 1
RULE_GAP = 2
SCENARIO_GAP = 150
KIND_GAP = 2
FAMILY_GAP = 5
RECENT = max(RELEARN_AFTER + 1, RULE_GAP, SCENARIO_GAP, KIND_GAP, FAMILY_GAP)  # answers read


class Why:
    """Why a question was chosen, as its page says (`Pick.why`)."""

    RELEARNING = "relearning"  # a rule of the part missed the question before last
    REVIEW = "review"  # a rule due for review (FSRS)
    NEW = "new"  # unseen, nearest the learner's level
    TOPIC = "topic"  # a topic of the plan none of the last answers was about
    LEAST_SEEN = "least_seen"  # every question here seen: the least seen


@dataclass(frozen=True)
class Pick:
    question: Question | None
    theta: float
    target_difficulty: float
    due_rule_id: int | None = None
    relearning: bool = False
    why: str = ""  # a `Why`
    rule_numbers: tuple[str, ...] = ()  # the rules relearnt or due, when `why` is about them

    @property
    def variant(self) -> Variant | None:
        """The question's stored variant read with it (`next_question(seed=...)`), if it was."""
        return None if self.question is None else served_variant(self.question)


@dataclass(frozen=True)
class Answered:
    """One of the learner's recent answers: which question, its scenario (and the scenario's
    family, if any), kind and rules, right?"""

    question_id: int
    scenario_id: int
    correct: bool
    rule_ids: frozenset[int]
    kind: str = ""
    family_id: int | None = None
    # the rules the missed parts decide (quizzes/practice/deciding.py), read for a wrong answer
    # relearning looks at; None: not read (all of `rule_ids` then)
    missed: frozenset[int] | None = None
    rule_numbers: frozenset[str] = frozenset()  # read for the last `topics.WINDOW` answers
    family_slug: str | None = None  # the family's slug (examples are named by slug)

    @property
    def missed_rule_ids(self) -> frozenset[int]:
        """The rules this answer got wrong: none when it was right."""
        if self.correct:
            return frozenset()
        return self.rule_ids if self.missed is None else self.missed


def available_questions(user) -> QuerySet[Question]:
    """Active questions in banks the learner may use (`Bank.objects.visible_to`: public, their
    own, shared with a cohort they belong to), from scenarios the engine can rule."""
    # A correlated EXISTS, not `bank__in`: with an IN list SQLite walks the bank's index and
    # sorts every question of the bank; this way it walks the difficulty index (selection).
    visible_bank = Bank.objects.visible_to(user).filter(pk=OuterRef("bank_id"))
    return _servable(Question.objects.filter(Exists(visible_bank)))


def _servable(questions: QuerySet[Question]) -> QuerySet[Question]:
    return questions.filter(is_active=True).exclude(scenario__engine_status__in=UNSERVABLE)


def servable(questions: QuerySet[Question]) -> QuerySet[Question]:
    """`questions` as far as they may be served (active, the engine can rule them), whoever
    may see their banks: the caller has decided that (an exam set to the learner)."""
    return _servable(questions)


def banks_to_practise(user) -> QuerySet[Bank]:
    """The banks `user` may practise, with how many questions each serves and how many it has
    imported from Moodle XML (one query)."""
    served = available_questions(user).filter(bank=OuterRef("pk")).order_by()
    count = served.values("bank").annotate(n=Count("pk")).values("n")
    imported = ImportedQuestion.objects.filter(bank=OuterRef("pk")).order_by()
    imported_count = imported.values("bank").annotate(n=Count("pk")).values("n")
    return (
        Bank.objects.visible_to(user)
        .annotate(question_count=Subquery(count), imported_count=Subquery(imported_count))
        .filter(Q(question_count__gt=0) | Q(imported_count__gt=0))
        .select_related("owner")
        .order_by("title", "id")
    )


# The answers whose missed rules relearning reads (by index, latest first): the one
# `RELEARN_AFTER` questions ago, and the one that answer would have relearned.
RELEARNED = RELEARN_AFTER * 2 + 1
MISSED_AT = (RELEARN_AFTER, RELEARNED)


def relearning_rules(recent: list[Answered]) -> frozenset[int]:
    """The rules to relearn now: those the missed parts of the answer `RELEARN_AFTER` questions
    ago decide (not every rule of its question: the rule of the part that was missed) when the
    questions since asked none of them (empty otherwise). One step, as Anki's: a miss that was
    itself the relearning of the same rules leaves them to FSRS (`Mastery.due`), or a
    struggling learner would meet little but relearning."""
    if len(recent) <= RELEARN_AFTER:
        return frozenset()
    missed = recent[RELEARN_AFTER].missed_rule_ids
    if not missed or any(missed & later.rule_ids for later in recent[:RELEARN_AFTER]):
        return frozenset()
    if len(recent) > RELEARNED and missed & recent[RELEARNED].missed_rule_ids:
        return frozenset()
    return missed


def _with_rules(rule_ids: Iterable[int]) -> Exists:
    """Questions asking any of `rule_ids`: an EXISTS, not a join, so that the database still
    walks the difficulty index (a join lets SQLite start from the rule and sort its questions)."""
    return Exists(
        Question.rules.through.objects.filter(question_id=OuterRef("pk"), rule_id__in=rule_ids)
    )


def _mixed(questions: Questions, recent: list[Answered], avoid_rules: bool) -> Iterator[Questions]:
    """`questions` as the mix wants them, then with its wishes relaxed one by one: none of the
    last few scenarios nor families, nor the kinds of the last two answers (nor, with
    `avoid_rules`, their rules); then any kind; then any family; not the last scenario; not the
    question just answered. Each built only when the ones before it had nothing."""
    if not recent:
        yield questions
        return
    last = recent[0]
    scenarios = {answer.scenario_id for answer in recent[:SCENARIO_GAP]}
    families = {a.family_id for a in recent[:FAMILY_GAP] if a.family_id is not None}
    recent_kinds = {answer.kind for answer in recent[:KIND_GAP]}
    if avoid_rules:
        recent_rules = frozenset().union(*(answer.rule_ids for answer in recent[:RULE_GAP]))
        fresh_rules = questions.without_rules(recent_rules)
        yield from _apart(fresh_rules.not_from_scenarios(scenarios), families, recent_kinds)
        yield fresh_rules.not_from_scenario(last.scenario_id)
    else:
        yield from _apart(questions.not_from_scenarios(scenarios), families, recent_kinds)
    yield questions.not_from_scenario(last.scenario_id)
    yield questions.not_question(last.question_id)


def _apart(away: Questions, families: set[int], kinds: set[str]) -> Iterator[Questions]:
    """`away` (no recent board) of none of `families` nor `kinds`; then of any kind; then of
    any family."""
    apart = away.not_from_families(families)
    yield apart.not_of_kinds(kinds)
    yield apart
    if families:
        yield away


# Stored scenarios found past the limits while serving are marked invalid; a few are skipped
# per request, so a learner never meets (or stays stuck on) a question that can't be served.
MAX_SKIPPED = 3


def _nearest(levels: Iterable[Questions], user, target: float) -> tuple[Question | None, bool]:
    """The first question the narrowest level that has one offers (see `_first_wished`), and
    whether the learner has seen it."""
    question, _index, seen = _first_wished([Wish(level, target) for level in levels], user)
    return question, seen


def _first_wished(wishes: list[Wish], user) -> tuple[Question | None, int, bool]:
    """`selection_sql.first_wished`: for each wish in turn, the unseen question nearest its
    target, then (when it takes seen ones too) the least seen; every wish in one query (a few
    more only for a long list). Never a sort over the whole bank: the unseen pick is two `LIMIT
    1` range scans of the difficulty index walking out from the target (an indexed anti-join on
    the learner's answers skips what they have seen); the seen pick starts from their own
    answers. A question past the limits is marked invalid and the wishes asked again."""
    for _ in range(MAX_SKIPPED + 1):
        question, index, seen = first_wished(wishes, user.pk)
        if question is None or not mark_if_past_limits(question.scenario):
            return question, index, seen
    return None, -1, False


def mark_if_past_limits(scenario: Scenario) -> bool:
    """Mark a stored scenario past the limits invalid (so it is never served); True if it is."""
    problem = limits.spec_problem(scenario.spec)
    if problem:
        Scenario.objects.filter(pk=scenario.pk).update(
            engine_status=Scenario.EngineStatus.INVALID, engine_report=problem
        )
    return bool(problem)


def chosen_questions(
    user, rule: Rule | None = None, *, level: str = "", bank: Bank | None = None
) -> QuerySet[Question]:
    """The questions the learner's choice (a rule, a level, a bank) covers."""
    return _chosen(available_questions(user), rule, level, bank)


def _chosen(
    questions: QuerySet[Question], rule: Rule | None, level: str, bank: Bank | None
) -> QuerySet[Question]:
    if level:
        questions = questions.filter(level=level)
    if bank is not None:
        questions = questions.filter(bank=bank)
    if rule is not None:
        questions = questions.filter(_with_rules([rule.pk]))
    return questions


def only_the_last_answered(
    user, rule: Rule | None = None, *, level: str = "", bank: Bank | None = None
) -> bool:
    """Is the question the learner just answered the only one their choice covers? (Then
    nothing is served: a question never comes twice running.) Two queries."""
    covered = chosen_questions(user, rule, level=level, bank=bank)
    only = list(covered.values_list("pk", flat=True)[:2])
    if len(only) != 1:
        return False
    last = Response.objects.filter(user=user).order_by("-created_at", "-id")
    return last.values_list("question_id", flat=True).first() == only[0]


@dataclass(frozen=True)
class Learner:
    """What selection reads of the learner, in one query: their last `RECENT` answers (most
    recent first), each rule's theta and when it is due, and the ids of the banks they may see
    (a short list, so that no walk of the difficulty index plans a subquery of their cohorts)."""

    recent: list[Answered]
    theta: dict[int, float]
    due: dict[int, datetime.datetime]
    bank_ids: frozenset[int]
    numbers: dict[int, str] = field(default_factory=dict)  # of the rules missed or due, by id
    # an exam sitting of theirs is unfinished (its time may be up): practice may pause
    sitting_unfinished: bool = False

    @classmethod
    def of(cls, user, now=None) -> Learner:
        """`now`: the moment by which a due rule's number is read (default: now)."""
        answers: dict[int, tuple[LearnerRow, dict[int, str]]] = {}
        theta, due, bank_ids, numbers = {}, {}, set(), {}
        sitting_unfinished = False
        missed_at = tuple(index + 1 for index in MISSED_AT)
        moment = now or timezone.now()
        for row in learner_rows(user.pk, RECENT, missed_at, moment, topics.WINDOW):
            if row.rule_number is not None:
                numbers[row.rule_id] = row.rule_number
            if row.source == ANSWER:
                rules = answers.setdefault(row.pk, (row, {}))[1]
                if row.rule_id is not None:
                    rules[row.rule_id] = row.rule_number or ""
            elif row.source == MASTERY:
                theta[row.rule_id] = row.theta
                if row.due is not None:
                    due[row.rule_id] = row.due
            elif row.source == SITTING:
                sitting_unfinished = True
            else:
                bank_ids.add(row.pk)
        latest_first = sorted(answers.values(), key=lambda answer: answer[0].place)
        recent = [
            Answered(
                row.question_id,
                row.scenario_id,
                row.correct,
                frozenset(rules),
                row.kind,
                row.family_id,
                _missed(row, rules),
                frozenset(number for number in rules.values() if number),
                row.family_slug,
            )
            for row, rules in latest_first
        ]
        return cls(recent, theta, due, frozenset(bank_ids), numbers, sitting_unfinished)

    def questions(self) -> Questions:
        """`available_questions`, the banks given by id; still walking the difficulty index."""
        return Questions.servable(self.bank_ids)

    def mean_theta(self, rule_ids: Iterable[int] | None = None) -> float:
        """The mean skill over `rule_ids` (over every rule without), 0 when none is known."""
        known = self.theta.values() if rule_ids is None else self._known(rule_ids)
        return fmean(known) if known else 0.0

    def _known(self, rule_ids: Iterable[int]) -> list[float]:
        return [self.theta[rule_id] for rule_id in rule_ids if rule_id in self.theta]

    def most_overdue(self, now) -> int | None:
        """The rule whose review is the most overdue at `now`, if any is due."""
        due = self.due_rules(now)
        return due[0] if due else None

    def due_rules(self, now) -> list[int]:
        """The rules whose review is due at `now`, the most overdue first."""
        return [
            rule_id
            for moment, rule_id in sorted((m, r) for r, m in self.due.items())
            if moment <= now
        ]

    def numbered(self, rule_ids: Iterable[int]) -> tuple[str, ...]:
        """The numbers of `rule_ids` read (those missed or due), in number order."""
        return tuple(
            sorted(self.numbers[rule_id] for rule_id in rule_ids if rule_id in self.numbers)
        )


def _missed(row: LearnerRow, rules: dict[int, str]) -> frozenset[int] | None:
    """The rules a wrong answer's missed parts decide, when its verdict was read."""
    if row.verdict is None:
        return None
    verdict = Grade.from_json(row.verdict)
    return deciding.missed_rules(verdict.parts, rules, verdict.correct)


def next_question(
    user,
    rule: Rule | None = None,
    now=None,
    *,
    level: str = "",
    bank: Bank | None = None,
    review: bool = False,
    seed: int | None = None,
    plan: topics.Plan = topics.DEFAULT_PLAN,
    learner: Learner | None = None,
) -> Pick:
    """The question to serve next, and the skill and target it was chosen for, and why; with
    `level` or `bank` (one the learner may see: the practice filter looks it up) only their
    questions; with `review`, only questions on rules due for review (none when none is due);
    with `seed`, the question comes with its stored variant of that seed (`Pick.variant`), read
    in the query that finds it. `learner`: `Learner.of(user, now)` when just read."""
    now = now or timezone.now()
    skills = learner or Learner.of(user, now)
    recent = skills.recent
    questions = skills.questions()
    questions = questions.serving(seed) if seed is not None else questions
    questions = questions.of_level(level) if level else questions
    questions = questions.in_bank(bank.pk) if bank is not None else questions
    questions = questions.about([plan.only]) if plan.only else questions
    if rule is not None:
        theta = skills.mean_theta([rule.pk])
        target = adaptive.target_difficulty(theta)
        levels = _mixed(questions.with_rules([rule.pk]), recent, avoid_rules=False)
        question, seen = _nearest(levels, user, target)
        return Pick(question, theta, target, why=_seen_or_new(seen))
    if review:
        return _review(skills, questions, user, now)
    balance = topics.balance([answer.rule_numbers for answer in recent], plan.topics)
    if relearn := relearning_rules(recent):
        theta = skills.mean_theta(relearn)
        target = adaptive.target_difficulty(theta)
        missed = recent[RELEARN_AFTER]
        numbers = skills.numbered(relearn)
        others = questions.with_rules(relearn).not_question(missed.question_id)
        away = others.not_from_scenario(missed.scenario_id)
        # first, none about another topic that had its share (a shuffle riding along with
        # every search relearnt took shuffling over its share: issue 23)
        own = topics.topics_of(numbers, plan.topics)
        crowding = [t for t in balance.full if t.slug not in own]
        first = _mixed(away.not_about(crowding), recent, False) if crowding else iter(())
        levels = chain(first, _mixed(away, recent, False), _mixed(others, recent, False))
        question, _seen = _nearest(levels, user, target)
        if question is not None:
            return Pick(question, theta, target, None, True, Why.RELEARNING, numbers)
    due_rule = skills.most_overdue(now)
    if due_rule is not None:
        theta = skills.theta[due_rule]
        target = adaptive.target_difficulty(theta)
        numbers = skills.numbered([due_rule])
        on_rule = questions.with_rules([due_rule])
        own = topics.topics_of(numbers, plan.topics)
        crowding = [t for t in balance.full if t.slug not in own]
        first = _mixed(on_rule.not_about(crowding), recent, False) if crowding else iter(())
        levels = chain(first, _mixed(on_rule, recent, avoid_rules=False))
        question, _seen = _nearest(levels, user, target)
        if question is not None:
            return Pick(question, theta, target, due_rule, why=Why.REVIEW, rule_numbers=numbers)
    theta = skills.mean_theta()
    target = adaptive.target_difficulty(theta)
    full = balance.full
    wishes = []  # first, with a topic of the plan missing from the last answers, an unseen one
    if recent and balance.absent:
        wishes.append(_of_absent_topic(questions.not_about(full), recent, balance, plan, target))
    levels = _mixed(questions.not_about(full), recent, True)
    if full:  # then as if no topic were full
        levels = chain(levels, _mixed(questions, recent, True))
    wishes += [Wish(level, target) for level in levels]
    question, index, seen = _first_wished(wishes, user)
    why = Why.TOPIC if index == 0 and not wishes[0].seen_too else _seen_or_new(seen)
    return Pick(question, theta, target, why=why)


def _of_absent_topic(
    questions: Questions,
    recent: list[Answered],
    balance: topics.Balance,
    plan: topics.Plan,
    target: float,
) -> Wish:
    """An unseen question on a topic of the plan fewer than `topics.LEAST` of the last answers
    were about, nearest the target, as the mix's first wish would have it (no recent board,
    family, kind nor rule); first, one of a family a topic gives as its example (Splinter's,
    Lobotomy's) none of the learner's recent answers came from. The pick's first wish, asked
    in the query with the mix's first (the questions chosen may have none on it)."""
    scenarios = {answer.scenario_id for answer in recent[:SCENARIO_GAP]}
    families = {a.family_id for a in recent[:FAMILY_GAP] if a.family_id is not None}
    kinds = {answer.kind for answer in recent[:KIND_GAP]}
    recent_rules = frozenset().union(*(answer.rule_ids for answer in recent[:RULE_GAP]))
    away = questions.without_rules(recent_rules).not_from_scenarios(scenarios)
    mixed = away.not_from_families(families).not_of_kinds(kinds)
    # a question on a short topic of a recent family or kind rather than none (the topic would
    # wait for the next pick that finds one, which relearning and reviews may take)
    about = away.about(balance.absent)
    examples = {
        slug for topic in plan.topics if topic not in balance.full for slug in topic.examples
    }
    # first, of a family a topic gives as an example the learner hasn't met lately (none asked
    # once they have met them all: a walk planned for nothing); then on a topic the fewest were
    # about, as the mix would have it
    unmet = examples - {answer.family_slug for answer in recent if answer.family_slug}
    preferred = [mixed.about(balance.fewest)]
    if unmet:
        preferred.insert(0, mixed.of_families_named(unmet))
    return Wish(about, target, seen_too=False, preferred=tuple(preferred))


def _seen_or_new(seen: bool) -> str:
    return Why.LEAST_SEEN if seen else Why.NEW


def _review(skills: Learner, questions: Questions, user, now) -> Pick:
    """A question on the most overdue rule that has one (`Review now`); none when no rule is
    due. The rules are tried one by one, most overdue first, a few at most: a due rule whose
    questions are all gone (deactivated, another bank) must not hide the others."""
    for due_rule in skills.due_rules(now)[:REVIEW_TRIES]:
        theta = skills.theta[due_rule]
        target = adaptive.target_difficulty(theta)
        levels = _mixed(questions.with_rules([due_rule]), skills.recent, avoid_rules=False)
        question, _seen = _nearest(levels, user, target)
        if question is not None:
            numbers = skills.numbered([due_rule])
            return Pick(question, theta, target, due_rule, why=Why.REVIEW, rule_numbers=numbers)
    theta = skills.mean_theta()
    return Pick(None, theta, adaptive.target_difficulty(theta))


REVIEW_TRIES = 5  # due rules a `Review now` page tries before it says none has a question

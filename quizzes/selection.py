"""The next question, chosen with a few indexed queries whatever the size of the bank.

Per DESIGN.md, in this order:
1. a relearning step: a rule missed at the question before last (one other question in
   between) comes back now as another question, of another scenario when there is one, before
   its FSRS review (as Anki's relearning steps do);
2. a rule whose FSRS review is due (the most overdue);
3. otherwise the learner's mean skill over their rules is the yardstick.
Among the questions the learner may see, unseen ones come first, then the least seen, then the
one whose difficulty is nearest the difficulty at which the predicted success is 70%
(P = sigmoid(theta - b) is monotonic in b, so "P nearest 0.7" is "b nearest the target").
Never the question just answered; the mix: never two in a row from one scenario (first choice:
none of the last 150), first choice a kind neither of the last two answers had, and outside
steps 1-2 no rule of the last two questions (no rule twice in three), each wish relaxed only
when nothing else is left. With the practice filter (a level, a rule, a bank) all of it happens
within the filtered questions.
The unseen pick walks the difficulty index out from the target in both directions (two
`LIMIT 1` range queries), so its cost does not grow with the bank (bench/selection.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Avg, Count, Exists, F, OuterRef, QuerySet, Subquery, Value
from django.db.models.functions import Abs
from django.utils import timezone

from quizzes import adaptive, limits
from quizzes.models import Bank, Mastery, Question, Response, Scenario
from rules.models import Rule

UNSERVABLE = (Scenario.EngineStatus.INVALID, Scenario.EngineStatus.DISAGREES)
# The mix: a missed rule comes back after one other question; no rule of the last two answers
# (no rule twice in three questions); first choice, a scenario none of the last 150 answers came
# from (a new learner's first thirty questions come from thirty boards, 200 from about 150).
# Kinds mix too: first choice, a kind none of the last two answers had (else the easiest kind,
# one-answer questions, would fill a new learner's first questions).
RELEARN_AFTER = 1
RULE_GAP = 2
SCENARIO_GAP = 150
KIND_GAP = 2
RECENT = max(RELEARN_AFTER + 1, RULE_GAP, SCENARIO_GAP, KIND_GAP)  # answers the mix reads


@dataclass(frozen=True)
class Pick:
    question: Question | None
    theta: float
    target_difficulty: float
    due_rule_id: int | None = None
    relearning: bool = False


@dataclass(frozen=True)
class Answered:
    """One of the learner's recent answers: which question, its scenario, kind and rules, right?"""

    question_id: int
    scenario_id: int
    correct: bool
    rule_ids: frozenset[int]
    kind: str = ""


def available_questions(user) -> QuerySet[Question]:
    """Active questions in banks the learner may use (`Bank.objects.visible_to`: public, their
    own, shared with a cohort they belong to), from scenarios the engine can rule."""
    # A correlated EXISTS, not `bank__in`: with an IN list SQLite walks the bank's index and
    # sorts every question of the bank; this way it walks the difficulty index (selection).
    visible_bank = Bank.objects.visible_to(user).filter(pk=OuterRef("bank_id"))
    return (
        Question.objects.filter(is_active=True)
        .filter(Exists(visible_bank))
        .exclude(scenario__engine_status__in=UNSERVABLE)
    )


def banks_to_practise(user) -> QuerySet[Bank]:
    """The banks `user` may practise, with how many questions each serves (one query)."""
    served = available_questions(user).filter(bank=OuterRef("pk")).order_by()
    count = served.values("bank").annotate(n=Count("pk")).values("n")
    return (
        Bank.objects.visible_to(user)
        .annotate(question_count=Subquery(count))
        .filter(question_count__gt=0)
        .select_related("owner")
        .order_by("title", "id")
    )


def recent_answers(user, count: int = RECENT) -> list[Answered]:
    """The learner's last `count` answers, most recent first, with their rules: one query (a
    row per answer and rule, the answers picked by a LIMIT subquery)."""
    last = Response.objects.filter(user=user).order_by("-created_at", "-id").values("pk")[:count]
    rows = (
        Response.objects.filter(pk__in=Subquery(last))
        .order_by("-created_at", "-id")
        .values_list(
            "pk",
            "question_id",
            "question__scenario_id",
            "correct",
            "question__kind",
            "question__rules",
        )
    )
    answered: dict[int, tuple[int, int, bool, str, set[int]]] = {}
    for pk, question_id, scenario_id, correct, kind, rule_id in rows:
        entry = answered.setdefault(pk, (question_id, scenario_id, correct, kind, set()))
        if rule_id is not None:
            entry[4].add(rule_id)
    return [
        Answered(question_id, scenario_id, correct, frozenset(rules), kind)
        for question_id, scenario_id, correct, kind, rules in answered.values()
    ]


def relearning_rules(recent: list[Answered]) -> frozenset[int]:
    """The rules to relearn now: those of the answer `RELEARN_AFTER` questions ago when it was
    wrong and the questions since asked none of them (empty otherwise). One step, as Anki's: a
    miss that was itself the relearning of the same rules leaves them to FSRS (`Mastery.due`),
    or a struggling learner would meet little but relearning."""
    if len(recent) <= RELEARN_AFTER or recent[RELEARN_AFTER].correct:
        return frozenset()
    missed = recent[RELEARN_AFTER].rule_ids
    if any(missed & later.rule_ids for later in recent[:RELEARN_AFTER]):
        return frozenset()
    relearned = RELEARN_AFTER * 2 + 1  # the answer the missed one would have relearned
    if len(recent) > relearned:
        before = recent[relearned]
        if not before.correct and missed & before.rule_ids:
            return frozenset()
    return missed


def _with_rules(rule_ids: Iterable[int]) -> Exists:
    """Questions asking any of `rule_ids`: an EXISTS, not a join, so that the database still
    walks the difficulty index (a join lets SQLite start from the rule and sort its questions)."""
    return Exists(
        Question.rules.through.objects.filter(question_id=OuterRef("pk"), rule_id__in=rule_ids)
    )


def _mixed(
    questions: QuerySet[Question], recent: list[Answered], avoid_rules: bool
) -> list[QuerySet[Question]]:
    """`questions` as the mix wants them, then with its wishes relaxed one by one: none of the
    last few scenarios, nor the kinds of the last two answers (nor, with `avoid_rules`, their
    rules); then any kind; not the last scenario; not the question just answered."""
    if not recent:
        return [questions]
    last = recent[0]
    recent_scenarios = {answer.scenario_id for answer in recent[:SCENARIO_GAP]}
    recent_kinds = {answer.kind for answer in recent[:KIND_GAP]}
    if avoid_rules:
        recent_rules = frozenset().union(*(answer.rule_ids for answer in recent[:RULE_GAP]))
        fresh_rules = questions.exclude(_with_rules(recent_rules))
        away = fresh_rules.exclude(scenario_id__in=recent_scenarios)
        levels = [
            away.exclude(kind__in=recent_kinds),
            away,
            fresh_rules.exclude(scenario_id=last.scenario_id),
        ]
    else:
        away = questions.exclude(scenario_id__in=recent_scenarios)
        levels = [away.exclude(kind__in=recent_kinds), away]
    return [
        *levels,
        questions.exclude(scenario_id=last.scenario_id),
        questions.exclude(pk=last.question_id),
    ]


# Stored scenarios found past the limits while serving are marked invalid; a few are skipped
# per request, so a learner never meets (or stays stuck on) a question that can't be served.
MAX_SKIPPED = 3


def _nearest(levels: Iterable[QuerySet[Question]], user, target: float) -> Question | None:
    """The first question the narrowest level that has one offers (see `_nearest_candidate`)."""
    levels = list(levels)
    for _ in range(MAX_SKIPPED + 1):
        candidates = (_nearest_candidate(level, user, target) for level in levels)
        question = next((found for found in candidates if found is not None), None)
        if question is None or not mark_if_past_limits(question.scenario):
            return question
    return None


def mark_if_past_limits(scenario: Scenario) -> bool:
    """Mark a stored scenario past the limits invalid (so it is never served); True if it is."""
    problem = limits.spec_problem(scenario.spec)
    if problem:
        Scenario.objects.filter(pk=scenario.pk).update(
            engine_status=Scenario.EngineStatus.INVALID, engine_report=problem
        )
    return bool(problem)


def _nearest_candidate(questions: QuerySet[Question], user, target: float) -> Question | None:
    """Unseen questions first, nearest the target difficulty; once every question has been
    seen, the least seen of them. Never a sort over the whole bank: the unseen pick is two range
    scans of the difficulty index walking out from the target (an indexed anti-join on the
    learner's answers skips what they have seen), the seen pick starts from their own answers."""
    answered = Response.objects.filter(user=user, question=OuterRef("pk"))
    unseen = questions.filter(~Exists(answered)).select_related("scenario")
    above = unseen.filter(difficulty__gte=target).order_by("difficulty", "id").first()
    below = unseen.filter(difficulty__lt=target).order_by("-difficulty", "-id").first()
    nearest = _closest(target, above, below)
    if nearest is not None:
        return nearest
    return (
        questions.filter(responses__user=user)
        .annotate(times_seen=Count("responses"), distance=Abs(F("difficulty") - Value(target)))
        .select_related("scenario")
        .order_by("times_seen", "distance", "id")
        .first()
    )


def _closest(target: float, *questions: Question | None) -> Question | None:
    found = [question for question in questions if question is not None]
    return min(found, key=lambda q: (abs(q.difficulty - target), q.pk), default=None)


def chosen_questions(
    user, rule: Rule | None = None, *, level: str = "", bank: Bank | None = None
) -> QuerySet[Question]:
    """The questions the learner's choice (a rule, a level, a bank) covers."""
    questions = available_questions(user)
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


def next_question(
    user, rule: Rule | None = None, now=None, *, level: str = "", bank: Bank | None = None
) -> Pick:
    """The question to serve next, and the skill and target it was chosen for; with `level` or
    `bank` (one the learner may see: the practice filter looks it up) only their questions."""
    now = now or timezone.now()
    recent = recent_answers(user)
    questions = chosen_questions(user, level=level, bank=bank)
    masteries = Mastery.objects.owned_by(user)
    if rule is not None:
        theta = masteries.filter(rule=rule).values_list("theta", flat=True).first() or 0.0
        target = adaptive.target_difficulty(theta)
        levels = _mixed(questions.filter(_with_rules([rule.pk])), recent, avoid_rules=False)
        return Pick(_nearest(levels, user, target), theta, target)
    if relearn := relearning_rules(recent):
        theta = masteries.filter(rule__in=relearn).aggregate(mean=Avg("theta"))["mean"] or 0.0
        target = adaptive.target_difficulty(theta)
        missed = recent[RELEARN_AFTER]
        others = questions.filter(_with_rules(relearn)).exclude(pk=missed.question_id)
        away = others.exclude(scenario_id=missed.scenario_id)
        levels = [*_mixed(away, recent, False), *_mixed(others, recent, False)]
        question = _nearest(levels, user, target)
        if question is not None:
            return Pick(question, theta, target, relearning=True)
    due = masteries.due(now).order_by("due").first()
    if due is not None:
        target = adaptive.target_difficulty(due.theta)
        levels = _mixed(questions.filter(_with_rules([due.rule_id])), recent, avoid_rules=False)
        question = _nearest(levels, user, target)
        if question is not None:
            return Pick(question, due.theta, target, due.rule_id)
    theta = masteries.aggregate(mean=Avg("theta"))["mean"] or 0.0
    target = adaptive.target_difficulty(theta)
    return Pick(_nearest(_mixed(questions, recent, True), user, target), theta, target)

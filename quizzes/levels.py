"""The judge level a question suits, computed in one place from its content (issue 12, item 6;
issue 23: labelled by what each level holds, never from its family's name).

- **L1**: one rule at a time: what a search may, must or can't find, shuffling, milling, mana
  abilities, tapping, a card's costs, with no other effect in the way.
- **L2**: one interaction: a replacement effect or prohibition (Aven Mindcensor, Stranglehold,
  Ashiok, dredge), an alternative cost (Archive Trap), a cost change, triggered abilities,
  several players searching, or many cards asked about at once.
- **corner**: corner cases: the rarely met claims (the order of decisions, range of influence,
  triggers checking the game state, X as a permanent enters, ...), or several interactions on one
  board.

The level comes from what the question asks (its claims), the rules it links, its board (its
players and static effects) and how many cards it asks about (`Facts`), then its measured
facility moves it, once enough learners have answered it: a question nine in ten get right is a
level easier than it looks, one most miss a level harder. An author may declare a floor
(`declared`); a family's level does not set its questions' (they differ by board).
`load_content` and the authoring views store it; `manage.py recompute_levels` recomputes every
question (facilities change as learners answer).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet

from quizzes import rulings
from quizzes.models import Response, Scenario
from quizzes.models.content import Question

L1, L2, CORNER = Question.Level.L1, Question.Level.L2, Question.Level.CORNER
LEVELS = (L1, L2, CORNER)

# The L2 matters, each seen by a board effect (engine static ability kinds), a claim or a rule:
# replacements and prohibitions (614, a portion searched instead: 701.23f, a search one may
# skip: 701.23g, "can't": 101.2, tapped-for-mana replacements: 106.12b); Archive Trap (its
# alternative cost: 118.9); multiplayer (several players search at once: 701.23i).
L2_EFFECTS = frozenset(
    {"search_replacement", "search_prohibition", "search_control", "mana_replacement"}
)
EFFECT_RULES = ("614", "101.2", "701.23f", "701.23g", "106.12b")
ARCHIVE_TRAP_CLAIMS = frozenset({"alt_cost_available", "searched_library_this_turn"})
ARCHIVE_TRAP_RULES = ("118.9",)
MULTIPLAYER_RULES = ("701.23i",)
# Triggered abilities (603), a spell's total cost changed by another effect (601.2f), dredge (a
# replacement of a draw: 702.52).
TRIGGER_CLAIMS = frozenset({"triggers", "triggers_on_event", "trigger_order"})
TRIGGER_RULES = ("603",)
COST_CHANGE_CLAIMS = frozenset({"cost_change_applies", "total_cost"})
COST_CHANGE_RULES = ("601.2f",)
DREDGE_CLAIMS = frozenset({"can_dredge"})
DREDGE_RULES = ("702.52",)
MANY_CARDS = 5  # cards asked about in one question from which holding them all is a matter
CORNER_CLAIMS = frozenset(
    {
        "decision_order",
        "trigger_game_state",
        "range_of_influence",
        "seats_between",
        "exiled_face_down",
        "may_look_at",
        "enters_x",
    }
)
# Rules of the corners: simultaneous choices (101.4), choices while resolving (608.2d),
# controlling another player (723), range of influence (801), X in an enters ability (107.3m).
CORNER_RULES = ("101.4", "608.2d", "723", "801", "107.3m")
MULTIPLAYER = 3  # players from which a board is multiplayer

# Measured facility: first answers right over first answers, once there are enough of them.
MEASURED_AFTER = 30
EASY_FACILITY = 0.9  # a level easier
HARD_FACILITY = 0.4  # a level harder


@dataclass(frozen=True)
class Facts:
    """What the level is computed from: the question's claim names and rule numbers, its
    board's players and static effects, and (optionally) its first answers and right ones."""

    claims: frozenset[str]
    rules: frozenset[str]
    players: int
    effects: frozenset[str] = frozenset()
    answers: int = 0
    right: int = 0
    cards: int = 0  # the different cards its claims ask about

    @property
    def facility(self) -> float | None:
        return self.right / self.answers if self.answers >= MEASURED_AFTER else None


def _cites(rules: Iterable[str], prefixes: tuple[str, ...]) -> bool:
    """Any of `rules` under one of `prefixes` ("614" covers 614.1, "118.9" covers 118.9c)."""
    return any(
        rule == prefix or (rule.startswith(prefix) and not rule[len(prefix)].isdigit())
        for rule in rules
        for prefix in prefixes
    )


def l2_matters(facts: Facts) -> int:
    """How many interactions (L2 matters) the question involves: replacement and prohibition
    effects, Archive Trap, multiplayer, triggered abilities, cost changes, dredge, and many
    cards asked about at once."""
    return sum(
        (
            bool(facts.effects & L2_EFFECTS) or _cites(facts.rules, EFFECT_RULES),
            bool(facts.claims & ARCHIVE_TRAP_CLAIMS) or _cites(facts.rules, ARCHIVE_TRAP_RULES),
            facts.players >= MULTIPLAYER or _cites(facts.rules, MULTIPLAYER_RULES),
            bool(facts.claims & TRIGGER_CLAIMS) or _cites(facts.rules, TRIGGER_RULES),
            bool(facts.claims & COST_CHANGE_CLAIMS) or _cites(facts.rules, COST_CHANGE_RULES),
            bool(facts.claims & DREDGE_CLAIMS) or _cites(facts.rules, DREDGE_RULES),
            facts.cards >= MANY_CARDS,
        )
    )


def structural_level(facts: Facts) -> str:
    """The level from what the question asks and what its board holds."""
    if facts.claims & CORNER_CLAIMS or _cites(facts.rules, CORNER_RULES):
        return CORNER
    matters = l2_matters(facts)
    if matters >= 2:
        return CORNER
    return L2 if matters else L1


def level_of(facts: Facts, declared: str | None = None) -> str:
    """The question's level: structural (never below `declared`), moved one step by its
    measured facility."""
    index = LEVELS.index(structural_level(facts))
    if declared in LEVELS:
        index = max(index, LEVELS.index(declared))
    facility = facts.facility
    if facility is not None and facility >= EASY_FACILITY:
        index -= 1
    elif facility is not None and facility < HARD_FACILITY:
        index += 1
    return LEVELS[max(0, min(len(LEVELS) - 1, index))]


def facts_of(
    claims: list[dict], rules: Iterable[str], spec: dict, effects: frozenset[str], **measured
) -> Facts:
    """The facts of a question asking `claims` about `spec` (whose board has `effects`)."""
    asked = [claim for claim in claims if isinstance(claim, dict)]
    return Facts(
        claims=frozenset(claim.get("claim", "") for claim in asked),
        rules=frozenset(rules),
        players=len(spec.get("players") or []) if isinstance(spec, dict) else 0,
        effects=effects,
        cards=len({str(claim["card"]) for claim in asked if claim.get("card")}),
        **measured,
    )


def first_answers(questions: QuerySet[Question]) -> dict[int, tuple[int, int]]:
    """Per question: learners' first answers and how many were right (one query)."""
    rows = (
        Response.objects.filter(question__in=questions.values("pk"))
        .first_attempts()
        .values("question_id")
        .annotate(answers=Count("id"), right=Count("id", filter=Q(correct=True)))
        .values_list("question_id", "answers", "right")
    )
    return {question_id: (answers, right) for question_id, answers, right in rows}


# Ids per UPDATE: well under the databases' limits on parameters (SQLite 32,766, PostgreSQL 65,535).
UPDATE_BATCH = 5_000


def recompute(
    questions: QuerySet[Question],
    catalog=None,
    declared: Callable[[Question], str | None] | None = None,
) -> int:
    """Compute and store the level of every question in `questions` (each scenario's board read
    once, its first answers in one query, one UPDATE per level that changed); returns how many
    levels changed. The level is the content's: `declared` may give a floor per question (none
    by default; a family's level is not its questions')."""
    measured = first_answers(questions)
    # A scenario's spec is read once, not again with each of its questions (an import of 500
    # scenarios has some 2,400 questions).
    listed = list(
        questions.select_related("scenario__family")
        .defer("scenario__spec", "scenario__stored_expect")
        .prefetch_related("rules")
    )
    specs = dict(
        Scenario.objects.filter(pk__in={q.scenario_id for q in listed}).values_list("pk", "spec")
    )
    effects: dict[int, frozenset[str]] = {}
    changed: dict[str, list[int]] = {}
    declared = declared or _no_floor
    for question in listed:
        spec = specs[question.scenario_id]
        if question.scenario_id not in effects:
            cards = catalog if catalog is not None else rulings.catalog_of(question.scenario)
            effects[question.scenario_id] = rulings.static_effects(spec, cards)
        answers, right = measured.get(question.pk, (0, 0))
        facts = facts_of(
            question.claims,
            (rule.number for rule in question.rules.all()),
            spec,
            effects[question.scenario_id],
            answers=answers,
            right=right,
        )
        level = level_of(facts, declared(question))
        if level != question.level:
            changed.setdefault(level, []).append(question.pk)
    for level, ids in changed.items():  # a handful of levels: no CASE over every question
        for start in range(0, len(ids), UPDATE_BATCH):
            Question.objects.filter(pk__in=ids[start : start + UPDATE_BATCH]).update(level=level)
    return sum(len(ids) for ids in changed.values())


def _no_floor(question: Question) -> str | None:
    return None

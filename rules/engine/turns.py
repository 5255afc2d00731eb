"""Turn structure and priority (CR 500-514, 117, 703): the phases and steps of a turn in order,
which steps players receive priority in, the turn-based actions each step begins with, who
receives priority first, when a player may cast a spell, and when a step ends.

Pure data: a step is a name from `STEPS`; the facts a ruling reads (the stack's size, whether
anything waits to be put on the stack in the cleanup step, the turn's number) are arguments.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

# The five phases of a turn in order (500.1), each with its steps in order (501.1, 505.2,
# 506.1, 512.1). A main phase has no steps (505.2): it is listed as one "step" of its own.
PHASES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("beginning", ("untap", "upkeep", "draw")),
    ("precombat_main", ("precombat_main",)),
    (
        "combat",
        (
            "beginning_of_combat",
            "declare_attackers",
            "declare_blockers",
            "combat_damage",
            "end_of_combat",
        ),
    ),  # fmt: skip
    ("postcombat_main", ("postcombat_main",)),
    ("ending", ("end", "cleanup")),
)
STEPS: tuple[str, ...] = tuple(step for _, steps in PHASES for step in steps)
PHASE_OF: dict[str, str] = {step: phase for phase, steps in PHASES for step in steps}
MAIN_PHASES = frozenset({"precombat_main", "postcombat_main"})
# The rule by which the active player gets priority once each step with priority begins.
PRIORITY_RULES: dict[str, str] = {
    "upkeep": "503.1",
    "draw": "504.2",
    "precombat_main": "505.6",
    "postcombat_main": "505.6",
    "beginning_of_combat": "507.2",
    "declare_attackers": "117.3a",
    "declare_blockers": "117.3a",
    "combat_damage": "510.3",
    "end_of_combat": "511.1",
    "end": "513.1",
}
# Card types whose spells are cast only at sorcery speed (117.1a: a noninstant spell).
SORCERY_SPEED_TYPES = frozenset(
    {"Artifact", "Creature", "Enchantment", "Planeswalker", "Sorcery", "Battle", "Kindred"}
)


def step_index(step: str) -> int:
    """The step's place in the turn (0 for the untap step); ValueError for an unknown step."""
    if step not in PHASE_OF:
        raise ValueError(f"unknown step {step!r}; use one of {list(STEPS)}")
    return STEPS.index(step)


def next_step(step: str) -> str | None:
    """The step after this one in the same turn, None after the cleanup step (500.1)."""
    index = step_index(step)
    return STEPS[index + 1] if index + 1 < len(STEPS) else None


@dataclass(frozen=True)
class Ruling:
    """A value with the rule that decides it."""

    value: object
    rule: str


def priority_in_step(step: str, waiting: bool = False) -> Ruling:
    """Does any player receive priority during this step?

    No player does in the untap step (502.4). Normally none does in the cleanup step (514.3),
    unless state-based actions would be performed or triggered abilities wait to be put on the
    stack (`waiting`): then the active player gets priority (514.3a). Every other step and
    phase gives the active player priority once it begins (117.3a and the step's own rule).
    """
    step_index(step)
    if step == "untap":
        return Ruling(False, "502.4")
    if step == "cleanup":
        return Ruling(True, "514.3a") if waiting else Ruling(False, "514.3")
    return Ruling(True, PRIORITY_RULES[step])


# Turn-based actions (703.4), each with the rule of the step that describes it.
UNTAP = "untap"  # phasing, day/night, then the active player untaps (703.4c)
DRAW = "draw"  # the active player draws a card (703.4d)
SKIPPED = "skipped"  # the starting player skips their first draw step (103.8a)
LORE = "lore"  # lore counters on the active player's Sagas (703.4f)
ATTACKERS = "declare_attackers"  # 703.4i
DEFENDER = "choose_defender"  # multiplayer without all opponents defending (703.4h)
BLOCKERS = "declare_blockers"  # 703.4j
DAMAGE = "combat_damage"  # assigned, then dealt at once (703.4k, 703.4m)
CLEANUP = "cleanup"  # discard to hand size, then damage wears off (703.4n, 703.4p)
NONE = "none"


def turn_based_actions(
    step: str,
    *,
    players: int = 2,
    first_turn: bool = False,
    sagas: bool = False,
    all_opponents_defend: bool = True,
) -> Ruling:
    """What happens automatically as the step begins (703.4), before anyone could get
    priority. `first_turn`: the game's first turn (its active player is the starting player);
    `sagas`: the active player controls a Saga with a chapter ability."""
    step_index(step)
    if step == "untap":
        return Ruling(UNTAP, "703.4c")
    if step == "draw":
        if first_turn and players == 2:
            return Ruling(SKIPPED, "103.8a")
        return Ruling(DRAW, "703.4d")
    if step == "precombat_main" and sagas:
        return Ruling(LORE, "703.4f")
    if step == "beginning_of_combat" and players > 2 and not all_opponents_defend:
        return Ruling(DEFENDER, "703.4h")
    fixed = {
        "declare_attackers": (ATTACKERS, "703.4i"),
        "declare_blockers": (BLOCKERS, "703.4j"),
        "combat_damage": (DAMAGE, "703.4m"),
        "cleanup": (CLEANUP, "703.4p"),
    }
    if step in fixed:
        value, rule = fixed[step]
        return Ruling(value, rule)
    # Upkeep (503.1), the main phases (505.4: only Sagas, or Archenemy and Attractions),
    # beginning of combat in a two-player game (507.1), end of combat (511.1), end step (513.1).
    none_rules = {
        "upkeep": "503.1",
        "precombat_main": "505.4",
        "postcombat_main": "505.4",
        "beginning_of_combat": "507.1",
        "end_of_combat": "511.1",
        "end": "513.1",
    }
    return Ruling(NONE, none_rules[step])


def priority_first(
    step: str,
    active: str,
    *,
    after: str = "begins",
    caster: str = "",
    waiting: bool = False,
) -> Ruling:
    """Who receives priority first: as the step begins (`after="begins"`) the active player
    (117.3a), or nobody in a step without priority (502.4, 514.3); after a spell or ability
    resolves, the active player (117.3b), whoever controlled it; after a player casts a spell
    with priority, that player (117.3c). The value is a player's name, "" for nobody."""
    has_priority = priority_in_step(step, waiting)
    if not has_priority.value:
        return Ruling("", has_priority.rule)
    if after == "begins":
        return Ruling(active, "514.3a" if has_priority.rule == "514.3a" else "117.3a")
    if after == "resolves":
        return Ruling(active, "117.3b")
    if after == "cast":
        if not caster:
            raise ValueError("after a spell is cast, the caster must be given")
        return Ruling(caster, "117.3c")
    raise ValueError(f"unknown moment {after!r}; use begins, resolves or cast")


@dataclass(frozen=True)
class CastTiming:
    """May the player cast the spell now, with the rule and the reason's key."""

    allowed: bool
    rule: str
    why: str  # "no_priority", "instant", "flash", "sorcery_speed_ok", "not_active",
    # "not_main", "stack_not_empty"


def may_cast_now(
    types: Sequence[str],
    *,
    step: str,
    player: str,
    active: str,
    stack: int = 0,
    flash: bool = False,
    waiting: bool = False,
) -> CastTiming:
    """May `player` cast a spell of these card types during `active`'s `step` with `stack`
    objects on the stack, once they have priority?

    No one may in a step without priority (502.4, 514.3). An instant, or a spell with flash,
    any time its caster has priority (117.1a, 702.8a). Any other spell only in its caster's own
    main phase while the stack is empty (117.1a, for a sorcery also 307.1).
    """
    if stack < 0:
        raise ValueError("the stack holds no fewer than 0 objects")
    if "Land" in types and len(set(types)) == 1:
        raise ValueError("a land is played, never cast")
    has_priority = priority_in_step(step, waiting)
    if not has_priority.value:
        return CastTiming(False, has_priority.rule, "no_priority")
    if "Instant" in types:
        return CastTiming(True, "117.1a", "instant")
    if flash:
        return CastTiming(True, "702.8a", "flash")
    rule = "117.1a"  # a sorcery's own rule, 307.1, says the same
    if player != active:
        return CastTiming(False, rule, "not_active")
    if step not in MAIN_PHASES:
        return CastTiming(False, rule, "not_main")
    if stack:
        return CastTiming(False, rule, "stack_not_empty")
    return CastTiming(True, rule, "sorcery_speed_ok")


def step_ends(step: str, passes: Sequence[str], players: Sequence[str], stack: int) -> Ruling:
    """Does the step end now? A step with priority ends when all players pass in succession
    with the stack empty (500.2, 117.4); `passes` are the players who passed since the last
    action, in order. A step without priority ends once its actions are done (500.3)."""
    if not priority_in_step(step).value:
        return Ruling(True, "500.3")
    passed_all = len(passes) >= len(players) and set(passes[-len(players) :]) == set(players)
    if not passed_all:
        return Ruling(False, "500.2")
    return Ruling(stack == 0, "117.4")


def priority_order(active: str, players: Sequence[str], holder: str = "") -> list[str]:
    """The players in the order they get priority, starting with `holder` (default the
    active player), each passing to the next in turn order (117.3d)."""
    start = players.index(holder or active)
    return [*players[start:], *players[:start]]

"""Combat damage (510, with 702.2 deathtouch, 702.4 double strike, 702.7 first strike, 702.15
lifelink and 702.19 trample): given attackers and blockers, the combat damage steps, what each
creature assigns and is dealt in each step, what state-based actions destroy after each step
(sba.py) and the life totals after.

Pure: a Combat in, a CombatOutcome out. Each blocker blocks one attacker; every attacker attacks
the one defending player. Since the Foundations rules update an attacker blocked by two or more
creatures divides its damage among them as its controller chooses (510.1c): there is no damage
assignment order. Where the division is a choice the caller gives it (`choices`), or the engine
refuses (`CombatChoiceNeeded`) rather than choosing for a player.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from .errors import ScenarioError
from .sba import Board, Permanent, Player, SbaRun, run

FIRST_STRIKE = "first_strike"
REGULAR = "regular"
KEYWORDS = frozenset(
    {"first strike", "double strike", "deathtouch", "trample", "lifelink", "indestructible"}
)


class CombatChoiceNeeded(ScenarioError):
    """The damage assignment is its controller's choice (510.1c, 702.19b): none was given."""


@dataclass(frozen=True)
class Fighter:
    """An attacking (`blocks` empty) or blocking (`blocks` = the attacker's label) creature."""

    label: str
    name: str
    controller: str
    power: int
    toughness: int
    keywords: frozenset[str] = frozenset()
    blocks: str = ""
    damage: int = 0  # damage already marked on it as combat damage begins

    def has(self, keyword: str) -> bool:
        return keyword in self.keywords

    @property
    def strikes_first(self) -> bool:
        return self.has("first strike") or self.has("double strike")


@dataclass(frozen=True)
class Combat:
    attackers: tuple[Fighter, ...]
    blockers: tuple[Fighter, ...]
    defender: str
    life: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Dealt:
    """`amount` combat damage from `source` to `target` (a label or the defending player)."""

    source: str
    target: str
    amount: int
    rule: str


@dataclass(frozen=True)
class StepOutcome:
    step: str  # FIRST_STRIKE or REGULAR
    dealt: tuple[Dealt, ...]
    sba: SbaRun
    life: Mapping[str, int]

    @property
    def destroyed(self) -> tuple[str, ...]:
        return tuple(a.subject for a in self.sba.actions if a.kind == "destroyed")


@dataclass(frozen=True)
class CombatOutcome:
    steps: tuple[StepOutcome, ...]

    @property
    def step_names(self) -> tuple[str, ...]:
        return tuple(s.step for s in self.steps)

    def dealt_to(self, target: str) -> int:
        return sum(d.amount for s in self.steps for d in s.dealt if d.target == target)

    def dealt_by(self, source: str) -> int:
        return sum(d.amount for s in self.steps for d in s.dealt if d.source == source)

    def destroyed_in(self, label: str) -> str:
        """The step after which state-based actions destroy the creature, or ""."""
        return next((s.step for s in self.steps if label in s.destroyed), "")

    def destroy_rule(self, label: str) -> str:
        for s in self.steps:
            action = next((a for a in s.sba.actions if a.subject == label), None)
            if action is not None:
                return action.rule
        return ""

    @property
    def life(self) -> Mapping[str, int]:
        return self.steps[-1].life if self.steps else {}


def damage_steps(fighters: tuple[Fighter, ...]) -> tuple[str, ...]:
    """510.4: a first combat damage step only if some attacker or blocker has first strike or
    double strike as the combat damage step begins."""
    if any(f.strikes_first for f in fighters):
        return (FIRST_STRIKE, REGULAR)
    return (REGULAR,)


def assigns_in(fighter: Fighter, step: str, steps: tuple[str, ...]) -> bool:
    """510.4, 702.4b, 702.7b: in the first-strike step only first and double strikers assign;
    in the second, those with neither, and double strikers again."""
    if len(steps) == 1:
        return True
    if step == FIRST_STRIKE:
        return fighter.strikes_first
    return not fighter.has("first strike") or fighter.has("double strike")


def lethal(blocker: Fighter, marked: int, deathtouch: bool) -> int:
    """The damage that counts as lethal for a trampler's assignment (702.19b): its toughness
    less the damage already marked on it (at least 1), or 1 from a source with deathtouch
    (702.2c)."""
    if deathtouch:
        return 1 if blocker.toughness > 0 else 0
    return max(blocker.toughness - marked, 0)


def trample_excess_at_most(
    attacker: Fighter, blockers: tuple[Fighter, ...], marked: Mapping[str, int]
) -> int:
    """The most a trampler can assign to the player: its power less lethal damage to each
    creature blocking it (702.19b, 702.2c); with no blocker left, all of it (702.19d)."""
    needed = sum(
        lethal(b, marked.get(b.label, b.damage), attacker.has("deathtouch")) for b in blockers
    )
    return max(attacker.power - needed, 0)


def _assignment(
    attacker: Fighter,
    blockers: tuple[Fighter, ...],
    blocked: bool,
    defender: str,
    marked: Mapping[str, int],
    choice: Mapping[str, int] | None,
    lethal_first: bool = False,
) -> dict[str, tuple[int, str]]:
    """Target -> (amount, rule) for one attacker's combat damage in one step."""
    power = attacker.power
    if power <= 0:
        return {}  # 510.1a: 0 or less assigns no combat damage
    if not blocked:
        return {defender: (power, "510.1b")}
    trample = attacker.has("trample")
    if not blockers:
        # 702.19d: a blocked trampler with no blocker left assigns all to the player; any other
        # blocked creature assigns none (510.1c).
        return {defender: (power, "702.19d")} if trample else {}
    excess = trample_excess_at_most(attacker, blockers, marked) if trample else 0
    if choice is None:
        if len(blockers) == 1 and excess == 0:
            return {blockers[0].label: (power, "510.1c")}
        if len(blockers) == 1 and lethal_first:
            # One blocker is assigned at least lethal damage whatever the choice (702.19b):
            # what happens to the creatures is the same for every legal assignment.
            return {blockers[0].label: (power - excess, "702.19b"), defender: (excess, "702.19b")}
        raise CombatChoiceNeeded(
            f"choices.{attacker.label}",
            f"{attacker.name}'s controller divides its damage as they choose "
            f"({'702.19b' if trample else '510.1c'})",
        )
    labels = {b.label for b in blockers}
    allowed = labels | ({defender} if trample else set())
    if set(choice) - allowed or sum(choice.values()) != power or min(choice.values()) < 0:
        raise ScenarioError(
            f"choices.{attacker.label}",
            f"must divide {power} damage among {sorted(allowed)} (510.1c, 702.19b)",
        )
    to_player = choice.get(defender, 0)
    if to_player > excess:
        raise ScenarioError(
            f"choices.{attacker.label}",
            f"at most {excess} can be assigned to {defender}: lethal damage to each blocker first "
            "(702.19b)",
        )
    rule = "702.19b" if trample else "510.1c"
    return {target: (amount, rule) for target, amount in choice.items() if amount}


def _board(
    fighters: tuple[Fighter, ...],
    marked: Mapping[str, int],
    deathtouched: set[str],
    life: Mapping[str, int],
) -> Board:
    players = tuple(Player(name, life=total) for name, total in life.items())
    permanents = tuple(
        Permanent(
            f.label,
            f.name,
            f.controller,
            controller=f.controller,
            types=frozenset({"Creature"}),
            toughness=f.toughness,
            damage=marked.get(f.label, f.damage),
            deathtouch_damage=f.label in deathtouched,
            indestructible=f.has("indestructible"),
        )
        for f in fighters
    )
    return Board(players, permanents)


def resolve(
    combat: Combat,
    choices: Mapping[str, Mapping[str, int]] | None = None,
    lethal_first: bool = False,
) -> CombatOutcome:
    """Each combat damage step: assignments (510.1a-d), damage dealt at once (510.2), life lost and
    gained (120.3a, 702.15b), then state-based actions (704.3); a destroyed creature leaves combat
    (506.4) and deals no damage in a later step. `lethal_first`: a trampler blocked by one
    creature, given no choice, assigns it lethal damage and the rest to the player."""
    choices = choices or {}
    attackers = {a.label: a for a in combat.attackers}
    for b in combat.blockers:
        if b.blocks not in attackers:
            raise ScenarioError(f"blockers.{b.label}", f"blocks {b.blocks!r}, not an attacker")
    fighters = combat.attackers + combat.blockers
    steps = damage_steps(fighters)
    life = dict(combat.life) or {combat.defender: 20}
    for f in fighters:
        life.setdefault(f.controller, 20)
    life.setdefault(combat.defender, 20)
    marked = {f.label: f.damage for f in fighters}
    deathtouched: set[str] = set()
    in_combat = {f.label for f in fighters}
    blocked = {b.blocks for b in combat.blockers}
    outcomes = []
    for step in steps:
        dealt: list[Dealt] = []
        for attacker in combat.attackers:
            if attacker.label not in in_combat or not assigns_in(attacker, step, steps):
                continue
            blockers = tuple(
                b for b in combat.blockers if b.blocks == attacker.label and b.label in in_combat
            )
            key = (
                f"{attacker.label}@{step}"
                if f"{attacker.label}@{step}" in choices
                else attacker.label
            )
            assigned = _assignment(
                attacker,
                blockers,
                attacker.label in blocked,
                combat.defender,
                marked,
                choices.get(key),
                lethal_first,
            )
            dealt += [Dealt(attacker.label, t, n, rule) for t, (n, rule) in assigned.items()]
        for blocker in combat.blockers:
            if blocker.label not in in_combat or not assigns_in(blocker, step, steps):
                continue
            if blocker.power > 0 and blocker.blocks in in_combat:
                dealt.append(Dealt(blocker.label, blocker.blocks, blocker.power, "510.1d"))
        # 510.2: all of it is dealt at once.
        by_label = {f.label: f for f in fighters}
        for d in dealt:
            source = by_label[d.source]
            if d.target == combat.defender:
                life[combat.defender] -= d.amount  # 120.3a
            else:
                marked[d.target] += d.amount  # 120.3e
                if source.has("deathtouch"):
                    deathtouched.add(d.target)  # 702.2b
            if source.has("lifelink"):
                life[source.controller] += d.amount  # 702.15b
        present = tuple(f for f in fighters if f.label in in_combat)
        sba = run(_board(present, marked, deathtouched, life))
        gone = {a.subject for a in sba.actions if a.destination}
        in_combat -= gone  # 506.4
        deathtouched.clear()  # 704.5h looks at damage since the last check
        outcomes.append(StepOutcome(step, tuple(dealt), sba, dict(life)))
    return CombatOutcome(tuple(outcomes))


def with_keywords(fighter: Fighter, *keywords: str) -> Fighter:
    return replace(fighter, keywords=fighter.keywords | frozenset(keywords))

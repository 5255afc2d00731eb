"""Time the rulings engine on two scenarios, against `json.loads` of the same file as a baseline.

    .venv/bin/python -m bench.engine [--repetitions 2000] [--warmup 100] [--json]

Cases:
  splinter-example  the shared acceptance case (Splinter across graveyard, hand and library)
  splinter-large    Splinter with 12 copies spread over four zones of a 40-card library
  explorer-4p       four players (60-card libraries, 15-card hands, 20-card graveyards), an
                    Aven Mindcensor out and Veteran Explorer dying

Sections (pure engine modules, timed the same way, one call at a time):
  sba-board         state-based actions (704) on a four-player board of 48 permanents: lethal
                    damage, Auras left on dying creatures, tokens, duplicate legends, a player
                    at 0 life; `sba.run` checks until nothing applies (two checks act)
  dredge-leyline    replacement effects (616.1): a draw replaced by dredge 5 under Leyline of
                    the Void and Rest in Peace, then each of the five milled cards' moves
  sba-counters-draw state-based actions on 48 creatures with +1/+1 and -1/-1 counters (704.5q),
                    damage from deathtouch sources (704.5h) and toughness 0 (704.5f), every
                    player at 0 life or poisoned out at once: the game is a draw (104.4a)
  casting-order     every pair of the twelve casting steps (601.2a-i) put in order
  combat-board      combat damage (510, 702.2/4/7/15/19): twelve attackers, eighteen blockers,
                    first and double strike, deathtouch, trample, lifelink; both damage steps
                    and the state-based actions after each

"resolve (dict)" is `resolve(spec)` from the JSON dict, parse included; "resolve (parsed)" is
`resolve(scenario)` of an already-parsed Scenario. Each is timed with `time.perf_counter_ns`
one call at a time; the report gives the median and the 95th percentile per call.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rules.engine import combat as cbt
from rules.engine import layers, parse_scenario, resolve, sba
from rules.engine import replacement as repl
from rules.engine.casting import CASTING_STEPS, casting_step_order

REPO = Path(__file__).resolve().parents[1]
SHARED_SPLINTER = REPO.parent / "shared/spec/examples/splinter-howling-mine.json"
FILLERS = ("Island", "Swamp", "Forest", "Plains", "Mountain", "Howling Mine", "Evolving Wilds")
PLAYERS = ("Alice", "Bob", "Carol", "Dan")


def splinter_large() -> dict[str, Any]:
    """Splinter on Howling Mine with copies in every zone Splinter searches, and more."""
    rng = random.Random(701_23)
    library = [rng.choice(("Island", "Swamp", "Forest", "Plains")) for _ in range(40)]
    for index, position in enumerate(sorted(rng.sample(range(40), 6))):
        library[position] = f"Howling Mine#lib{index}"
    return {
        "format": "scenario/1",
        "id": "bench-splinter-large",
        "title": "Splinter on Howling Mine, copies in four zones",
        "source": "CR 701.23b, example (scaled up)",
        "players": ["Alice", "Nadia"],
        "cards": [],
        "zones": {
            "Nadia": {
                "battlefield": ["Howling Mine#mine", "Island", "Island"],
                "graveyard": ["Howling Mine#gy1", "Howling Mine#gy2", "Island", "Forest"],
                "hand": ["Howling Mine#hand1", "Howling Mine#hand2", "Forest", "Swamp"],
                "library": library,
                "exile": ["Howling Mine#exiled"],
            }
        },
        "history": [],
        "resolve": {"cast": "Splinter", "by": "Alice", "targets": ["mine"]},
        "expect": [],
    }


def explorer_four_players() -> dict[str, Any]:
    """Four players with full zones; Veteran Explorer dies under an Aven Mindcensor."""
    rng = random.Random(101_4)
    zones: dict[str, dict[str, list[str]]] = {}
    for player in PLAYERS:
        zones[player] = {
            "library": [rng.choice(FILLERS) for _ in range(60)],
            "hand": [rng.choice(FILLERS) for _ in range(15)],
            "graveyard": [rng.choice(FILLERS) for _ in range(20)],
            "battlefield": ["Island", "Forest"],
        }
    zones["Alice"]["battlefield"].append("Aven Mindcensor#censor")
    zones["Carol"]["graveyard"].append("Veteran Explorer#explorer")
    return {
        "format": "scenario/1",
        "id": "bench-explorer-4p",
        "title": "Veteran Explorer dies in a four-player game under Aven Mindcensor",
        "source": "CR 701.23f and 701.23i (scaled up)",
        "players": list(PLAYERS),
        "active": "Bob",
        "cards": [],
        "zones": zones,
        "history": [],
        "resolve": {"trigger": "explorer", "event": "dies"},
        "expect": [],
    }


def cost_and_triggers() -> tuple[dict[str, Any], dict[str, Any]]:
    """A taxed and discounted spell (601.2f) and a board wipe's dies triggers (603.3b, 603.10a)."""
    helm = {
        "name": "Helm of Awakening",
        "mana_cost": "{2}",
        "types": ["Artifact"],
        "oracle": "Spells cost {1} less to cast.",
        "static": [{"cost_modifier": {"spells": "all", "amount": -1, "who": "all"}}],
    }
    cost = {
        "format": "scenario/1",
        "id": "bench-total-cost",
        "players": ["Nadia", "Olek"],
        "cards": [helm],
        "zones": {
            "Nadia": {"hand": ["Swords to Plowshares#stp"], "library": ["Plains"]},
            "Olek": {"battlefield": ["Thalia, Guardian of Thraben#thalia", "Helm of Awakening"]},
        },
        "resolve": {"draw": "Nadia"},
        "expect": [{"claim": "total_cost", "card": "stp", "value": "{W}"}],
    }
    dying = ["ob", "elder", "explorer"]
    triggers = {
        "format": "scenario/1",
        "id": "bench-dies-triggers",
        "players": ["Nadia", "Olek"],
        "cards": [],
        "zones": {
            "Nadia": {"battlefield": ["Veteran Explorer#explorer"], "library": ["Forest"]},
            "Olek": {"battlefield": ["Ob Nixilis, Unshackled#ob", "Yavimaya Elder#elder"]},
        },
        "resolve": {"draw": "Nadia"},
        "expect": [
            {"claim": "trigger_order", "dies": dying, "value": ["Olek", "Nadia"]},
            {"claim": "triggers_on_event", "card": "ob", "dies": dying, "value": 2},
        ],
    }
    return cost, triggers


def layers_scenario() -> dict[str, Any]:
    """A creature under Glorious Anthem with counters, Diminish and Twisted Image (613.4b-d)."""
    return {
        "format": "scenario/1",
        "id": "bench-layers",
        "players": ["Nadia", "Olek"],
        "cards": [],
        "zones": {
            "Nadia": {
                "battlefield": [
                    "Glorious Anthem#anthem",
                    {
                        "card": "Thalia, Guardian of Thraben",
                        "label": "thalia",
                        "counters": {"+1/+1": 2},
                        "effects": ["diminish", "growth", "twist"],
                    },
                    "Tarmogoyf#goyf",
                ],
                "graveyard": ["Giant Growth#growth", "Forest"],
                "library": ["Plains"],
            },
            "Olek": {"graveyard": ["Diminish#diminish", "Twisted Image#twist"]},
        },
        "resolve": {"draw": "Nadia"},
        "expect": [
            {"claim": "power", "card": "thalia", "value": 7},
            {"claim": "toughness", "card": "thalia", "value": 7},
            {"claim": "power", "card": "goyf", "value": 3},
            {"claim": "effect_layer", "source": "twist", "value": "7d"},
        ],
    }


def turn_priority() -> dict[str, Any]:
    """Each step of a turn: priority, turn-based actions, who acts first, and may each card in
    hand be cast (117, 500-514, 703)."""
    steps = ["untap", "upkeep", "draw", "precombat_main", "declare_attackers", "end", "cleanup"]
    cards = [("bolt", "Nadia"), ("div", "Nadia"), ("censor", "Nadia"), ("bears", "Olek")]
    expect: list[dict[str, Any]] = []
    for step in steps:
        expect.append({"claim": "priority_in_step", "step": step})
        expect.append({"claim": "turn_based_actions", "step": step})
        expect.append({"claim": "priority_first", "step": step})
        expect += [
            {"claim": "may_cast_now", "card": card, "player": player, "step": step}
            for card, player in cards
        ]
    return {
        "format": "scenario/1",
        "id": "bench-turn-priority",
        "players": ["Nadia", "Olek"],
        "active": "Olek",
        "cards": [],
        "zones": {
            "Nadia": {
                "hand": ["Lightning Bolt#bolt", "Divination#div", "Aven Mindcensor#censor"],
                "library": ["Island"],
            },
            "Olek": {"hand": ["Grizzly Bears#bears"], "library": ["Forest"]},
        },
        "expect": expect,
    }


def sba_and_casting() -> tuple[dict[str, Any], dict[str, Any]]:
    """A board checked for state-based actions (704) and a spell's casting steps (601.2)."""
    board = {
        "format": "scenario/1",
        "id": "bench-sba-claims",
        "title": "State-based actions on a board with damage, deathtouch, counters and legends",
        "source": "CR 704.3, 704.5a-c, 704.5f-j, 704.5q, 104.4a",
        "players": ["Nadia", "Olek"],
        "state_based_actions": True,
        "life": {"Nadia": 3, "Olek": 20},
        "poison": {"Olek": 4},
        "zones": {
            "Nadia": {
                "battlefield": [
                    {
                        "card": "Serra Angel",
                        "label": "angel",
                        "damage": 1,
                        "deathtouch_damage": True,
                    },
                    {
                        "card": "Grizzly Bears",
                        "label": "bears",
                        "counters": {"+1/+1": 2, "-1/-1": 1},
                    },
                    "Thalia, Guardian of Thraben#t1",
                    "Thalia, Guardian of Thraben#t2",
                    "Forest",
                ]
            },
            "Olek": {
                "battlefield": [
                    {"card": "Ashiok, Dream Render", "label": "ashiok", "counters": {"loyalty": 0}},
                    {"card": "Ornithopter", "label": "thopter", "counters": {"-1/-1": 2}},
                    "Island",
                ]
            },
        },
        "expect": [
            {"claim": "sba_performed", "card": "angel", "value": "destroyed"},
            {"claim": "sba_performed", "card": "bears", "value": "counters_removed"},
            {"claim": "sba_destination", "card": "thopter", "value": "graveyard"},
            {"claim": "sba_performed", "card": "ashiok", "value": "graveyard"},
            {"claim": "permanents_left", "player": "Nadia", "value": 3},
            {"claim": "player_loses", "player": "Olek", "value": "plays_on"},
        ],
    }
    steps = [
        (["announce_x", "move_to_stack"], "move_to_stack"),
        (["determine_total_cost", "announce_x"], "announce_x"),
        (["pay_total_cost", "activate_mana_abilities"], "activate_mana_abilities"),
        (["becomes_cast", "pay_total_cost"], "pay_total_cost"),
        (["check_legality", "announce_x"], "announce_x"),
    ]
    casting = {
        "format": "scenario/1",
        "id": "bench-casting-order",
        "title": "Green Sun's Zenith: the order of its casting steps",
        "source": "CR 601.2a-i",
        "players": ["Nadia", "Olek"],
        "zones": {"Nadia": {"hand": ["Green Sun's Zenith#gsz"], "battlefield": ["Forest"]}},
        "expect": [
            {"claim": "casting_step_order", "card": "gsz", "steps": pair, "value": first}
            for pair, first in steps
        ],
    }
    return board, casting


def combat_claims() -> dict[str, Any]:
    """Boros Swiftblade and Colossal Dreadmaw attack; Grizzly Bears, Typhoid Rats and a
    damaged Serra Angel block: the claims that don't turn on how Dreadmaw's damage is divided
    between its two blockers (510.1c)."""
    return {
        "format": "scenario/1",
        "id": "bench-combat-claims",
        "title": "Double strike and trample against three blockers",
        "source": "CR 510, 702.2, 702.4, 702.19",
        "players": ["Alice", "Nadia"],
        "state_based_actions": True,
        "zones": {
            "Alice": {
                "battlefield": [
                    {"card": "Boros Swiftblade", "label": "blade", "combat": "attacking"},
                    {"card": "Colossal Dreadmaw", "label": "maw", "combat": "attacking"},
                ]
            },
            "Nadia": {
                "battlefield": [
                    {
                        "card": "Grizzly Bears",
                        "label": "bears",
                        "combat": "blocking",
                        "blocks": "blade",
                    },
                    {
                        "card": "Typhoid Rats",
                        "label": "rats",
                        "combat": "blocking",
                        "blocks": "maw",
                    },
                    {
                        "card": "Serra Angel",
                        "label": "angel",
                        "combat": "blocking",
                        "blocks": "maw",
                        "damage": 1,
                    },
                ]
            },
        },
        "expect": [
            {"claim": "combat_damage_steps", "value": 2},
            {"claim": "trample_to_player_at_most", "card": "maw", "value": 2},
        ],
    }


def cases() -> dict[str, str]:
    """Case name -> scenario file text (the shared example is read if it is there)."""
    texts = {}
    if SHARED_SPLINTER.is_file():
        texts["splinter-example"] = SHARED_SPLINTER.read_text(encoding="utf-8")
    texts["splinter-large"] = json.dumps(splinter_large(), indent=2)
    texts["explorer-4p"] = json.dumps(explorer_four_players(), indent=2)
    cost, triggers = cost_and_triggers()
    texts["total-cost"] = json.dumps(cost, indent=2)
    texts["dies-triggers"] = json.dumps(triggers, indent=2)
    texts["layers"] = json.dumps(layers_scenario(), indent=2)
    texts["turn-priority"] = json.dumps(turn_priority(), indent=2)
    board, casting = sba_and_casting()
    texts["sba-claims"] = json.dumps(board, indent=2)
    texts["casting-order"] = json.dumps(casting, indent=2)
    texts["combat-claims"] = json.dumps(combat_claims(), indent=2)
    return texts


def time_calls(call: Callable[[], object], repetitions: int, warmup: int) -> list[int]:
    """Nanoseconds per call, one call at a time, after `warmup` untimed calls."""
    for _ in range(warmup):
        call()
    samples = []
    clock = time.perf_counter_ns
    for _ in range(repetitions):
        start = clock()
        call()
        samples.append(clock() - start)
    return samples


def summary(samples: list[int]) -> dict[str, float]:
    """Median and 95th percentile in microseconds."""
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return {"median_us": statistics.median(ordered) / 1000, "p95_us": p95 / 1000}


def measure(name: str, text: str, repetitions: int, warmup: int) -> dict[str, Any]:
    """Write the scenario to a temporary file, read it back, and time the three operations."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"{name}.json"
        path.write_text(text, encoding="utf-8")
        text = path.read_text(encoding="utf-8")
    spec = json.loads(text)
    parsed = parse_scenario(spec)
    outcome = resolve(spec)
    loads = summary(time_calls(lambda: json.loads(text), repetitions, warmup))
    from_dict = summary(time_calls(lambda: resolve(spec), repetitions, warmup))
    from_parsed = summary(time_calls(lambda: resolve(parsed), repetitions, warmup))
    return {
        "case": name,
        "bytes": len(text.encode("utf-8")),
        "cards": len(parsed.state.cards),
        "claims": len(outcome.claims),
        "repetitions": repetitions,
        "json_loads": loads,
        "resolve_dict": from_dict,
        "resolve_parsed": from_parsed,
        "ratio_resolve_to_json_loads": from_dict["median_us"] / loads["median_us"],
    }


def sba_board() -> sba.Board:
    """Four players, twelve permanents each: every third creature dies, its Aura follows it one
    check later, tokens cease to exist one check after dying, each player has two legends."""
    permanents = []
    for player in PLAYERS:
        for index in range(8):
            permanents.append(
                sba.Permanent(
                    f"{player}-c{index}",
                    "Hill Giant",
                    player,
                    types=frozenset({"Creature"}),
                    toughness=3,
                    damage=3 if index % 3 == 0 else 1,
                    token=index % 2 == 0,
                )
            )
        for index in range(2):
            permanents.append(
                sba.Permanent(
                    f"{player}-a{index}",
                    "Pacifism",
                    player,
                    types=frozenset({"Enchantment", "Aura"}),
                    enchant="creature",
                    attached_to=f"{player}-c{index * 3}",
                )
            )
        for index in range(2):
            permanents.append(
                sba.Permanent(
                    f"{player}-l{index}",
                    "Liliana of the Veil",
                    player,
                    types=frozenset({"Planeswalker"}),
                    supertypes=frozenset({"Legendary"}),
                    counters={"loyalty": 3},
                )
            )
    players = tuple(sba.Player(name, life=0 if name == "Dan" else 20) for name in PLAYERS)
    return sba.Board(players, tuple(permanents))


def layers_board() -> tuple[list[layers.Creature], list[layers.PTEffect]]:
    """Four players, twelve creatures each: each player's Glorious Anthem-like lord, counters on
    every other creature, a Giant Growth, a Diminish and a Twisted Image on three creatures each,
    and one conditional effect per player ("creatures with power 2 or less get +1/+1") that a
    +1/+0 effect in its sublayer changes the reach of (613.8 dependency)."""
    creatures, effects = [], []
    stamp = 0
    for player in PLAYERS:
        labels = [f"{player}-c{index}" for index in range(12)]
        creatures += [layers.Creature(label, "Grizzly Bears", 2, 2, player) for label in labels]
        yours = frozenset(labels)
        effects.append(layers.PTEffect(f"{player}-anthem", "7c", stamp, yours, 1, 1))
        effects.append(
            layers.PTEffect(f"{player}-small", "7c", stamp + 1, yours, 1, 1, power_at_most=2)
        )
        stamp += 2
        for index, label in enumerate(labels):
            if index % 2 == 0:
                effects += layers.counter_effects(label, {"+1/+1": 1 + index % 3})
            spell = {0: ("7c", 3, 3), 1: ("7b", 1, 1), 2: ("7d", None, None)}.get(index % 4)
            if spell is not None:
                sublayer, power, toughness = spell
                stamp += 1
                effects.append(
                    layers.PTEffect(
                        f"{label}-spell", sublayer, stamp, frozenset({label}), power, toughness
                    )
                )
        stamp += 1
        effects.append(layers.PTEffect(f"{player}-pump", "7c", stamp, yours, 1, 0))
    return creatures, effects


def sba_counters_board() -> sba.Board:
    """Three players, sixteen creatures each with counters of both kinds, some dealt damage by
    a deathtouch source, some at toughness 0; every player loses in the first check."""
    permanents = []
    for player in PLAYERS[:3]:
        for index in range(16):
            permanents.append(
                sba.Permanent(
                    f"{player}-c{index}",
                    "Grizzly Bears",
                    player,
                    types=frozenset({"Creature"}),
                    toughness=2,
                    damage=1 if index % 4 == 1 else 0,
                    deathtouch_damage=index % 4 == 1,
                    counters={"+1/+1": index % 3, "-1/-1": (index % 5) if index % 4 else 2},
                )
            )
    players = (
        sba.Player("Alice", life=0),
        sba.Player("Bob", poison=10),
        sba.Player("Carol", drew_from_empty_library=True),
    )
    return sba.Board(players, tuple(permanents))


def casting_order() -> int:
    """Every ordered pair of distinct casting steps compared; returns how many."""
    names = [name for name, _ in CASTING_STEPS]
    return sum(
        1 for one in names for other in names if one != other and casting_step_order(one, other)
    )


def dredge_under_leyline() -> int:
    """A dredge draw and the five moves of its mill; returns the cards exiled."""
    effects = [
        repl.graveyard_to_exile("Leyline of the Void", "Bob", whose="opponent"),
        repl.graveyard_to_exile("Rest in Peace", "Carol"),
        repl.dredge("Golgari Thug", "Alice", 5),
    ]
    draw = repl.apply_replacements(
        repl.Event("draw", player="Alice"), effects, library_sizes={"Alice": 40}
    )
    moves = repl.mill_events("Alice", [f"card{i}" for i in range(draw.final.details["mill"])])
    return sum(repl.apply_replacements(m, effects).final.to_zone == "exile" for m in moves)


def combat_board() -> tuple[cbt.Combat, dict[str, dict[str, int]]]:
    """Twelve attackers (three of each keyword mix), each blocked by none, one or two of
    eighteen blockers; a trampler blocked once assigns lethal damage first (702.19b)."""
    mixes = (
        ("first strike",),
        ("double strike", "lifelink"),
        ("deathtouch",),
        ("trample",),
    )
    attackers, blockers = [], []
    for index in range(12):
        keywords = frozenset(mixes[index % 4])
        label = f"a{index}"
        attackers.append(cbt.Fighter(label, label, "Alice", 2 + index % 5, 3, keywords))
        count = 1 if "trample" in keywords else index % 3
        for other in range(count):
            blocker = f"b{index}-{other}"
            blockers.append(cbt.Fighter(blocker, blocker, "Nadia", 1 + other, 2, blocks=label))
    # A creature blocked by two is the controller's choice (510.1c): give it one.
    # In each step all of it to one blocker: the first in the first-strike step, the second in
    # the regular step (a double striker's first victim is gone by then).
    twice = [a for a in attackers if sum(b.blocks == a.label for b in blockers) == 2]
    choices = {
        f"{a.label}@{step}": {f"b{a.label[1:]}-{which}": a.power}
        for a in twice
        for which, step in enumerate((cbt.FIRST_STRIKE, cbt.REGULAR))
    }
    return cbt.Combat(
        tuple(attackers), tuple(blockers), "Nadia", {"Alice": 20, "Nadia": 20}
    ), choices


def measure_sections(repetitions: int, warmup: int) -> list[dict[str, Any]]:
    """The pure section modules: state-based actions and replacement effects."""
    board = sba_board()
    checks = len(sba.run(board).checks)
    creatures, effects = layers_board()
    rows = [
        {
            "case": "sba-board",
            "section": "704",
            "permanents": len(board.permanents),
            "checks": checks,
            **summary(time_calls(lambda: sba.run(board), repetitions, warmup)),
        },
        {
            "case": "layers-board",
            "section": "613.4",
            "creatures": len(creatures),
            "effects": len(effects),
            **summary(
                time_calls(lambda: layers.apply_layer7(creatures, effects), repetitions, warmup)
            ),
        },
        {
            "case": "dredge-leyline",
            "section": "614-616",
            "exiled": dredge_under_leyline(),
            **summary(time_calls(dredge_under_leyline, repetitions, warmup)),
        },
    ]
    counters = sba_counters_board()
    outcome = sba.run(counters)
    rows.append(
        {
            "case": "sba-counters-draw",
            "section": "704",
            "permanents": len(counters.permanents),
            "checks": len(outcome.checks),
            "draw": outcome.draw,
            **summary(time_calls(lambda: sba.run(counters), repetitions, warmup)),
        }
    )
    fight, choices = combat_board()
    fought = cbt.resolve(fight, choices, lethal_first=True)
    rows.append(
        {
            "case": "combat-board",
            "section": "510",
            "creatures": len(fight.attackers) + len(fight.blockers),
            "steps": len(fought.steps),
            "destroyed": sum(len(step.destroyed) for step in fought.steps),
            **summary(
                time_calls(
                    lambda: cbt.resolve(fight, choices, lethal_first=True), repetitions, warmup
                )
            ),
        }
    )
    rows.append(
        {
            "case": "casting-order",
            "section": "601.2",
            "pairs": casting_order(),
            **summary(time_calls(casting_order, repetitions, warmup)),
        }
    )
    return rows


def report_text(results: list[dict[str, Any]]) -> str:
    header = (
        f"{'case':<18}{'cards':>6}{'claims':>7}  {'json.loads':>16}  {'resolve (dict)':>18}"
        f"  {'resolve (parsed)':>18}  {'ratio':>6}"
    )
    lines = ["median / p95 per call, microseconds", header, "-" * len(header)]
    for row in results:
        loads, whole, parsed = row["json_loads"], row["resolve_dict"], row["resolve_parsed"]
        lines.append(
            f"{row['case']:<18}{row['cards']:>6}{row['claims']:>7}"
            f"  {loads['median_us']:>7.1f} / {loads['p95_us']:>6.1f}"
            f"  {whole['median_us']:>8.1f} / {whole['p95_us']:>7.1f}"
            f"  {parsed['median_us']:>8.1f} / {parsed['p95_us']:>7.1f}"
            f"  {row['ratio_resolve_to_json_loads']:>5.0f}x"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.engine", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--repetitions", type=int, default=2000, help="timed calls per measure")
    parser.add_argument("--warmup", type=int, default=100, help="untimed calls first")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    options = parser.parse_args(argv)
    results = [
        measure(name, text, options.repetitions, options.warmup) for name, text in cases().items()
    ]
    sections = measure_sections(options.repetitions, options.warmup)
    if options.json:
        report = {"python": sys.version.split()[0], "results": results, "sections": sections}
        print(json.dumps(report, indent=2))
    else:
        print(report_text(results))
        print("\nsections, median / p95 per call, microseconds")
        for row in sections:
            median, p95 = row["median_us"], row["p95_us"]
            print(f"{row['case']:<18}{row['section']:>8}  {median:>8.1f} / {p95:>7.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

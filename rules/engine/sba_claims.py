"""Claims on state-based actions (704) read off a scenario's board: what happens to a permanent,
where it ends up, whether a player loses (or the game is a draw, 104.4a) and how many permanents
a player still controls once the checks settle (704.3).

The board is the scenario's own (its zones, life totals, `poison`, `drew_from_empty_library`,
each permanent's `counters`, `damage` and `deathtouch_damage`): state-based actions are checked
on it as a player would next receive priority.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from .errors import ScenarioError
from .reasons import because
from .sba import Board, Player, SbaRun, from_definition, run
from .scenario import Scenario
from .verdict import Verdict


def _entries(scenario: Scenario) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """(label, card object) for every labelled card object in the scenario's zones."""
    zones = scenario.spec.get("zones", {}) if isinstance(scenario.spec, Mapping) else {}
    for player_zones in zones.values():
        for entries in player_zones.values():
            for entry in entries if isinstance(entries, list) else ():
                if isinstance(entry, Mapping) and entry.get("label"):
                    yield str(entry["label"]), entry


def board_of(scenario: Scenario) -> Board:
    """The scenario's battlefield and players as state-based actions read them."""
    spec = scenario.spec if isinstance(scenario.spec, Mapping) else {}
    extras = dict(_entries(scenario))
    poison = spec.get("poison") or {}
    drew = set(spec.get("drew_from_empty_library") or ())
    players = tuple(
        Player(
            name,
            life=scenario.state.life_total(name),
            poison=poison.get(name, 0),
            drew_from_empty_library=name in drew,
        )
        for name in scenario.state.players
    )
    permanents = []
    for card in scenario.state.permanents():
        extra = extras.get(card.label, {})
        keywords = card.definition.oracle.splitlines()
        permanents.append(
            from_definition(
                card.label,
                card.definition,
                card.owner,
                controller=card.controller,
                damage=int(extra.get("damage", 0)),
                deathtouch_damage=bool(extra.get("deathtouch_damage", False)),
                indestructible=any(k.strip().lower() == "indestructible" for k in keywords),
                counters=dict(card.counters or {}),
                attached_to=card.attached_to or "",
            )
        )
    return Board(players, tuple(permanents))


def settle(scenario: Scenario) -> SbaRun:
    """The checks on the scenario's board, run once per scenario (a scenario never changes)."""
    found = scenario.__dict__.get("_sba_run")
    if found is None:
        found = scenario.__dict__["_sba_run"] = run(board_of(scenario))
    return found


def _game_over(scenario: Scenario, result: SbaRun, claim: str) -> None:
    """A check that leaves fewer than two players ends the game (104.2a): no check follows."""
    players = len(scenario.state.players)
    if players >= 2 and players - len(set(result.losers)) < 2:
        raise ScenarioError(f"claim {claim}", "the game ends in the first check: ask player_loses")


def _card(scenario: Scenario, subject: Mapping[str, Any], claim: str):
    card = scenario.state.card(subject["card"])
    if card is None or card.zone != "battlefield":
        raise ScenarioError(f"claim {claim}.card", "must be a permanent on the battlefield")
    return card


def _legend_choice(result: SbaRun, label: str, claim: str) -> None:
    if any(a.subject == label and a.rule == "704.5j" for a in result.actions):
        raise ScenarioError(
            f"claim {claim}.card",
            "the legend rule lets its controller choose which one stays: ask permanents_left",
        )


def sba_performed_verdict(scenario: Scenario, subject: Mapping[str, Any]) -> Verdict:
    """What the state-based actions do to the permanent first: destroyed (704.5g, 704.5h), put
    into its owner's graveyard (704.5f, 704.5i, 704.5m), counters removed (704.5q) or none."""
    card = _card(scenario, subject, "sba_performed")
    result = settle(scenario)
    _legend_choice(result, card.label, "sba_performed")
    first = result.checks[0] if result.checks else ()
    action = next((a for a in first if a.subject == card.label), None)
    if action is None:
        return Verdict("none", "704.3", because("sba_none", card=card.name))
    counters = card.counters or {}
    if action.destination and counters.get("+1/+1", 0) and counters.get("-1/-1", 0):
        # 704.5q applies in the same check as the permanent leaves: both happen at once.
        raise ScenarioError(
            "claim sba_performed.card", "it leaves while 704.5q removes its counters: ask where"
        )
    value = {"destroyed": "destroyed", "graveyard": "graveyard"}.get(action.kind, action.kind)
    return Verdict(
        value, action.rule, because(f"sba_{action.rule}", card=card.name, count=action.count)
    )


def sba_destination_verdict(scenario: Scenario, subject: Mapping[str, Any]) -> Verdict:
    """Where the permanent is once the checks settle (704.3): a token that left the
    battlefield ceases to exist in the next check (704.5d)."""
    card = _card(scenario, subject, "sba_destination")
    result = settle(scenario)
    _legend_choice(result, card.label, "sba_destination")
    _game_over(scenario, result, "sba_destination")
    where = result.destination(card.label)
    if where == "battlefield":
        return Verdict("battlefield", "704.3", because("sba_stays", card=card.name))
    if where == "ceases_to_exist":
        first = result.happened_to(card.label)
        return Verdict(
            "ceases_to_exist",
            "704.5d",
            because("sba_token_ceases", card=card.name, rule=first.rule if first else "704.5d"),
        )
    action = result.happened_to(card.label)
    rule = action.rule if action else "704.3"
    return Verdict(
        "graveyard", rule, because("sba_to_graveyard", card=card.name, owner=card.owner, rule=rule)
    )


def player_loses_verdict(scenario: Scenario, subject: Mapping[str, Any]) -> Verdict:
    """Whether the player loses (704.5a-c), the game is a draw (every player still in it
    losing at once, 104.4a) or the player plays on."""
    player = subject["player"]
    result = settle(scenario)
    outcome = result.outcome(player)
    if outcome == "plays_on":
        return Verdict("plays_on", "704.3", because("sba_player_plays_on", player=player))
    rule = next(a.rule for a in result.actions if a.kind == "loses" and a.subject == player)
    state = next(p for p in board_of(scenario).players if p.name == player)
    reasons = [
        number
        for number, applies in (
            ("704.5a", state.life <= 0),
            ("704.5b", state.drew_from_empty_library),
            ("704.5c", state.poison >= 10),
        )
        if applies
    ]
    if outcome == "loses" and len(reasons) > 1:
        return Verdict(
            "loses", rule, because("sba_loses_several", player=player, rules=", ".join(reasons))
        )
    if outcome == "draw":  # every rule that makes this player lose, as for "loses" above
        rules = ", ".join(reasons or [rule])
        return Verdict("draw", "104.4a", because("sba_player_draw", player=player, rule=rules))
    return Verdict("loses", rule, because(f"sba_loses_{rule}", player=player))


def permanents_left_verdict(scenario: Scenario, subject: Mapping[str, Any]) -> Verdict:
    """How many permanents the player controls once the checks settle (704.3): the legend
    rule (704.5j) keeps one of each name whichever its controller chooses."""
    player = subject["player"]
    result = settle(scenario)
    _game_over(scenario, result, "permanents_left")
    left = [p for p in result.board.permanents if p.zone == "battlefield" and p.holder == player]
    gone = sorted({a.rule for a in result.actions if a.destination or a.kind == "ceases_to_exist"})
    if not gone:
        return Verdict(
            len(left), "704.3", because("sba_permanents_left_none", player=player, count=len(left))
        )
    return Verdict(
        len(left),
        ", ".join(["704.3", *gone]),
        because("sba_permanents_left", player=player, count=len(left), rules=", ".join(gone)),
    )

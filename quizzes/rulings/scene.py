"""A parsed scenario as stored data: what a page reads of the engine's `Scenario`, kept as JSON
when a variant is stored, so serving it parses nothing.

`scene_of(scenario)` writes the players, every card instance with its face, the resolving step
and the history; `Scene.of(data, spec)` reads it back as objects with the attributes the board
(`board.build_board`) and a ruling's premises read (`state.cards_in`, `step.choices`, ...). A
`Fact` has no `by`, as in the engine: the board tells steps and facts apart by it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

STEP_FIELDS = ("kind", "source", "by", "targets", "choices", "event", "x")


def scene_of(scenario: Any) -> dict[str, Any]:
    """The JSON of what a page reads of a parsed `rules.engine.Scenario`."""
    state = scenario.state
    cards, faces = [], {}
    for instance in state.cards:  # in zone order, as parsed
        definition = instance.definition
        faces[definition.name] = _face(definition)
        cards.append(
            {
                "label": instance.label,
                "name": instance.name,
                "face": definition.name,
                "owner": instance.owner,
                "controller": instance.controller,
                "zone": instance.zone,
                "position": instance.position,
                "tapped": instance.tapped,
                "entered_this_turn": instance.entered_this_turn,
                "summoning_sick": instance.summoning_sick,
                "attached_to": instance.attached_to,
                "counters": dict(instance.counters or {}),
                "combat": instance.combat,
                "effects": list(instance.effects),
            }
        )
    steps = [step for step in (scenario.resolve, *scenario.history) if step is not None]
    for step in steps:  # a spell cast from no zone of the board is drawn from its card
        definition = scenario.catalog.get(getattr(step, "source", None) or "")
        if hasattr(step, "by") and step.kind == "cast" and definition is not None:
            faces.setdefault(definition.name, _face(definition))
    return {
        "players": list(state.players),
        "active": state.active,
        "cards": cards,
        "faces": faces,
        "resolve": _step_json(scenario.resolve) if scenario.resolve is not None else None,
        "history": [_step_json(step) for step in scenario.history],
    }


def _face(definition: Any) -> dict[str, str]:
    return {
        "type_line": definition.type_line,
        "mana_cost": definition.mana_cost,
        "oracle": definition.oracle,
        "alt_cost": (definition.alt_cost or {}).get("cost", ""),
        # Printed power and toughness: a board checked for state-based actions shows them.
        "power": getattr(definition, "power", ""),
        "toughness": getattr(definition, "toughness", ""),
    }


def _step_json(step: Any) -> dict[str, Any]:
    if not hasattr(step, "by"):  # a Fact
        return {"fact": step.kind, "player": step.player, "paid_for": step.paid_for}
    data = {name: getattr(step, name) for name in STEP_FIELDS}
    data["targets"] = list(step.targets)
    data["choices"] = {player: dict(choices) for player, choices in step.choices.items()}
    return data


@dataclass(frozen=True)
class Face:
    name: str
    type_line: str
    mana_cost: str
    oracle: str
    alt_cost: dict[str, str] = field(default_factory=dict)
    power: str = ""
    toughness: str = ""


@dataclass(frozen=True, eq=False)
class SceneCard:
    label: str
    name: str
    owner: str
    controller: str
    zone: str
    position: int
    definition: Face
    tapped: bool = False
    entered_this_turn: bool = False
    summoning_sick: bool = False
    attached_to: str | None = None
    counters: Mapping[str, int] = field(default_factory=dict)
    combat: str = ""
    effects: tuple[str, ...] = ()  # spells that resolved targeting it this turn, in order


@dataclass(frozen=True)
class SceneStep:
    kind: str
    source: str
    by: str | None = None
    targets: tuple[str, ...] = ()
    choices: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    event: str = ""
    x: int | None = None


@dataclass(frozen=True)
class SceneFact:
    kind: str
    player: str
    paid_for: str | None = None


class SceneState:
    def __init__(self, players: list[str], active: str, cards: list[SceneCard]) -> None:
        self.players = tuple(players)
        self.active = active
        self.cards = tuple(cards)
        self._by_label = {card.label: card for card in cards}

    @property
    def apnap_order(self) -> tuple[str, ...]:
        start = self.players.index(self.active)
        return self.players[start:] + self.players[:start]

    def card(self, label: str) -> SceneCard | None:
        return self._by_label.get(label)

    def cards_in(self, player: str, zone: str) -> tuple[SceneCard, ...]:
        return tuple(c for c in self.cards if c.owner == player and c.zone == zone)


class SceneCatalog:
    def __init__(self, faces: Mapping[str, Face]) -> None:
        self.faces = faces

    def get(self, name: str) -> Face | None:
        return self.faces.get(name)


@dataclass(frozen=True)
class Scene:
    """The stored scene with the engine scenario's attributes a page reads."""

    state: SceneState
    resolve: SceneStep | None  # never a fact (the engine's parse refuses one)
    history: tuple[SceneStep | SceneFact, ...]
    catalog: SceneCatalog
    spec: Mapping[str, Any]

    @classmethod
    def of(cls, data: Mapping[str, Any], spec: Mapping[str, Any]) -> Scene:
        faces = {
            name: Face(
                name,
                face["type_line"],
                face["mana_cost"],
                face["oracle"],
                {"cost": face["alt_cost"]} if face["alt_cost"] else {},
                face.get("power", ""),
                face.get("toughness", ""),
            )
            for name, face in data["faces"].items()
        }
        cards = [
            SceneCard(
                **{key: value for key, value in card.items() if key != "face"},
                definition=faces[card["face"]],
            )
            for card in data["cards"]
        ]
        resolve = _scene_step(data["resolve"]) if data["resolve"] is not None else None
        return cls(
            SceneState(data["players"], data["active"], cards),
            resolve,
            tuple(_step(step) for step in data["history"]),
            SceneCatalog(faces),
            spec,
        )


def _step(data: Mapping[str, Any]) -> SceneStep | SceneFact:
    if "fact" in data:
        return SceneFact(data["fact"], data["player"], data["paid_for"])
    return _scene_step(data)


def _scene_step(data: Mapping[str, Any]) -> SceneStep:
    return SceneStep(**{**data, "targets": tuple(data["targets"])})

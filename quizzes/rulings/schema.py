"""The JSON Schema of a scenario/1 document as Tutor takes it (the rulings API, the editors),
built from the engine parser's own constants and Tutor's limits, so the two cannot drift apart.

Published as `static/api/scenario-1.json` (`manage.py scenario_schema` writes it; a test holds
the file to this function) and at `/api/v1/schema/scenario-1.json`. The schema says what a
schema can: the shapes, key names, enumerations and sizes. What needs the game (a label used
twice, a card no catalog defines, a target of the wrong kind) only the engine can say; the API
answers those with the engine's problem and its path.
"""

from __future__ import annotations

from typing import Any

from quizzes import limits
from rules.engine.cards import DEFINITION_KEYS
from rules.engine.claims import CLAIM_KEYS, CLAIM_SUBJECTS, SUBJECT_SYNONYMS
from rules.engine.scenario import (
    CARD_ENTRY_KEYS,
    CHOICE_KEYS,
    COMBAT_STATES,
    FACT_KEYS,
    FACT_KINDS,
    STEP_KEYS,
    STEP_KINDS,
)
from rules.engine.state import PLAYER_ZONES

SCHEMA_ID = "scenario-1.json"  # its name at /api/v1/schema/ and in static/api/
DIALECT = "https://json-schema.org/draft/2020-12/schema"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/$defs/{name}"}


def _whole(minimum: int = 0) -> dict[str, Any]:
    return {"type": "integer", "minimum": minimum}


def _claim_rules() -> list[dict[str, Any]]:
    """Per claim: the subject keys it needs (a player's either way: SUBJECT_SYNONYMS) and the
    keys it accepts (the engine's `claim_subject`)."""
    rules = []
    for name, (required, optional) in sorted(CLAIM_SUBJECTS.items()):
        synonyms = {SUBJECT_SYNONYMS[key] for key in required if key in SUBJECT_SYNONYMS}
        accepted = sorted({*CLAIM_KEYS, *required, *optional, *synonyms})
        needs: list[dict[str, Any]] = []
        for key in required:
            if key in SUBJECT_SYNONYMS:
                needs.append(
                    {"anyOf": [{"required": [key]}, {"required": [SUBJECT_SYNONYMS[key]]}]}
                )
            else:
                needs.append({"required": [key]})
        then: dict[str, Any] = {"propertyNames": {"enum": accepted}}
        if needs:
            then["allOf"] = needs
        rules.append({"if": {"properties": {"claim": {"const": name}}}, "then": then})
    return rules


def scenario_schema() -> dict[str, Any]:
    """The schema, as a JSON value."""
    label = {"type": "string", "maxLength": limits.MAX_LABEL_LENGTH}
    step_properties: dict[str, Any] = {kind: {"type": "string"} for kind in STEP_KINDS}
    step_properties.update(
        {
            "by": {"type": "string"},
            "targets": {"type": "array", "items": {"type": "string"}},
            "choices": _ref("choices"),
            "event": {"type": "string"},
            "ability": _whole(),
            "x": _whole(),
            "kicked": {"type": "boolean"},
        }
    )
    assert set(step_properties) == STEP_KEYS  # every key the parser takes, and no other
    return {
        "$schema": DIALECT,
        "$id": SCHEMA_ID,
        "title": "scenario/1",
        "description": (
            "A game situation for Tutor's rulings engine (shared/spec/scenario-format.md, "
            "docs/authoring.md). Keys beside these are allowed at the top level and ignored."
        ),
        "type": "object",
        "required": ["title", "source", "players"],
        "properties": {
            "format": {"const": "scenario/1"},
            "id": {
                "description": "a name for the scenario",
                "maxLength": limits.MAX_TEXT_LENGTH["id"],
            },
            "title": {
                "type": "string",
                "minLength": 1,
                "pattern": r"\S",
                "maxLength": limits.MAX_TEXT_LENGTH["title"],
            },
            "source": {
                "type": "string",
                "minLength": 1,
                "pattern": r"\S",
                "maxLength": limits.MAX_TEXT_LENGTH["source"],
            },
            "players": {
                "type": "array",
                "minItems": 1,
                "maxItems": limits.MAX_PLAYERS,
                "uniqueItems": True,
                "items": {**label, "minLength": 1},
            },
            "active": {"type": "string"},
            "life": {"type": ["object", "null"], "additionalProperties": {"type": "integer"}},
            # What state-based actions read of the players (704.5b, 704.5c), and whether the
            # board is one checked for them (it then shows life, poison, damage, toughness).
            "poison": {"type": ["object", "null"], "additionalProperties": _whole()},
            "drew_from_empty_library": {"type": ["array", "null"], "items": {"type": "string"}},
            "state_based_actions": {"type": "boolean"},
            "range_of_influence": {"anyOf": [{"type": "null"}, _whole(1)]},
            "cards": {
                "type": ["array", "null"],
                "maxItems": limits.MAX_CARD_DEFINITIONS,
                "items": _ref("card_definition"),
            },
            "zones": {"type": "object", "additionalProperties": _ref("player_zones")},
            "history": {
                "type": ["array", "null"],
                "maxItems": limits.MAX_HISTORY,
                "items": {"if": {"required": ["fact"]}, "then": _ref("fact"), "else": _ref("step")},
            },
            "resolve": {"anyOf": [{"type": "null"}, _ref("step")]},
            "expect": {"type": ["array", "null"], "items": _ref("claim")},
            # Tutor's own keys (docs/authoring.md): a stored ruling in words, stored claims
            "stored_ruling": {"type": "string"},
            "stored_expect": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["claim"],
                    "properties": {"claim": {"type": "string"}},
                },
            },
        },
        "$defs": {
            "card_definition": {
                "type": "object",
                "required": ["name"],
                "propertyNames": {"enum": sorted(DEFINITION_KEYS)},
                "properties": {
                    "name": {
                        "type": "string",
                        "minLength": 1,
                        "pattern": r"\S",
                        "maxLength": limits.MAX_CARD_NAME_LENGTH,
                    }
                },
            },
            "player_zones": {
                "type": "object",
                "propertyNames": {"enum": list(PLAYER_ZONES)},
                "additionalProperties": {"type": "array", "items": _ref("card_entry")},
            },
            "card_entry": {
                "anyOf": [
                    {"type": "string", "description": '"Name" or "Name#label"'},
                    {
                        "type": "object",
                        "required": ["card"],
                        "propertyNames": {"enum": sorted(CARD_ENTRY_KEYS)},
                        "properties": {
                            "card": {"type": "string", "maxLength": limits.MAX_CARD_NAME_LENGTH},
                            "label": label,
                            "controller": {"type": "string"},
                            "tapped": {"type": "boolean"},
                            "entered_this_turn": {"type": "boolean"},
                            "summoning_sick": {"type": "boolean"},
                            "attached_to": {"type": "string"},
                            "counters": {"type": "object", "additionalProperties": _whole()},
                            "combat": {"enum": list(COMBAT_STATES)},
                            "effects": {
                                "type": "array",
                                "items": {"type": "string"},
                                "description": "labels of the spells that resolved targeting "
                                "it this turn, in order",
                            },
                            "damage": _whole(),
                            "deathtouch_damage": {"type": "boolean"},
                            "blocks": {"type": "string"},
                        },
                    },
                ]
            },
            "step": {
                "type": "object",
                "description": f"exactly one of {', '.join(STEP_KINDS)}",
                "propertyNames": {"enum": sorted(STEP_KEYS)},
                "oneOf": [{"required": [kind]} for kind in STEP_KINDS],
                "properties": step_properties,
            },
            "fact": {
                "type": "object",
                "required": ["fact", "player"],
                "propertyNames": {"enum": sorted(FACT_KEYS)},
                "properties": {
                    "fact": {"enum": sorted(FACT_KINDS)},
                    "player": {"type": "string"},
                },
            },
            "choices": {
                "type": "object",
                "description": "per player, the decisions that fix a line of play",
                "additionalProperties": {
                    "type": "object",
                    "propertyNames": {"enum": sorted(CHOICE_KEYS)},
                    "properties": {
                        "find": {"type": "array", "uniqueItems": True, "items": {"type": "string"}}
                    },
                },
            },
            "claim": {
                "type": "object",
                "required": ["claim"],
                "properties": {
                    "claim": {"enum": sorted(CLAIM_SUBJECTS)},
                    "given": _ref("choices"),
                },
                "allOf": _claim_rules(),
            },
        },
    }

"""The published scenario/1 JSON Schema agrees with the engine's parser: every acceptance case
validates; malformed documents the parser refuses are refused by the schema where a schema can
say it; and whatever the schema refuses, the parser refuses too (the one lenience named below)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from django.conf import settings
from jsonschema import Draft202012Validator

from quizzes.management.commands.scenario_schema import PUBLISHED, schema_text
from quizzes.rulings.documents import AuthoringError, ruling_of_document
from quizzes.rulings.schema import scenario_schema
from rules.cards import catalog_for
from rules.engine.claims import CLAIM_SUBJECTS
from rules.engine.scenario import CARD_ENTRY_KEYS, FACT_KINDS, STEP_KEYS
from rules.engine.state import PLAYER_ZONES
from tests.quizzes.api.conftest import API

pytestmark = pytest.mark.django_db

EXAMPLES = sorted((Path(settings.BASE_DIR).parent / "shared" / "spec" / "examples").glob("*.json"))
SCHEMA = Draft202012Validator(scenario_schema())


def test_the_schema_is_a_valid_json_schema():
    Draft202012Validator.check_schema(scenario_schema())


def example(name: str = "demonic-tutor") -> dict:
    return json.loads((EXAMPLES[0].parent / f"{name}.json").read_text(encoding="utf-8"))


def parser_refuses(document) -> bool:
    try:
        ruling_of_document(document, catalog_for(None))
    except AuthoringError:
        return True
    return False


def test_the_published_file_is_the_schema_the_code_builds():
    assert PUBLISHED.read_text(encoding="utf-8") == schema_text(), (
        "static/api/scenario-1.json is stale: run `manage.py scenario_schema --write`"
    )


def test_the_endpoint_serves_it_without_a_token(client):
    response = client.get(f"{API}/schema/scenario-1.json")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/schema+json"
    assert json.loads(response.content) == json.loads(PUBLISHED.read_text(encoding="utf-8"))


def test_its_enumerations_are_the_parsers_own():
    schema = scenario_schema()
    defs = schema["$defs"]
    assert set(defs["claim"]["properties"]["claim"]["enum"]) == set(CLAIM_SUBJECTS)
    assert set(defs["player_zones"]["propertyNames"]["enum"]) == set(PLAYER_ZONES)
    assert set(defs["step"]["propertyNames"]["enum"]) == STEP_KEYS
    assert set(defs["fact"]["properties"]["fact"]["enum"]) == FACT_KINDS
    entry = defs["card_entry"]["anyOf"][1]
    assert set(entry["propertyNames"]["enum"]) == CARD_ENTRY_KEYS == set(entry["properties"])


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: path.stem)
def test_every_acceptance_case_validates(path):
    document = json.loads(path.read_text(encoding="utf-8"))
    assert [error.message for error in SCHEMA.iter_errors(document)] == []
    assert not parser_refuses(document)


def _with(change) -> dict:
    document = example()
    change(document)
    return document


MALFORMED = {
    "format 2": lambda d: d.update(format="scenario/2"),
    "no players": lambda d: d.update(players=[]),
    "players as text": lambda d: d.update(players="Alice"),
    "a player twice": lambda d: d.update(players=["Alice", "Alice"]),
    "seven players": lambda d: d.update(players=[f"P{n}" for n in range(7)]),
    "a long player name": lambda d: d.update(players=["A" * 41, "Nadia"]),
    "no title": lambda d: d.pop("title"),
    "a blank title": lambda d: d.update(title="  "),
    "a long title": lambda d: d.update(title="T" * 201),
    "source as a number": lambda d: d.update(source=7),
    "an unknown zone": lambda d: d["zones"]["Alice"].update(libary=["Island"]),
    "zones as a list": lambda d: d.update(zones=[]),
    "a zone as text": lambda d: d["zones"]["Alice"].update(hand="Island"),
    "a card object without card": lambda d: d["zones"]["Alice"]["library"].append({"label": "x"}),
    "a card object's unknown key": lambda d: d["zones"]["Alice"]["library"].append(
        {"card": "Island", "colour": "blue"}
    ),
    "an unknown combat state": lambda d: d["zones"]["Alice"].update(
        battlefield=[{"card": "Island", "combat": "defending"}]
    ),
    "negative counters": lambda d: d["zones"]["Alice"].update(
        battlefield=[{"card": "Island", "counters": {"+1/+1": -1}}]
    ),
    "an unknown fact": lambda d: d.update(history=[{"fact": "drew_card", "player": "Alice"}]),
    "a fact without its player": lambda d: d.update(history=[{"fact": "searched_library"}]),
    "a fact's unknown key": lambda d: d.update(
        history=[{"fact": "searched_library", "player": "Alice", "when": "now"}]
    ),
    "a step of two kinds": lambda d: d.update(resolve={"cast": "Demonic Tutor", "draw": "Alice"}),
    "a step of no kind": lambda d: d.update(resolve={"by": "Alice"}),
    "a step's unknown key": lambda d: d["resolve"].update(when="now"),
    "a fact to resolve": lambda d: d.update(resolve={"fact": "searched_library", "player": "A"}),
    "a negative X": lambda d: d["resolve"].update(x=-1),
    "kicked as text": lambda d: d["resolve"].update(kicked="yes"),
    "targets as text": lambda d: d["resolve"].update(targets="Nadia"),
    "an unknown choice": lambda d: d["resolve"].update(choices={"Alice": {"guess": 1}}),
    "a card found twice": lambda d: d["resolve"].update(choices={"Alice": {"find": ["b", "b"]}}),
    "an unknown claim": lambda d: d["expect"].append({"claim": "guesses"}),
    "a claim without its card": lambda d: d["expect"].append({"claim": "finds"}),
    "a claim's unknown key": lambda d: d["expect"].append({"claim": "finds", "card": "b", "k": 1}),
    "a claim that is no object": lambda d: d["expect"].append("finds"),
    "no range of influence": lambda d: d.update(range_of_influence=0),
    "a card without a name": lambda d: d["cards"].append({"name": ""}),
    "a card's unknown key": lambda d: d["cards"].append({"name": "X", "flavour": "y"}),
    "twenty-one card definitions": lambda d: d.update(cards=[{"name": f"C{n}"} for n in range(21)]),
    "twenty-one history entries": lambda d: d.update(
        history=[{"fact": "searched_library", "player": "Alice"}] * 21
    ),
    "life as a list": lambda d: d.update(life=[20]),
    "stored_expect without claim": lambda d: d.update(stored_expect=[{"value": 1}]),
    "stored_ruling as a list": lambda d: d.update(stored_ruling=["x"]),
}


@pytest.mark.parametrize("name", MALFORMED)
def test_a_malformed_document_is_refused_by_the_parser_and_the_schema(name):
    document = _with(MALFORMED[name])
    assert parser_refuses(document), name
    assert not SCHEMA.is_valid(document), name


# What only the engine can say: the schema lets these through, the API names the field.
THE_ENGINES_ALONE = {
    "an unknown card": lambda d: d["zones"]["Alice"]["library"].append("No Such Card"),
    "a label twice": lambda d: d["zones"]["Alice"]["library"].append("Island#b"),
    "a target that is nothing": lambda d: d["resolve"].update(targets=["nobody"]),
    "a caster who is no player": lambda d: d["resolve"].update(by="Zed"),
    "a claim about no card": lambda d: d["expect"].append({"claim": "finds", "card": "zz"}),
}


@pytest.mark.parametrize("name", THE_ENGINES_ALONE)
def test_what_needs_the_game_is_the_engines_to_say(name):
    document = _with(THE_ENGINES_ALONE[name])
    assert SCHEMA.is_valid(document)
    assert parser_refuses(document)


VALUES = [None, 0, 1, -1, 1.5, "", "x", True, False, [], [1], {}, {"a": 1}]
# The parser reads any false value of these lists as an empty one (`spec.get(key) or []`); the
# schema asks for a list (or null), as the format says.
READ_AS_EMPTY = ("cards", "history", "expect")


@pytest.mark.parametrize("path", EXAMPLES[:4], ids=lambda path: path.stem)
def test_whatever_the_schema_refuses_at_the_top_level_the_parser_refuses(path):
    base = json.loads(path.read_text(encoding="utf-8"))
    keys = sorted(scenario_schema()["properties"])
    checked = 0
    for key in keys:
        for value in VALUES:
            if key in READ_AS_EMPTY and not value and value is not None:
                continue
            document = copy.deepcopy(base)
            document[key] = value
            if not SCHEMA.is_valid(document):
                checked += 1
                assert parser_refuses(document), (key, value)
    assert checked > 100

"""How big a scenario may be, checked before the JSON parser or the engine sees it.

Every way a scenario comes in calls this module: content files (`loading.read`), the
instructor's editor and live preview and bank import (`documents.parse_text`,
`documents.read_document`), the admin form (`Scenario.spec`'s form field and `Scenario.clean`),
and serving (`selection` skips a stored scenario past the limits). An error names the limit:
"players: 9 players, over the limit of 6 per scenario".

Nesting is measured without recursion (a linear scan of the text, an explicit stack for parsed
values), so no depth of input can raise RecursionError.
"""

from __future__ import annotations

import json
import re
from typing import Any

from config.inputs import StrictJSONDecoder

MAX_DOCUMENT_BYTES = 64 * 1024  # one scenario document (the seed content's largest: 4 KB)
MAX_DEPTH = 24  # nesting of objects and lists (the seed content's deepest: 11)
MAX_PLAYERS = 6
MAX_CARDS = 500  # cards in all zones of all players (four 100-card decks and more)
MAX_CARD_DEFINITIONS = 20  # cards defined in the scenario itself
MAX_HISTORY = 20  # steps and facts in `history`
MAX_LABEL_LENGTH = 40  # a player's name, a card's label
MAX_CARD_NAME_LENGTH = 150  # the longest real card name has 141 characters
MAX_TEXT_LENGTH = {"id": 100, "title": 200, "source": 300}  # the model fields' lengths
# one bank file: 500 seed-sized scenarios with their questions take 1.2 MB; at the limits, 2 MB
# holds about 370 documents, checked and saved within gunicorn's 30 s (python -m bench.bounds)
MAX_IMPORT_BYTES = 2 * 1024 * 1024
MAX_IMPORT_SCENARIOS = 500  # documents in one bank file (python -m bench.imports: under 5 s)
MAX_BANK_TITLE = 200  # Bank.title
# A Moodle XML file (quizzes/instructors/moodle.py): the bank file's byte limit, and
MAX_MOODLE_QUESTIONS = 500  # questions in one file
MAX_MOODLE_TEXT = 20_000  # characters of one question's text or feedback (as HTML)
MAX_MOODLE_ANSWERS = 50  # answers of one question
MAX_MOODLE_ANSWER_TEXT = 2_000  # characters of one answer or its feedback
MAX_MOODLE_TAGS = 20  # tags of one question, each up to 100 characters
MAX_BANK_DESCRIPTION = 10_000  # a bank's description, typed or imported
# A card made in the app's card form (rules/forms.py).
MAX_MANA_COST_LENGTH = 60
MAX_TYPE_WORDS_LENGTH = 200  # subtypes, as typed
MAX_ORACLE_LENGTH = 2000  # the longest real Oracle text is about 1,100 characters
MAX_ABILITIES_BYTES = 16 * 1024  # the abilities as JSON (the catalog's largest card: 2 KB)
MAX_CARDS_PER_OWNER = 500  # cards one instructor may make


class LimitError(ValueError):
    """Input past a limit: `path` names the field, the message names the limit."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path
        self.message = message


def _over(count: int, what: str, limit: int, per: str) -> str:
    return f"{count:,} {what}, over the limit of {limit:,} {per}"


# Text: size and nesting before parsing.

# A JSON string, a bracket, or a quote that opens no complete string (the text is malformed
# from there on, and the scan stops: this keeps it linear).
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]|"', re.DOTALL)


def text_depth(text: str, stop_after: int = MAX_DEPTH) -> int:
    """The deepest nesting of brackets outside strings, scanning at most until `stop_after`."""
    depth = deepest = 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > stop_after:
                break
        elif token in "]}":
            depth -= 1
        elif token == '"':
            break
    return deepest


def check_text(
    text: str, max_bytes: int | None = MAX_DOCUMENT_BYTES, what: str = "document"
) -> None:
    """Size (None: no byte limit, for the project's own large files) and nesting of `text`."""
    size = len(text.encode("utf-8", "surrogatepass")) if max_bytes is not None else 0
    if max_bytes is not None and size > max_bytes:
        raise LimitError("", _over(size, "bytes", max_bytes, f"per {what}"))
    if text_depth(text) > MAX_DEPTH:
        raise LimitError("", f"nested deeper than the limit of {MAX_DEPTH} levels")


def load_json(text: str, max_bytes: int | None = MAX_DOCUMENT_BYTES, what: str = "document") -> Any:
    """`json.loads` after `check_text`; raises LimitError or json.JSONDecodeError (also for NaN,
    Infinity and numbers past MAX_NUMBER_DIGITS: config/inputs.py)."""
    check_text(text, max_bytes, what)
    return json.loads(text, cls=StrictJSONDecoder)


# A parsed scenario.


def value_depth(value: Any, stop_after: int = MAX_DEPTH) -> int:
    """The deepest nesting of dicts and lists in `value`, walked with an explicit stack."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list | tuple):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        if deepest > stop_after:
            break
        stack.extend((child, depth + 1) for child in children)
    return deepest


def check_spec(spec: Any) -> None:
    """Raise LimitError for a scenario past a limit; shapes are the engine parser's business."""
    if value_depth(spec) > MAX_DEPTH:
        raise LimitError("", f"nested deeper than the limit of {MAX_DEPTH} levels")
    if not isinstance(spec, dict):
        return
    for name, limit in MAX_TEXT_LENGTH.items():
        text = spec.get(name)
        if isinstance(text, str) and len(text) > limit:
            raise LimitError(name, _over(len(text), "characters", limit, f"for a {name}"))
    players = spec.get("players")
    if isinstance(players, list):
        if len(players) > MAX_PLAYERS:
            raise LimitError("players", _over(len(players), "players", MAX_PLAYERS, "per scenario"))
        for index, player in enumerate(players):
            _check_label(f"players[{index}]", player, "a player's name")
    _check_zones(spec.get("zones"))
    for key, limit, what in (
        ("cards", MAX_CARD_DEFINITIONS, "card definitions"),
        ("history", MAX_HISTORY, "history entries"),
    ):
        items = spec.get(key)
        if isinstance(items, list) and len(items) > limit:
            raise LimitError(key, _over(len(items), what, limit, "per scenario"))
    cards = spec.get("cards")
    for index, definition in enumerate(cards if isinstance(cards, list) else []):
        if isinstance(definition, dict):
            _check_card_name(f"cards[{index}].name", definition.get("name"))


def _check_zones(zones: Any) -> None:
    if not isinstance(zones, dict):
        return
    count = 0
    for player, player_zones in zones.items():
        _check_label("zones", player, "a player's name")
        if not isinstance(player_zones, dict):
            continue
        for zone, cards in player_zones.items():
            if not isinstance(cards, list):
                continue
            count += len(cards)
            if count > MAX_CARDS:
                raise LimitError("zones", f"more cards than the limit of {MAX_CARDS} per scenario")
            for index, entry in enumerate(cards):
                at = f"zones.{player}.{zone}[{index}]"
                name, label = _card_entry(entry)
                _check_card_name(at, name)
                _check_label(at, label, "a card's label")


def _card_entry(entry: Any) -> tuple[Any, Any]:
    """The name and label of a zone entry: "Name#label" or {"card": ..., "label": ...}."""
    if isinstance(entry, str):
        name, _, label = entry.partition("#")
        return name, label or None
    if isinstance(entry, dict):
        return entry.get("card"), entry.get("label")
    return None, None


def _check_label(at: str, label: Any, what: str) -> None:
    if isinstance(label, str) and len(label) > MAX_LABEL_LENGTH:
        raise LimitError(at, _over(len(label), "characters", MAX_LABEL_LENGTH, f"for {what}"))


def _check_card_name(at: str, name: Any) -> None:
    if isinstance(name, str) and len(name) > MAX_CARD_NAME_LENGTH:
        limit = MAX_CARD_NAME_LENGTH
        raise LimitError(at, _over(len(name), "characters", limit, "for a card's name"))


def spec_problem(spec: Any) -> str:
    """Why `spec` is past a limit ("spec.players: ..."), or "" when it is within them."""
    try:
        check_spec(spec)
    except LimitError as error:
        return f"spec.{error.path}: {error.message}" if error.path else f"spec: {error.message}"
    return ""

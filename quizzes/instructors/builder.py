"""The scenario builder: a scenario document as form fields and back, with no JSON to type.

`Builder.of_document(document)` lays a document out as rows (players, each zone's cards, what
resolves and its targets and choices, the history, the claims asked); `Builder.from_post(data)`
reads the posted rows back; `builder.document()` is the document again. What the builder does not
edit (a card object's `tapped`, a step's `ability`, the scenario's own `cards`, `life`, ...) rides
along unchanged in hidden fields, so JSON -> builder -> JSON gives the same document. The builder
checks only shapes and sizes: the document it makes goes through the one authoring path
(`saving.check_save_scenario`, `preview.preview`), which checks the rest.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from config.inputs import StrictJSONDecoder, problems_in_json
from quizzes import limits
from quizzes.rulings.board import ZONE_TITLES

ZONES = ("library", "hand", "graveyard", "battlefield", "exile", "outside")
ADD_TO_ZONE = {  # the label of a zone's new-card field
    "library": _("Add a card to library (top first)"),
    "hand": _("Add a card to hand"),
    "graveyard": _("Add a card to graveyard"),
    "battlefield": _("Add a card to battlefield"),
    "exile": _("Add a card to exile"),
    "outside": _("Add a card to outside the game"),
}
STEP_VERBS = ("cast", "activate", "trigger", "draw")
STEP_CHOICES = (  # each verb with its name in the reader's language, for the builder's menus
    ("cast", pgettext_lazy("a step", "Cast")),
    ("activate", pgettext_lazy("a step", "Activate")),
    ("trigger", pgettext_lazy("a step", "Trigger")),
    ("draw", pgettext_lazy("a step", "Draw")),
)
FACTS = ("searched_library", "ignored_search_prohibition")
# Choices whose value is a list of card labels (docs/engine.md, "Steps, history, choices").
LIST_CHOICES = frozenset(
    {"find", "opponent_chooses", "battlefield", "hand", "graveyard", "exile", "library", "take"}
)
CHOICE_KEYS = (
    "find",
    "search",
    "choose",
    "name",
    "opponent_chooses",
    "ignore_prohibition",
    "mana",
    "alt_cost",
    "x",
    "dredge",
    "kicked",
    "zones",
    "take",
    "cost",
    *ZONES[:5],
)
HANDLED_KEYS = frozenset(
    {
        "id",
        "title",
        "source",
        "players",
        "active",
        "zones",
        "resolve",
        "history",
        "expect",
        "stored_ruling",
    }
)
MAX_EXTRA_BYTES = 4096  # what one row carries unedited (a card object's flags, a step's keys)
MAX_CHOICES = 40
MAX_ASKED = 200
MAX_FIELD_LENGTH = limits.MAX_CARD_NAME_LENGTH + 1 + limits.MAX_LABEL_LENGTH
MAX_RULING_LENGTH = 4000


class BuilderError(ValueError):
    """A posted builder that can't be read (too many rows, a broken hidden field)."""


@dataclass
class CardRow:
    entry: str  # "Name" or "Name#label"
    extra: str = ""  # JSON of a card object's other keys ({"tapped": true})
    errors: list[str] = field(default_factory=list)


@dataclass
class Zone:
    player: int
    name: str
    rows: list[CardRow] = field(default_factory=list)
    written: bool = False  # a written zone is described even when empty

    @property
    def key(self) -> str:
        return f"zone-{self.player}-{self.name}"

    @property
    def title(self) -> str:
        return ZONE_TITLES[self.name]

    @property
    def add_label(self) -> str:
        return ADD_TO_ZONE[self.name]


@dataclass
class Step:
    verb: str = ""  # cast, activate, trigger, draw, fact
    what: str = ""  # a card label or name; the fact's name; the player who draws
    by: str = ""
    targets: str = ""  # labels or players, comma-separated
    extra: str = ""  # JSON of the step's other keys (choices of a history step, ability, x)
    errors: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """In the document: a step says how and what (a row is kept, half-filled, until then)."""
        return bool(self.verb and self.what)

    @property
    def started(self) -> bool:
        return any((self.verb, self.what, self.by, self.targets, self.extra))


@dataclass
class Choice:
    player: str = ""
    key: str = ""
    value: str = ""

    @property
    def complete(self) -> bool:
        """In the document: a choice names its player and what is chosen."""
        return bool(self.player and self.key)

    @property
    def started(self) -> bool:
        return any((self.player, self.key, self.value))


@dataclass
class Builder:
    scenario_id: str = ""
    title: str = ""
    source: str = ""
    stored_ruling: str = ""
    players: list[str] = field(default_factory=list)
    active: str = ""
    zones: list[Zone] = field(default_factory=list)
    resolve: Step = field(default_factory=Step)
    choices: list[Choice] = field(default_factory=list)
    history: list[Step] = field(default_factory=list)
    asked: list[str] = field(default_factory=list)  # the `expect` claims, each as JSON
    follow: list[str] = field(default_factory=list)  # claim keys that take the engine's value
    rest: str = ""  # JSON of the document's keys the builder does not edit

    # A document laid out as rows.

    @classmethod
    def of_document(cls, document: dict[str, Any]) -> Builder:
        players = [p for p in _list(document.get("players")) if isinstance(p, str)]
        builder = cls(
            scenario_id=_text(document.get("id")),
            title=_text(document.get("title")),
            source=_text(document.get("source")),
            stored_ruling=_text(document.get("stored_ruling")),
            players=players,
            active=_text(document.get("active")),
        )
        zones = document.get("zones") if isinstance(document.get("zones"), dict) else {}
        for index, player in enumerate(players):
            written = zones.get(player) if isinstance(zones.get(player), dict) else {}
            for name in ZONES:
                entries = written.get(name)
                zone = Zone(index, name, written=isinstance(entries, list))
                zone.rows = [_card_row(entry) for entry in _list(entries)]
                builder.zones.append(zone)
        resolve = document.get("resolve")
        if isinstance(resolve, dict):
            choices = resolve.get("choices") if isinstance(resolve.get("choices"), dict) else {}
            builder.resolve = _step({k: v for k, v in resolve.items() if k != "choices"})
            builder.choices = [
                Choice(player, key, _value_text(value))
                for player, decisions in choices.items()
                if isinstance(decisions, dict)
                for key, value in decisions.items()
            ]
        builder.history = [_step(step) for step in _list(document.get("history"))]
        builder.asked = [
            json.dumps(claim, ensure_ascii=False, sort_keys=True)
            for claim in _list(document.get("expect"))
        ]
        rest = {key: value for key, value in document.items() if key not in HANDLED_KEYS}
        builder.rest = json.dumps(rest, ensure_ascii=False) if rest else ""
        return builder

    # The posted rows read back.

    @classmethod
    def from_post(cls, data) -> Builder:
        """The builder as posted (`data` a QueryDict); raises BuilderError past the limits."""
        players = [_bounded(p, limits.MAX_LABEL_LENGTH).strip() for p in data.getlist("b-player")]
        if len(players) > limits.MAX_PLAYERS + 1:
            raise BuilderError(f"players: over the limit of {limits.MAX_PLAYERS}")
        builder = cls(
            scenario_id=_bounded(data.get("b-id", ""), limits.MAX_TEXT_LENGTH["id"]).strip(),
            title=_bounded(data.get("b-title", ""), limits.MAX_TEXT_LENGTH["title"]).strip(),
            source=_bounded(data.get("b-source", ""), limits.MAX_TEXT_LENGTH["source"]).strip(),
            stored_ruling=_bounded(data.get("b-ruling", ""), MAX_RULING_LENGTH).strip(),
            players=players,
            active=_bounded(data.get("b-active", ""), limits.MAX_LABEL_LENGTH),
            rest=_bounded(data.get("b-rest", ""), limits.MAX_DOCUMENT_BYTES),
        )
        written = set(data.getlist("b-written"))
        total = 0
        for index in range(len(players)):
            for name in ZONES:
                zone = Zone(index, name)
                entries = data.getlist(f"b-{zone.key}")
                extras = data.getlist(f"b-{zone.key}-extra")
                total += len(entries)
                if total > limits.MAX_CARDS:
                    raise BuilderError(f"zones: over the limit of {limits.MAX_CARDS} cards")
                extras += [""] * (len(entries) - len(extras))
                zone.rows = [
                    CardRow(_bounded(entry, MAX_FIELD_LENGTH).strip(), extra)
                    for entry, extra in zip(entries, extras, strict=False)
                    if entry.strip()
                ]
                zone.written = zone.key in written or bool(zone.rows)
                builder.zones.append(zone)
        builder.resolve = _posted_step(data, "b-resolve", 0)
        choices = zip(
            data.getlist("b-choice-player"),
            data.getlist("b-choice-key"),
            data.getlist("b-choice-value"),
            strict=False,
        )
        builder.choices = [
            Choice(
                _bounded(p, limits.MAX_LABEL_LENGTH).strip(),
                _bounded(k, 40).strip(),
                _bounded(v, MAX_EXTRA_BYTES).strip(),
            )
            for p, k, v in choices
        ]
        builder.choices = [choice for choice in builder.choices if choice.started]
        if len(builder.choices) > MAX_CHOICES:
            raise BuilderError(f"choices: over the limit of {MAX_CHOICES}")
        verbs = data.getlist("b-step-verb")
        if len(verbs) > limits.MAX_HISTORY + 1:
            raise BuilderError(f"history: over the limit of {limits.MAX_HISTORY} steps")
        steps = [_posted_step(data, "b-step", index) for index in range(len(verbs))]
        builder.history = [step for step in steps if step.started]  # half-filled rows kept
        builder.asked = data.getlist("b-ask")
        if len(builder.asked) > MAX_ASKED:
            raise BuilderError(f"expect: over the limit of {MAX_ASKED} claims")
        asked_keys = {_claim_key(text) for text in builder.asked}  # an untick ends following
        followed = [_bounded(key, MAX_EXTRA_BYTES) for key in data.getlist("b-follow")]
        builder.follow = [key for key in followed[:MAX_ASKED] if key in asked_keys]
        return builder

    def apply(self, action: str) -> None:
        """A no-JavaScript button: `zone-0-library:2:up`, `...:down` or `...:remove`; a step's
        or a choice's remove (`history:1:remove`, `choice:0:remove`); `take:<claim JSON>`, the
        engine's value for a stored claim. "Add" buttons need nothing: a started row is kept."""
        if action.startswith("take:"):
            self.take(action[len("take:") :])
            return
        row = re.fullmatch(r"(history|choice):(\d+):remove", action or "")
        if row:
            rows: list = self.history if row.group(1) == "history" else self.choices
            if int(row.group(2)) < len(rows):
                del rows[int(row.group(2))]
            return
        match = re.fullmatch(r"(zone-\d+-[a-z]+):(\d+):(up|down|remove)", action or "")
        if not match:
            return
        key, index, verb = match.group(1), int(match.group(2)), match.group(3)
        zone = next((z for z in self.zones if z.key == key), None)
        if zone is None or index >= len(zone.rows):
            return
        if verb == "remove":
            del zone.rows[index]
            return
        other = index - 1 if verb == "up" else index + 1
        if 0 <= other < len(zone.rows):
            zone.rows[index], zone.rows[other] = zone.rows[other], zone.rows[index]

    def take(self, claim_text: str) -> None:
        """Store `claim_text` (the engine's claim, with its value) in place of the asked claim
        it is about."""
        key = _claim_key(claim_text)
        self.asked = [claim_text if _claim_key(text) == key else text for text in self.asked]

    def follow_engine(self, computed) -> bool:
        """The followed claims (a starter's, `follow`) take the engine's values: a starter's
        ticks never go stale as the board changes. True when a value changed."""
        if not self.follow:
            return False
        engine = {claim_key(claim.claim): claim.text for claim in computed}
        followed = set(self.follow)
        changed = False
        for index, text in enumerate(self.asked):
            key = _claim_key(text)
            if (
                key in followed
                and key in engine
                and _claim_value(text) != _claim_value(engine[key])
            ):
                self.asked[index] = engine[key]
                changed = True
        return changed

    # The document again.

    def document(self) -> dict[str, Any]:
        """The scenario document the rows describe; raises BuilderError for a broken hidden
        field."""
        document: dict[str, Any] = {"format": "scenario/1"}
        rest = _json_object(self.rest, "the document's other keys", limits.MAX_DOCUMENT_BYTES)
        document.update(rest)
        document.update(
            {"id": self.scenario_id, "title": self.title, "source": self.source}
            | {"players": [p for p in self.players if p]}
        )
        if self.active:
            document["active"] = self.active
        names = list(self.players)
        zones: dict[str, dict[str, list]] = {}
        for zone in self.zones:
            if zone.player >= len(names) or not names[zone.player]:
                continue
            if zone.written:
                zones.setdefault(names[zone.player], {})[zone.name] = [
                    _card_entry(row) for row in zone.rows
                ]
        document["zones"] = zones
        document["history"] = [
            _step_json(step, "history") for step in self.history if step.complete
        ]
        if self.resolve.verb and self.resolve.what:
            resolve = _step_json(self.resolve, "resolve")
            choices: dict[str, dict[str, Any]] = {}
            for choice in self.choices:
                if not choice.complete:
                    continue
                choices.setdefault(choice.player, {})[choice.key] = _choice_value(choice)
            if choices:
                resolve["choices"] = choices
            document["resolve"] = resolve
        document["expect"] = [
            _json_object(claim, "expect", MAX_EXTRA_BYTES) for claim in self.asked
        ]
        if self.stored_ruling:
            document["stored_ruling"] = self.stored_ruling
        return document

    def text(self) -> str:
        return json.dumps(self.document(), indent=2, ensure_ascii=False)

    # For the template.

    def zones_of(self, index: int) -> list[Zone]:
        return [zone for zone in self.zones if zone.player == index]

    def player_rows(self) -> list[tuple[int, str, list[Zone]]]:
        """Each player (and one blank slot while under the limit) with their zones."""
        rows = [(i, name, self.zones_of(i)) for i, name in enumerate(self.players)]
        if len(self.players) < limits.MAX_PLAYERS:
            rows.append((len(self.players), "", []))
        return rows

    def attach(self, errors_at: dict[str, list[str]]) -> None:
        """Put each row's errors on it, for the template to show beside it."""
        for zone in self.zones:
            for index, row in enumerate(zone.rows):
                row.errors = errors_at.get(f"{zone.key}-{index}", [])
        complete = [step for step in self.history if step.complete]  # the document's numbering
        for index, step in enumerate(complete):
            step.errors = errors_at.get(f"history-{index}", [])
        self.resolve.errors = errors_at.get("resolve", [])


def claim_key(claim: dict[str, Any]) -> str:
    """A claim without its value: what "ask this" is keyed on."""
    subject = {k: v for k, v in claim.items() if k not in ("value", "proposed")}
    return json.dumps(subject, ensure_ascii=False, sort_keys=True)


def _claim_key(text: str) -> str:
    try:
        value = json.loads(text, cls=StrictJSONDecoder)
    except json.JSONDecodeError:
        return text
    return claim_key(value) if isinstance(value, dict) else text


def _claim_value(text: str) -> Any:
    try:
        value = json.loads(text, cls=StrictJSONDecoder)
    except json.JSONDecodeError:
        return None
    return value.get("value") if isinstance(value, dict) else None


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _list(value: Any) -> list:
    """A list as written, else none (`"history": 5` is the engine's to refuse beside its field;
    the rows show nothing for it)."""
    return value if isinstance(value, list) else []


def _bounded(value: str, length: int) -> str:
    if len(value) > length:
        raise BuilderError(f"a field of {len(value):,} characters, over the limit of {length}")
    return value


def _json_object(text: str, what: str, max_bytes: int) -> dict[str, Any]:
    if not text.strip():
        return {}
    try:
        value = limits.load_json(text, max_bytes, what)
    except (limits.LimitError, json.JSONDecodeError) as error:
        raise BuilderError(f"{what}: {error}") from error
    if not isinstance(value, dict):
        raise BuilderError(f"{what}: not an object")
    return value


def _card_row(entry: Any) -> CardRow:
    if isinstance(entry, dict):
        name = _text(entry.get("card"))
        label = _text(entry.get("label"))
        extra = {k: v for k, v in entry.items() if k not in ("card", "label")}
        text = f"{name}#{label}" if label else name
        return CardRow(text, json.dumps(extra, ensure_ascii=False))  # "{}": written as an object
    return CardRow(_text(entry))


def _card_entry(row: CardRow) -> str | dict[str, Any]:
    if not row.extra.strip():
        return row.entry
    extra = _json_object(row.extra, "a card's flags", MAX_EXTRA_BYTES)
    name, _hash, label = row.entry.partition("#")
    return {"card": name, **({"label": label} if label else {}), **extra}


def _step(raw: Any) -> Step:
    if not isinstance(raw, dict):
        return Step(extra=json.dumps({"step": raw}))
    if "fact" in raw:
        extra = {k: v for k, v in raw.items() if k not in ("fact", "player")}
        return Step("fact", _text(raw["fact"]), _text(raw.get("player")), "", _dumps(extra))
    verb = next((v for v in STEP_VERBS if v in raw), "")
    targets = raw.get("targets")
    extra = {k: v for k, v in raw.items() if k not in (verb, "by", "targets")}
    if targets is not None and not all(isinstance(t, str) for t in targets or []):
        extra["targets"] = targets  # not a list of labels: carried as written
        targets = None
    return Step(
        verb, _text(raw.get(verb)), _text(raw.get("by")), ", ".join(targets or []), _dumps(extra)
    )


def _dumps(value: dict[str, Any]) -> str:
    return json.dumps(value, ensure_ascii=False) if value else ""


def _posted_step(data, prefix: str, index: int) -> Step:
    def item(name: str, length: int) -> str:
        values = data.getlist(f"{prefix}-{name}")
        return _bounded(values[index], length).strip() if index < len(values) else ""

    return Step(
        verb=item("verb", 20),
        what=item("what", MAX_FIELD_LENGTH),
        by=item("by", limits.MAX_LABEL_LENGTH),
        targets=item("targets", MAX_EXTRA_BYTES),
        extra=item("extra", MAX_EXTRA_BYTES),
    )


def _step_json(step: Step, what: str) -> dict[str, Any]:
    extra = _json_object(step.extra, f"{what}: the step's other keys", MAX_EXTRA_BYTES)
    if step.verb == "fact":
        return {"fact": step.what, **({"player": step.by} if step.by else {}), **extra}
    raw: dict[str, Any] = {step.verb: step.what}
    if step.by:
        raw["by"] = step.by
    targets = [t.strip() for t in step.targets.split(",") if t.strip()]
    if targets:
        raw["targets"] = targets
    return raw | extra


def _value_text(value: Any) -> str:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return ", ".join(value)
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def _choice_value(choice: Choice) -> Any:
    """A choice as typed: labels separated by commas for a list choice (`find`), else JSON
    (true, 3) or the text itself (a label, a card name)."""
    text = choice.value
    if choice.key in LIST_CHOICES and not text.startswith("["):
        return [part.strip() for part in text.split(",") if part.strip()]
    try:
        return json.loads(text, cls=StrictJSONDecoder)  # typed "NaN" or 5,000 digits: text
    except json.JSONDecodeError:
        return text


@dataclass
class Posted:
    """What the scenario form posted: the document's text, and the builder for it (None when the
    text can't be laid out as rows: malformed JSON, or not an object)."""

    text: str
    builder: Builder | None
    problem: str = ""  # a builder past its limits


def read_post(data) -> Posted:
    """The document the form sends: from the builder's rows (`source=builder`, or one of its
    move and remove buttons) or from the JSON box."""
    if data.get("b-action") or data.get("source") == "builder":
        try:
            builder = Builder.from_post(data)
            builder.apply(data.get("b-action", ""))
            return Posted(builder.text(), builder)
        except BuilderError as error:
            text = data.get("document", "")
            return Posted(text, builder_of_text(text), str(error))
    text = data.get("document", "")
    return Posted(text, builder_of_text(text))


def builder_of_text(text: str) -> Builder | None:
    """The builder for a JSON text; None for one it can't show (malformed, not an object, past
    the limits, or holding text no page can echo: a lone "\\ud800" escape)."""
    try:
        raw = limits.load_json(text)
    except (limits.LimitError, json.JSONDecodeError, RecursionError):
        return None
    if not isinstance(raw, dict) or any(problems_in_json(raw)):
        return None
    return Builder.of_document(raw)


def field_errors(builder: Builder | None, errors) -> dict[str, list[str]]:
    """Each authoring error keyed by the builder's field it belongs beside: `title`, `players`,
    `zone-0-library-2` (the third card of the first player's library), `resolve`, `choices`,
    `history-1`, `expect`; anything else under `document`."""
    placed: dict[str, list[str]] = {}
    players = builder.players if builder else []
    for error in errors:
        path, key = error.path, "document"
        match = re.match(r"zones\.([^.\[]+)\.([a-z_]+)\[(\d+)\]", path)
        head = re.split(r"[.\[]", path, maxsplit=1)[0]
        if match and match.group(1) in players:
            key = f"zone-{players.index(match.group(1))}-{match.group(2)}-{match.group(3)}"
        elif path.startswith("resolve.choices"):
            key = "choices"
        elif head in ("id", "title", "source", "players", "active", "resolve", "expect"):
            key = "players" if head == "active" else head
        elif head == "stored_ruling":
            key = "ruling"
        elif match_history := re.match(r"history\[(\d+)\]", path):
            key = f"history-{match_history.group(1)}"
        placed.setdefault(key, []).append(error.told())
    return placed


@dataclass(frozen=True)
class AskRow:
    """One "ask this" tick: the claim as `expect` stores it, its words, whether it is asked."""

    value: str
    question: str
    words: str
    checked: bool
    note: str = ""
    engine: str = ""  # the engine's claim (JSON), when the stored value differs from it


def ask_rows(builder: Builder | None, computed) -> list[AskRow]:
    """Every claim the engine computes (ticked when `expect` asks it, with the stored value),
    then the asked claims the engine did not compute, kept ticked."""
    asked: dict[str, str] = {}
    for text in builder.asked if builder else []:
        asked.setdefault(_claim_key(text), text)
    rows, used = [], set()
    for claim in computed:
        key = claim_key(claim.claim)
        stored = asked.get(key)
        if stored is None:
            rows.append(AskRow(claim.text, claim.question, claim.value, False))
            continue
        used.add(key)
        differs = json.loads(stored).get("value") != claim.claim.get("value")
        note = _("the stored value differs from the engine's") if differs else ""
        engine = claim.text if differs else ""
        rows.append(AskRow(stored, claim.question, claim.value, True, note, engine))
    for key, text in asked.items():
        if key not in used:
            rows.append(AskRow(text, text, "", True, _("the engine did not compute this claim")))
    return rows

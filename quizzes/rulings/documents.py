"""A scenario document, as instructors write it (the builder, the JSON box, an import): a
scenario/1 document plus Tutor's keys `stored_ruling` and `stored_expect` (and, in an import,
`questions`), read and checked by the engine with every problem named by its path; and a stored
scenario written back as one (docs/authoring.md)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.text import slugify

from config.inputs import problems_in_json
from quizzes import limits
from quizzes.models import Question, Scenario
from quizzes.rulings import (
    asked_claim,
    certification,
    ruling_of_spec,
    ruling_report,
)
from quizzes.rulings.claims import NUMBER, ORDER, PLAYERS, RANGE, claim_text
from quizzes.rulings.generate import GeneratedQuestion, questions_for
from quizzes.rulings.reasons import say
from rules.engine import Catalog, ScenarioError, Session, parse_scenario
from rules.engine import Scenario as EngineScenario
from rules.engine.reasons import Reason
from rules.numbers import numbers_in

# Keys of a scenario content file that are Tutor's, not the engine's: popped before the rest is
# stored as the scenario/1 spec.
TUTOR_KEYS = ("stored_ruling", "stored_expect", "cites", "language")
DOCUMENT_KEYS = (*TUTOR_KEYS, "questions")


class Said(str):
    """An error in the reader's language (`AuthoringError.said`): templates leave it unmarked
    where they mark the format's English words lang="en" (the `english` filter)."""


class AuthoringError(ValueError):
    """A document the engine or Tutor rejects: `path` names the field (`zones.Nadia.library[2]`);
    `message` is the format's English words, or an engine message the catalogs have (a Reason:
    an unknown card), said in the reader's language when shown."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(path, message)
        self.path = path
        self.message = message

    @property
    def said(self) -> str:
        """The message as shown: a `Said` in the reader's language, or the format's words."""
        return Said(say(self.message)) if isinstance(self.message, Reason) else self.message

    def told(self, where: str = "") -> str:
        """`where` (a file), the path and the message in one line; a `Said` if the message is."""
        said = self.said
        line = ": ".join(part for part in (where, self.path, said) if part)
        return Said(line) if isinstance(said, Said) else line

    def __str__(self) -> str:
        return self.told()


# Scenario documents.


@dataclass(frozen=True)
class ScenarioDocument:
    spec: dict[str, Any]
    stored_ruling: str
    stored_expect: list[dict[str, Any]]
    questions: list[dict[str, Any]] | None = None  # None: generate them from `expect`
    # the rule numbers each question cites, found while reading (`read_document`)
    cited: tuple[frozenset[str], ...] | None = field(default=None, compare=False)

    @property
    def title(self) -> str:
        return self.spec["title"]

    def to_json(self) -> dict[str, Any]:
        document = dict(self.spec)
        if self.stored_ruling:
            document["stored_ruling"] = self.stored_ruling
        if self.stored_expect:
            document["stored_expect"] = self.stored_expect
        if self.questions is not None:
            document["questions"] = self.questions
        return document


STARTER: dict[str, Any] = {
    "format": "scenario/1",
    "id": "my-new-scenario",
    "title": "Demonic Tutor with three cards",
    "source": "CR 701.23d (a search simply for a quantity of cards)",
    "players": ["Alice", "Nadia"],
    "cards": [],
    "zones": {"Alice": {"library": ["Island#i1", "Forest#f1", "Swamp#s1"]}},
    "history": [],
    "resolve": {"cast": "Demonic Tutor", "by": "Alice"},
    "expect": [
        {"claim": "found_count", "searcher": "Alice", "value": [1, 1]},
        {"claim": "shuffles", "player": "Alice", "value": "yes"},
    ],
    "stored_ruling": "Demonic Tutor searches for a card with no stated quality, so Alice must find "
    "one (701.23d), then shuffles.",
}


def starter_text() -> str:
    """A small valid document to start a new scenario from."""
    return json.dumps(STARTER, indent=2)


def starter_claim_keys() -> list[str]:
    """The starter's claims without their values: the builder lets them follow the engine."""
    return [
        json.dumps(
            {k: v for k, v in claim.items() if k != "value"}, ensure_ascii=False, sort_keys=True
        )
        for claim in STARTER["expect"]
    ]


def document_of(scenario: Scenario) -> ScenarioDocument:
    return ScenarioDocument(scenario.spec, scenario.stored_ruling, scenario.stored_expect or [])


def document_text(scenario: Scenario) -> str:
    return json.dumps(document_of(scenario).to_json(), indent=2, ensure_ascii=False)


def copy_text(scenario: Scenario) -> str:
    """The scenario's document as a copy to save anew: "(copy)" in its title, "-copy" in its id."""
    document = document_of(scenario).to_json()
    base = f"{document.get('id') or scenario.slug}-copy"[: limits.MAX_TEXT_LENGTH["id"] - 4]
    taken = set()
    if scenario.bank is not None:  # an id of its own in the bank (a second copy: -copy-2)
        taken = set(scenario.bank.scenarios.values_list("spec__id", flat=True))
    copy_id, number = base, 2
    while copy_id in taken:
        copy_id, number = f"{base}-{number}", number + 1
    document["id"] = copy_id
    room = limits.MAX_TEXT_LENGTH["title"] - len(" (copy)")
    document["title"] = f"{str(document.get('title', ''))[:room]} (copy)"
    return json.dumps(document, indent=2, ensure_ascii=False)


def parse_text(
    text: str, max_bytes: int = limits.MAX_DOCUMENT_BYTES, what: str = "document"
) -> Any:
    """The JSON of `text`, once it is within the size and nesting limits."""
    try:
        value = limits.load_json(text, max_bytes, what)
    except limits.LimitError as error:
        raise AuthoringError(error.path, error.message) from error
    except json.JSONDecodeError as error:
        where = f"line {error.lineno} column {error.colno}"
        raise AuthoringError(where, f"malformed JSON: {error.msg}") from error
    for path, problem in problems_in_json(value):  # "\u0000" escapes decode to unstorable text
        raise AuthoringError(path, problem)
    return value


def _at(prefix: str, path: str) -> str:
    return f"{prefix}.{path}" if prefix and path else prefix or path


def read_document(raw: Any, catalog: Catalog, where: str = "") -> ScenarioDocument:
    """Validate one document (raises AuthoringError naming the field, prefixed by `where`)."""
    if not isinstance(raw, dict):
        raise AuthoringError(where, "must be a JSON object (a scenario/1 document)")
    spec = {key: value for key, value in raw.items() if key not in DOCUMENT_KEYS}
    try:
        limits.check_spec(raw)
    except limits.LimitError as error:
        raise AuthoringError(_at(where, error.path), error.message) from error
    for key in ("title", "source"):
        if not isinstance(spec.get(key), str) or not spec[key].strip():
            raise AuthoringError(_at(where, key), "give the scenario a non-empty " + key)
    stored_ruling = raw.get("stored_ruling", "")
    if not isinstance(stored_ruling, str):
        raise AuthoringError(_at(where, "stored_ruling"), "must be text")
    stored_expect = raw.get("stored_expect", [])
    if not isinstance(stored_expect, list) or not all(
        isinstance(claim, dict) and isinstance(claim.get("claim"), str) for claim in stored_expect
    ):
        raise AuthoringError(
            _at(where, "stored_expect"), 'give a list of claim objects, each with a "claim" name'
        )
    try:
        parsed = parse_scenario(spec, catalog)
    except ScenarioError as error:
        raise AuthoringError(_at(where, error.path), error.message) from error
    _check_stored_values(spec.get("expect") or [], _at(where, "expect"))
    _check_stored_values(stored_expect, _at(where, "stored_expect"))
    questions, cited = raw.get("questions"), None
    if questions is not None:
        cited = _check_questions(parsed, questions, _at(where, "questions"))
    return ScenarioDocument(spec, stored_ruling, stored_expect, questions, cited)


def ruling_of_document(raw: Any, catalog: Catalog) -> dict[str, Any]:
    """The engine's whole ruling on a document (`ruling_report`: what `manage.py ruling` prints),
    once `read_document` has it; raises AuthoringError naming the field."""
    document = read_document(raw, catalog)
    try:
        return ruling_report(document.spec, catalog)
    except ScenarioError as error:  # an `expect` claim the engine can't ask
        raise AuthoringError(error.path, error.message) from error


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# What a stored value must be for the claim's answer (claims.py), so it can be shown and compared.
VALUE_SHAPES = {
    RANGE: (
        lambda v: isinstance(v, list) and len(v) == 2 and all(_is_count(n) for n in v),
        "give the fewest and the most as two numbers, e.g. [1, 1]",
    ),
    NUMBER: (_is_count, "give a whole number"),
    ORDER: (lambda v: isinstance(v, list), "give the players' names in order, as a list"),
    PLAYERS: (lambda v: isinstance(v, list), "give the players' names as a list"),
}


def _check_stored_values(claims: list, where: str) -> None:
    """A stored value of the wrong shape (`found_count: 99`) is refused with its place, rather
    than saved and then failing every page that words it."""
    for index, claim in enumerate(claims):
        try:
            answer = claim_text(claim.get("claim")).answer
        except KeyError:
            continue  # a claim the table lacks: the engine's own check names it
        fits, hint = VALUE_SHAPES.get(answer, (lambda v: True, ""))
        if "value" in claim and not fits(claim["value"]):
            raise AuthoringError(f"{where}[{index}].value", hint)


def _check_questions(
    parsed: EngineScenario, questions: Any, where: str
) -> tuple[frozenset[str], ...]:
    """Each question checked with the engine; the rule numbers each one's claims cite."""

    if not isinstance(questions, list):
        raise AuthoringError(where, "must be a list of questions")
    keys: set[str] = set()
    session = None  # one engine session for every question of the document (no board built)
    cited: list[frozenset[str]] = []
    for index, item in enumerate(questions):
        at = f"{where}[{index}]"
        if not isinstance(item, dict):
            raise AuthoringError(at, "must be an object with key, kind, prompt and claims")
        key, kind, prompt = item.get("key"), item.get("kind"), item.get("prompt")
        if not isinstance(key, str) or not key or slugify(key) != key:
            raise AuthoringError(f"{at}.key", "give a slug such as 'yes-no'")
        if key in keys:
            raise AuthoringError(f"{at}.key", f"{key!r} is used twice")
        keys.add(key)
        if kind not in Question.Kind.values:
            raise AuthoringError(f"{at}.kind", f"unknown kind {kind!r}")
        if not isinstance(prompt, str) or not prompt.strip():
            raise AuthoringError(f"{at}.prompt", "give the question's prompt")
        try:
            Question(kind=kind, prompt=prompt, claims=item.get("claims")).clean()
        except ValidationError as error:
            raise AuthoringError(f"{at}.claims", " ".join(error.messages)) from error
        session = session or Session(parsed)
        numbers: set[str] = set()
        for position, claim in enumerate(item["claims"]):
            if claim["claim"] == "legal_find_set":
                continue  # checked against a learner's pick, not evaluated on its own
            try:
                numbers.update(numbers_in(session.evaluate(asked_claim(claim)).rule))
            except ScenarioError as error:
                raise AuthoringError(f"{at}.claims[{position}]", error.message) from error
        cited.append(frozenset(numbers))
    return tuple(cited)


def cited_by_questions(spec: dict, questions: list[dict], catalog: Catalog) -> list[set[str]]:
    """The rule numbers each question's claims cite, from one engine session."""

    ruling = ruling_of_spec(spec, catalog)
    return [
        {
            number
            for claim in question["claims"]
            if claim["claim"] != "legal_find_set"
            for number in numbers_in(ruling.evaluate(claim).rule)
        }
        for question in questions
    ]


def generate_questions(spec: dict[str, Any], catalog: Catalog) -> list[GeneratedQuestion]:
    """The questions `load_content` would generate from `expect` (quizzes/rulings/generate.py),
    for an instructor's scenario: all but the certification-style kind, whose options are made
    from the key: correcting the key (a new version, then a regrade of the sittings) would change
    the options a learner chose among. Tutor's own content is reloaded, never regraded."""
    try:
        made = questions_for(spec, catalog)
    except ScenarioError:
        return []  # an `expect` claim the engine can't evaluate: the check reports it
    return [question for question in made if question.kind != certification.KIND]


def cited(spec: dict, claims: list[dict], catalog: Catalog) -> set[str]:

    cited: set[str] = set()
    ruling = ruling_of_spec(spec, catalog)
    for claim in claims:
        if claim["claim"] != "legal_find_set":
            cited.update(numbers_in(ruling.evaluate(claim).rule))
    return cited

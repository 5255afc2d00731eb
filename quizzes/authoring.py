"""Instructors' authoring: banks they own, scenarios written as scenario/1 JSON, the live preview
and the lint. Zulip-style: `check_*` validates and authorises, `do_*` writes; every lookup goes
through `banks_of(user)` / `scenarios_in(bank)`, so another instructor's bank is never reached.

A scenario document is a content file (docs/authoring.md): a scenario/1 document plus Tutor's
keys `stored_ruling` and `stored_expect` (and, in an import, `questions`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from config.inputs import problems_in_json
from config.roles import INSTRUCTORS_GROUP, is_instructor  # noqa: F401 (re-exported)
from quizzes import adaptive, levels, limits
from quizzes.loading.read import TUTOR_KEYS
from quizzes.models import Bank, Question, Scenario
from quizzes.rulings import (
    Ruling,
    TimingFinding,
    asked_claim,
    casting_timing,
    catalog_of,
    checks,
    ruling_of_spec,
)
from quizzes.rulings.board import Board
from quizzes.rulings.checks import EngineCheck
from quizzes.rulings.claims import NUMBER, ORDER, PLAYERS, RANGE, claim_text
from quizzes.rulings.generate import GeneratedQuestion, questions_for
from quizzes.rulings.reasons import say
from rules.cards import catalog_for
from rules.engine import Catalog, ScenarioError, Session, parse_scenario
from rules.engine import Scenario as EngineScenario
from rules.engine.reasons import Reason
from rules.models import Rule
from rules.numbers import numbers_in

DOCUMENT_KEYS = (*TUTOR_KEYS, "questions")
RESERVED_SLUGS = frozenset({"new"})  # /banks/new/ and .../scenarios/new/ are pages
FLAGGED = (Scenario.EngineStatus.DISAGREES, Scenario.EngineStatus.INVALID)


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


# Lookups that enforce ownership.


def banks_of(user) -> QuerySet[Bank]:
    return Bank.objects.owned_by(user)


def scenarios_in(bank: Bank) -> QuerySet[Scenario]:
    """The scenarios an instructor may edit in their bank: those authored in it."""
    return Scenario.objects.filter(bank=bank)


def free_slug(model, base: str, max_length: int = 100) -> str:
    """`base` slugified, with -2, -3, ... when another row already has it."""
    root = (slugify(base) or "untitled")[: max_length - 4]
    slug, number = root, 2
    while slug in RESERVED_SLUGS or model.objects.filter(slug=slug).exists():
        slug, number = f"{root}-{number}", number + 1
    return slug


# Banks.


def do_create_bank(user, title: str, description: str, visibility: str) -> Bank:
    return Bank.objects.create(
        owner=user,
        slug=free_slug(Bank, title),
        title=title,
        description=description,
        visibility=visibility,
    )


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


def document_of(scenario: Scenario) -> ScenarioDocument:
    return ScenarioDocument(scenario.spec, scenario.stored_ruling, scenario.stored_expect or [])


def document_text(scenario: Scenario) -> str:
    return json.dumps(document_of(scenario).to_json(), indent=2, ensure_ascii=False)


def copy_text(scenario: Scenario) -> str:
    """The scenario's document as a copy to save anew: "(copy)" in its title, "-copy" in its id."""
    document = document_of(scenario).to_json()
    base = f"{document.get('id') or scenario.slug}-copy"[: limits.MAX_TEXT_LENGTH["id"] - 4]
    taken = set()
    if scenario.bank_id is not None:  # an id of its own in the bank (a second copy: -copy-2)
        taken = set(scenarios_in(scenario.bank).values_list("spec__id", flat=True))
    copy_id, number = base, 2
    while copy_id in taken:
        copy_id, number = f"{base}-{number}", number + 1
    document["id"] = copy_id
    room = limits.MAX_TEXT_LENGTH["title"] - len(" (copy)")
    document["title"] = f"{str(document.get('title', ''))[:room]} (copy)"
    return json.dumps(document, indent=2, ensure_ascii=False)


def seed_scenarios(user) -> QuerySet[Scenario]:
    """The site's seed scenarios `user` may read, to start a new scenario from: the written ones,
    not a family's generated instances (hundreds, dozens sharing a title)."""
    return (
        Scenario.objects.visible_to(user)
        .filter(bank__isnull=True, family__isnull=True)
        .order_by("title")
    )


def card_names_for(user) -> list[str]:
    """Every card name `user` may put in a scenario, sorted (the builder's completion)."""
    return catalog_for(user.pk).names()


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


# The live preview.

CLAIM_GROUPS: tuple[tuple[str, frozenset[str]], ...] = (
    (_("Searching"), frozenset({"searches", "searched_portion", "decision_order"})),
    (_("Finding cards"), frozenset({"finds", "found_count", "revealed", "legal_find_set"})),
    (
        _("Libraries"),
        frozenset({"shuffles", "shuffled_portion", "searched_library_this_turn", "mills"}),
    ),
    (_("Where cards end up"), frozenset({"zone_after"})),
    (
        _("Mana, costs and triggers"),
        frozenset({"mana_produced", "alt_cost_available", "can_dredge", "triggers"}),
    ),
)
OTHER_CLAIMS = pgettext_lazy("claim group", "Other")


@dataclass(frozen=True)
class ClaimRow:
    question: str
    value: str
    rule: str
    reason: str


@dataclass(frozen=True)
class ClaimGroup:
    title: str
    rows: tuple[ClaimRow, ...]


@dataclass(frozen=True)
class ExpectRow:
    question: str
    stored: str
    computed: str
    agrees: bool
    rule: str = ""
    reason: str = ""


@dataclass(frozen=True)
class ComputedClaim:
    """A claim the engine computes, as `expect` would store it (the builder's "ask this")."""

    claim: dict[str, Any]
    question: str
    value: str

    @property
    def text(self) -> str:
        return json.dumps(self.claim, ensure_ascii=False, sort_keys=True)


@dataclass
class Preview:
    """What the engine makes of a document: its errors, and the computed ruling and checks of
    the rest (each part in error set aside, so one error does not blank the preview)."""

    text: str
    errors: list[AuthoringError] = field(default_factory=list)
    groups: list[ClaimGroup] = field(default_factory=list)
    board: Board | None = None
    expect: list[ExpectRow] = field(default_factory=list)
    questions: list[GeneratedQuestion] = field(default_factory=list)
    computed: list[ComputedClaim] = field(default_factory=list)
    status: str = ""
    report: str = ""
    set_aside: list[str] = field(default_factory=list)  # paths left out to preview the rest
    # spells cast when the rules don't allow (CR 307.1 ...): warnings, as the lint gives them
    warnings: tuple[TimingFinding, ...] = ()

    @property
    def error(self) -> AuthoringError | None:
        return self.errors[0] if self.errors else None

    @property
    def error_line(self) -> tuple[int, str] | None:
        """For malformed JSON: the line number and its text."""
        error = self.error
        match = re.match(r"line (\d+) column", error.path) if error else None
        if not match:
            return None
        number = int(match.group(1))
        lines = self.text.splitlines()
        return number, lines[number - 1][:200] if 0 < number <= len(lines) else ""

    @property
    def disagreements(self) -> int:
        return sum(not row.agrees for row in self.expect)


MAX_SET_ASIDE = 10  # errors a preview reports before it stops setting parts aside


LIST_PATH = re.compile(r"(zones\.[^.\[]+\.[a-z_]+|history|expect|cards)\[(\d+)\]")


class _SetAside:
    """Parts of a document removed to preview the rest, and error paths told in the document's
    own numbering (after `library[1]` is set aside, the engine's `library[2]` is the 4th)."""

    def __init__(self, raw: dict[str, Any]) -> None:
        self.raw = raw
        self.removed: dict[str, list[int]] = {}

    def original(self, path: str) -> str:
        match = LIST_PATH.match(path)
        if not match:
            return path
        index, removed = int(match.group(2)), sorted(self.removed.get(match.group(1), []))
        for gone in removed:
            if gone <= index:
                index += 1
        return f"{match.group(1)}[{index}]{path[match.end() :]}"

    def remove(self, path: str) -> bool:
        """Remove the part an error's `path` names (a card in a zone, a history step, a claim, a
        card definition, a choice, the resolving step; an empty title or source is stood in
        for); False when nothing can be removed."""
        raw = self.raw
        if not isinstance(raw, dict):
            return False
        match = LIST_PATH.match(path)
        if match:
            items = _list_at(raw, match.group(1))
            index = int(match.group(2))
            if not isinstance(items, list) or index >= len(items):
                return False
            del items[index]
            self.removed.setdefault(match.group(1), []).append(
                int(LIST_PATH.match(self.original(path)).group(2))
            )
            return True
        resolve = raw.get("resolve")
        match = re.match(r"resolve\.choices\.([^.]+)\.([a-z_]+)", path)
        if match and isinstance(resolve, dict):
            choices = resolve.get("choices")
            decisions = choices.get(match.group(1)) if isinstance(choices, dict) else None
            if isinstance(decisions, dict) and match.group(2) in decisions:
                del decisions[match.group(2)]
                return True
        if path.startswith("resolve") and "resolve" in raw:
            del raw["resolve"]
            return True
        if path == "active" and "active" in raw:
            del raw["active"]
            return True
        if path in ("title", "source") and raw.get(path) != "…":
            raw[path] = "…"  # Tutor's own keys, which the engine does not read: a stand-in
            return True
        return False


def _list_at(raw: dict[str, Any], path: str) -> Any:
    if path.startswith("zones."):
        _zones, player, zone = path.split(".")
        zones = raw.get("zones")
        player_zones = zones.get(player) if isinstance(zones, dict) else None
        return player_zones.get(zone) if isinstance(player_zones, dict) else None
    return raw.get(path)


def preview(text: str, catalog: Catalog | None = None, *, author=None) -> Preview:
    """Parse and resolve the document `text` with the cards `author` may use (`catalog_for`),
    or `catalog`; never raises for a bad document. A part in error (a card, a step, a claim) is
    reported with its path and set aside, and the rest is still previewed."""
    if catalog is None:
        catalog = catalog_for(author.pk if author is not None else None)
    result = Preview(text)
    try:
        raw = parse_text(text)
    except AuthoringError as error:
        result.errors.append(error)
        return result
    aside = _SetAside(json.loads(json.dumps(raw)))  # a copy to set parts aside in
    while True:
        try:
            document = read_document(aside.raw, catalog)
        except AuthoringError as error:
            told = AuthoringError(aside.original(error.path), error.message)
            result.errors.append(told)
            if len(result.errors) >= MAX_SET_ASIDE or not aside.remove(error.path):
                return result
            result.set_aside.append(told.path)
            continue
        break
    spec = document.spec
    try:
        ruling = ruling_of_spec(spec, catalog)
        outcome = ruling.outcome()
        mismatched = [m.expected for m in ruling.mismatches()]
    except ScenarioError as error:  # e.g. an `expect` claim the engine does not know
        result.errors.append(AuthoringError(error.path, error.message))
        return result
    result.board = ruling.board
    grouped: dict[str, list[ClaimRow]] = {}
    for computed in outcome.claims:
        claim = {"claim": computed.claim, **computed.subject}
        title = next((t for t, names in CLAIM_GROUPS if computed.claim in names), OTHER_CLAIMS)
        question, words = ruling.ask(claim), ruling.words(claim, computed.value)
        grouped.setdefault(title, []).append(
            ClaimRow(question, words, str(computed.rule or ""), computed.reason or "")
        )
        stored = json.loads(json.dumps({**claim, "value": computed.value}))
        result.computed.append(ComputedClaim(stored, question, words))
    order = [title for title, _names in CLAIM_GROUPS] + [OTHER_CLAIMS]
    result.groups = [ClaimGroup(t, tuple(grouped[t])) for t in order if t in grouped]
    for claim in spec.get("expect") or []:
        asked = asked_claim(claim)
        try:
            computed = ruling.evaluate(asked)
        except (ScenarioError, KeyError) as error:
            message = error.message if isinstance(error, ScenarioError) else str(error)
            row = ExpectRow(_asked_words(ruling, asked), repr(claim.get("value")), message, False)
        else:
            row = ExpectRow(
                ruling.ask(asked),
                ruling.words(asked, claim.get("value")),
                ruling.words(asked, computed.value),
                claim not in mismatched,
                str(computed.rule or ""),
                computed.reason or "",
            )
        result.expect.append(row)
    check = checks.check_with_engine(
        Scenario(spec=spec, stored_expect=document.stored_expect), catalog
    )
    result.status, result.report = check.status, check.report
    result.warnings = ruling.casting_timing()  # the session above: no second parse
    result.questions = generate_questions(spec, catalog)
    return result


def _asked_words(ruling: Ruling, claim: dict) -> str:
    try:
        return ruling.ask(claim)
    except (KeyError, ScenarioError):
        return str(claim.get("claim", "?"))


# Saving a scenario.


def check_save_scenario(
    user, bank: Bank, text: str, scenario: Scenario | None = None, catalog: Catalog | None = None
) -> ScenarioDocument:
    """The validated document, if `user` owns `bank` and `scenario` (when editing) is in it."""
    if not banks_of(user).filter(pk=bank.pk).exists():
        raise AuthoringError("", "You can only write in your own banks.")
    if scenario is not None and scenario.bank_id != bank.pk:
        raise AuthoringError("", "This scenario belongs to another bank.")
    catalog = catalog if catalog is not None else catalog_for(user.pk)
    document = read_document(parse_text(text), catalog)
    scenario_id = document.spec.get("id")
    same_id = scenarios_in(bank).filter(spec__id=scenario_id)
    if scenario is not None:
        same_id = same_id.exclude(pk=scenario.pk)
    if scenario_id is not None and same_id.exists():
        raise AuthoringError(
            "id",
            f"{scenario_id!r} is the id of another scenario in this bank: edit that one, or "
            "give this one an id of its own",
        )
    return document


def do_save_scenario(
    user,
    bank: Bank,
    document: ScenarioDocument,
    scenario: Scenario | None = None,
    catalog: Catalog | None = None,
    rules: dict[str, Rule] | None = None,
    checked: tuple[EngineCheck, list[tuple]] | None = None,
) -> Scenario:
    """Store the document, check it with the engine, and (re)generate its questions in `bank`.

    A change to the document or to what its questions ask starts a new version of the scenario
    (`Scenario.save`, `start_version`): answers already given keep the version they answered.
    `checked` (an import's plan): the engine's check and the questions, already computed, with
    `rules` resolving every number they cite; no engine runs then."""
    if checked is not None and rules is not None:
        return _save_checked(user, bank, document, scenario, checked, rules)
    catalog = catalog if catalog is not None else catalog_for(user.pk)
    spec = document.spec
    with transaction.atomic():
        if scenario is None:
            base = spec.get("id") if isinstance(spec.get("id"), str) else spec["title"]
            scenario = Scenario(bank=bank, author=user, slug=free_slug(Scenario, base, 120))
        since = scenario.current_version_id
        scenario.title = spec["title"][:200]
        scenario.source = spec["source"][:300]
        scenario.spec = spec
        scenario.stored_ruling = document.stored_ruling
        scenario.stored_expect = document.stored_expect
        scenario.save()
        checks.record_engine_check(scenario, catalog)
        if document.questions is None:
            generated = []
            if scenario.engine_status != Scenario.EngineStatus.INVALID:
                generated = generate_questions(spec, catalog)
            items = [(q.key, q.kind, q.prompt, q.claims, q.cited_rules) for q in generated]
        else:
            items = [
                (q["key"], q["kind"], q["prompt"], q["claims"], _cited(spec, q["claims"], catalog))
                for q in document.questions
            ]
        asked = {key: (kind, prompt, claims) for key, kind, prompt, claims, _rules in items}
        scenario.start_version_if_questions_change(bank, asked, since)
        _sync_questions(scenario, bank, items, rules)
        levels.recompute(Question.objects.filter(scenario=scenario, bank=bank), catalog)
    return scenario


def _save_checked(
    user,
    bank: Bank,
    document: ScenarioDocument,
    scenario: Scenario,
    checked: tuple[EngineCheck, list[tuple]],
    rules: dict[str, Rule],
) -> Scenario:
    check, items = checked
    spec = document.spec
    with transaction.atomic():
        since = scenario.current_version_id
        scenario.title, scenario.source = spec["title"][:200], spec["source"][:300]
        scenario.spec = spec
        scenario.stored_ruling = document.stored_ruling
        scenario.stored_expect = document.stored_expect
        scenario.engine_status, scenario.engine_report = check.status, check.report
        scenario.save()
        exercised = _rule_ids(check.cited_rules, rules)
        if set(scenario.rules_exercised.values_list("pk", flat=True)) != exercised:
            scenario.rules_exercised.set(exercised)
        asked = {key: (kind, prompt, claims) for key, kind, prompt, claims, _rules in items}
        scenario.start_version_if_questions_change(bank, asked, since)
        _sync_questions(scenario, bank, items, rules)
        levels.recompute(
            Question.objects.filter(scenario=scenario, bank=bank), catalog_for(user.pk)
        )
    return scenario


def do_create_scenarios(
    user,
    bank: Bank,
    checked: list[tuple[ScenarioDocument, EngineCheck, list[tuple]]],
    rules: dict[str, Rule],
) -> list[Scenario]:
    """Create many new scenarios in `bank` at once, each with version 1 and its questions, from
    documents the engine has already checked (`interchange.check_import`): a few bulk queries
    for any number of them. `rules` maps every rule number cited to its rule."""
    taken = set(
        Scenario.objects.filter(slug__in=[_slug_base(d) for d, *_rest in checked]).values_list(
            "slug", flat=True
        )
    )
    scenarios = []
    for document, check, _items in checked:
        base = _slug_base(document)
        slug = base if base not in taken and base not in RESERVED_SLUGS else None
        slug = slug or free_slug(Scenario, base, 120)
        taken.add(slug)
        spec = document.spec
        scenarios.append(
            Scenario(
                bank=bank,
                author=user,
                slug=slug,
                title=spec["title"][:200],
                source=spec["source"][:300],
                spec=spec,
                stored_ruling=document.stored_ruling,
                stored_expect=document.stored_expect,
                engine_status=check.status,
                engine_report=check.report,
            )
        )
    Scenario.objects.bulk_create(scenarios)  # with version 1 of each
    exercised = Scenario.rules_exercised.through
    exercised.objects.bulk_create(
        exercised(scenario_id=scenario.pk, rule_id=rule_id)
        for scenario, (_document, check, _items) in zip(scenarios, checked, strict=True)
        for rule_id in _rule_ids(check.cited_rules, rules)
    )
    questions, cited = [], []
    for scenario, (_document, _check, items) in zip(scenarios, checked, strict=True):
        for position, (key, kind, prompt, claims, numbers) in enumerate(items):
            difficulty = adaptive.prior_difficulty(kind, claims, scenario.spec)
            questions.append(
                Question(
                    bank=bank,
                    scenario=scenario,
                    key=key,
                    kind=kind,
                    prompt=prompt,
                    claims=claims,
                    position=position,
                    difficulty=difficulty,
                )
            )
            cited.append(numbers)
    Question.objects.bulk_create(questions)
    Question.rules.through.objects.bulk_create(
        Question.rules.through(question_id=question.pk, rule_id=rule_id)
        for question, numbers in zip(questions, cited, strict=True)
        for rule_id in _rule_ids(numbers, rules)
    )
    created = Question.objects.filter(pk__in=[question.pk for question in questions])
    levels.recompute(created, catalog_for(user.pk))  # every board read with the author's cards
    return scenarios


def _slug_base(document: ScenarioDocument) -> str:
    spec = document.spec
    base = spec.get("id") if isinstance(spec.get("id"), str) else spec["title"]
    return (slugify(base) or "untitled")[:116]


def _rule_ids(numbers, rules: dict[str, Rule]) -> set[int]:
    return {rules[number].pk for number in numbers if number in rules}


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
    """The questions `load_content` would generate from `expect` (quizzes/rulings/generate.py)."""
    try:
        return questions_for(spec, catalog)
    except ScenarioError:
        return []  # an `expect` claim the engine can't evaluate: the check reports it


def _cited(spec: dict, claims: list[dict], catalog: Catalog) -> set[str]:

    cited: set[str] = set()
    ruling = ruling_of_spec(spec, catalog)
    for claim in claims:
        if claim["claim"] != "legal_find_set":
            cited.update(numbers_in(ruling.evaluate(claim).rule))
    return cited


def _sync_questions(
    scenario: Scenario, bank: Bank, items: list[tuple], rules: dict[str, Rule] | None = None
) -> None:
    """Create or update questions by key; ones no longer produced are deactivated (answers
    point at them), never deleted. `rules`: the cited numbers already resolved."""
    rows = Question.objects.filter(bank=bank, scenario=scenario).prefetch_related("rules")
    existing = {q.key: q for q in rows}
    loaded = {q.pk for q in existing.values()}  # their rules prefetched
    for position, (key, kind, prompt, claims, cited) in enumerate(items):
        question = existing.get(key) or Question(bank=bank, scenario=scenario, key=key)
        values = {"kind": kind, "prompt": prompt, "claims": claims, "position": position}
        if not question.answer_count:  # a prior until learners answer it (adaptive.py)
            values["difficulty"] = adaptive.prior_difficulty(kind, claims, scenario.spec)
        if (
            question.pk is None
            or not question.is_active
            or any(getattr(question, name) != value for name, value in values.items())
        ):
            for name, value in values.items():
                setattr(question, name, value)
            question.is_active = True
            question.save()
        resolved = rules if rules is not None else Rule.objects.resolve_numbers(cited)
        wanted = {resolved[n].pk: resolved[n] for n in cited if n in resolved}
        have = {rule.pk for rule in question.rules.all()} if question.pk in loaded else set()
        if have != set(wanted):
            question.rules.set(wanted.values())
    kept = [item[0] for item in items]
    Question.objects.filter(bank=bank, scenario=scenario, is_active=True).exclude(
        key__in=kept
    ).update(is_active=False)


# The lint: stored rulings the engine disagrees with, and boards the rules don't allow.


@dataclass(frozen=True)
class LintEntry:
    scenario: Scenario
    status: str
    problems: tuple[str, ...]
    # Spells cast when the rules don't allow (CR 307.1 ...): warnings, the ruling still stands.
    warnings: tuple[TimingFinding, ...] = ()

    @property
    def status_display(self) -> str:
        return Scenario.EngineStatus(self.status).label

    @property
    def flagged(self) -> bool:
        return self.status in FLAGGED


def lint(scenarios: Iterable[Scenario], catalog: Catalog | None = None) -> list[LintEntry]:
    """Every scenario the engine (as it is now) disagrees with or rejects, with each mismatch,
    and every scenario that casts a spell when the rules don't allow, with each such cast.

    Runs the engine afresh (the stored status may predate an engine change) and saves nothing.
    """
    entries = []
    for scenario in scenarios:  # each with its own author's catalog unless `catalog` is given
        check = checks.check_with_engine(scenario, catalog)
        warnings: tuple[TimingFinding, ...] = ()
        if check.status != Scenario.EngineStatus.INVALID:  # parsed, and within the limits
            cards = catalog if catalog is not None else catalog_of(scenario)
            warnings = casting_timing(scenario.spec, cards)
        if check.status in FLAGGED or warnings:
            problems = tuple(check.report.splitlines()) if check.status in FLAGGED else ()
            entries.append(LintEntry(scenario, check.status, problems, warnings))
    return entries

"""The builder's live preview: the engine's reading of a scenario document as it is typed, every
claim with its computed value and rule, the parts it could not read set aside and named."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from quizzes.models import Scenario
from quizzes.rulings import (
    Ruling,
    TimingFinding,
    asked_claim,
    checks,
    ruling_of_spec,
)
from quizzes.rulings.board import Board
from quizzes.rulings.documents import AuthoringError, generate_questions, parse_text, read_document
from quizzes.rulings.generate import GeneratedQuestion
from quizzes.rulings.reasons import Said
from rules.cards import catalog_for
from rules.engine import Catalog, ScenarioError
from rules.engine.reasons import Reason

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

# The live preview.

CLAIM_GROUPS: tuple[tuple[StrOrPromise, frozenset[str]], ...] = (
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
    title: StrOrPromise
    rows: tuple[ClaimRow, ...]


@dataclass(frozen=True)
class ExpectRow:
    question: str
    stored: str
    computed: str
    agrees: bool
    rule: str = ""
    reason: str | Reason | Said = ""  # the engine's reason, or a stored variant's


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
            original = LIST_PATH.match(self.original(path))
            assert original is not None  # original() keeps a list path a list path
            self.removed.setdefault(match.group(1), []).append(int(original.group(2)))
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
    grouped: dict[StrOrPromise, list[ClaimRow]] = {}
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
            evaluated = ruling.evaluate(asked)
        except (ScenarioError, KeyError) as error:
            message = error.message if isinstance(error, ScenarioError) else str(error)
            row = ExpectRow(_asked_words(ruling, asked), repr(claim.get("value")), message, False)
        else:
            row = ExpectRow(
                ruling.ask(asked),
                ruling.words(asked, claim.get("value")),
                ruling.words(asked, evaluated.value),
                claim not in mismatched,
                str(evaluated.rule or ""),
                evaluated.reason or "",
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

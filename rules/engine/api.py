"""The engine's public functions: resolve a scenario, evaluate and check claims, check a choice."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from .cards import Catalog
from .claims import (
    CLAIM_SUBJECTS,
    MANA_TRIGGERS,
    SEARCH_TRIGGERS,
    Evaluation,
    claim_subject,
    evaluate,
    to_result,
)
from .errors import ScenarioError
from .outcome import ChoiceVerdict, ClaimResult, Mismatch, Outcome
from .reasons import because
from .resolver import resolve_history, resolve_step
from .scenario import SPLIT_CHOICE_KEYS, Choices, Scenario, parse_choices, parse_scenario
from .search import check_found_set
from .state import CardInstance, GameState
from .verdict import Verdict

Spec = Mapping[str, Any] | Scenario


def _scenario(spec: Spec, catalog: Catalog | None) -> Scenario:
    return spec if isinstance(spec, Scenario) else parse_scenario(spec, catalog)


def _evaluation(scenario: Scenario, given: Any = None) -> Evaluation:
    turn = resolve_history(scenario)
    choices: Choices | None = None
    if given is not None:
        extra = parse_choices(given, "given", scenario.state)
        base = dict(scenario.resolve.choices) if scenario.resolve else {}
        for player, decisions in extra.items():
            kept = dict(base.get(player, {}))
            if "find" in decisions or SPLIT_CHOICE_KEYS & set(decisions):
                # A new set of found cards (or a new split) is a different line of play: the
                # step's own split of its found cards no longer applies.
                for key in SPLIT_CHOICE_KEYS:
                    kept.pop(key, None)
            base[player] = {**kept, **decisions}
        choices = base
    used = (
        choices if choices is not None else (scenario.resolve.choices if scenario.resolve else {})
    )
    return Evaluation(scenario, turn, resolve_step(scenario, turn, choices), used)


def _default_claims(ev: Evaluation) -> list[ClaimResult]:
    """Every relevant claim of the resolution, computed, in the order the outcome lists them.

    The bulk of a big board (a "finds" for every card of every searched zone, a "zone_after"
    for every card that may move, mana and dredge) are direct lookups of verdicts the
    resolution already holds, built inline; the rest go through `evaluate`.
    """
    state = ev.scenario.state
    resolution = ev.resolution
    results: list[ClaimResult] = []
    add = results.append
    fast = ClaimResult.fast

    def claim(name: str, subject: dict[str, Any]) -> None:
        verdict = evaluate(ev, name, subject)
        add(fast(name, subject, verdict.value, verdict.rule, verdict.reason))

    order = state.apnap_order
    searching = {space.searcher for space in resolution.searches}
    searchers = [p for p in order if p in searching]
    for player in order:
        claim("searches", {"player": player})
        if player in searchers:
            claim("searched_portion", {"player": player})
        claim("shuffles", {"player": player})
        if player in resolution.shuffled_portion:
            claim("shuffled_portion", {"player": player})
        claim("searched_library_this_turn", {"player": player})
        if player in resolution.mills:
            claim("mills", {"player": player})
    for searcher in searchers:
        whose_list = sorted({s.whose for s in resolution.spaces_of(searcher)})
        for whose in whose_list:
            claim("found_count", {"searcher": searcher, "whose": whose})
        claim("revealed", {"searcher": searcher})
    if searchers:
        claim("decision_order", {})
    new = object.__new__
    # The finds index holds every label of every search space once, in first-seen order, with
    # the verdict the "finds" claim returns for it. Searches through different players' zones
    # look at different cards: then it is their finds one after the other, read in place.
    finds_of: Iterator[tuple[str, Verdict]]
    if len({space.whose for space in resolution.searches}) == len(resolution.searches):
        finds_of = (item for space in resolution.searches for item in space.finds.items())
    else:
        finds_of = iter(ev.finds_index.items())
    for label, verdict in finds_of:
        result = new(ClaimResult)
        fields = result.__dict__
        fields["claim"] = "finds"
        fields["subject"] = {"card": label}
        fields["value"] = verdict.value
        fields["rule"] = verdict.rule
        fields["reason"] = verdict.reason
        add(result)
    for name, verdicts in (
        ("zone_after", resolution.zone_after),
        ("mana_produced", resolution.mana),
        ("can_dredge", resolution.dredge),
        # Costs and effects that tap, and permanents entering (tapped or not).
        ("tapped_after", resolution.tapped_after),
    ):
        # Each claim returns the resolution's own verdict for a label it holds.
        for label, verdict in verdicts.items():
            result = new(ClaimResult)
            fields = result.__dict__
            fields["claim"] = name
            fields["subject"] = {"card": label}
            fields["value"] = verdict.value
            fields["rule"] = verdict.rule
            fields["reason"] = verdict.reason
            add(result)
    # Costs and effects that put or remove counters, or change life (usually none).
    for (label, kind), verdict in resolution.counters.items():
        subject = {"card": label, "kind": kind}
        add(fast("counters", subject, verdict.value, verdict.rule, verdict.reason))
    for label, verdict in resolution.enters_x.items():
        add(fast("enters_x", {"card": label}, verdict.value, verdict.rule, verdict.reason))
    for label in resolution.face_down:
        claim("exiled_face_down", {"card": label})
    for player, verdict in resolution.life.items():
        if player in resolution.life_unknown:
            continue  # something not modelled may change it too: no number is given
        add(fast("life_total", {"player": player}, verdict.value, verdict.rule, verdict.reason))
    for card in _asked_of_the_board(state):
        if card.zone == "hand":
            claim("alt_cost_available", {"card": card.label, "player": card.owner})
        else:
            claim("triggers", {"card": card.label})
    return results


def _asked_of_the_board(state: GameState) -> tuple[CardInstance, ...]:
    """The cards every resolution on this board is asked about, in the state's order: each hand
    card with an alternative cost, each permanent with a search or mana trigger. A state never
    changes, so they are picked once and kept on it."""
    found = state.__dict__.get("_asked_of_the_board")
    if found is None:
        found = state.__dict__["_asked_of_the_board"] = tuple(
            card
            for card in state.cards_in_zones("hand", "battlefield")
            if (
                bool(card.definition.alt_cost)
                if card.zone == "hand"
                else any(
                    a.when in SEARCH_TRIGGERS or a.when in MANA_TRIGGERS
                    for a in card.definition.triggered
                )
            )
        )
    return found


_Expected = tuple[str, dict[str, Any], tuple[str, tuple[tuple[str, Any], ...]]]


def _expected_claims(scenario: Scenario) -> tuple[tuple[_Expected, ...], frozenset[str]]:
    """The scenario's `expect` claims without "given", validated (every claim is, "given" or
    not): (name, subject, the key a computed claim is compared by) each, and their names. A
    Scenario never changes (it owns its claim objects), so this is done once per Scenario and
    kept on it; the subjects are read, never handed out (`to_result` copies them)."""
    made = scenario.__dict__.get("_expected_claims")
    if made is None:
        rows = []
        for index, claim in enumerate(scenario.expect):
            try:
                name, subject = claim_subject(scenario, claim)
            except ScenarioError as error:
                raise ScenarioError(f"expect[{index}].{error.path}", error.message) from error
            if "given" not in claim:
                rows.append((name, subject, (name, tuple(sorted(subject.items())))))
        made = (tuple(rows), frozenset(name for name, _, _ in rows))
        scenario.__dict__["_expected_claims"] = made
    return made


class Session:
    """One scenario parsed once, resolved once per line of play: a request asks every claim here.

    The module functions below are one-shot sessions; the web layer keeps one per request.
    """

    def __init__(self, spec: Spec, catalog: Catalog | None = None) -> None:
        self.scenario = _scenario(spec, catalog)
        self._evaluations: dict[str, Evaluation] = {}

    def evaluation(self, given: Any = None) -> Evaluation:
        """The resolution on the step's own choices, or on `given` ones (cached per line)."""
        key = "null" if given is None else json.dumps(given, sort_keys=True, default=str)
        if key not in self._evaluations:
            self._evaluations[key] = _evaluation(self.scenario, given)
        return self._evaluations[key]

    def resolve(self) -> Outcome:
        """Every relevant claim (and every `expect` claim without "given")."""
        ev = self.evaluation()
        expected, asked = _expected_claims(self.scenario)
        claims = _default_claims(ev)  # unique by construction
        if expected:
            # Only a claim of a name asked for can be one of them.
            keys = {(c.claim, tuple(sorted(c.subject.items()))) for c in claims if c.claim in asked}
            for name, subject, key in expected:
                if key not in keys:
                    keys.add(key)
                    claims.append(to_result(name, subject, evaluate(ev, name, subject)))
        return Outcome(tuple(claims), tuple(ev.resolution.explanation))

    def evaluate(self, claim: Mapping[str, Any]) -> ClaimResult:
        """One claim, honouring its "given" choices (a fixed line of play)."""
        name, subject = claim_subject(self.scenario, claim)
        given = claim.get("given")
        ev = self.evaluation(given)
        if given is not None:
            subject = {**subject, "given": given}
        return to_result(name, subject, evaluate(ev, name, subject))

    def check_find_choice(self, searcher: str, labels: Sequence[str]) -> ChoiceVerdict:
        # the line of play resolved once for every choice checked (a legal set's table is
        # hundreds of them)
        return _check_find_choice(self.scenario, searcher, labels, self.evaluation)


def resolve(spec: Spec, catalog: Catalog | None = None) -> Outcome:
    """Resolve a scenario: every relevant claim (and every `expect` claim without "given")."""
    return Session(spec, catalog).resolve()


def evaluate_claim(
    spec: Spec, claim: Mapping[str, Any], catalog: Catalog | None = None
) -> ClaimResult:
    """Evaluate one claim, honouring its "given" choices (a fixed line of play)."""
    return Session(spec, catalog).evaluate(claim)


def ruling_report(spec: Spec, catalog: Catalog | None = None) -> dict[str, Any]:
    """The whole ruling as JSON, as `manage.py ruling` prints it and the rulings API answers:
    the scenario's id and title, every claim of the resolution (and every `expect` claim without
    "given") with its value, rule and reason, and each `expect` claim with "given" evaluated on
    its own line of play (`given_claims`). Raises ScenarioError naming the field."""
    session = Session(spec, catalog)
    scenario = session.scenario
    outcome = session.resolve()
    given_claims = []
    for index, claim in enumerate(scenario.expect):
        if "given" not in claim:
            continue
        try:
            given_claims.append(session.evaluate(claim).to_json())
        except ScenarioError as error:
            raise ScenarioError(f"expect[{index}].{error.path}", error.message) from error
    return {
        "id": scenario.id,
        "title": scenario.title,
        **outcome.to_json(),
        "given_claims": given_claims,
    }


def mana_options(value: Any) -> frozenset[str] | None:
    """Canonical options of a mana value: "{G} or {U}", "G or U", "G/U" -> {"G", "U"}."""
    if not isinstance(value, str):
        return None
    text = value.replace(" or ", "|").replace("/", "|").replace(",", "|")
    options = [re.sub(r"[{}\s]", "", part).upper() for part in text.split("|")]
    return frozenset(o for o in options if o)


_ANY_COLOR = frozenset("WUBRG")
_NUMBER_WORDS = {
    word: str(number)
    for number, word in enumerate(
        ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
    )
}
_ZONE_SYNONYMS = {"library_top": "library", "top of library": "library", "deck": "library"}


def _any_color(value: str) -> bool:
    return value.strip().lower() in ("any color", "one mana of any color", "any one color")


def _portion_text(value: Any) -> Any:
    """ "Top four cards" -> "top 4"; "whole library" -> "library"; anything else unchanged."""
    if not isinstance(value, str):
        return value
    words = value.strip().lower().replace("cards", "").replace("card", "").split()
    if words in (["whole", "library"], ["entire", "library"], ["all"]):
        return "library"
    if len(words) == 2 and words[0] == "top":
        return f"top {_NUMBER_WORDS.get(words[1], words[1])}"
    return " ".join(words)


def _library_size(scenario: Scenario, subject: Mapping[str, Any]) -> int:
    """Cards in the library a player's search looks at (their own, else the one searched)."""
    player = subject["player"]
    ev = _evaluation(scenario, subject.get("given"))
    spaces = [s for s in ev.resolution.spaces_of(player) if "library" in s.searched_zones]
    whose = next(
        (s.whose for s in spaces if s.whose == player), spaces[0].whose if spaces else player
    )
    return len(scenario.state.cards_in(whose, "library"))


def _same_claim(
    name: str,
    expected: Any,
    computed: Any,
    scenario: Scenario | None = None,
    subject: Mapping[str, Any] | None = None,
) -> bool:
    """Does a hand-written value agree with the computed one? Harmless synonyms are accepted."""
    # Mana is written "{G}" by the engine; "G" in a hand-written ruling means the same mana.
    if name == "mana_produced" and isinstance(expected, str):
        if _any_color(expected):
            return mana_options(computed) == _ANY_COLOR
        return mana_options(expected) == mana_options(computed)
    if name in ("searched_portion", "shuffled_portion") and isinstance(expected, str):
        wanted, got = _portion_text(expected), _portion_text(computed)
        if wanted == got:
            return True
        # The top N cards of a library holding at most N cards are the whole library.
        return (
            wanted == "library"
            and isinstance(got, str)
            and got.startswith("top ")
            and got[4:].isdigit()
            and scenario is not None
            and subject is not None
            and _library_size(scenario, subject) <= int(got[4:])
        )
    if name == "zone_after" and isinstance(expected, str) and isinstance(computed, str):
        # "exile or library" names the same possibilities as "library or exile".
        wanted = {
            _ZONE_SYNONYMS.get(part.strip(), part.strip())
            for part in expected.strip().lower().split(" or ")
        }
        return wanted == set(computed.split(" or "))
    return _same(expected, computed)


def _same(expected: Any, computed: Any) -> bool:
    if isinstance(expected, bool) or isinstance(computed, bool):
        return type(expected) is type(computed) and expected == computed
    if isinstance(expected, (list, tuple)) and isinstance(computed, (list, tuple)):
        return len(expected) == len(computed) and all(
            _same(a, b) for a, b in zip(expected, computed, strict=True)
        )
    return expected == computed


def check_expectations(spec: Spec, catalog: Catalog | None = None) -> list[Mismatch]:
    """Compare every `expect` claim with the engine; empty when all agree."""
    session = Session(spec, catalog)
    scenario = session.scenario
    mismatches = []
    for index, claim in enumerate(scenario.expect):
        if "value" not in claim:
            mismatches.append(Mismatch(claim, None, f"expect[{index}] has no value"))
            continue
        try:
            result = session.evaluate(claim)
        except ScenarioError as error:
            mismatches.append(
                Mismatch(claim, None, f"expect[{index}] {claim.get('claim')}: {error}")
            )
            continue
        if not _same_claim(result.claim, claim["value"], result.value, scenario, result.subject):
            subject = ", ".join(f"{k}={v}" for k, v in result.subject.items() if k != "given")
            mismatches.append(
                Mismatch(
                    claim,
                    result,
                    f"expect[{index}] {result.claim}({subject}): expected {claim['value']!r}, "
                    f"engine says {result.value!r} ({result.rule}: {result.reason})",
                )
            )
    return mismatches


def check_find_choice(
    spec: Spec, searcher: str, labels: Sequence[str], catalog: Catalog | None = None
) -> ChoiceVerdict:
    """Is finding exactly `labels` legal for `searcher` in the resolving search(es)?"""
    return _check_find_choice(_scenario(spec, catalog), searcher, labels)


def _check_find_choice(
    scenario: Scenario,
    searcher: str,
    labels: Sequence[str],
    evaluation: Callable[[Any], Evaluation] | None = None,
) -> ChoiceVerdict:
    if searcher not in scenario.state.players:
        raise ScenarioError("searcher", f"{searcher!r} is not a player")
    for label in labels:
        if scenario.state.card(label) is None:
            return ChoiceVerdict(False, "701.23a", because("no_such_label", label=repr(label)))
    if len(set(labels)) != len(labels):
        return ChoiceVerdict(False, "701.23a", because("found_once"))
    choices = {
        p: {k: v for k, v in d.items() if k != "find"}
        for p, d in (scenario.resolve.choices if scenario.resolve else {}).items()
    }
    ev = evaluation(choices) if evaluation else _evaluation(scenario, choices)
    spaces = ev.resolution.spaces_of(searcher)
    if not spaces:
        legal = not labels
        return ChoiceVerdict(
            legal,
            "701.23a",
            because("no_search_here" if legal else "nothing_can_be_found", player=searcher),
        )
    names = {label: scenario.state.card(label).name for label in labels}
    verdict = check_found_set(spaces, list(labels), names)
    reason = verdict.reason
    # A chosen card the reason starts with is named by its name too ("The Forest (f1) ...").
    label = reason.params.get("label")
    if label in names:
        named = because("labelled_card", card=names[label], label=label)
        reason = because(reason.key, **{**reason.params, "label": named})
    missing = [x for s in spaces for x in s.must_find if x not in labels]
    if not verdict.value and missing and reason.key == "must_be_found" and label == missing[0]:
        card = scenario.state.card(missing[0])
        reason = because(
            "must_be_found_in", card=card.name, where=card.zone, reason=reason.params["reason"]
        )
    return ChoiceVerdict(bool(verdict.value), verdict.rule, reason)


__all__ = [
    "CLAIM_SUBJECTS",
    "Session",
    "check_expectations",
    "check_find_choice",
    "evaluate_claim",
    "resolve",
]

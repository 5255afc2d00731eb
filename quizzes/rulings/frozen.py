"""A variant's engine answers, stored: what serving and grading a question read of the engine.

`freeze(ruling)` runs when content is written: it keeps the scene (`scene.scene_of`), each
claim's value, rule and reason (the reason said in every language the site speaks), each
player's `searches` (a wish is a choice from outside the game), whether the ability the line of
play activates can be (`activated_ability`: the page's words say so), and for a legal-set
question the engine's verdict on every pick that can matter. `FrozenSession` answers the same
calls as an engine `Session` from that data, so a `Ruling` built on it serves and grades with no
engine run.

A legal-set pick is graded as the engine grades it, by the cards' classes: cards of one name,
owner, zone and state that the engine rules alike for the search are interchangeable, so the
verdict on a pick is the verdict on its class counts. Stored: the verdict on each count vector
up to one card more than the search may find, and on one pick of each larger size; a pick
holding a card the search can't find gets that card's verdict (the engine checks such cards
first, in the order picked). Before a variant is stored, random picks are graded both ways and
must agree.
"""

from __future__ import annotations

import functools
import itertools
import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils import translation

from quizzes.rulings.reasons import Said, say
from quizzes.rulings.scene import Scene, scene_of
from quizzes.rulings.values import plain

UNFINDABLE = frozenset({"not_in_searched_zone", "cannot_be_found", "no_such_label"})
NOTHING_TO_FIND = "nothing_can_be_found"
MOST_VECTORS = 3000  # a legal-set board with more count vectors is not stored (none is today)
SPOT_CHECKS = 40  # random picks graded by the engine and by the table before storing


class NotStored(LookupError):
    """A claim or pick the stored variant holds no answer for (a bug: every question's claims
    are stored)."""


class Unstorable(ValueError):
    """The engine's verdicts on a legal-set board could not be stored faithfully."""


@dataclass(frozen=True)
class StoredResult:
    """A `ClaimResult` as stored: the value as JSON, the rule, the reason in every language."""

    value: Any
    rule: str
    reason: Said
    key: str = ""  # the engine reason's key (a certification-style option's reason: its key)


@dataclass(frozen=True)
class StoredChoice:
    legal: bool
    rule: str
    reason: Said


def claim_key(claim: Mapping[str, Any]) -> str:
    return json.dumps(claim, sort_keys=True, separators=(",", ":"))


def said(reason: Any) -> Said:
    """`reason` in every language the site speaks."""
    params = repr(getattr(reason, "params", ""))
    return Said(_said(reason, getattr(reason, "key", None), params, tuple(settings.LANGUAGES)))


@functools.lru_cache(maxsize=8192)
def _said(reason: Any, key: str | None, params: str, languages: tuple) -> dict[str, str]:
    # Said once per reason: its message and parameters (a phrase's filter among them) decide
    # the words in each language.
    texts = {}
    for code, _name in languages:
        with translation.override(code):
            texts[code] = say(reason)
    return texts


def activated_ability(spec: Mapping[str, Any]) -> dict[str, Any] | None:
    """The `can_activate` claim on the ability the scenario's line of play activates, if it
    activates one: the page says the player activates it only when it can be activated."""
    step = spec.get("resolve") or {}
    if "activate" not in step:
        return None
    ability = {"ability": step["ability"]} if "ability" in step else {}
    return {"claim": "can_activate", "card": step["activate"], **ability}


def freeze(ruling: Any, kind: str) -> dict[str, Any]:
    """What serving and grading `ruling` (built on an engine session) read, as JSON."""
    session = ruling.session
    # a legal set is graded by its picks below: the engine has no claim of that name
    asked = [_asked(claim) for claim in ruling.claims if claim["claim"] != "legal_find_set"]
    asked += [{"claim": "searches", "player": p} for p in session.scenario.state.players]
    if (activated := activated_ability(ruling.shown.spec)) is not None:
        asked.append(activated)
    if kind == "legal_set":  # the audit judges a legal set by what its search may find
        asked.append(_found_count(ruling.claims[0]))
    results = {}
    for claim in asked:
        result = session.evaluate(claim)
        results[claim_key(claim)] = {
            "value": plain(result.value),
            "rule": str(result.rule or ""),
            "reason": said(result.reason).texts,
            "key": str(getattr(result.reason, "key", "") or ""),
        }
    data: dict[str, Any] = {
        "scene": scene_of(session.scenario),
        "results": results,
        "searchers": list(ruling.searchers()),
    }
    if kind == "legal_set":
        data["picks"] = _picks(ruling, ruling.claims[0])
    return data


def _asked(claim: Mapping[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in claim.items() if key not in ("proposed", "value")}


class FrozenSession:
    """The calls a `Ruling` makes of an engine `Session`, answered from a stored variant."""

    def __init__(self, data: Mapping[str, Any], spec: Mapping[str, Any]) -> None:
        self.scenario = Scene.of(data["scene"], spec)
        self._results = data["results"]
        self.searchers = tuple(data["searchers"])
        self._picks = data.get("picks")

    def evaluate(self, claim: Mapping[str, Any]) -> StoredResult:
        stored = self._results.get(claim_key(claim))
        if stored is None:
            raise NotStored(f"no stored answer for {claim_key(claim)}")
        return StoredResult(
            stored["value"], stored["rule"], Said(stored["reason"]), stored.get("key", "")
        )

    def check_find_choice(self, searcher: str, labels: Sequence[str]) -> StoredChoice:
        picks = self._picks
        if picks is None or picks["searcher"] != searcher:
            raise NotStored(f"no stored picks for {searcher}")
        return _graded(picks, list(labels))

    def resolve(self):
        raise NotStored("a stored variant holds the claims asked, not the whole outcome")


# Legal-set picks.


def _found_count(legal_set: Mapping[str, Any]) -> dict[str, Any]:
    """How many cards the search of a legal-set claim may find."""
    return {**_asked(legal_set), "claim": "found_count"}


def _picks(ruling: Any, claim: Mapping[str, Any]) -> dict[str, Any]:
    session, searcher = ruling.session, claim["searcher"]
    labels = list(ruling.board.cards)
    unfindable: dict[str, dict[str, Any]] = {}
    classes: dict[str, list[str]] = {}
    for label in labels:
        verdict = session.check_find_choice(searcher, [label])
        key = getattr(verdict.reason, "key", "")
        if not verdict.legal and key in UNFINDABLE | {NOTHING_TO_FIND}:
            unfindable[label] = _choice_json(verdict)
            continue
        classes.setdefault(_class_key(session, label), []).append(label)
    groups = list(classes.values())
    found = session.evaluate(_found_count(claim)).value
    most = _most(found, sum(len(group) for group in groups))
    vectors = _vectors([len(group) for group in groups], most + 1)
    if len(vectors) > MOST_VECTORS:
        raise Unstorable(f"{len(vectors)} count vectors")
    table = {}
    for vector in vectors:
        pick = _representative(groups, vector)
        table[_vector_key(vector)] = _choice_json(session.check_find_choice(searcher, pick))
    larger = {}
    total = sum(len(group) for group in groups)
    for size in range(most + 2, total + 1):
        pick = [label for group in groups for label in group][:size]
        larger[str(size)] = _choice_json(session.check_find_choice(searcher, pick))
    picks = {
        "searcher": searcher,
        "unfindable": unfindable,
        "groups": groups,
        "table": table,
        "larger": larger,
        "most": most,
    }
    _spot_check(session, searcher, labels, picks)
    return picks


def _class_key(session: Any, label: str) -> str:
    """What the engine's verdict on a pick can turn on for one card."""
    card = session.scenario.state.card(label)
    finds = session.evaluate({"claim": "finds", "card": label})
    return json.dumps(
        [card.name, card.owner, card.zone, card.tapped, plain(finds.value), str(finds.rule)]
    )


def _most(found: Any, findable: int) -> int:
    """The most cards the search may find (its found_count's upper bound), at most `findable`."""
    found = plain(found)
    if isinstance(found, list) and len(found) == 2 and isinstance(found[1], int):
        return min(found[1], findable)
    return findable


def _vectors(sizes: list[int], total: int) -> list[tuple[int, ...]]:
    """Every count vector (k_i <= sizes_i) with sum <= total."""
    ranges = [range(min(size, total) + 1) for size in sizes]
    return [v for v in itertools.product(*ranges) if sum(v) <= total]


def _vector_key(vector: Sequence[int]) -> str:
    return ",".join(str(count) for count in vector)


def _representative(groups: list[list[str]], vector: Sequence[int]) -> list[str]:
    return [label for group, count in zip(groups, vector, strict=True) for label in group[:count]]


def _choice_json(verdict: Any) -> dict[str, Any]:
    return {
        "legal": bool(verdict.legal),
        "rule": str(verdict.rule or ""),
        "reason": said(verdict.reason).texts,
    }


def _graded(picks: Mapping[str, Any], labels: list[str]) -> StoredChoice:
    if len(set(labels)) != len(labels):
        raise NotStored("a card picked twice")  # the form offers each card once
    for label in labels:  # the engine checks each card picked, in order, first
        if label in picks["unfindable"]:
            return _choice(picks["unfindable"][label])
    groups = picks["groups"]
    where = {label: index for index, group in enumerate(groups) for label in group}
    if any(label not in where for label in labels):
        raise NotStored("a card not on the board")
    vector = [0] * len(groups)
    for label in labels:
        vector[where[label]] += 1
    if sum(vector) > picks["most"] + 1:
        return _choice(picks["larger"][str(sum(vector))])
    return _choice(picks["table"][_vector_key(vector)])


def _choice(data: Mapping[str, Any]) -> StoredChoice:
    return StoredChoice(data["legal"], data["rule"], Said(data["reason"]))


def _spot_check(session: Any, searcher: str, labels: list[str], picks: dict[str, Any]) -> None:
    """Random picks, graded by the engine and by the stored table, must agree on legality."""
    rng = random.Random(f"{searcher}:{len(labels)}")
    for _ in range(SPOT_CHECKS):
        size = rng.randint(0, min(len(labels), picks["most"] + 2))
        pick = rng.sample(labels, size)
        if session.check_find_choice(searcher, pick).legal != _graded(picks, pick).legal:
            raise Unstorable(f"the stored picks disagree with the engine on {pick}")

"""A family's instances: drawn per seed, ruled by the engine, kept when valid and new.

The same seed gives the same instances. An instance is new when what the engine CONCLUDED
differs: the value and the deciding rule of every claim asked (must/may/cannot, counts, portions,
who shuffles, ...), keyed by labels and players, never by card names, so a renamed card is the
same instance. Its questions are kept only when well-formed (their kind accepts their claims)
and when no earlier question of the family asks the same conclusions. Whether an instance is kept
is decided on its questions drawn as if `content/true_values.json` were empty (`_instance`).
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass, field
from typing import Any

from quizzes.rulings import balance
from quizzes.rulings.families import FamilyError, FamilyTemplate, instance_spec
from quizzes.rulings.generate import GeneratedQuestion, build_questions, card_names
from quizzes.rulings.kinds import KINDS
from quizzes.rulings.ruling import asked_claim
from rules.engine import Catalog, ScenarioError, Session, timing_findings

PLAYER_KEYS = ("player", "searcher", "whose")
TRIES_PER_INSTANCE = 6  # combinations drawn per instance wanted


@dataclass
class Instance:
    family: FamilyTemplate
    slug: str
    spec: dict[str, Any]  # scenario/1, `expect` holding the engine's values
    conclusions: str  # the fingerprint instances are deduplicated by
    questions: list[GeneratedQuestion]
    question_conclusions: list[
        str
    ]  # one per question, the fingerprint questions are deduplicated by


@dataclass
class Expansion:
    family: FamilyTemplate
    instances: list[Instance] = field(default_factory=list)
    tried: int = 0
    invalid: int = 0
    outcomes: int = 0  # distinct conclusions seen (kept or not)


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)


def _asks_about_board(claim: dict[str, Any], labels: set[str], players: set[str]) -> bool:
    """Is every card and player the claim names on this instance's board?"""
    if "card" in claim and claim["card"] not in labels:
        return False
    return all(claim[key] in players for key in PLAYER_KEYS if key in claim)


def conclusions_of(claims: list[dict[str, Any]], results) -> list[list[Any]]:
    """Per claim: its name and subject (labels, players), the engine's value and rule."""
    return [
        [_canonical(asked_claim(claim)), _canonical(result.value), result.rule or ""]
        for claim, result in zip(claims, results, strict=True)
    ]


def rule_instance(
    family: FamilyTemplate, chosen: dict[str, Any], catalog: Catalog
) -> tuple[dict[str, Any], list[list[Any]]] | None:
    """The instance's spec with the engine's values and its conclusions, or None when the
    engine refuses the board (an invalid combination). A claim about a card or player the board
    lacks, or on a line of play the board makes illegal, is not asked."""
    try:
        spec, claims = family.fill(chosen)
        seated = instance_spec(family, spec, [], "draft")
        labels, players = set(card_names(seated)), set(seated.get("players") or [])
        claims = [claim for claim in claims if _asks_about_board(claim, labels, players)]
        session = Session(seated, catalog)
        session.resolve()
    except (ScenarioError, FamilyError):
        return None
    if timing_findings(session.scenario):
        return None  # a spell cast when the rules don't allow (a sorcery in another's turn)
    asked, results = [], []
    for claim in claims:
        try:
            results.append(session.evaluate(claim))
        except ScenarioError:
            continue  # its line of play is illegal on this board ("given" dredge, too few cards)
        asked.append(claim)
    claims = asked
    if not claims:
        return None
    valued = [
        claim | {"value": result.value} for claim, result in zip(claims, results, strict=True)
    ]
    body = instance_spec(family, spec, valued, "")
    digest = hashlib.sha1(_canonical(body).encode()).hexdigest()[:10]
    slug = f"{family.id}-{digest}"
    return instance_spec(family, spec, valued, slug), conclusions_of(claims, results)


def _question_conclusions(
    family: FamilyTemplate, item: GeneratedQuestion, by_claim: dict[str, list[Any]], whole: str
) -> str:
    parts = [
        by_claim.get(_canonical(asked_claim(claim)), [whole, _canonical(asked_claim(claim))])
        for claim in item.claims
    ]  # a claim asked on a stated line of play ("given") is told apart by that line
    return _canonical([family.id, item.kind, parts])


def expand(family: FamilyTemplate, catalog: Catalog, seed: int, count: int) -> Expansion:
    """Up to `count` instances of `family` for `seed`; raises FamilyError when every instance
    tried gives the same conclusions (a scenario, not a family)."""
    expansion = Expansion(family)
    seen_instances: set[str] = set()
    seen_questions: tuple[set[str], set[str]] = (set(), set())  # drawn unbalanced, stored
    rng = random.Random(f"{seed}:{family.id}")
    for chosen in family.combinations(rng, max(count, 2) * TRIES_PER_INSTANCE):
        if len(expansion.instances) >= count and expansion.outcomes >= 2:
            break
        expansion.tried += 1
        ruled = rule_instance(family, chosen, catalog)
        if ruled is None:
            expansion.invalid += 1
            continue
        spec, conclusions = ruled
        whole = _canonical(conclusions)
        if whole in seen_instances:
            continue
        seen_instances.add(whole)
        expansion.outcomes += 1
        if len(expansion.instances) >= count:
            continue
        instance = _instance(family, spec, conclusions, whole, catalog, seen_questions)
        if instance is not None:
            expansion.instances.append(instance)
    if expansion.outcomes < 2:
        raise FamilyError(
            family.where,
            "parameters",
            f"every instance tried ({expansion.tried}) gives the same conclusions: "
            "a scenario, not a family",
        )
    return expansion


def _instance(
    family, spec, conclusions, whole, catalog, seen_questions: tuple[set[str], set[str]]
) -> Instance | None:
    # Kept when its questions drawn as if true_values.json were empty ask something new. The
    # audit writes that file from the instances kept, so deciding on its counts (which claims
    # are stated) kept other instances at each rewrite and the file never settled. The questions
    # stored are drawn with the counts: the new ones, else all (the family asks them of another
    # instance already), else, when the counts leave none well-formed, the unbalanced new ones.
    try:
        with balance.unbalanced():
            unbalanced = build_questions(spec, catalog)
        generated = build_questions(spec, catalog)
    except ScenarioError:
        return None
    by_claim = {row[0]: row for row in conclusions}

    def well_formed(
        items: list[GeneratedQuestion], seen: set[str] | None
    ) -> list[tuple[GeneratedQuestion, str]]:
        """(question, fingerprint) of `items` whose kind accepts them, none `seen` (added)."""
        made = []
        for item in items:
            if KINDS[item.kind].problem(item.claims):
                continue  # not well-formed for its kind
            fingerprint = _question_conclusions(family, item, by_claim, whole)
            if seen is not None:
                if fingerprint in seen:
                    continue  # the family already asks exactly this
                seen.add(fingerprint)
            made.append((item, fingerprint))
        return made

    new = well_formed(unbalanced, seen_questions[0])
    if not new:
        return None
    kept = well_formed(generated, seen_questions[1]) or well_formed(generated, None) or new
    return Instance(family, spec["id"], spec, whole, [q for q, _ in kept], [p for _, p in kept])

"""Questions generated from a scenario's engine-computable claims (`spec["expect"]`).

Claims in a question never hold the key: the engine computes it when the learner answers. Only
`yes_no` and `multiple_choice` claims carry a `"proposed"` value, the statement shown; it is true
when the computed value equals it. False statements come from the claim's value domain.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rules.engine import Catalog, evaluate_claim

Claim = dict[str, Any]

# Values a claim can take, for proposing a false statement next to a true one.
DOMAINS: dict[str, list[Any]] = {
    "finds": ["must", "may", "cannot"],
    "searches": ["must", "may", "cannot"],
    "shuffles": ["yes", "no", "if_searched"],
    "searched_library_this_turn": ["yes", "no", "if_searched"],
    "revealed": [True, False],
    "alt_cost_available": [True, False],
    "can_dredge": [True, False],
    "zone_after": ["library", "hand", "graveyard", "battlefield", "exile"],
}
SUBJECT_KEYS = ("card", "player", "searcher", "whose")
VALUE_CLAIMS_SKIPPED = {"finds", "found_count"}  # asked by their own kinds


@dataclass
class GeneratedQuestion:
    key: str
    kind: str
    prompt: str
    claims: list[Claim]
    cited_rules: set[str] = field(default_factory=set)


def question_claim(claim: Claim) -> Claim:
    """The claim without its value (the key is the engine's)."""
    return {key: value for key, value in claim.items() if key != "value"}


def false_value(claim: Claim, value: Any) -> Any:
    """A plausible value the claim does not have."""
    name = claim["claim"]
    if name in DOMAINS:
        others = [v for v in DOMAINS[name] if v != value]
        return others[0] if others else value
    if name in ("searched_portion", "shuffled_portion"):
        return "top 4" if value == "library" else "library"
    if name in ("mills", "triggers") and isinstance(value, int):
        return value + 1 if value == 0 else value - 1
    if name == "found_count" and isinstance(value, list) and len(value) == 2:
        return [value[0], value[1] + 1]
    if name == "decision_order" and isinstance(value, list):
        return list(reversed(value)) if len(value) > 1 else value
    if name == "mana_produced":
        return "{C}" if value == "" else ""
    return None


def _subject_text(claim: Claim, names: dict[str, str]) -> str:
    for key in SUBJECT_KEYS:
        if key in claim:
            return names.get(claim[key], claim[key])
    return ""


def describe_situation(spec: dict[str, Any], names: dict[str, str]) -> str:
    """One sentence for what resolves, e.g. "Alice casts Splinter targeting Howling Mine."."""
    step = spec.get("resolve", {})
    targets = [names.get(target, target) for target in step.get("targets", [])]
    targeting = f" targeting {' and '.join(targets)}" if targets else ""
    if "cast" in step:
        card = names.get(step["cast"], step["cast"])
        return f"{step.get('by', spec['players'][0])} casts {card}{targeting}."
    if "activate" in step:
        card = names.get(step["activate"], step["activate"])
        return f"{step.get('by', spec['players'][0])} activates {card}{targeting}."
    if "trigger" in step:
        card = names.get(step["trigger"], step["trigger"])
        event = step.get("event", "")
        return f"{card}'s ability triggers{' (it ' + event + ')' if event else ''}{targeting}."
    if "draw" in step:
        return f"{step['draw']} would draw a card."
    return ""


PROMPTS: dict[str, str] = {
    "searches": "Must, may or can't {s} search?",
    "shuffles": "Does {s} shuffle their library (yes, no, or only if they searched)?",
    "searched_portion": "What does {s} search: the whole library or only part of it?",
    "shuffled_portion": "What does {s} shuffle: the whole library or only part of it?",
    "revealed": "Are the cards {s} finds revealed?",
    "searched_library_this_turn": "After this, has {s} searched their library this turn?",
    "alt_cost_available": "Can {s} be cast for its alternative cost now?",
    "mills": "How many cards does {s} mill?",
    "can_dredge": "Can {s}'s dredge replace this draw?",
    "zone_after": "Where does {s} end up?",
    "triggers": "How many times does {s}'s ability trigger?",
    "mana_produced": "What mana does {s} produce?",
    "decision_order": "In what order do the players decide what to find?",
}


def build_questions(
    spec: dict[str, Any],
    names: dict[str, str],
    evaluate: Callable[[Claim], Any],
) -> list[GeneratedQuestion]:
    """Questions about `spec["expect"]`; `evaluate(claim)` returns the engine's ClaimResult."""
    situation = describe_situation(spec, names)
    claims = [claim for claim in spec.get("expect") or [] if isinstance(claim, dict)]
    results = [evaluate(question_claim(claim)) for claim in claims]
    rules_of = [set(_numbers(result.rule)) for result in results]
    questions: list[GeneratedQuestion] = []

    def cited(indices) -> set[str]:
        return set().union(*(rules_of[i] for i in indices)) if indices else set()

    # per-card must/may/cannot, one question per line of play ("given")
    finds = [i for i, c in enumerate(claims) if c["claim"] == "finds" and "given" not in c]
    if finds:
        searchers = {c["searcher"] for c in claims if c["claim"] == "found_count"}
        ask = (
            f"must, may or cannot {next(iter(searchers))} find it"
            if len(searchers) == 1
            else "must, may or cannot it be found by the search that looks at its zone"
        )
        questions.append(
            GeneratedQuestion(
                "cards",
                "cards",
                f"{situation} For each card, {ask}?",
                [question_claim(claims[i]) for i in finds],
                cited(finds),
            )
        )
    for i, claim in enumerate(claims):
        if claim["claim"] != "found_count":
            continue
        whose = f" in {claim['whose']}'s zones" if "whose" in claim else ""
        suffix = f"-{claim['searcher']}".lower() + (f"-{claim['whose']}".lower() if whose else "")
        questions.append(
            GeneratedQuestion(
                f"count-range{suffix}",
                "count_range",
                f"{situation} How many cards can {claim['searcher']} find{whose}? "
                "Give the fewest and the most.",
                [question_claim(claim)],
                cited([i]),
            )
        )
        if "given" not in claim:
            questions.append(
                GeneratedQuestion(
                    f"legal-set{suffix}",
                    "legal_set",
                    f"{situation} Pick a set of cards {claim['searcher']} could legally find"
                    f"{whose}.",
                    [
                        {"claim": "legal_find_set", "searcher": claim["searcher"]}
                        | ({"whose": claim["whose"]} if "whose" in claim else {})
                    ],
                    cited([i]),
                )
            )
    others = [i for i, c in enumerate(claims) if c["claim"] not in VALUE_CLAIMS_SKIPPED]
    for i in others:
        claim = claims[i]
        subject = _subject_text(claim, names)
        prompt = PROMPTS.get(claim["claim"], "What is the value of {s}?").format(s=subject)
        given = " (in the line of play given)" if "given" in claim else ""
        key = "-".join(
            [
                "value",
                claim["claim"].replace("_", "-"),
                *(str(claim[k]) for k in SUBJECT_KEYS if k in claim),
            ]
        ).lower()
        if "given" in claim:
            key += "-given"
        questions.append(
            GeneratedQuestion(
                _slug(key),
                "value",
                f"{situation}{given} {prompt}",
                [question_claim(claim)],
                cited([i]),
            )
        )
    # statements, alternating true and false so a learner can't answer "all true"
    statement_indices = [i for i in range(len(claims)) if results[i] is not None]
    proposals: list[Claim] = []
    used: list[int] = []
    for position, i in enumerate(statement_indices):
        value = results[i].value
        proposed = value if position % 2 == 0 else false_value(claims[i], value)
        if proposed is None:
            continue
        proposals.append(question_claim(claims[i]) | {"proposed": proposed})
        used.append(i)
    if len(proposals) >= 2:
        questions.append(
            GeneratedQuestion(
                "yes-no",
                "yes_no",
                f"{situation} For each statement, is it true or false?",
                proposals[:4],
                cited(used[:4]),
            )
        )
    if len(proposals) >= 3:
        questions.append(
            GeneratedQuestion(
                "multiple-choice",
                "multiple_choice",
                f"{situation} Which of these statements are true? (Several may be.)",
                proposals,
                cited(used),
            )
        )
    return questions


def card_names(spec: dict[str, Any]) -> dict[str, str]:
    """Labels to card names, for prompts ("mine" -> "Howling Mine")."""
    names: dict[str, str] = {}
    for zones in (spec.get("zones") or {}).values():
        for entries in zones.values():
            for entry in entries:
                if isinstance(entry, dict):
                    name, label = entry.get("card", ""), entry.get("label")
                else:
                    name, _, label = str(entry).partition("#")
                if label:
                    names[label] = name
    return names


def questions_for(spec: dict[str, Any], catalog: Catalog) -> list[GeneratedQuestion]:
    """The questions about `spec["expect"]`, the engine evaluating each claim against `catalog`
    (raises ScenarioError for a claim it can't evaluate)."""
    return build_questions(
        spec, card_names(spec), lambda claim: evaluate_claim(spec, claim, catalog)
    )


def _numbers(citation: str | None) -> list[str]:
    from quizzes.models.content import _rule_numbers

    return _rule_numbers(citation)


def _slug(text: str) -> str:
    cleaned = "".join(ch if ch.isalnum() or ch == "-" else "-" for ch in text.lower())
    while "--" in cleaned:
        cleaned = cleaned.replace("--", "-")
    return cleaned.strip("-")[:120]

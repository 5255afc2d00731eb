"""The audit of what learners are served: every variant of every active question, read as a
judge reads it, against named invariants (issue 20).

`served(question, seed)` builds a question exactly as the practice page does (`ruling_for`,
`prompt`, premises, history, the form's statements and options) and the feedback an answer
gets (each claim's value, reason and rule); each invariant below reads one `Served` and names
what is wrong with it, in words. `audit(questions, seeds)` runs them all.

Variants: a seed picks players' names, card swaps and library order (`variants.build`); the
seeds audited are 0 (as written) and 1..n, so the audit sees the variants the serving path
makes for those seeds (a random seed makes one of the same kinds).
"""

from __future__ import annotations

import json
import re
import zlib
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.utils import translation

from quizzes.models import Variant
from quizzes.rulings import catalog_of, certification, prompt, ruling_for
from quizzes.rulings.balance import value_key
from quizzes.rulings.board import MANA_SYMBOL, invented_names
from quizzes.rulings.claims import CHOICE, ORDER, claim_text
from quizzes.rulings.frozen import FrozenSession
from quizzes.rulings.generate import (
    ABOUT_A_SEARCH,
    SEARCH_DEPENDENT,
    Claim,
    asked_claims,
    nothing_to_find,
    optional_searchers,
    portion_is_whole,
    relevant,
    reveals_nothing,
    shown_share,
    statement_candidates,
    statement_subject,
)
from quizzes.rulings.kinds import value_choices
from quizzes.rulings.reasons import say
from quizzes.rulings.ruling import Ruling, chooses_outside
from quizzes.rulings.seeds import made_with, variant_count
from quizzes.rulings.values import plain, same
from rules.engine import ScenarioError, default_catalog
from rules.models import Rule
from rules.numbers import numbers_in

DEFAULT_SEEDS = None  # every stored seed: 0 (as written) .. variant_count() - 1
UNDETERMINED = re.compile(r"\bif_searched\b| or ")
INTERNAL = (
    (re.compile(r"\[['\"]|['\"]\]|\{['\"]"), "list or dict syntax"),
    (re.compile(r"\b\w+\.(?:library|hand|graveyard|battlefield|exile|outside)\.\d+\b"), "an id"),
    (re.compile(r"\b[a-z]+_[a-z_]+\b"), "a snake_case name"),
    (re.compile(r"\b(?:None|True|False)\b"), "a Python value"),
    (re.compile(r"\s{2,}|\s[.,?]|^\s|\s$"), "a name left out (a double space)"),
)


@dataclass
class Statement:
    text: str
    truth: bool
    claim: dict[str, Any]


@dataclass
class Served:
    """One question as a learner sees it (page and feedback), with its ruling: the stored
    variant's (`ruling`), and the engine's on the same variant (`engine`: the whole outcome,
    for the invariants that weigh other lines of play)."""

    question: Any
    seed: int
    ruling: Ruling
    engine: Ruling
    prompt: str
    premises: list[str]
    history: list[str]
    statements: list[Statement] = field(default_factory=list)  # yes/no, multiple choice
    options: list[tuple[str, bool]] = field(default_factory=list)  # a value's choices
    feedback: list[str] = field(default_factory=list)  # values, reasons, facts
    rules: set[str] = field(default_factory=set)  # the question's cited rules
    engine_rules: set[str] = field(default_factory=set)  # the engine's, for the claims asked

    def texts(self) -> list[str]:
        return [
            self.prompt,
            *self.premises,
            *self.history,
            *(s.text for s in self.statements),
            *(text for text, _key in self.options),
            *self.feedback,
        ]


def served(question, seed: int, catalog=None, rule_numbers: set[str] | None = None) -> Served:
    """`question` with variant `seed` as the practice page and its feedback show it (English):
    the stored variant, beside the engine's ruling on it."""
    with translation.override("en"):
        ruling = ruling_for(question, seed, None, catalog)
        engine = ruling
        if isinstance(ruling.session, FrozenSession):
            engine = Ruling.from_shown(ruling.kind, ruling.shown, catalog)
        return served_as(question, seed, ruling, engine, rule_numbers)


def served_as(
    question, seed: int, ruling: Ruling, engine: Ruling, rule_numbers: set[str] | None = None
) -> Served:
    """`ruling` (a variant of `question`) as a page and its feedback show it (English)."""
    with translation.override("en"):
        shown = Served(
            question,
            seed,
            ruling,
            engine,
            prompt(question, ruling),
            ruling.premises(),
            ruling.history(),
        )
        shown.rules = set(rule_numbers or ())
        for claim in ruling.claims:
            judged = claim
            if claim["claim"] == "legal_find_set":  # judged by what a search may find
                judged = {**claim, "claim": "found_count"}
            shown.engine_rules |= set(numbers_in(ruling.evaluate(judged).rule))
        for claim in ruling.claims:
            if claim["claim"] == "legal_find_set":
                continue
            result = ruling.evaluate(claim)
            shown.feedback.append(ruling.words(claim, result.value))
            shown.feedback.append(say(result.reason))
            if ruling.kind in ("yes_no", "multiple_choice"):
                proposed = claim.get("proposed")
                text = ruling.state(claim, proposed)
                shown.statements.append(Statement(text, same(result.value, proposed), claim))
                shown.feedback.append(ruling.state(claim, result.value))
        if ruling.kind == certification.KIND:
            options = certification.options_of(ruling)
            shown.options = [
                (
                    certification.option_text(ruling, options[index]),
                    certification.is_right(ruling, options[index]),
                )
                for index in certification.shown_positions(ruling)
            ]
        if ruling.kind == "value" and claim_text(ruling.claims[0]["claim"]).answer == CHOICE:
            claim = ruling.claims[0]
            key = ruling.evaluate(claim).value
            shown.options = [
                (ruling.words(claim, option), same(key, option))
                for option in value_choices(ruling, claim)
            ]
        return shown


def checker() -> Callable[[Any, int, Ruling], list[str]]:
    """What the invariants find wrong with a variant as it is made (`ruling`, on the engine):
    "invariant: problem" in words, for `load_content` to flag and an instructor's lint to show.
    The current rules are read once per checker (a site with no rules loaded judges none)."""
    current = set(Rule.objects.current().values_list("number", flat=True))

    def problems_of(question, seed: int, ruling: Ruling) -> list[str]:
        CURRENT_RULES.numbers = current
        numbers = {rule.number for rule in question.rules.all()}
        shown = served_as(question, seed, ruling, ruling, numbers)
        return [
            f"{name}: {problem}"
            for name, check in INVARIANTS.items()
            if current or name != "rules_current"
            for problem in check(shown)
        ]

    return problems_of


# The invariants: each reads one served question and returns what is wrong, in words.


def some_answer_scores_full(s: Served) -> list[str]:
    """Some answer the form accepts scores 100%."""
    claim = s.ruling.claims[0] if s.ruling.claims else None
    if claim is None:
        return ["no claim asked"]
    if s.question.kind == "value" and claim_text(claim["claim"]).answer == ORDER:
        order = plain(s.ruling.evaluate(claim).value) or []
        seated = [player.name for player in s.ruling.board.players]
        if sorted(order) != sorted(seated):
            return [f"the form ranks {len(seated)} players; the key ranks {len(order)}"]
    if s.options and not any(key for _text, key in s.options):
        return ["no option is the key"]
    return []


def one_option_right(s: Served) -> list[str]:
    """A certification-style question has exactly one right option (its outcome and its reason
    the engine's), 3 to 5 options, and each outcome and each reason offered equally often (no
    count tells the key)."""
    if s.question.kind != certification.KIND:
        return []
    problems = []
    right = sum(key for _text, key in s.options)
    if right != 1:
        problems.append(f"{right} options are right")
    if not 3 <= len(s.options) <= 5:
        problems.append(f"{len(s.options)} options")
    options = certification.options_of(s.ruling)
    for part in ("values", "reason"):
        counts = Counter(json.dumps(option[part]) for option in options)
        if len(set(counts.values())) > 1:
            problems.append(f"the options' {part} are not offered equally often: {dict(counts)}")
    return problems


def statements_distinct(s: Served) -> list[str]:
    """No two statements (or options) of a question say the same thing."""
    texts = [st.text for st in s.statements] + [text for text, _key in s.options]
    return [f"said twice: {text!r}" for text, n in Counter(texts).items() if n > 1]


def stated_choices(s: Served, claim: dict[str, Any]) -> dict[str, set[str]]:
    """The decisions the page states: the resolving step's choices and the claim's given."""
    stated: dict[str, set[str]] = {}
    resolve = s.engine.session.scenario.resolve
    for choices in ((resolve.choices if resolve else {}), claim.get("given") or {}):
        for player, decisions in choices.items():
            stated.setdefault(player, set()).update(decisions)
    return stated


def no_unstated_choice(s: Served) -> list[str]:
    """No statement (or key) whose truth turns on a choice the page does not state."""
    problems = []
    asked = s.statements or [Statement("", True, claim) for claim in s.ruling.claims]
    for statement in asked:
        claim = statement.claim
        if claim["claim"] not in SEARCH_DEPENDENT:
            continue
        stated = stated_choices(s, claim)
        for player in optional_searchers(s.engine):
            if "search" in stated.get(player, set()):
                continue
            values = []
            for choice in (True, False):
                given = {**(claim.get("given") or {}), player: {"search": choice}}
                try:
                    result = s.engine.session.evaluate({**_asked(claim), "given": given})
                except ScenarioError:
                    continue
                values.append(plain(result.value))
            if len(values) == 2 and values[0] != values[1]:
                said = statement.text or s.prompt
                problems.append(f"{said!r} turns on whether {player} searches (not stated)")
    return problems


def _asked(claim: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in claim.items() if k not in ("proposed", "value", "given")}


def no_undetermined_value(s: Served) -> list[str]:
    """No undetermined value ("tapped or untapped", "only if they searched") as a statement,
    nor as an option unless worded "depends on …": a learner can't tell it true or false."""
    problems = []
    for statement in s.statements:
        for value in (statement.claim.get("proposed"), s.ruling.evaluate(statement.claim).value):
            if _undetermined(value):
                problems.append(f"statement {statement.text!r} (value {plain(value)!r})")
    if s.options:
        claim = s.ruling.claims[0]
        for option in value_choices(s.ruling, claim):
            words = s.ruling.words(claim, option)
            if _undetermined(option) and claim["claim"] != "finds" and "depends on" not in words:
                problems.append(f"option {words!r} (worded as if determined)")
    return problems


def _undetermined(value: Any) -> bool:
    return isinstance(value, str) and bool(UNDETERMINED.search(value))


def no_internal_text(s: Served) -> list[str]:
    """No label, id, list syntax or Python value in any text a learner reads."""
    labels = {
        card.label
        for card in s.engine.session.scenario.state.cards
        if card.label != card.name and re.search(r"\d|_", card.label)
    }
    problems = []
    for text in s.texts():
        for pattern, what in INTERNAL:
            if pattern.search(text):
                problems.append(f"{what} in {text!r}")
        for label in labels:
            if re.search(rf"\b{re.escape(label)}\b", text):
                problems.append(f"label {label!r} in {text!r}")
    return problems


def no_spell_out_of_turn(s: Served) -> list[str]:
    """No spell cast when the rules don't allow (a sorcery in another player's turn)."""
    return [f"{finding}" for finding in s.engine.casting_timing()]


def searches_asked_of_a_searcher(s: Served) -> list[str]:
    """No question about a player's search when that player does not search, nor whether a card
    may be found when nothing searches at all."""
    resolution = s.engine.engine_session().evaluation().resolution
    problems = []
    for claim in s.ruling.claims:
        if claim["claim"] == "finds" and "given" not in claim and not resolution.searches:
            problems.append(f"finds of {claim['card']}, when nothing searches")
            continue
        role = ABOUT_A_SEARCH.get(claim["claim"])
        searcher = claim.get(role) if role and "given" not in claim else None
        if searcher and not resolution.spaces_of(searcher):
            problems.append(f"{claim['claim']} of {searcher}, who does not search")
    return problems


SEARCH_WORDS = re.compile(r"\b(?:find|finds|found|search|searches|searched)\b", re.IGNORECASE)


def wishes_chosen_not_found(s: Served) -> list[str]:
    """A wish is worded as a choice from outside the game, never a find or a search (outside
    the game is not a zone, CR 400.11): the prompt of a question about wishes only, and each
    statement and option about one."""
    wishes = [claim for claim in s.ruling.claims if chooses_outside(s.ruling, claim)]
    if not wishes:
        return []
    texts = [st.text for st in s.statements if chooses_outside(s.ruling, st.claim)]
    if len(wishes) == len(s.ruling.claims):
        texts += [s.prompt.split(". ", 1)[-1], *(text for text, _key in s.options)]
    return [f"a wish worded as a search: {text!r}" for text in texts if SEARCH_WORDS.search(text)]


def revealed_of_a_card(s: Served) -> list[str]:
    """No "the card found is revealed" when the search can find no card (nothing to reveal)."""
    return [
        f"revealed of {claim['searcher']}, who can find no card"
        for claim in s.ruling.claims
        if claim["claim"] == "revealed" and reveals_nothing(s.engine, claim)
    ]


def portions_tell_apart(s: Served) -> list[str]:
    """No "only the top N cards" asked of a library of N or fewer (the whole library too)."""
    return [
        f"{claim['claim']} of {claim.get('player')}: the portion is the whole library"
        for claim in s.ruling.claims
        if claim["claim"] in ("searched_portion", "shuffled_portion")
        and portion_is_whole(s.ruling, claim)
    ]


def swaps_keep_the_story(s: Served) -> list[str]:
    """A variant's card swaps keep its scenario's prose true: it swaps in no card the title,
    prompt or stored ruling names ("no Island or Swamp left" beside a library of Islands), and
    leaves no swapped card's name behind in it ("Howling Mines" beside a board of Bonesplitters).
    """
    scenario = s.question.scenario
    prose = " ".join([scenario.title, scenario.stored_ruling or "", s.question.prompt])
    renamed = s.ruling.rename(prose)
    # the names swapped in, taken out: "Island" inside a "Volcanic Island" swapped in for
    # Evolving Wilds is no Island left behind
    for shown in sorted(s.ruling.shown.cards.values(), key=len, reverse=True):
        renamed = renamed.replace(shown, "")
    problems = []
    for original, shown in s.ruling.shown.cards.items():
        if re.search(rf"\b{re.escape(shown)}\b", prose):
            problems.append(f"{original} is shown as {shown}, a card the scenario's text names")
        if original in renamed:
            problems.append(f"{original} is shown as {shown}, but the text still names {original}")
    return problems


def rules_current(s: Served) -> list[str]:
    """Every cited rule is a current rule (an old alias never stands for a current number)."""
    cited = s.rules | s.engine_rules
    return [f"rule {n} is not a current rule" for n in sorted(cited - CURRENT_RULES.numbers)]


def rules_relevant(s: Served) -> list[str]:
    """Every rule a question cites is one the engine cites for a claim it asks (a
    number that only an old alias shares is another rule: 701.17b is Mill's, not Search's)."""
    engine = s.engine_rules
    return [
        f"rule {n} is cited but decides no claim asked (the engine cites {sorted(engine)})"
        for n in sorted(s.rules - engine)
        if not relevant(n, engine)
    ]


def cards_real_or_invented(s: Served) -> list[str]:
    """Every card on the board is a real card or is shown as invented: a card of the catalog
    is real; a scenario's own card is a real card's text unless its notes say it is invented
    (or illustrative), and then the board must say so."""
    real = default_catalog()
    problems = []
    for card in s.ruling.board.cards.values():
        if card.name in real:
            continue
        if card.name in invented_names(s.ruling.shown.spec) and not card.invented:
            problems.append(f"{card.name} is invented and the board shows it as real")
    return sorted(set(problems))


def options_possible(s: Served) -> list[str]:
    """No mana offered (option or statement) that no card on the board could make."""
    offered = [
        st.claim.get("proposed") for st in s.statements if st.claim["claim"] == "mana_produced"
    ]
    if s.options and s.ruling.claims[0]["claim"] == "mana_produced":
        offered += value_choices(s.ruling, s.ruling.claims[0])
    makable = set(s.ruling.board.mana_symbols)
    problems = []
    for value in offered:
        symbols = set(MANA_SYMBOL.findall(str(value)))
        if symbols - makable:
            problems.append(f"{value!r}: no card on the board makes {sorted(symbols - makable)}")
    return problems


def stored_as_ruled(s: Served) -> list[str]:
    """The stored variant says what the engine rules on it now: each claim's value and rule,
    the board, the line of play, and a legal set's verdict on each single card, none and all."""
    if s.engine is s.ruling:
        return []
    problems = []
    for claim in s.ruling.claims:
        if claim["claim"] == "legal_find_set":
            searcher = claim["searcher"]
            labels = list(s.ruling.board.cards)
            for pick in [[], labels, *([label] for label in labels)]:
                legal = s.ruling.check_find_choice(searcher, pick).legal
                if legal != s.engine.check_find_choice(searcher, pick).legal:
                    problems.append(f"the pick {pick}: stored legal={legal}")
            continue
        stored, ruled = s.ruling.evaluate(claim), s.engine.evaluate(claim)
        if not same(stored.value, ruled.value) or stored.rule != (ruled.rule or ""):
            problems.append(
                f"{claim['claim']}: stored {stored.value!r} ({stored.rule}), "
                f"the engine {ruled.value!r} ({ruled.rule})"
            )
    if s.ruling.board != s.engine.board:
        problems.append("the stored board differs from the engine's")
    if (s.ruling.premises(), s.ruling.history()) != (s.engine.premises(), s.engine.history()):
        problems.append("the stored line of play differs from the engine's")
    return problems


INVARIANTS: dict[str, Callable[[Served], list[str]]] = {
    "stored_as_ruled": stored_as_ruled,
    "some_answer_scores_full": some_answer_scores_full,
    "one_option_right": one_option_right,
    "statements_distinct": statements_distinct,
    "no_unstated_choice": no_unstated_choice,
    "no_undetermined_value": no_undetermined_value,
    "no_internal_text": no_internal_text,
    "no_spell_out_of_turn": no_spell_out_of_turn,
    "searches_asked_of_a_searcher": searches_asked_of_a_searcher,
    "wishes_chosen_not_found": wishes_chosen_not_found,
    "revealed_of_a_card": revealed_of_a_card,
    "portions_tell_apart": portions_tell_apart,
    "swaps_keep_the_story": swaps_keep_the_story,
    "rules_current": rules_current,
    "rules_relevant": rules_relevant,
    "cards_real_or_invented": cards_real_or_invented,
    "options_possible": options_possible,
}


# Every invariant's name: the one checked per question, then those checked per variant served.
NAMES = ("variants_stored", *INVARIANTS)


class _CurrentRules:
    """The current rule numbers, read once per audit."""

    numbers: set[str] = set()


CURRENT_RULES = _CurrentRules()


@dataclass
class Violation:
    invariant: str
    question: int
    seed: int
    family: str
    kind: str
    level: str
    problem: str


@dataclass
class Report:
    served: int = 0
    violations: list[Violation] = field(default_factory=list)
    # (question, text, truth) of every statement as written (seed 0): the word vote's input
    statements: list[tuple[int, str, bool]] = field(default_factory=list)
    # (question, position shown, statements shown, truth) of every statement of every variant
    # served: the position vote's input
    places: list[tuple[int, int, int, bool]] = field(default_factory=list)

    def counts(self, by: str) -> dict[str, int]:
        return dict(Counter(getattr(v, by) for v in self.violations).most_common())

    def questions_with(self) -> dict[str, int]:
        """Per invariant, how many questions (any seed) break it."""
        seen = {(v.invariant, v.question) for v in self.violations}
        return dict(Counter(invariant for invariant, _q in seen).most_common())


def audit(questions: Iterable[Any], seeds: int | None = DEFAULT_SEEDS) -> Report:
    """Every invariant on seeds 0..`seeds` of each question (default: every seed a learner may
    be served), and that each of those is stored, made with today's engine and wording."""

    CURRENT_RULES.numbers = set(Rule.objects.current().values_list("number", flat=True))
    last_seed = variant_count() - 1 if seeds is None else seeds
    report = Report()
    for question in questions:
        catalog = catalog_of(question.scenario)
        numbers = {rule.number for rule in question.rules.all()}
        family = question.scenario.family.slug if question.scenario.family_id else ""
        for problem in variants_stored(question):
            report.violations.append(
                Violation("variants_stored", question.pk, 0, family, question.kind,
                          question.level, problem)
            )  # fmt: skip
        for seed in range(last_seed + 1):
            try:
                shown = served(question, seed, catalog, numbers)
            except ScenarioError as error:
                report.violations.append(
                    Violation("parses", question.pk, seed, family, question.kind,
                              question.level, str(error))
                )  # fmt: skip
                continue
            report.served += 1
            # the votes' halves by the question's name, not its database id (ids follow the
            # order a database was filled in, so the halves, and the score, moved between runs)
            side = zlib.crc32(f"{question.scenario.slug}/{question.key}".encode())
            if seed == 0:
                report.statements += [(side, st.text, st.truth) for st in shown.statements]
            count = len(shown.statements)
            report.places += [
                (side, place, count, st.truth) for place, st in enumerate(shown.statements)
            ]
            for name, check in INVARIANTS.items():
                for problem in check(shown):
                    report.violations.append(
                        Violation(name, question.pk, seed, family, question.kind,
                                  question.level, problem)
                    )  # fmt: skip
    return report


def variants_stored(question: Any) -> list[str]:
    """Every variant a learner may be served is stored, made with today's engine and wording."""
    stored = dict(
        Variant.objects.of(question.pk, question.scenario.current_version_id).values_list(
            "seed", "made_with"
        )
    )
    problems = []
    for seed in range(variant_count()):
        if seed not in stored:
            problems.append(f"seed {seed} is not stored")
        elif stored[seed] != made_with():
            problems.append(f"seed {seed} was made with another engine or wording")
    return problems


def true_values(scenarios: Iterable[Any]) -> dict[str, dict[str, float]]:
    """Per claim, how often the statement questions of `scenarios` draw a statement from a
    claim with each true value, before balance.py's shares: each claim a statement may be made
    of counts as often as it is shown, on average (`shown_share`: of a scenario with 12 such
    claims, a question of at most 6 statements shows each half the time), and a subject once.
    A claim counts only with a false value to offer that the content gives some claim of its
    name as true (else a statement of it could only be true); a claim of no such value is
    listed empty (never a statement)."""

    scenes: list[list[tuple[Ruling, Claim, Any]]] = []  # per scenario, its candidate claims
    for scenario in scenarios:
        try:
            ruling, claims = asked_claims(scenario.spec, catalog_of(scenario))
            results = [ruling.evaluate(claim) for claim in claims]
        except ScenarioError:
            continue
        empty = nothing_to_find(ruling)
        candidates = statement_candidates(ruling, claims, results, scenario.spec, empty)
        scenes.append([(ruling, claims[i], results[i].value) for i in candidates])
    given: dict[str, dict[str, Any]] = {}  # per claim, its true values (by key)
    for _ruling, claim, value in (drawn for scene in scenes for drawn in scene):
        given.setdefault(claim["claim"], {})[value_key(value)] = value

    def offered(ruling: Ruling, claim: Claim, value: Any) -> bool:
        seen, text = given[claim["claim"]], claim_text(claim["claim"])
        options = text.plausible_false(
            value, ruling.subject(claim), ruling.context(claim), list(seen.values())
        )
        return any(value_key(option) in seen and text.near(value, option) for option in options)

    counts: dict[str, dict[str, float]] = {name: {} for name in given}
    for scene in scenes:
        stated: dict[tuple, tuple[Claim, Any]] = {}
        for ruling, claim, value in scene:
            if statement_subject(claim) not in stated and offered(ruling, claim, value):
                stated[statement_subject(claim)] = (claim, value)
        for claim, value in stated.values():
            key = value_key(value)
            found = counts[claim["claim"]]
            found[key] = found.get(key, 0.0) + shown_share(len(stated))
    return {
        name: {key: round(count, 2) for key, count in sorted(found.items()) if count}
        for name, found in sorted(counts.items())
    }

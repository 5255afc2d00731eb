"""Questions generated from a scenario's engine-computable claims (`spec["expect"]`).

Claims in a question never hold the key: the engine computes it when the learner answers. Only
`yes_no` and `multiple_choice` claims carry a `"proposed"` value, the statement shown; whether
each statement is true is drawn per question (not by position), and false ones come from the
claim table. A claim that the board itself states (an Archive Trap question under "Nadia searched
her library earlier this turn") is not asked.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from quizzes.rulings import certification
from quizzes.rulings.balance import stated_share
from quizzes.rulings.claims import CHOICE, CLAIMS, Subject, claim_text, undetermined
from quizzes.rulings.frozen import NotStored, activated_ability
from quizzes.rulings.names import localized
from quizzes.rulings.ruling import Ruling, Shown, asked_claim, chooses_outside, text_for
from quizzes.rulings.values import plain
from rules.engine import Catalog
from rules.numbers import numbers_in

Claim = dict[str, Any]
SUBJECT_KEYS = (
    "card", "player", "searcher", "whose", "other", "kind", "ability",
    "step", "after", "stack", "waiting", "first_turn",
)  # fmt: skip


def subject_keys(claim: Claim) -> tuple[str, ...]:
    """The keys naming a claim's subject: a claim about an effect and no card ("in which layer
    does the effect of Diminish apply?") is told apart by its source; a claim with a card keeps
    the keys it always had (so its questions keep their keys)."""
    return SUBJECT_KEYS if "card" in claim else (*SUBJECT_KEYS, "source")


OWN_KINDS = {"finds", "found_count"}  # asked by their own kinds, not as single values
MAX_STATEMENTS = 6
# The questions of statements: (key, kind, fewest statements, most statements).
STATEMENT_QUESTIONS = (
    ("yes-no", "yes_no", 2, 4),
    ("multiple-choice", "multiple_choice", 3, MAX_STATEMENTS),
)
# Claims about one player's search (the searcher, or the player whose library is searched):
# not asked of a player who does not search. "Must, may or can't Nadia search?" of a player no
# instruction has search (Alice's Extract searches Nadia's library; Impulse looks, never searches)
# would be keyed "can't", which a learner reads as a prohibition (Ashiok): not asked.
ABOUT_A_SEARCH = {
    "found_count": "searcher",
    "legal_find_set": "searcher",
    "revealed": "searcher",
    "searches": "player",
    "searched_portion": "player",
    "shuffled_portion": "player",
}

# Claims whose value can turn on whether a player who may search does: asked on a stated line.
SEARCH_DEPENDENT = frozenset(
    {"alt_cost_available", "searched_library_this_turn", "shuffles", "shuffled_portion"}
)


@dataclass
class GeneratedQuestion:
    key: str
    kind: str
    prompt: str
    claims: list[Claim]
    cited_rules: set[str] = field(default_factory=set)


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
                    names[label.strip()] = name.strip()
    return names


def describe_situation(spec: dict[str, Any], names: dict[str, str], wanted: bool = False) -> str:
    """One sentence for what resolves, e.g. "Alice casts Splinter, targeting Howling Mine.". An
    ability is activated as a judge says it ("activates an ability of Forest", not "activates
    Forest"); with `wanted` (`activation_wanted`), the player wants to activate it."""
    step = spec.get("resolve", {})

    def name(label: str) -> str:
        return localized(names.get(label, label))

    targets = [name(target) for target in step.get("targets", [])]
    values = {
        "targets": (_(" and ").join(targets)),
        "player": step.get("by", (spec.get("players") or [""])[0]),
    }
    if "cast" in step:
        values["card"] = name(step["cast"])
        if targets:
            return _("%(player)s casts %(card)s, targeting %(targets)s.") % values
        return _("%(player)s casts %(card)s.") % values
    if "activate" in step:
        values["card"] = name(step["activate"])
        if wanted:
            if targets:
                return (
                    _("%(player)s wants to activate an ability of %(card)s, targeting %(targets)s.")
                    % values
                )
            return _("%(player)s wants to activate an ability of %(card)s.") % values
        if targets:
            return _("%(player)s activates an ability of %(card)s, targeting %(targets)s.") % values
        return _("%(player)s activates an ability of %(card)s.") % values
    if "trigger" in step:
        values["card"] = name(step["trigger"])
        if targets:
            return _("%(card)s's ability triggers, targeting %(targets)s.") % values
        return _("%(card)s's ability triggers.") % values
    if "draw" in step:
        return _("%(player)s would draw a card.") % {"player": step["draw"]}
    return ""


def activation_wanted(ruling: Ruling, asked: Sequence[Claim]) -> bool:
    """Whether the page says the player wants to activate the ability that resolves, rather than
    that they activate it: when the question asks whether it can be activated (saying it is
    would answer the question), or when it can't be (a creature's mana ability the turn it came
    under its controller's control resolves as producing no mana). A variant stored before
    this was frozen says "activates"."""
    activated = activated_ability(ruling.shown.spec)
    if activated is None:
        return False
    if any(activated.items() <= claim.items() for claim in asked):
        return True
    try:
        return ruling.evaluate(activated).value is False
    except NotStored:
        return False


# Claims about what a search finds: with no card at all in the zones searched, the board shows
# the answer (nothing) and "are the cards found revealed?" asks about no card.
ABOUT_THE_FOUND = frozenset({"found_count", "revealed", "legal_find_set"})


def stated_by_board(claim: Claim, spec: dict[str, Any], nothing_to_find: bool = False) -> bool:
    """Does the board already say the answer? Its "earlier this turn" does for a search already
    made; `nothing_to_find` (the engine weighed no card for any search: `nothing_to_find(...)`)
    does for what a search finds."""
    if nothing_to_find and claim["claim"] in ABOUT_THE_FOUND and "given" not in claim:
        return True
    facts = [
        fact.get("player")
        for fact in spec.get("history") or []
        if isinstance(fact, dict) and fact.get("fact") == "searched_library"
    ]
    if claim["claim"] == "searched_library_this_turn":
        return claim.get("player") in facts
    if claim["claim"] == "alt_cost_available":
        return any(player != claim.get("player") for player in facts)
    return False


def nothing_to_find(ruling: Ruling) -> bool:
    """Did every search of the ruling's line of play look through zones holding no card (the
    engine weighed no card: it rules a `finds` for each card a search looks at)?"""
    return not any(result.claim == "finds" for result in ruling.session.resolve().claims)


def _base(number: str) -> str:
    """A rule's number without its subrule letter: "702.52b" -> "702.52"."""
    return number.rstrip("abcdefghijklmnopqrstuvwxyz")


def relevant(number: str, deciding: set[str]) -> bool:
    """Is rule `number` about what the rules in `deciding` (the engine's, for the claims a
    question asks) decide: the same rule or a subrule of it (702.52b beside 702.52a)?"""
    return any(
        number.startswith(other) or other.startswith(number) or _base(number) == _base(other)
        for other in deciding
    )


def _slug(text: str) -> str:
    cleaned = "".join(ch if ch.isalnum() or ch == "-" else "-" for ch in text.lower())
    while "--" in cleaned:
        cleaned = cleaned.replace("--", "-")
    return cleaned.strip("-")[:120]


def _numbers(citation: str | None) -> set[str]:
    return set(numbers_in(citation))


def worded_right(ruling: Ruling, claim: Claim) -> bool:
    """Does the page word `claim` as `text_for` says (the statement and the options it shows come
    from `Ruling.text_of`)? A wish's statement worded as a find is not made."""
    return ruling.text_of(claim) is text_for(ruling, claim)


def options_worded_right(ruling: Ruling, claim: Claim) -> bool:
    """Are the answers the page offers for `claim` worded as `text_for` says ("yes", "no" for
    any search; "may search" is no answer about a wish)?"""
    shown, needed = ruling.text_of(claim), text_for(ruling, claim)
    if shown is needed or needed.answer != CHOICE:
        return True
    domain = needed.choices(ruling.subject(claim), ruling.context(claim))
    return all(str(shown.words(value)) == str(needed.words(value)) for value in domain)


def _named(ruling: Ruling, claim: Claim, names: dict[str, str]) -> str:
    """The claim's question with cards by name only (prompts are stored; places may vary)."""
    return text_for(ruling, claim).ask(by_name(ruling, claim, names))


def by_name(ruling: Ruling, claim: Claim, names: dict[str, str]) -> Subject:
    """The claim's subject with its cards by name only, not by place (a stored prompt's: it
    reads the same whatever the language of the page that words it again)."""

    def name(label: Any) -> str:
        return localized(names.get(str(label), str(label)))

    return replace(
        ruling.subject(claim),
        card=localized(names.get(str(claim.get("card", "")), "")),
        source=name(claim["source"]) if claim.get("source") else "",
        dying=tuple(name(label) for label in claim.get("dies", ())),
    )


def statements_about(
    ruling: Ruling, claims: list[Claim], names: dict[str, str], placed: bool = False
) -> str:
    """What the statements of `claims` are about, each claim once, in the claim table's order
    (a learner's page shows the statements in its own order: the sentence is the same), in
    the reader's language: "about whether Alice shuffles and about where the cards end up" (a
    claim stated of several subjects named without them)."""
    subjects: dict[str, list[str]] = {}
    texts = {}
    for claim in claims:
        text = text_for(ruling, claim)
        subject = ruling.subject(claim) if placed else by_name(ruling, claim, names)
        phrase = text.about_one(subject)
        texts[claim["claim"]] = text
        if phrase not in subjects.setdefault(claim["claim"], []):
            subjects[claim["claim"]].append(phrase)
    table = list(CLAIMS)
    phrases: list[str] = []
    for name in sorted(subjects, key=lambda name: (table.index(name), name)):
        said = subjects[name]
        phrase = str(texts[name].about_many) if len(said) > 1 else said[0]
        if phrase and phrase not in phrases:
            phrases.append(phrase)
    return about_and(phrases)


def about_and(phrases: list[str]) -> str:
    """Phrases joined by "and" (German puts a comma after each clause before "und")."""
    if len(phrases) < 2:
        return "".join(phrases)
    return pgettext("what statements are about", "%(phrases)s and %(last)s") % {
        "phrases": pgettext("what statements are about", ", ").join(phrases[:-1]),
        "last": phrases[-1],
    }


def question_text(
    kind: str, ruling: Ruling, claims: list[Claim], names: dict[str, str], placed: bool = False
) -> str:
    """What a generated question of `kind` asks, after the situation; `placed`: its card by name
    and place on the board as shown (a stored prompt names it by name only)."""
    if kind == "cards":
        searchers = ruling.searchers()
        if all(chooses_outside(ruling, claim) for claim in claims):
            if len(searchers) == 1:
                return _(
                    "For each highlighted card: must, may or can't %(searcher)s choose it from "
                    "outside the game?"
                ) % {"searcher": searchers[0]}
            return _(
                "For each highlighted card: must, may or can't it be chosen from outside the game?"
            )
        if len(searchers) == 1:
            return _("For each highlighted card: must, may or can't %(searcher)s find it?") % {
                "searcher": searchers[0]
            }
        return _("For each highlighted card: must, may or can't it be found?")
    if kind == "legal_set":
        claim = claims[0]
        if ruling.chooses_outside_only(claim["searcher"]):
            return _(
                "Pick a set of cards %(searcher)s could legally choose from outside the game."
            ) % {"searcher": claim["searcher"]}
        whose = _(" in %(player)s's zones") % {"player": claim["whose"]} if "whose" in claim else ""
        return _("Pick a set of cards %(searcher)s could legally find%(whose)s.") % {
            "searcher": claim["searcher"],
            "whose": whose,
        }
    if kind in ("yes_no", "multiple_choice"):
        about = statements_about(ruling, claims, names, placed)
        if not about:  # no statements (a question being built): the sentence of old
            if kind == "yes_no":
                return _("Is each statement true or false?")
            return _("Which of these statements are true? (Any number may be, or none.)")
        if kind == "yes_no":
            return _("Statements %(about)s: is each true or false?") % {"about": about}
        return _("Which of these statements %(about)s are true? (Any number may be, or none.)") % {
            "about": about
        }
    if kind == certification.KIND:
        if len(claims) > 1:
            return _("What happens, and why?")
        if "card" in claims[0]:
            # the card by its highlight, not its name: a variant may swap in a card whose name
            # the scenario's text holds (the options name it as shown)
            return _(
                "Must, may or can't the highlighted card be found? Choose the answer with the "
                "right reason."
            )
        asked = (
            text_for(ruling, claims[0]).ask(ruling.subject(claims[0]))
            if placed
            else _named(ruling, claims[0], names)
        )
        return _("%(question)s Choose the answer with the right reason.") % {"question": asked}
    if placed:
        return text_for(ruling, claims[0]).ask(ruling.subject(claims[0]))
    return _named(ruling, claims[0], names)


def generated_prompt(kind: str, ruling: Ruling, claims: list[Claim], placed: bool = False) -> str:
    """The prompt `build_questions` gives a question of `kind`, for the scenario as shown;
    `placed`: as a page shows it, its card by name and place ("Where does the Swamp in Jonas's
    graveyard end up?", where "Where does Swamp end up?" fits two Swamps)."""
    spec = ruling.shown.spec
    names = card_names(spec)
    asked = question_text(kind, ruling, claims, names, placed)
    situation = describe_situation(spec, names, activation_wanted(ruling, claims))
    return f"{situation} {asked}".strip()


def build_questions(
    spec: dict[str, Any], catalog: Catalog | None = None
) -> list[GeneratedQuestion]:
    """Questions about `spec["expect"]` (raises ScenarioError for a claim the engine can't
    evaluate). Prompts are stored in English, whoever's request builds them (an instructor's
    German page included): `rulings.prompt` words them in the reader's language."""
    with translation.override("en"):
        return _build_questions(spec, catalog)


def optional_searchers(ruling: Ruling) -> list[str]:
    """The players who may (not must) search, their decision not stated by the resolving step."""
    resolve = ruling.session.scenario.resolve
    stated = {p for p, d in (resolve.choices if resolve else {}).items() if "search" in d}
    return [
        str(result.subject["player"])
        for result in ruling.session.resolve().claims
        if result.claim == "searches" and result.value == "may"
        and result.subject["player"] not in stated
    ]  # fmt: skip


def on_a_stated_line(ruling: Ruling, claim: Claim, line: dict[str, bool]) -> Claim:
    """`claim` with the search decisions of `line` its value turns on, as "given" choices the
    page states ("Alice chooses to search."): never a statement true only if Alice searched."""
    if claim["claim"] not in SEARCH_DEPENDENT:
        return claim
    given = {player: dict(decisions) for player, decisions in (claim.get("given") or {}).items()}
    for player, decision in line.items():
        if "search" in given.get(player, {}):
            continue
        values = [
            plain(
                ruling.session.evaluate(
                    {**claim, "given": {**given, player: {**given.get(player, {}), "search": d}}}
                ).value
            )
            for d in (True, False)
        ]
        if values[0] != values[1]:
            given[player] = {**given.get(player, {}), "search": decision}
    return {**claim, "given": given} if given else claim


def asks_a_non_searcher(ruling: Ruling, claim: Claim) -> bool:
    """A claim about the search of a player who does not search (Alice, under a spell that has
    her opponent search her library), or whether a card may be found when nothing searches at
    all (Hangarback Walker cast with X=2): nothing to ask."""
    if "given" in claim:
        return False
    resolution = ruling.engine_session().evaluation().resolution
    if claim["claim"] == "finds":
        return not resolution.searches
    role = ABOUT_A_SEARCH.get(claim["claim"])
    player = claim.get(role) if role else None
    if not player:
        return False
    return not resolution.spaces_of(player)


def asks_of_an_untouched_card(ruling: Ruling, claim: Claim) -> bool:
    """X for a card's entering, or its counters afterwards, when the card neither enters nor
    has its counters changed (a Hangarback Walker left in hand while Green Sun's Zenith
    resolves): there is no event to ask about."""
    if "given" in claim:
        return False
    resolution = ruling.engine_session().evaluation().resolution
    if claim["claim"] == "enters_x":
        return claim.get("card") not in resolution.enters_x
    if claim["claim"] == "counters":
        return (claim.get("card"), claim.get("kind", "+1/+1")) not in resolution.counters
    return False


PORTION = re.compile(r"top (\d+)")


def unanswerable(ruling: Ruling, claim: Claim) -> bool:
    """A claim no answer gets right as a learner reads it: "only the top 4 cards" of a library
    of 4 or fewer, which is the whole library too; the order in which nobody decides."""
    if claim["claim"] in ("searched_portion", "shuffled_portion"):
        return portion_is_whole(ruling, claim)
    if claim["claim"] == "decision_order":  # "decide in this order: nobody" (nobody searches)
        return not plain(ruling.evaluate(claim).value)
    if claim["claim"] == "revealed":  # "the card Zoe chooses is revealed" when none can be
        return reveals_nothing(ruling, claim)
    return False


def reveals_nothing(ruling: Ruling, claim: Claim) -> bool:
    """Is `claim` (revealed) about the cards a search finds when it can find none?"""
    counted = {"claim": "found_count", "searcher": claim["searcher"]}
    if "given" in claim:
        counted["given"] = claim["given"]
    found = plain(ruling.evaluate(counted).value)
    return isinstance(found, list) and len(found) == 2 and found[1] == 0


def no_ranking(ruling: Ruling, claim: Claim) -> bool:
    """An order the form can't rank: it ranks every seated player, and here fewer decide (only
    one, or none). Stated, it reads "Nadia alone decides what to find."."""
    if claim["claim"] != "decision_order":
        return False
    order = plain(ruling.evaluate(claim).value) or []
    return len(order) < 2 or sorted(order) != sorted(ruling.session.scenario.state.players)


def asked_claims(spec: dict[str, Any], catalog: Catalog | None) -> tuple[Ruling, list[Claim]]:
    """The scenario ruled once, and the claims of `spec["expect"]` its questions ask: each on
    a stated line of play, none about a search nobody makes, none no answer can fill."""
    claims = [
        asked_claim(claim)
        for claim in spec.get("expect") or []
        if isinstance(claim, dict) and isinstance(claim.get("claim"), str)
    ]
    ruling = Ruling.from_shown("value", Shown(dict(spec), claims, {}, {}, 0), catalog)
    line_rng = random.Random(f"{spec.get('id', '')}:line")
    line = {player: line_rng.random() < 0.5 for player in optional_searchers(ruling)}
    return ruling, [
        on_a_stated_line(ruling, claim, line)
        for claim in claims
        if not asks_a_non_searcher(ruling, claim)
        and not asks_of_an_untouched_card(ruling, claim)
        and not unanswerable(ruling, claim)
    ]


def portion_is_whole(ruling: Ruling, claim: Claim) -> bool:
    """Is the claim's "top N" portion the player's whole library (N at least its size)?"""
    match = PORTION.fullmatch(str(ruling.evaluate(claim).value))
    size = ruling.board.library_sizes().get(str(claim.get("player")), 0)
    return match is not None and int(match.group(1)) >= size


def _build_questions(spec: dict[str, Any], catalog: Catalog | None) -> list[GeneratedQuestion]:
    ruling, claims = asked_claims(spec, catalog)
    names = card_names(spec)
    results = [ruling.evaluate(claim) for claim in claims]
    empty = nothing_to_find(ruling)
    rules_of = [_numbers(result.rule) for result in results]
    questions: list[GeneratedQuestion] = []

    def cited(indices) -> set[str]:
        return set().union(*(rules_of[i] for i in indices)) if indices else set()

    def prompt(kind: str, asked: list[Claim]) -> str:
        situation = describe_situation(spec, names, activation_wanted(ruling, asked))
        return f"{situation} {question_text(kind, ruling, asked, names)}".strip()

    finds = [i for i, c in enumerate(claims) if c["claim"] == "finds" and "given" not in c]
    if finds:
        questions.append(
            GeneratedQuestion(
                "cards",
                "cards",
                prompt("cards", [claims[i] for i in finds]),
                [claims[i] for i in finds],
                cited(finds),
            )
        )
    for i, claim in enumerate(claims):
        if claim["claim"] != "found_count" or stated_by_board(claim, spec, empty):
            continue
        suffix = f"-{claim['searcher']}".lower() + (
            f"-{claim['whose']}".lower() if "whose" in claim else ""
        )
        questions.append(
            GeneratedQuestion(
                f"count-range{suffix}",
                "count_range",
                prompt("count_range", [claim]),
                [claim],
                cited([i]),
            )
        )
        if "given" not in claim:
            questions.append(
                GeneratedQuestion(
                    f"legal-set{suffix}",
                    "legal_set",
                    prompt("legal_set", [claim]),
                    [
                        {"claim": "legal_find_set", "searcher": claim["searcher"]}
                        | ({"whose": claim["whose"]} if "whose" in claim else {})
                    ],
                    cited([i]),
                )
            )
    for i, claim in enumerate(claims):
        if claim["claim"] in OWN_KINDS or stated_by_board(claim, spec, empty):
            continue
        if no_ranking(ruling, claim) or not options_worded_right(ruling, claim):
            continue
        key = "-".join(
            ["value", claim["claim"], *(str(claim[k]) for k in subject_keys(claim) if k in claim)]
        )
        key += "-given" if "given" in claim else ""
        questions.append(
            GeneratedQuestion(
                _slug(key.replace("_", "-")),
                "value",
                prompt("value", [claim]),
                [claim],
                cited([i]),
            )
        )
    made = _certification_question(ruling, claims, results, spec, empty)
    if made is not None:
        focus_index, asked, options = made
        asked = [{**asked[0], "proposed": options}, *asked[1:]]
        questions.append(
            GeneratedQuestion(
                "outcome-reason",
                certification.KIND,
                prompt(certification.KIND, asked),
                asked,
                cited([focus_index]),
            )
        )
    # Each question draws its own statements: the yes/no and the multiple-choice question of a
    # scenario sharing theirs taught one the other's keys (and a word vote trained on one
    # scored the other: issue 26).
    for key, kind, least, most in STATEMENT_QUESTIONS:
        rng = random.Random(f"{spec.get('id', '')}:statements:{key}")
        statements = _statements(ruling, claims, results, spec, rng, empty, most)
        if len(statements) >= least:
            questions.append(
                GeneratedQuestion(
                    key,
                    kind,
                    prompt(kind, [proposal for _, proposal in statements]),
                    [proposal for _, proposal in statements],
                    cited([i for i, _ in statements]),
                )
            )
    return questions


def _certification_question(
    ruling: Ruling, claims: list[Claim], results, spec: dict[str, Any], empty: bool
) -> tuple[int, list[Claim], list[dict[str, Any]]] | None:
    """A certification-style question of the scenario (certification.py): its focus claim's
    index, the claims it asks (the focus first, then up to two more of the same resolution for
    a "What happens?"), and its options; None when no claim fits."""
    rng = random.Random(f"{spec.get('id', '')}:outcome-reason")
    candidates = statement_candidates(ruling, claims, results, spec, empty)
    focuses = [
        i
        for i in candidates
        if claims[i]["claim"] in certification.REASONS
        and not chooses_outside(ruling, claims[i])  # a wish: no search to reason about
    ]
    rng.shuffle(focuses)

    def false_values(claim: Claim, value: Any) -> list[tuple[Any, float]]:
        text = claim_text(claim["claim"])
        if text.answer != CHOICE:
            return []
        return text.false_options(
            value, ruling.subject(claim), ruling.context(claim), claim["claim"]
        )

    for focus in focuses:
        others = [
            i
            for i in candidates
            if i != focus
            and statement_subject(claims[i]) != statement_subject(claims[focus])
            # one line of play: the same choices stated for every claim of the outcome
            and claims[i].get("given") == claims[focus].get("given")
            and not chooses_outside(ruling, claims[i])
            and claim_text(claims[i]["claim"]).answer == CHOICE
            and false_values(claims[i], results[i].value)
        ]
        chosen = sorted(rng.sample(others, min(len(others), rng.choice((0, 1, 2)))))
        subjects = {statement_subject(claims[i]) for i in chosen}
        if len(subjects) != len(chosen):
            chosen = chosen[:1]
        asked = [claims[focus], *(claims[i] for i in chosen)]
        options = certification.build_options(ruling, asked[0], asked[1:], rng, false_values)
        if options is not None:
            return focus, asked, options
    return None


def statement_candidates(
    ruling: Ruling, claims: list[Claim], results, spec: dict[str, Any], empty: bool
) -> list[int]:
    """The claims a statement may be made of: none the board states, none whose value the rules
    leave to a choice, none a wish's page would word as a find."""
    return [
        i
        for i, claim in enumerate(claims)
        if not stated_by_board(claim, spec, empty)
        and not undetermined(results[i].value)
        and worded_right(ruling, claim)
    ]


def shown_share(candidates: int) -> float:
    """How many of the statement questions a candidate claim is stated in, on average, when a
    scenario has `candidates` (each question shows a few, drawn at random)."""
    return sum(
        min(1.0, most / candidates)
        for _key, _kind, least, most in STATEMENT_QUESTIONS
        if candidates >= least
    )


def statement_subject(claim: Claim) -> tuple:
    """What a statement is about: one claim about one subject is stated once (the dredge family
    asks a card's zone with and without the dredge)."""
    return (claim["claim"], *((k, str(claim[k])) for k in subject_keys(claim) if k in claim))


def _statements(
    ruling: Ruling, claims, results, spec, rng: random.Random, empty: bool, most: int
) -> list[tuple]:
    """(claim index, claim with "proposed"), at most `most`, in the claims' order. Which claims
    are drawn at random first, so a question of many claims asks about any of them and a
    claim's value never decides whether it is shown; then each is stated as often as its value
    allows (balance.py) and made true or false by its own draw, never by position nor by the
    others (no count of true statements to deduce from). A value the rules leave to a choice is
    never a statement, nor a false one, nor a claim with no false value to offer."""
    pool, said = [], set()
    for i in statement_candidates(ruling, claims, results, spec, empty):
        claim, value = claims[i], results[i].value
        if statement_subject(claim) in said:
            continue
        text = claim_text(claim["claim"])
        options = text.false_options(
            value, ruling.subject(claim), ruling.context(claim), claim["claim"]
        )
        if options:  # else, stated, it could only be true
            said.add(statement_subject(claim))
            pool.append((i, text, options))
    if len(pool) > most:
        pool = [pool[j] for j in sorted(rng.sample(range(len(pool)), most))]
    made = []
    for i, text, options in pool:
        claim, value = claims[i], results[i].value
        if rng.random() >= stated_share(claim["claim"], value, text.near):
            continue  # a common value, stated only as often as the others (balance.py)
        wrong = rng.choices([o for o, _ in options], [w for _, w in options])[0]
        proposed = plain(value) if rng.random() < 0.5 else wrong
        made.append((i, claim | {"proposed": plain(proposed)}))
    return made


def questions_for(spec: dict[str, Any], catalog: Catalog) -> list[GeneratedQuestion]:
    """The questions about `spec["expect"]`, the engine evaluating each claim against `catalog`
    (raises ScenarioError for a claim it can't evaluate)."""
    return build_questions(spec, catalog)

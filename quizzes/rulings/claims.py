"""The claim table: for every claim the engine computes, how a learner is asked about it.

Each entry says once: the question ("Must, may or can't the Howling Mine on top of Nadia's
library be found?"), the statement of a value ("Nadia must search."), the words for a value as an
answer ("must be found"), the answer input (a choice, a number, a range, an order), the values a
learner chooses from, and how a false statement of it is made. Forms, grading, question
generation, the authoring preview and the Moodle export all read this table.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from quizzes.rulings.values import plain, same

CHOICE, NUMBER, RANGE, ORDER, PLAYERS = "choice", "number", "range", "order", "players"
ZONE_WORDS = {
    "library": "in its owner's library",
    "hand": "in its owner's hand",
    "graveyard": "in its owner's graveyard",
    "battlefield": "on the battlefield",
    "exile": "in exile",
    "outside": "outside the game",
    "stack": "on the stack",
}
MANA = ("{W}", "{U}", "{B}", "{R}", "{G}", "{C}")
MAX_NUMBER = 60


@dataclass(frozen=True)
class Subject:
    """A claim's subject in words: the card by name and place, the players by name."""

    card: str = ""
    player: str = ""
    searcher: str = ""
    whose: str = ""
    kind: str = ""  # a counter's kind, e.g. "+1/+1"
    other: str = ""  # a second player (seats between two players)

    @property
    def in_whose(self) -> str:
        return f" in {self.whose}'s zones" if self.whose else ""

    @property
    def player_or_caster(self) -> str:
        return self.player or "its caster"


@dataclass(frozen=True)
class Context:
    """What the board tells a claim's choices: players, library sizes, a card's costs."""

    players: tuple[str, ...] = ()  # in turn order
    library_sizes: Mapping[str, int] | None = None
    card_costs: tuple[str, ...] = ()

    def library_size(self, player: str) -> int:
        return (self.library_sizes or {}).get(player, 7)


def _number(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def _times(count: Any) -> str:
    return {0: "no times", 1: "once", 2: "twice"}.get(count, f"{count} times")


def _portion(value: Any) -> str:
    if value == "library":
        return "the whole library"
    if value == "none":
        return "no library"
    match = re.fullmatch(r"top (\d+)", str(value))
    if match:
        return "only the top " + _number(int(match.group(1)), "card", "cards")
    return str(value)


def _mana(value: Any) -> str:
    if value in ("", None):
        return "no mana"
    return str(value)


def _can(value: Any) -> str:
    return "can" if value else "can't"


def _counters(count: Any, kind: str) -> str:
    kind = kind or "+1/+1"
    return _number(count, f"{kind} counter", f"{kind} counters")


def _players(value: Any, verb: bool = True) -> str:
    names = [str(name) for name in plain(value) or []]
    if not names:
        return "no player is" if verb else "no player"
    text = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"{text} {'is' if len(names) == 1 else 'are'}" if verb else text


def _yes(value: Any) -> bool:
    return value is True or value == "yes"


def _three_way(value: Any, yes: str, no: str, if_searched: str) -> str:
    if value == "if_searched":
        return if_searched
    return yes if _yes(value) else no


def _order_words(value: Any) -> str:
    names = [str(name) for name in plain(value) or []]
    return ", then ".join(names) if names else "nobody"


@dataclass(frozen=True)
class ClaimText:
    """How one claim is asked, stated and answered."""

    question: str  # formatted with the Subject's fields
    statement: Callable[[Any, Subject], str]
    words: Callable[[Any], str]  # a value as a short answer
    answer: str = CHOICE
    domain: Callable[[Subject, Context], list[Any]] | None = None
    low: int = 0  # a number answer's bounds
    high: int = MAX_NUMBER

    def ask(self, subject: Subject) -> str:
        text = self.question.format(
            card=subject.card,
            player=subject.player,
            player_or_caster=subject.player_or_caster,
            searcher=subject.searcher,
            in_whose=subject.in_whose,
            counter=subject.kind or "+1/+1",
            other=subject.other,
        )
        return _sentence(text)

    def state(self, value: Any, subject: Subject) -> str:
        return _sentence(self.statement(value, subject))

    def choices(self, subject: Subject, context: Context) -> list[Any]:
        return self.domain(subject, context) if self.domain else []

    def false_value(self, value: Any, subject: Subject, context: Context, rng: random.Random):
        """A plausible value the claim does not have (None when there is none)."""
        if self.answer == NUMBER and isinstance(value, int) and not isinstance(value, bool):
            options = [n for n in (value - 1, value + 1, value + 2) if self.low <= n <= self.high]
        elif self.answer == RANGE and isinstance(plain(value), list) and len(value) == 2:
            low, high = plain(value)
            options = [[low, high + 1], *([[low + 1, high]] if low < high else [])]
            options += [[max(low - 1, 0), high]] if low > 0 else []
        elif self.answer == ORDER:
            order = plain(value) or []
            options = [list(reversed(order))] if len(order) > 1 else []
            options += [order[1:] + order[:1]] if len(order) > 2 else []
        elif self.answer == PLAYERS:
            chosen = plain(value) or []
            options = [[p for p in context.players if p != left] for left in chosen]
            options += [
                [p for p in context.players if p in chosen or p == added]
                for added in context.players
                if added not in chosen
            ]
        else:
            options = self.choices(subject, context)
        options = [option for option in options if not same(value, option)]
        return rng.choice(options) if options else None


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


FIND_WORDS = {"must": "must be found", "may": "may be found", "cannot": "can't be found"}
SEARCH_WORDS = {"must": "must search", "may": "may search", "cannot": "can't search"}


def _library_portions(subject: Subject, context: Context) -> list[Any]:
    size = context.library_size(subject.player)
    return ["library", *(f"top {n}" for n in range(1, min(max(size, 1), 10) + 1))]


def _costs_near(subject: Subject, context: Context) -> list[str]:
    """{0}, the card's own costs, and each with {1} or {2} more or {1} less generic mana (cost
    increases and reductions change only the generic part)."""
    options = {"{0}"}
    for cost in context.card_costs:
        match = re.match(r"^\{(\d+)\}", cost)
        generic, coloured = (int(match.group(1)), cost[match.end() :]) if match else (0, cost)
        for amount in (generic - 1, generic, generic + 1, generic + 2):
            if amount >= 0:
                options.add((f"{{{amount}}}" if amount or not coloured else "") + coloured)
    options.discard("")
    return sorted(options, key=lambda cost: (len(cost), cost))


def _fixed(*values: Any) -> Callable[[Subject, Context], list[Any]]:
    return lambda subject, context: list(values)


CLAIMS: dict[str, ClaimText] = {
    "finds": ClaimText(
        "must, may or can't {card} be found?",
        lambda value, s: f"{s.card} {FIND_WORDS.get(value, value)}.",
        lambda value: FIND_WORDS.get(value, str(value)),
        domain=_fixed("must", "may", "cannot"),
    ),
    "found_count": ClaimText(
        "how many cards can {searcher} find{in_whose}? Give the fewest and the most.",
        lambda value, s: (
            f"{s.searcher} can find "
            + (
                f"exactly {_number(value[0], 'card', 'cards')}"
                if value[0] == value[1]
                else f"at least {value[0]} and at most {_number(value[1], 'card', 'cards')}"
            )
            + f"{s.in_whose}."
        ),
        lambda value: f"{value[0]} to {value[1]}" if value[0] != value[1] else str(value[0]),
        answer=RANGE,
    ),
    "searches": ClaimText(
        "must, may or can't {player} search?",
        lambda value, s: f"{s.player} {SEARCH_WORDS.get(value, value)}.",
        lambda value: SEARCH_WORDS.get(value, str(value)),
        domain=_fixed("must", "may", "cannot"),
    ),
    "searched_portion": ClaimText(
        "how much of the library does {player} search?",
        lambda value, s: f"{s.player} searches {_portion(value)}.",
        _portion,
        domain=_library_portions,
    ),
    "shuffles": ClaimText(
        "does {player} shuffle?",
        lambda value, s: _three_way(
            value,
            f"{s.player} shuffles.",
            f"{s.player} doesn't shuffle.",
            f"{s.player} shuffles only if they actually searched.",
        ),
        lambda value: _three_way(value, "yes", "no", "only if they actually searched"),
        domain=_fixed("yes", "no", "if_searched"),
    ),
    "shuffled_portion": ClaimText(
        "what does {player} shuffle?",
        lambda value, s: f"{s.player} shuffles {_portion(value)}.",
        _portion,
        domain=_library_portions,
    ),
    "revealed": ClaimText(
        "are the cards {searcher} finds revealed?",
        lambda value, s: f"The cards {s.searcher} finds are {'' if value else 'not '}revealed.",
        lambda value: "yes" if value else "no",
        domain=_fixed(True, False),
    ),
    "decision_order": ClaimText(
        "in which order do the players decide what to find?",
        lambda value, s: f"The players decide what to find in this order: {_order_words(value)}.",
        _order_words,
        answer=ORDER,
    ),
    "searched_library_this_turn": ClaimText(
        "after this, has {player} searched their library this turn?",
        lambda value, s: _three_way(
            value,
            f"afterwards, {s.player} has searched their library this turn.",
            f"afterwards, {s.player} hasn't searched their library this turn.",
            f"afterwards, {s.player} has searched their library this turn only if they "
            "actually searched.",
        ),
        lambda value: _three_way(value, "yes", "no", "only if they actually searched"),
        domain=_fixed("yes", "no", "if_searched"),
    ),
    "alt_cost_available": ClaimText(
        "can {player} cast {card} for its alternative cost now?",
        lambda value, s: f"{s.player} {_can(value)} cast {s.card} for its alternative cost now.",
        lambda value: "yes" if value else "no",
        domain=_fixed(True, False),
    ),
    "mills": ClaimText(
        "how many cards does {player} mill?",
        lambda value, s: f"{s.player} mills {_number(value, 'card', 'cards')}.",
        lambda value: _number(value, "card", "cards"),
        answer=NUMBER,
    ),
    "can_dredge": ClaimText(
        "can {card}'s dredge replace this draw?",
        lambda value, s: f"{s.card}'s dredge {_can(value)} replace this draw.",
        lambda value: "yes" if value else "no",
        domain=_fixed(True, False),
    ),
    "zone_after": ClaimText(
        "where does {card} end up?",
        lambda value, s: f"{s.card} ends up {ZONE_WORDS.get(value, value)}.",
        lambda value: ZONE_WORDS.get(value, str(value)),
        domain=_fixed(*ZONE_WORDS),
    ),
    "triggers": ClaimText(
        "how many times does {card}'s ability trigger?",
        lambda value, s: (
            f"{s.card}'s ability doesn't trigger."
            if value == 0
            else f"{s.card}'s ability triggers {_times(value)}."
        ),
        _times,
        answer=NUMBER,
    ),
    "mana_produced": ClaimText(
        "what mana does {card} produce?",
        lambda value, s: f"{s.card} produces {_mana(value)}.",
        _mana,
        domain=_fixed("", *MANA, *(symbol * 2 for symbol in MANA)),
    ),
    "can_activate": ClaimText(
        "can {card}'s ability be activated now?",
        lambda value, s: f"{s.card}'s ability {_can(value)} be activated now.",
        lambda value: "yes" if value else "no",
        domain=_fixed(True, False),
    ),
    "mana_value": ClaimText(
        "what is {card}'s mana value?",
        lambda value, s: f"{s.card}'s mana value is {value}.",
        str,
        answer=NUMBER,
    ),
    "may_pay_mana_cost": ClaimText(
        "can {player_or_caster} cast {card} by paying its mana cost?",
        lambda value, s: (
            f"{s.player_or_caster} {_can(value)} cast {s.card} by paying its mana cost."
        ),
        lambda value: "yes" if value else "no",
        domain=_fixed(True, False),
    ),
    "cost_paid": ClaimText(
        "what does {player_or_caster} pay to cast {card}?",
        lambda value, s: f"{s.player_or_caster} pays {value} to cast {s.card}.",
        str,
        domain=_costs_near,
    ),
    "tapped_after": ClaimText(
        "is {card} tapped or untapped afterwards?",
        lambda value, s: f"afterwards, {s.card} is {value}.",
        str,
        domain=_fixed("tapped", "untapped", "tapped or untapped"),
    ),
    "counters": ClaimText(
        "how many {counter} counters are on {card} afterwards?",
        lambda value, s: f"afterwards, {s.card} has {_counters(value, s.kind)}.",
        lambda value: _number(value, "counter", "counters"),
        answer=NUMBER,
    ),
    "life_total": ClaimText(
        "what is {player}'s life total afterwards?",
        lambda value, s: f"afterwards, {s.player}'s life total is {value}.",
        str,
        answer=NUMBER,
        low=-99,
        high=999,
    ),
    "exiled_face_down": ClaimText(
        "is {card} exiled face down?",
        lambda value, s: f"{s.card} is {'' if value else 'not '}exiled face down.",
        lambda value: "yes" if value else "no",
        domain=_fixed(True, False),
    ),
    "may_look_at": ClaimText(
        "may {player} look at {card}?",
        lambda value, s: f"{s.player} {'may' if value else 'may not'} look at {s.card}.",
        lambda value: "yes" if value else "no",
        domain=_fixed(True, False),
    ),
    "enters_x": ClaimText(
        "what is X for {card}'s ability as it enters the battlefield?",
        lambda value, s: f"X is {value} for {s.card}'s ability as it enters the battlefield.",
        str,
        answer=NUMBER,
    ),
    "range_of_influence": ClaimText(
        "which players are within {player}'s range of influence?",
        lambda value, s: f"{_players(value)} within {s.player}'s range of influence.",
        lambda value: _players(value, verb=False),
        answer=PLAYERS,
    ),
    "seats_between": ClaimText(
        "how many seats apart do {player} and {other} sit?",
        lambda value, s: f"{s.player} and {s.other} sit {_number(value, 'seat', 'seats')} apart.",
        lambda value: _number(value, "seat", "seats"),
        answer=NUMBER,
    ),
    "trigger_game_state": ClaimText(
        "does the game as it was before the event, or as it is after, decide whether {card}'s "
        "ability triggers?",
        lambda value, s: (
            f"the game as it was before the event decides whether {s.card}'s ability triggers."
            if value == "before"
            else f"the game as it is after the event decides whether {s.card}'s ability triggers."
        ),
        lambda value: "the game before the event" if value == "before" else "the game after it",
        domain=_fixed("before", "after"),
    ),
}

# Asked by the legal-set kind: the learner picks cards, the engine judges the pick.
LEGAL_FIND_SET = "legal_find_set"
LEGAL_SET_QUESTION = "pick a set of cards {searcher} could legally find{in_whose}."


def claim_text(name: str) -> ClaimText:
    """The table's entry for a claim (KeyError for a claim the table lacks: a test guards it)."""
    return CLAIMS[name]

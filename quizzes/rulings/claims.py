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
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop, ngettext, pgettext, pgettext_lazy

from quizzes.rulings.balance import Near, any_values, distractor_weight, seen_values, value_key
from quizzes.rulings.values import plain, same, undetermined
from rules.engine.reasons import WHERE_WORDS

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

CHOICE, NUMBER, RANGE, ORDER, PLAYERS = "choice", "number", "range", "order", "players"
# Where a card ends up, as the engine's reasons say where a card is ("on the battlefield").
ZONE_WORDS = {
    zone: gettext_lazy(WHERE_WORDS[zone])
    for zone in ("library", "hand", "graveyard", "battlefield", "exile", "outside", "stack")
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
    source: str = ""  # the card whose effect the claim is about (a cost change)
    dying: tuple[str, ...] = ()  # the creatures that die together (triggers)
    active: str = ""  # whose turn it is (turn structure claims)
    step: str = ""  # a step of the turn (turns.STEPS)
    after: str = ""  # "begins", "resolves" or "cast": the moment priority is given
    stack: int = 0  # objects on the stack
    waiting: bool = False  # an ability waits to be put on the stack (the cleanup step)
    first_turn: bool = False  # the game's first turn

    @property
    def during(self) -> str:
        """ "during the upkeep step" (the cleanup step with an ability that triggered)."""
        if self.step == "cleanup" and self.waiting:
            return _("during the cleanup step, in which an ability has triggered")
        return str(DURING[self.step]) if self.step in DURING else _("during this step")

    @property
    def turn(self) -> str:
        """ "in Olek's turn" / "in the game's first turn, Olek's"."""
        if not self.active:
            return _("in the active player's turn")
        if self.first_turn:
            return _("in the game's first turn, %(active)s's") % {"active": self.active}
        return _("in %(active)s's turn") % {"active": self.active}

    @property
    def stack_words(self) -> str:
        if not self.stack:
            return _("with the stack empty")
        return ngettext(
            "with %(count)s spell or ability on the stack",
            "with %(count)s spells or abilities on the stack",
            self.stack,
        ) % {"count": self.stack}

    @property
    def moment(self) -> str:
        """When priority is given: as the step begins, after a resolution, after a cast."""
        if self.after == "resolves":
            return _("next, after a spell resolves")
        if self.after == "cast":
            return _("next, after %(player)s casts a spell while holding priority") % {
                "player": self.player
            }
        return _("first, as it begins")

    steps: tuple[str, ...] = ()  # two steps of casting a spell (casting_step_order)

    @property
    def steps_either(self) -> str:
        """ "choosing its targets or announcing the value of X"."""
        return _or([_word(STEP_WORDS, step) for step in self.steps])

    @property
    def dying_event(self) -> str:
        """ "Wood Elves dies" / "Wood Elves and Thalia die at the same time"."""
        if not self.dying:
            return _("these creatures die at the same time")
        return ngettext("%(names)s dies", "%(names)s die at the same time", len(self.dying)) % {
            "names": _and(list(self.dying))
        }

    @property
    def in_whose(self) -> str:
        return _(" in %(player)s's zones") % {"player": self.whose} if self.whose else ""

    @property
    def player_or_caster(self) -> str:
        return self.player or _("its caster")


@dataclass(frozen=True)
class Context:
    """What the board tells a claim's choices: players, library sizes, a card's costs."""

    players: tuple[str, ...] = ()  # in turn order
    library_sizes: Mapping[str, int] | None = None
    card_costs: tuple[str, ...] = ()
    mana: tuple[str, ...] = MANA  # the mana symbols some card on the board could make

    def library_size(self, player: str) -> int:
        return (self.library_sizes or {}).get(player, 7)


def _cards(count: int) -> str:
    return ngettext("%(count)s card", "%(count)s cards", count) % {"count": count}


def _times(count: Any) -> str:
    if count in (0, 1, 2):
        return {0: _("no times"), 1: _("once"), 2: _("twice")}[count]
    return ngettext("%(count)s time", "%(count)s times", count) % {"count": count}


def _portion(value: Any) -> str:
    if value == "library":
        return _("the whole library")
    if value == "none":
        return _("no library")
    match = re.fullmatch(r"top (\d+)", str(value))
    if match:
        count = int(match.group(1))
        return ngettext("only the top %(count)s card", "only the top %(count)s cards", count) % {
            "count": count
        }
    return str(value)


def mana_words(value: Any) -> str:
    """Mana in symbols; alternatives ("{U} or {G}", as the engine gives them) joined in the
    reader's language (German pages said "{U} or {G}"; found walking the app)."""
    if value in ("", None):
        return _("no mana")
    return _or(str(value).split(" or "))


def _yes_no(value: Any) -> str:
    return _("yes") if value else _("no")


# Counter kinds that are words, in the reader's language: a German board said "2 loyalty-Marken"
# (found walking the app for issue 23); "+1/+1" and "-1/-1" read alike in every language.
COUNTER_WORDS = {"loyalty": gettext_lazy("loyalty")}


def counter_kind(kind: str) -> str:
    """A counter's kind as a reader's page names it ("+1/+1" when none is given)."""
    return str(COUNTER_WORDS.get(kind, kind or "+1/+1"))


def counters_text(count: Any, kind: str) -> str:
    """A number of counters ("2 +1/+1 counters"): a claim's value and the board say it alike."""
    if kind == "loyalty":  # German joins the word to "Marken": "Loyalitätsmarken"
        return ngettext("%(count)s loyalty counter", "%(count)s loyalty counters", count) % {
            "count": count
        }
    return ngettext("%(count)s %(kind)s counter", "%(count)s %(kind)s counters", count) % {
        "count": count,
        "kind": kind or "+1/+1",
    }


def _names(value: Any) -> list[str]:
    return [str(name) for name in plain(value) or []]


def _and(names: list[str]) -> str:
    if len(names) < 2:
        return "".join(names)
    return _("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


def _players(value: Any) -> str:
    return _and(_names(value)) or _("no player")


def _within(value: Any, s: Subject) -> str:
    names = _names(value)
    values = {"players": _and(names), "player": s.player}
    if not names:
        return _("no player is within %(player)s's range of influence.") % values
    return (
        ngettext(
            "%(players)s is within %(player)s's range of influence.",
            "%(players)s are within %(player)s's range of influence.",
            len(names),
        )
        % values
    )


def _yes(value: Any) -> bool:
    return value is True or value == "yes"


def _depends(words: Callable[[Any], str]) -> Callable[[Any], str]:
    """`words` for a value, an undetermined one worded as what it depends on."""

    def worded(value: Any) -> str:
        if value == "if_searched":
            return _("depends on whether they search")
        if undetermined(value):
            return _("depends on a choice: %(values)s") % {"values": words(value)}
        return words(value)

    return worded


def _three_way(value: Any, yes: str, no: str, if_searched: str) -> str:
    if value == "if_searched":
        return if_searched
    return yes if _yes(value) else no


def _order_words(value: Any) -> str:
    names = _names(value)
    return _(", then ").join(names) if names else _("nobody")


def _say(text: str, **values: Any) -> str:
    """A sentence (marked with gettext_noop where it is written) translated, then filled in."""
    return _(text) % values


def _either(value: Any, if_true: str, if_false: str, **values: Any) -> str:
    """A yes/no claim's statement: one of two sentences (each marked where it is written)."""
    return _say(if_true if value else if_false, **values)


@dataclass(frozen=True)
class ClaimText:
    """How one claim is asked, stated and answered."""

    question: StrOrPromise  # formatted with the Subject's fields (a lazy translation)
    statement: Callable[[Any, Subject], str]
    words: Callable[[Any], str]  # a value as a short answer
    answer: str = CHOICE
    domain: Callable[[Subject, Context], list[Any]] | None = None
    low: int = 0  # a number answer's bounds
    high: int = MAX_NUMBER
    # What a statement of the claim is about, for the question sentence of statements ("Statements
    # about whether Alice shuffles: ..."): of one subject, and of several ("about who shuffles").
    about: StrOrPromise = ""
    about_many: StrOrPromise = ""

    def ask(self, subject: Subject) -> str:
        return _sentence(self._filled(self.question, subject))

    def about_one(self, subject: Subject) -> str:
        """What a statement of the claim about `subject` is about ("about whether Alice
        shuffles")."""
        return self._filled(self.about, subject)

    def _filled(self, template: StrOrPromise, subject: Subject) -> str:
        return str(template).format(
            card=subject.card,
            player=subject.player,
            player_or_caster=subject.player_or_caster,
            searcher=subject.searcher,
            in_whose=subject.in_whose,
            counter=counter_kind(subject.kind),
            other=subject.other,
            source=subject.source,
            dying_event=subject.dying_event,
            turn=subject.turn,
            during=subject.during,
            stack=subject.stack_words,
            moment=subject.moment,
            steps_either=subject.steps_either,
        )

    def state(self, value: Any, subject: Subject) -> str:
        return _sentence(self.statement(value, subject))

    def choices(self, subject: Subject, context: Context) -> list[Any]:
        return self.domain(subject, context) if self.domain else []

    @property
    def near(self) -> Near:
        """Which two values a false statement may trade (a number for one within 3)."""
        return {NUMBER: near_numbers, RANGE: near_ranges, ORDER: near_orders}.get(
            self.answer, any_values
        )

    def false_value(
        self, value: Any, subject: Subject, context: Context, rng: random.Random, claim: str = ""
    ):
        """A plausible value the claim does not have (None when there is none), drawn so that
        each value is named falsely as often as truly (balance.py: never a value the content
        never gives, were it only ever a distractor)."""
        weighted = self.false_options(value, subject, context, claim)
        if not weighted:
            return None
        return rng.choices([o for o, _ in weighted], [w for _, w in weighted])[0]

    def false_options(
        self, value: Any, subject: Subject, context: Context, claim: str = ""
    ) -> list[tuple[Any, float]]:
        """The false values a statement of `claim` (true `value`) may name, each with how likely
        it is named (`distractor_weight`)."""
        return [
            (option, weight)
            for option in self.plausible_false(value, subject, context, seen_values(claim))
            if (weight := distractor_weight(claim, value, option, self.near)) > 0
        ]

    def plausible_false(
        self, value: Any, subject: Subject, context: Context, seen: list[Any]
    ) -> list[Any]:
        """The values the claim does not have that a false statement of it could name on this
        board: its choices, numbers near it, other orders of the players seated, and the values
        in `seen` (the content's true values of the claim) that fit."""
        options: list[Any]
        if self.answer == NUMBER and isinstance(value, int) and not isinstance(value, bool):
            options = [n for n in (value - 1, value + 1, value + 2) if self.low <= n <= self.high]
            options += [
                n for n in seen
                if near_numbers(n, value) and self.low <= n <= self.high
            ]  # fmt: skip
        elif self.answer == RANGE and isinstance(plain(value), list) and len(value) == 2:
            low, high = plain(value)
            options = [[low, high + 1], *([[low + 1, high]] if low < high else [])]
            options += [[max(low - 1, 0), high]] if low > 0 else []
            options += [
                other for other in seen
                if near_ranges(other, value) and 0 <= other[0] <= other[1]
            ]  # fmt: skip
        elif self.answer == ORDER:
            order = plain(value) or []
            options = [list(reversed(order))] if len(order) > 1 else []
            options += [order[1:] + order[:1]] if len(order) > 2 else []
            if len(order) == 1:  # another player deciding alone
                options += [[player] for player in context.players if player not in order]
            options += [  # another order the content gives, of players at this table
                other for other in seen
                if isinstance(other, list) and other and set(other) <= set(context.players)
            ]  # fmt: skip
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
        unique: dict[str, Any] = {}
        for option in options:
            if not same(value, option) and not undetermined(option):
                unique.setdefault(value_key(option), option)
        return list(unique.values())


NEAR = 3  # how far a false number (or range bound) may be from the true one


def near_numbers(one: Any, other: Any) -> bool:
    return (
        all(isinstance(n, int) and not isinstance(n, bool) for n in (one, other))
        and abs(one - other) <= NEAR
    )


def near_orders(one: Any, other: Any) -> bool:
    """Orders a table could show both of: the same players, or one or two of them (a third
    player is seated at some tables only, so "Alice, Nadia, Olga" for "Alice alone" would
    name falsely what three-player tables alone name truly)."""
    one, other = plain(one) or [], plain(other) or []
    return set(one) == set(other) or (len(one) <= 2 and len(other) <= 2)


def near_ranges(one: Any, other: Any) -> bool:
    one, other = plain(one), plain(other)
    return (
        all(isinstance(r, list) and len(r) == 2 for r in (one, other))
        and all(near_numbers(a, b) for a, b in zip(one, other, strict=True))
        and abs(one[0] - other[0]) + abs(one[1] - other[1]) <= NEAR
    )


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


FIND_WORDS = {
    "must": pgettext_lazy("card", "must be found"),
    "may": pgettext_lazy("card", "may be found"),
    "cannot": pgettext_lazy("card", "can't be found"),
}
# "can't" is a prohibition (101.2: Ashiok, Mindlock Orb): a player no instruction has search is
# not asked (generate.ABOUT_A_SEARCH), so "can't" never stands for "isn't told to".
SEARCH_WORDS = {
    "must": gettext_lazy("must search"),
    "may": gettext_lazy("may search"),
    "cannot": gettext_lazy("can't search (an effect prohibits it)"),
}
# A wish searches nothing: outside the game is not a zone (CR 400.11); its cards are chosen and
# brought into the game (400.11b).
CHOSEN_WORDS = {
    "must": pgettext_lazy("card", "must be chosen"),
    "may": pgettext_lazy("card", "may be chosen"),
    "cannot": pgettext_lazy("card", "can't be chosen"),
}
CHOOSE_OUTSIDE_WORDS = {
    "must": gettext_lazy("must choose from outside the game"),
    "may": gettext_lazy("may choose from outside the game"),
    "cannot": gettext_lazy("can't choose from outside the game"),
}
TAPPED_WORDS = {
    "tapped": gettext_lazy("tapped"),
    "untapped": gettext_lazy("untapped"),
    "tapped or untapped": gettext_lazy("tapped or untapped"),
}


def _word(words: Mapping[str, Any], value: Any) -> str:
    """A value in words; "battlefield or library" (a card that may be found) word by word."""
    if not isinstance(value, str):
        return str(value)
    if value in words:
        return str(words[value])
    alternatives = value.split(" or ")
    if len(alternatives) > 1 and all(part in words for part in alternatives):
        return _or([str(words[part]) for part in alternatives])
    return value


def _or(alternatives: list[str]) -> str:
    """Alternatives joined by "or" in the reader's language."""
    separator = pgettext("alternatives", "or")
    return f" {separator} ".join(alternatives)


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


def _mana_options(subject: Subject, context: Context) -> list[Any]:
    """No mana, and one or two of each symbol some card on the board could make (a Forest
    never offers {C})."""
    return ["", *context.mana, *(symbol * 2 for symbol in context.mana)]


DURING = {
    "untap": gettext_lazy("during the untap step"),
    "upkeep": gettext_lazy("during the upkeep step"),
    "draw": gettext_lazy("during the draw step"),
    "precombat_main": gettext_lazy("during the precombat main phase"),
    "beginning_of_combat": gettext_lazy("during the beginning of combat step"),
    "declare_attackers": gettext_lazy("during the declare attackers step"),
    "declare_blockers": gettext_lazy("during the declare blockers step"),
    "combat_damage": gettext_lazy("during the combat damage step"),
    "end_of_combat": gettext_lazy("during the end of combat step"),
    "postcombat_main": gettext_lazy("during the postcombat main phase"),
    "end": gettext_lazy("during the end step"),
    "cleanup": gettext_lazy(
        "during the cleanup step, in which nothing triggers and no state-based action is performed"
    ),
}
# Turn-based actions (CR 703.4) as a value (rules.engine.turns).
TBA_WORDS = {
    "untap": gettext_lazy(
        "permanents phase in or out, day or night may change, then the active player untaps "
        "their permanents"
    ),
    "draw": gettext_lazy("the active player draws a card"),
    "skipped": gettext_lazy("none (the starting player skips this draw step)"),
    "none": gettext_lazy("none"),
    "lore": gettext_lazy("the active player puts a lore counter on each of their Sagas"),
    "choose_defender": gettext_lazy("the active player chooses the defending player"),
    "declare_attackers": gettext_lazy("the active player declares attackers"),
    "declare_blockers": gettext_lazy("the defending player declares blockers"),
    "combat_damage": gettext_lazy("combat damage is assigned, then dealt all at once"),
    "cleanup": gettext_lazy(
        "the active player discards down to their maximum hand size, then damage is removed "
        'and "until end of turn" effects end'
    ),
}


def _tba_words(value: Any) -> str:
    return str(TBA_WORDS.get(value, value))


def _player_or_nobody(value: Any) -> str:
    return str(value) if value else _("no player")


def _players_or_nobody(subject: Subject, context: Context) -> list[Any]:
    return [*context.players, ""]


# The steps of casting a spell (601.2a-i), as the engine's reasons name them.
STEP_WORDS = {
    "move_to_stack": gettext_lazy("moving the card to the stack"),
    "choose_mode": gettext_lazy("choosing its mode"),
    "reveal_splice": gettext_lazy("revealing the cards to splice onto it"),
    "announce_alternative_or_additional_costs": gettext_lazy("announcing whether it is kicked"),
    "announce_x": gettext_lazy("announcing X"),
    "choose_targets": gettext_lazy("choosing its targets"),
    "divide_effect": gettext_lazy("dividing its effect among its targets"),
    "check_legality": gettext_lazy("checking that the proposed spell can legally be cast"),
    "determine_total_cost": gettext_lazy("determining and locking in its total cost"),
    "activate_mana_abilities": gettext_lazy("activating mana abilities"),
    "pay_total_cost": gettext_lazy("paying its total cost"),
    "becomes_cast": gettext_lazy(
        "the spell becoming cast (abilities that trigger on casting it trigger then)"
    ),
}
SBA_WORDS = {
    "destroyed": gettext_lazy("it is destroyed"),
    "graveyard": gettext_lazy("it is put into its owner's graveyard without being destroyed"),
    "counters_removed": gettext_lazy("+1/+1 and -1/-1 counters are removed from it"),
    "none": gettext_lazy("nothing happens to it"),
}
SBA_ZONE_WORDS = {
    "battlefield": gettext_lazy("on the battlefield"),
    "graveyard": gettext_lazy("in its owner's graveyard"),
    "ceases_to_exist": gettext_lazy("nowhere: it has ceased to exist"),
}
SBA_STATEMENTS = {
    "destroyed": gettext_noop("when state-based actions are checked now, %(card)s is destroyed."),
    "graveyard": gettext_noop(
        "when state-based actions are checked now, %(card)s is put into its owner's graveyard "
        "without being destroyed."
    ),
    "counters_removed": gettext_noop(
        "when state-based actions are checked now, +1/+1 and -1/-1 counters are removed from "
        "%(card)s."
    ),
    "none": gettext_noop("when state-based actions are checked now, nothing happens to %(card)s."),
}
LOSS_WORDS = {
    "loses": gettext_lazy("loses the game, and the game isn't a draw"),
    "draw": gettext_lazy("loses at the same time as every other player: the game is a draw"),
    "plays_on": gettext_lazy("doesn't lose the game"),
}


def _other_step(value: Any, s: Subject) -> str:
    others = [step for step in s.steps if step != value]
    return _word(STEP_WORDS, others[0]) if others else ""


def _fixed(*values: Any) -> Callable[[Subject, Context], list[Any]]:
    return lambda subject, context: list(values)


CLAIMS: dict[str, ClaimText] = {
    "casting_step_order": ClaimText(
        gettext_lazy("as {card} is cast, which comes first: {steps_either}?"),
        lambda value, s: _say(
            gettext_noop("as %(card)s is cast, %(first)s comes before %(second)s."),
            card=s.card,
            first=_word(STEP_WORDS, value),
            second=_other_step(value, s),
        ),
        lambda value: _word(STEP_WORDS, value),
        domain=lambda subject, context: list(subject.steps),
    ),
    "sba_performed": ClaimText(
        gettext_lazy("state-based actions are checked now: what happens to {card}?"),
        lambda value, s: _say(SBA_STATEMENTS.get(value, SBA_STATEMENTS["none"]), card=s.card),
        lambda value: _word(SBA_WORDS, value),
        domain=_fixed(*SBA_WORDS),
    ),
    "sba_destination": ClaimText(
        gettext_lazy(
            "state-based actions are checked now, and again until none apply: where is {card} then?"
        ),
        lambda value, s: _say(
            gettext_noop(
                "once state-based actions have been checked until none apply, %(card)s is %(zone)s."
            ),
            card=s.card,
            zone=_word(SBA_ZONE_WORDS, value),
        ),
        lambda value: _word(SBA_ZONE_WORDS, value),
        domain=_fixed(*SBA_ZONE_WORDS),
    ),
    "player_loses": ClaimText(
        gettext_lazy("state-based actions are checked now: what happens to {player}?"),
        lambda value, s: _say(
            gettext_noop("when state-based actions are checked now, %(player)s %(what)s."),
            player=s.player,
            what=_word(LOSS_WORDS, value),
        ),
        lambda value: _word(LOSS_WORDS, value),
        domain=_fixed(*LOSS_WORDS),
    ),
    "permanents_left": ClaimText(
        gettext_lazy(
            "state-based actions are checked now, and again until none apply: how many "
            "permanents does {player} control then?"
        ),
        lambda value, s: (
            ngettext(
                "once state-based actions have been checked until none apply, %(player)s controls "
                "%(count)s permanent.",
                "once state-based actions have been checked until none apply, %(player)s controls "
                "%(count)s permanents.",
                value,
            )
            % {"player": s.player, "count": value}
        ),
        str,
        answer=NUMBER,
        high=20,
    ),
    "finds": ClaimText(
        gettext_lazy("must, may or can't {card} be found?"),
        lambda value, s: f"{s.card} {_word(FIND_WORDS, value)}.",
        lambda value: _word(FIND_WORDS, value),
        domain=_fixed("must", "may", "cannot"),
    ),
    "found_count": ClaimText(
        gettext_lazy("how many cards can {searcher} find{in_whose}? Give the fewest and the most."),
        lambda value, s: (
            ngettext(
                "%(searcher)s can find exactly %(count)s card%(in_whose)s.",
                "%(searcher)s can find exactly %(count)s cards%(in_whose)s.",
                value[0],
            )
            % {"searcher": s.searcher, "count": value[0], "in_whose": s.in_whose}
            if value[0] == value[1]
            else ngettext(
                "%(searcher)s can find at least %(low)s and at most %(high)s card%(in_whose)s.",
                "%(searcher)s can find at least %(low)s and at most %(high)s cards%(in_whose)s.",
                value[1],
            )
            % {"searcher": s.searcher, "low": value[0], "high": value[1], "in_whose": s.in_whose}
        ),
        lambda value: (
            _("%(low)s to %(high)s") % {"low": value[0], "high": value[1]}
            if value[0] != value[1]
            else str(value[0])
        ),
        answer=RANGE,
    ),
    "searches": ClaimText(
        gettext_lazy("must, may or can't {player} search?"),
        lambda value, s: f"{s.player} {_word(SEARCH_WORDS, value)}.",
        lambda value: _word(SEARCH_WORDS, value),
        domain=_fixed("must", "may", "cannot"),
    ),
    "searched_portion": ClaimText(
        gettext_lazy("how much of the library does {player} search?"),
        lambda value, s: _say(
            gettext_noop("%(player)s searches %(portion)s."),
            player=s.player,
            portion=_portion(value),
        ),
        _portion,
        domain=_library_portions,
    ),
    "shuffles": ClaimText(
        gettext_lazy("does {player} shuffle?"),
        lambda value, s: _three_way(
            value,
            _say(gettext_noop("%(player)s shuffles."), player=s.player),
            _say(gettext_noop("%(player)s doesn't shuffle."), player=s.player),
            _say(
                gettext_noop("%(player)s shuffles only if they actually searched."), player=s.player
            ),
        ),
        _depends(lambda value: _("yes") if _yes(value) else _("no")),
        domain=_fixed("yes", "no"),
    ),
    "shuffled_portion": ClaimText(
        gettext_lazy("what does {player} shuffle?"),
        lambda value, s: _say(
            gettext_noop("%(player)s shuffles %(portion)s."),
            player=s.player,
            portion=_portion(value),
        ),
        _portion,
        domain=_library_portions,
    ),
    "revealed": ClaimText(
        gettext_lazy("are the cards {searcher} finds revealed?"),
        lambda value, s: (
            _say(gettext_noop("The cards %(searcher)s finds are revealed."), searcher=s.searcher)
            if value
            else _say(
                gettext_noop("The cards %(searcher)s finds are not revealed."), searcher=s.searcher
            )
        ),
        _yes_no,
        domain=_fixed(True, False),
    ),
    "decision_order": ClaimText(
        gettext_lazy("in which order do the players decide what to find?"),
        lambda value, s: (
            _say(gettext_noop("%(player)s alone decides what to find."), player=_names(value)[0])
            if len(_names(value)) == 1
            else _say(
                gettext_noop("The players decide what to find in this order: %(order)s."),
                order=_order_words(value),
            )
        ),
        _order_words,
        answer=ORDER,
    ),
    "searched_library_this_turn": ClaimText(
        gettext_lazy("after this, has {player} searched their library this turn?"),
        lambda value, s: _three_way(
            value,
            _say(
                gettext_noop("afterwards, %(player)s has searched their library this turn."),
                player=s.player,
            ),
            _say(
                gettext_noop("afterwards, %(player)s hasn't searched their library this turn."),
                player=s.player,
            ),
            _say(
                gettext_noop(
                    "afterwards, %(player)s has searched their library this turn only if they "
                    "actually searched."
                ),
                player=s.player,
            ),
        ),
        _depends(lambda value: _("yes") if _yes(value) else _("no")),
        domain=_fixed("yes", "no"),
    ),
    "alt_cost_available": ClaimText(
        gettext_lazy("once this has resolved, can {player} cast {card} for its alternative cost?"),
        lambda value, s: _either(
            value,
            gettext_noop(
                "once this has resolved, %(player)s can cast %(card)s for its alternative cost."
            ),
            gettext_noop(
                "once this has resolved, %(player)s can't cast %(card)s for its alternative cost."
            ),
            player=s.player,
            card=s.card,
        ),
        _yes_no,
        domain=_fixed(True, False),
    ),
    "mills": ClaimText(
        gettext_lazy("how many cards does {player} mill?"),
        lambda value, s: (
            ngettext("%(player)s mills %(count)s card.", "%(player)s mills %(count)s cards.", value)
            % {"player": s.player, "count": value}
        ),
        _cards,
        answer=NUMBER,
    ),
    "can_dredge": ClaimText(
        gettext_lazy("can the dredge ability of {card} replace this draw?"),
        lambda value, s: _either(
            value,
            gettext_noop("the dredge ability of %(card)s can replace this draw."),
            gettext_noop("the dredge ability of %(card)s can't replace this draw."),
            card=s.card,
        ),
        _yes_no,
        domain=_fixed(True, False),
    ),
    "zone_after": ClaimText(
        gettext_lazy("where does {card} end up?"),
        lambda value, s: _say(
            gettext_noop("%(card)s ends up %(zone)s."), card=s.card, zone=_word(ZONE_WORDS, value)
        ),
        _depends(lambda value: _word(ZONE_WORDS, value)),
        domain=_fixed(*ZONE_WORDS),
    ),
    "triggers": ClaimText(
        gettext_lazy("how many times does the ability of {card} trigger?"),
        lambda value, s: (
            _say(gettext_noop("the ability of %(card)s doesn't trigger."), card=s.card)
            if value == 0
            else _say(
                gettext_noop("the ability of %(card)s triggers %(times)s."),
                card=s.card,
                times=_times(value),
            )
        ),
        _times,
        answer=NUMBER,
    ),
    "mana_produced": ClaimText(
        gettext_lazy("what mana does {card} produce?"),
        lambda value, s: _say(
            gettext_noop("%(card)s produces %(mana)s."), card=s.card, mana=mana_words(value)
        ),
        _depends(mana_words),
        domain=_mana_options,
    ),
    "can_activate": ClaimText(
        gettext_lazy("can the ability of {card} be activated now?"),
        lambda value, s: _either(
            value,
            gettext_noop("the ability of %(card)s can be activated now."),
            gettext_noop("the ability of %(card)s can't be activated now."),
            card=s.card,
        ),
        _yes_no,
        domain=_fixed(True, False),
    ),
    "mana_value": ClaimText(
        gettext_lazy("what is {card}'s mana value?"),
        lambda value, s: _say(
            gettext_noop("%(card)s's mana value is %(value)s."), card=s.card, value=value
        ),
        str,
        answer=NUMBER,
    ),
    "may_pay_mana_cost": ClaimText(
        gettext_lazy("can {player_or_caster} cast {card} by paying its mana cost?"),
        lambda value, s: _either(
            value,
            gettext_noop("%(player)s can cast %(card)s by paying its mana cost."),
            gettext_noop("%(player)s can't cast %(card)s by paying its mana cost."),
            player=s.player_or_caster,
            card=s.card,
        ),
        _yes_no,
        domain=_fixed(True, False),
    ),
    "cost_paid": ClaimText(
        gettext_lazy("what does {player_or_caster} pay to cast {card}?"),
        lambda value, s: _say(
            gettext_noop("%(player)s pays %(cost)s to cast %(card)s."),
            player=s.player_or_caster,
            cost=value,
            card=s.card,
        ),
        str,
        domain=_costs_near,
    ),
    "tapped_after": ClaimText(
        gettext_lazy("is {card} tapped or untapped afterwards?"),
        lambda value, s: _say(
            gettext_noop("afterwards, %(card)s is %(state)s."),
            card=s.card,
            state=_word(TAPPED_WORDS, value),
        ),
        _depends(lambda value: _word(TAPPED_WORDS, value)),
        domain=_fixed("tapped", "untapped"),
    ),
    "counters": ClaimText(
        gettext_lazy("how many {counter} counters are on {card} afterwards?"),
        lambda value, s: _say(
            gettext_noop("afterwards, %(card)s has %(counters)s."),
            card=s.card,
            counters=counters_text(value, s.kind),
        ),
        lambda value: ngettext("%(count)s counter", "%(count)s counters", value) % {"count": value},
        answer=NUMBER,
    ),
    "life_total": ClaimText(
        gettext_lazy("what is {player}'s life total afterwards?"),
        lambda value, s: _say(
            gettext_noop("afterwards, %(player)s's life total is %(value)s."),
            player=s.player,
            value=value,
        ),
        str,
        answer=NUMBER,
        low=-99,
        high=999,
    ),
    "exiled_face_down": ClaimText(
        gettext_lazy("is {card} exiled face down?"),
        lambda value, s: _either(
            value,
            gettext_noop("%(card)s is exiled face down."),
            gettext_noop("%(card)s is not exiled face down."),
            card=s.card,
        ),
        _yes_no,
        domain=_fixed(True, False),
    ),
    "may_look_at": ClaimText(
        gettext_lazy("may {player} look at {card}?"),
        lambda value, s: _either(
            value,
            gettext_noop("%(player)s may look at %(card)s."),
            gettext_noop("%(player)s may not look at %(card)s."),
            player=s.player,
            card=s.card,
        ),
        _yes_no,
        domain=_fixed(True, False),
    ),
    "enters_x": ClaimText(
        gettext_lazy("what is X for the ability of {card} as it enters the battlefield?"),
        lambda value, s: _say(
            gettext_noop(
                "X is %(value)s for the ability of %(card)s as it enters the battlefield."
            ),
            value=value,
            card=s.card,
        ),
        str,
        answer=NUMBER,
    ),
    "range_of_influence": ClaimText(
        gettext_lazy("which players are within {player}'s range of influence?"),
        _within,
        _players,
        answer=PLAYERS,
    ),
    "seats_between": ClaimText(
        gettext_lazy("how many seats apart do {player} and {other} sit?"),
        lambda value, s: (
            ngettext(
                "%(player)s and %(other)s sit %(count)s seat apart.",
                "%(player)s and %(other)s sit %(count)s seats apart.",
                value,
            )
            % {"player": s.player, "other": s.other, "count": value}
        ),
        lambda value: ngettext("%(count)s seat", "%(count)s seats", value) % {"count": value},
        answer=NUMBER,
    ),
    "trigger_game_state": ClaimText(
        gettext_lazy(
            "does the game as it was before the event, or as it is after, decide whether "
            "the ability of {card} triggers?"
        ),
        lambda value, s: (
            (
                _(
                    "the game as it was before the event decides whether the ability of "
                    "%(card)s triggers."
                )
                if value == "before"
                else _(
                    "the game as it is after the event decides whether the ability of "
                    "%(card)s triggers."
                )
            )
            % {"card": s.card}
        ),
        lambda value: (
            _("the game before the event") if value == "before" else _("the game after it")
        ),
        domain=_fixed("before", "after"),
    ),
    "total_cost": ClaimText(
        gettext_lazy("what is the total cost to cast {card}?"),
        lambda value, s: _say(
            gettext_noop("the total cost to cast %(card)s is %(cost)s."), card=s.card, cost=value
        ),
        str,
        domain=_costs_near,
    ),
    "cost_change_applies": ClaimText(
        gettext_lazy("does the cost change of {source} apply to {card}?"),
        lambda value, s: _either(
            value,
            gettext_noop("the cost change of %(source)s applies to %(card)s."),
            gettext_noop("the cost change of %(source)s doesn't apply to %(card)s."),
            source=s.source,
            card=s.card,
        ),
        _yes_no,
        domain=_fixed(True, False),
    ),
    "triggers_on_event": ClaimText(
        gettext_lazy("how many times does the ability of {card} trigger if {dying_event}?"),
        lambda value, s: _say(
            gettext_noop("if %(event)s, the ability of %(card)s triggers %(times)s."),
            event=s.dying_event,
            card=s.card,
            times=_times(value),
        ),
        _times,
        answer=NUMBER,
        high=10,
    ),
    "trigger_order": ClaimText(
        gettext_lazy(
            "if {dying_event}, whose triggered abilities resolve first? Give the players in the "
            "order their abilities resolve."
        ),
        lambda value, s: _say(
            gettext_noop(
                "if %(event)s, the triggered abilities resolve in this order of controllers: "
                "%(order)s."
            ),
            event=s.dying_event,
            order=_order_words(value),
        ),
        _order_words,
        answer=ORDER,
    ),
    "power": ClaimText(
        gettext_lazy("what is the power of {card}?"),
        lambda value, s: _say(
            gettext_noop("the power of %(card)s is %(number)s."), card=s.card, number=value
        ),
        str,
        answer=NUMBER,
        high=30,
    ),
    "toughness": ClaimText(
        gettext_lazy("what is the toughness of {card}?"),
        lambda value, s: _say(
            gettext_noop("the toughness of %(card)s is %(number)s."), card=s.card, number=value
        ),
        str,
        answer=NUMBER,
        high=30,
    ),
    "effect_layer": ClaimText(
        gettext_lazy("in which layer does the effect of {source} on power and toughness apply?"),
        lambda value, s: _say(
            gettext_noop("the effect of %(source)s applies in layer %(layer)s."),
            source=s.source,
            layer=value,
        ),
        lambda value: _("layer %(layer)s") % {"layer": value},
        domain=_fixed("7a", "7b", "7c", "7d"),
    ),
    "priority_in_step": ClaimText(
        gettext_lazy("{turn}, does any player receive priority {during}?"),
        lambda value, s: _either(
            value,
            gettext_noop("%(turn)s, a player receives priority %(during)s."),
            gettext_noop("%(turn)s, no player receives priority %(during)s."),
            turn=s.turn,
            during=s.during,
        ),
        _yes_no,
        domain=_fixed(True, False),
    ),
    "turn_based_actions": ClaimText(
        gettext_lazy("{turn}, which turn-based actions happen {during}?"),
        lambda value, s: _say(
            gettext_noop("%(turn)s, the turn-based actions %(during)s are: %(actions)s."),
            turn=s.turn,
            during=s.during,
            actions=_tba_words(value),
        ),
        _tba_words,
        domain=_fixed(*TBA_WORDS),
    ),
    "priority_first": ClaimText(
        gettext_lazy("{turn}, {during}: who receives priority {moment}?"),
        lambda value, s: (
            _say(
                gettext_noop("%(turn)s, %(during)s, %(player)s receives priority %(moment)s."),
                turn=s.turn,
                during=s.during,
                player=value,
                moment=s.moment,
            )
            if value
            else _say(
                gettext_noop("%(turn)s, %(during)s, no player receives priority %(moment)s."),
                turn=s.turn,
                during=s.during,
                moment=s.moment,
            )
        ),
        _player_or_nobody,
        domain=_players_or_nobody,
    ),
    "may_cast_now": ClaimText(
        gettext_lazy(
            "{turn}, {during}, {stack}: is this a time at which {player} may cast {card}?"
        ),
        lambda value, s: _either(
            value,
            gettext_noop("%(turn)s, %(during)s, %(stack)s, %(player)s may cast %(card)s."),
            gettext_noop("%(turn)s, %(during)s, %(stack)s, %(player)s can't cast %(card)s."),
            turn=s.turn,
            during=s.during,
            stack=s.stack_words,
            player=s.player,
            card=s.card,
        ),
        _yes_no,
        domain=_fixed(True, False),
    ),
}


# What a statement of each claim is about, of one subject and of several ("": the same):
# the question sentence of statements names it ("Statements about whether Alice shuffles and
# about where Forest ends up: is each true or false?").
ABOUT: dict[str, tuple[StrOrPromise, StrOrPromise]] = {
    "finds": (
        gettext_lazy("about which cards can be found"),
        "",
    ),
    "found_count": (
        gettext_lazy("about how many cards {searcher} can find{in_whose}"),
        gettext_lazy("about how many cards each player can find"),
    ),
    "searches": (
        gettext_lazy("about whether {player} must, may or can't search"),
        gettext_lazy("about who must, may or can't search"),
    ),
    "searched_portion": (
        gettext_lazy("about how much of the library {player} searches"),
        gettext_lazy("about how much of each library is searched"),
    ),
    "shuffles": (
        gettext_lazy("about whether {player} shuffles"),
        gettext_lazy("about who shuffles"),
    ),
    "shuffled_portion": (
        gettext_lazy("about what {player} shuffles"),
        gettext_lazy("about what is shuffled"),
    ),
    "revealed": (
        gettext_lazy("about whether the cards {searcher} finds are revealed"),
        gettext_lazy("about whether the cards found are revealed"),
    ),
    "decision_order": (
        gettext_lazy("about the order in which the players decide what to find"),
        "",
    ),
    "searched_library_this_turn": (
        gettext_lazy("about whether {player} has searched their library this turn"),
        gettext_lazy("about who has searched their library this turn"),
    ),
    "alt_cost_available": (
        gettext_lazy("about whether {player} can cast {card} for its alternative cost"),
        gettext_lazy("about who can cast which spell for its alternative cost"),
    ),
    "mills": (
        gettext_lazy("about how many cards {player} mills"),
        gettext_lazy("about how many cards each player mills"),
    ),
    "can_dredge": (
        gettext_lazy("about whether the dredge ability of {card} can replace the draw"),
        gettext_lazy("about which dredge abilities can replace the draw"),
    ),
    "zone_after": (
        gettext_lazy("about where {card} ends up"),
        gettext_lazy("about where the cards end up"),
    ),
    "triggers": (
        gettext_lazy("about how many times the ability of {card} triggers"),
        gettext_lazy("about how many times each ability triggers"),
    ),
    "mana_produced": (
        gettext_lazy("about what mana {card} produces"),
        gettext_lazy("about what mana each permanent produces"),
    ),
    "can_activate": (
        gettext_lazy("about whether the ability of {card} can be activated now"),
        gettext_lazy("about which abilities can be activated now"),
    ),
    "mana_value": (
        gettext_lazy("about the mana value of {card}"),
        gettext_lazy("about the mana value of each card"),
    ),
    "may_pay_mana_cost": (
        gettext_lazy("about whether {player_or_caster} can cast {card} by paying its mana cost"),
        gettext_lazy("about which spells can be cast by paying their mana cost"),
    ),
    "cost_paid": (
        gettext_lazy("about what {player_or_caster} pays to cast {card}"),
        gettext_lazy("about what is paid to cast each spell"),
    ),
    "tapped_after": (
        gettext_lazy("about whether {card} is tapped afterwards"),
        gettext_lazy("about which permanents are tapped afterwards"),
    ),
    "counters": (
        gettext_lazy("about how many {counter} counters are on {card} afterwards"),
        gettext_lazy("about the counters on each permanent afterwards"),
    ),
    "life_total": (
        gettext_lazy("about {player}'s life total afterwards"),
        gettext_lazy("about each player's life total afterwards"),
    ),
    "exiled_face_down": (
        gettext_lazy("about whether {card} is exiled face down"),
        gettext_lazy("about which cards are exiled face down"),
    ),
    "may_look_at": (
        gettext_lazy("about whether {player} may look at {card}"),
        gettext_lazy("about who may look at which cards"),
    ),
    "enters_x": (
        gettext_lazy("about X for the ability of {card} as it enters the battlefield"),
        gettext_lazy("about X for each card entering the battlefield"),
    ),
    "range_of_influence": (
        gettext_lazy("about which players are within {player}'s range of influence"),
        gettext_lazy("about each player's range of influence"),
    ),
    "seats_between": (
        gettext_lazy("about how many seats apart {player} and {other} sit"),
        gettext_lazy("about how many seats apart the players sit"),
    ),
    "trigger_game_state": (
        gettext_lazy("about which game decides whether the ability of {card} triggers"),
        gettext_lazy("about which game decides whether each ability triggers"),
    ),
    "total_cost": (
        gettext_lazy("about the total cost to cast {card}"),
        gettext_lazy("about the total cost of each spell"),
    ),
    "cost_change_applies": (
        gettext_lazy("about whether the cost change of {source} applies to {card}"),
        gettext_lazy("about which cost changes apply to which spells"),
    ),
    "triggers_on_event": (
        gettext_lazy("about how many times the ability of {card} triggers if {dying_event}"),
        gettext_lazy("about how many times each ability triggers"),
    ),
    "trigger_order": (
        gettext_lazy("about the order in which the triggered abilities resolve"),
        "",
    ),
    "power": (
        gettext_lazy("about the power of {card}"),
        gettext_lazy("about each creature's power"),
    ),
    "toughness": (
        gettext_lazy("about the toughness of {card}"),
        gettext_lazy("about each creature's toughness"),
    ),
    "effect_layer": (
        gettext_lazy("about the layer in which the effect of {source} applies"),
        gettext_lazy("about the layer in which each effect applies"),
    ),
    "priority_in_step": (
        gettext_lazy("about whether any player receives priority {during}"),
        gettext_lazy("about the steps in which players receive priority"),
    ),
    "turn_based_actions": (
        gettext_lazy("about the turn-based actions {during}"),
        gettext_lazy("about each step's turn-based actions"),
    ),
    "priority_first": (
        gettext_lazy("about who receives priority {moment}"),
        gettext_lazy("about who receives priority, and when"),
    ),
    "may_cast_now": (
        gettext_lazy("about whether {player} may cast {card} then"),
        gettext_lazy("about who may cast which cards then"),
    ),
    "casting_step_order": (
        gettext_lazy("about which step of casting {card} comes first"),
        gettext_lazy("about the order of the steps of casting a spell"),
    ),
    "sba_performed": (
        gettext_lazy("about what the state-based actions do to {card}"),
        gettext_lazy("about what the state-based actions do to each permanent"),
    ),
    "sba_destination": (
        gettext_lazy("about where {card} is once the state-based actions are done"),
        gettext_lazy("about where each permanent is once the state-based actions are done"),
    ),
    "player_loses": (
        gettext_lazy("about what the state-based actions do to {player}"),
        gettext_lazy("about which players lose"),
    ),
    "permanents_left": (
        gettext_lazy("about how many permanents {player} controls afterwards"),
        gettext_lazy("about how many permanents each player controls afterwards"),
    ),
}
# Combat damage (rules/engine/combat_claims.py: 510 and the combat keywords).
COMBAT_DESTROYED_WORDS = {
    "first_strike": gettext_lazy("destroyed after the first-strike combat damage step"),
    "regular": gettext_lazy("destroyed after the regular combat damage step"),
    "survives": gettext_lazy("not destroyed"),
}
COMBAT_DESTROYED_STATEMENTS = {
    "first_strike": gettext_noop(
        "once combat damage is dealt, state-based actions destroy %(card)s right after the "
        "first-strike combat damage step."
    ),
    "regular": gettext_noop(
        "once combat damage is dealt, state-based actions destroy %(card)s after the regular "
        "combat damage step."
    ),
    "survives": gettext_noop(
        "combat damage and the state-based actions after it don't destroy %(card)s."
    ),
}
CLAIMS.update(
    {
        "combat_damage_steps": ClaimText(
            gettext_lazy("how many combat damage steps does this combat phase have?"),
            lambda value, s: (
                ngettext(
                    "this combat phase has %(count)s combat damage step.",
                    "this combat phase has %(count)s combat damage steps.",
                    value,
                )
                % {"count": value}
            ),
            str,
            answer=NUMBER,
            high=2,  # one step, or two with a first-strike step (510.4)
        ),
        "combat_destroyed": ClaimText(
            gettext_lazy("combat damage is dealt: what happens to {card}?"),
            lambda value, s: _say(
                COMBAT_DESTROYED_STATEMENTS.get(value, COMBAT_DESTROYED_STATEMENTS["survives"]),
                card=s.card,
            ),
            lambda value: _word(COMBAT_DESTROYED_WORDS, value),
            domain=_fixed(*COMBAT_DESTROYED_WORDS),
        ),
        "trample_to_player_at_most": ClaimText(
            gettext_lazy(
                "what is the most combat damage {card} can assign to the player it is attacking?"
            ),
            lambda value, s: _say(
                gettext_noop(
                    "%(card)s can assign at most %(count)s combat damage to the player it is "
                    "attacking."
                ),
                card=s.card,
                count=value,
            ),
            str,
            answer=NUMBER,
            high=20,
        ),
        "life_after_combat": ClaimText(
            gettext_lazy("once all combat damage has been dealt, what is {player}'s life total?"),
            lambda value, s: _say(
                gettext_noop(
                    "once all combat damage has been dealt, %(player)s's life total is %(count)s."
                ),
                player=s.player,
                count=value,
            ),
            str,
            answer=NUMBER,
            high=40,
        ),
    }
)
ABOUT.update(
    {
        "combat_damage_steps": (
            gettext_lazy("about how many combat damage steps there are"),
            "",
        ),
        "combat_destroyed": (
            gettext_lazy("about whether combat damage destroys {card}, and when"),
            gettext_lazy("about which creatures combat damage destroys, and when"),
        ),
        "trample_to_player_at_most": (
            gettext_lazy("about the most combat damage {card} can assign to the player"),
            gettext_lazy("about the most combat damage each attacker can assign to the player"),
        ),
        "life_after_combat": (
            gettext_lazy("about {player}'s life total after combat damage"),
            gettext_lazy("about each player's life total after combat damage"),
        ),
    }
)
CLAIMS = {
    name: replace(text, about=ABOUT[name][0], about_many=ABOUT[name][1] or ABOUT[name][0])
    for name, text in CLAIMS.items()
}


def _chosen_count(value: Any, s: Subject) -> str:
    if value[0] == value[1]:
        return ngettext(
            "%(searcher)s can choose exactly %(count)s card from outside the game.",
            "%(searcher)s can choose exactly %(count)s cards from outside the game.",
            value[0],
        ) % {"searcher": s.searcher, "count": value[0]}
    return ngettext(
        "%(searcher)s can choose at least %(low)s and at most %(high)s card from outside the game.",
        "%(searcher)s can choose at least %(low)s and at most %(high)s cards from outside the "
        "game.",
        value[1],
    ) % {"searcher": s.searcher, "low": value[0], "high": value[1]}


# The claims of a wish, worded as a choice from outside the game (CR 400.11b), never as a search
# or a find: asked when the only "search" is a wish (`claim_text(name, outside=True)`).
OUTSIDE_CLAIMS: dict[str, ClaimText] = {
    "finds": ClaimText(
        gettext_lazy("must, may or can't {card} be chosen?"),  # its place: outside the game
        lambda value, s: f"{s.card} {_word(CHOSEN_WORDS, value)}.",
        lambda value: _word(CHOSEN_WORDS, value),
        domain=_fixed("must", "may", "cannot"),
    ),
    "found_count": replace(
        CLAIMS["found_count"],
        question=gettext_lazy(
            "how many cards can {searcher} choose from outside the game? Give the fewest and the "
            "most."
        ),
        statement=_chosen_count,
    ),
    "searches": ClaimText(
        gettext_lazy("must, may or can't {player} choose a card from outside the game?"),
        lambda value, s: f"{s.player} {_word(CHOOSE_OUTSIDE_WORDS, value)}.",
        lambda value: _word(CHOOSE_OUTSIDE_WORDS, value),
        domain=_fixed("must", "may", "cannot"),
    ),
    "revealed": replace(
        CLAIMS["revealed"],
        question=gettext_lazy("is the card {searcher} chooses from outside the game revealed?"),
        statement=lambda value, s: _either(
            value,
            gettext_noop("the card %(searcher)s chooses from outside the game is revealed."),
            gettext_noop("the card %(searcher)s chooses from outside the game is not revealed."),
            searcher=s.searcher,
        ),
    ),
}


# A wish's statements are about choosing from outside the game, never about a search.
OUTSIDE_ABOUT: dict[str, tuple[StrOrPromise, StrOrPromise]] = {
    "finds": (
        gettext_lazy("about which cards can be chosen from outside the game"),
        "",
    ),
    "found_count": (
        gettext_lazy("about how many cards {searcher} can choose from outside the game"),
        gettext_lazy("about how many cards each player can choose from outside the game"),
    ),
    "searches": (
        gettext_lazy(
            "about whether {player} must, may or can't choose a card from outside the game"
        ),
        gettext_lazy("about who must, may or can't choose a card from outside the game"),
    ),
    "revealed": (
        gettext_lazy("about whether the card {searcher} chooses from outside the game is revealed"),
        gettext_lazy("about whether the cards chosen from outside the game are revealed"),
    ),
}
OUTSIDE_CLAIMS = {
    name: replace(
        text,
        about=OUTSIDE_ABOUT[name][0],
        about_many=OUTSIDE_ABOUT[name][1] or OUTSIDE_ABOUT[name][0],
    )
    for name, text in OUTSIDE_CLAIMS.items()
}

# Asked by the legal-set kind: the learner picks cards, the engine judges the pick.
LEGAL_FIND_SET = "legal_find_set"
LEGAL_SET_QUESTION = gettext_lazy("pick a set of cards {searcher} could legally find{in_whose}.")
# A wish searches nothing: outside the game is not a zone (CR 400.11); its cards are chosen.
LEGAL_SET_OUTSIDE_QUESTION = gettext_lazy(
    "pick a set of cards {searcher} could legally choose from outside the game."
)


# Claims a wish words as a choice from outside the game (OUTSIDE_CLAIMS), by whose choice.
WISH_ROLES = {
    "found_count": "searcher",
    "legal_find_set": "searcher",
    "revealed": "searcher",
    "searches": "player",
}


def claim_text(name: str, *, outside: bool = False) -> ClaimText:
    """The table's entry for a claim (KeyError for a claim the table lacks: a test guards it);
    `outside`: the claim is about a wish (the player only chooses from outside the game)."""
    if outside and name in OUTSIDE_CLAIMS:
        return OUTSIDE_CLAIMS[name]
    return CLAIMS[name]

"""The engine's reasons: each an English sentence that is also a message id with parameters.

A `Reason` is a `str` (the English sentence, so everything reading reasons as text stays the
same) that keeps the message it was made from and its parameters, so the web layer
(quizzes/rulings/reasons.py) can say it in the reader's language. Every wording is a literal in
`MESSAGES` below, its one place; `python3 dev.py messages` extracts them for the catalogs.

Parameters by name: `card*` and `source*` are card names (localised by the web layer), `zone*`
are zone words from `ZONE_WORDS` (a zone named: "a public zone (graveyard)"), `into*` where a
card goes and `where*` where it is, as the phrases of `INTO_WORDS` and `WHERE_WORDS` say it with
each zone's own preposition ("onto the battlefield", "in exile"), `word*` words from `WORDS`,
`description*` are Phrases (what a search looks for), `clause*` is a nested Reason used without
its final period; a nested Reason is rendered in turn; `LISTS` are tuples of such values;
anything else is shown as it is (player names, numbers, rule numbers, card labels).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from .words import with_article


def gettext_noop(message: str) -> str:
    """Marks a msgid for makemessages (it extracts `gettext_noop`): no Django in the engine."""
    return message


def ngettext(singular: str, plural: str, count_param: str = "count") -> tuple[str, str]:
    """Marks a singular/plural msgid pair for makemessages (it extracts `ngettext:1,2`); the
    count is the parameter `count_param` of each Reason made from it."""
    return singular, plural


def because(key: str, /, **params: Any) -> Reason:
    """The Reason of `key`'s message in `MESSAGES` with `params`: because("must_search",
    player="Alice") is "The instruction tells Alice to search; it is not optional."."""
    # Hot: a big board makes dozens per resolution, and a scenario is ruled again on every
    # view of its question, so a reason once made is kept (a Reason never changes) and each
    # message is compiled once; a function, not a call of the class, which would pass the
    # parameters to __init__ again.
    try:
        made_key = (key, *params.items())
        made = _MADE.get(made_key)
    except TypeError:  # a parameter that can't be a key (none of the engine's)
        made_key = made = None
    if made is not None:
        return made
    english = _ENGLISH.get(key)
    if english is None:
        english = _ENGLISH[key] = _english_of(MESSAGES[key])
    self = _new(Reason, english(**params))
    self.key = key
    self.params = params
    if made_key is not None:
        if len(_MADE) >= MADE_AT_MOST:
            _MADE.clear()
        _MADE[made_key] = self
    return self


MADE_AT_MOST = 20_000  # reasons kept: a few megabytes at most
_MADE: dict[tuple, Reason] = {}


class Reason(str):
    """An English sentence with the `key` of its message in `MESSAGES` and the `params` it was
    made from (made by `because`); `message` (and `plural`, for a count) are its msgids."""

    key: str
    params: dict[str, Any]

    @property
    def message(self) -> str:
        message = MESSAGES[self.key]
        return message if type(message) is str else message[0]

    @property
    def plural(self) -> str | None:
        message = MESSAGES[self.key]
        return None if type(message) is str else message[1]

    def __reduce__(self):  # keep the message when pickled (cached rulings)
        return _rebuild, (self.key, self.params)


_new = str.__new__


def _rebuild(key: str, params: dict[str, Any]) -> Reason:
    return because(key, **params)


def count_text(count: object, up_to: bool) -> str:
    """How many a search asks for: "all", "any number of", "up to 2", "2"."""
    if count == "all":
        return "all"
    if count == "any_number":
        return "any number of"
    return f"up to {count}" if up_to else str(count)


class Phrase(str):
    """What a search looks for, in English as `Filter.describe()` words it: with its article
    ("a basic land card") or after its count ("up to 2 basic land card"). It keeps the filter
    and the count, so the web layer can word it in another language."""

    filter: Any  # cards.Filter
    count: Any  # None (an article instead), a number, "all" or "any_number"
    up_to: bool

    @classmethod
    def of(cls, wanted: Any) -> Phrase:
        """ "a basic land card", "an instant card": what each card is. "Different names" is said
        of the cards found together, so one card of such a search is "a card", not "a cards with
        different names" (the filter without it)."""
        # A filter never changes: kept on it, as its description is (Filter.describe).
        phrase = wanted.__dict__.get("_phrase")
        if phrase is None:
            each = replace(wanted, different_names=False) if wanted.different_names else wanted
            phrase = wanted.__dict__["_phrase"] = cls._make(with_article(each.describe()), each)
        return phrase

    @classmethod
    def counted(cls, wanted: Any, count: Any, up_to: bool) -> Phrase:
        """ "up to 2 basic land card", "all card", "any number of card"."""
        return cls._make(f"{count_text(count, up_to)} {wanted.describe()}", wanted, count, up_to)

    @classmethod
    def _make(cls, text: str, wanted: Any, count: Any = None, up_to: bool = False) -> Phrase:
        self = _new(cls, text)
        self.filter = wanted
        self.count = count
        self.up_to = up_to
        return self

    def __reduce__(self):
        return Phrase._make, (str(self), self.filter, self.count, self.up_to)


def clause(text: str) -> str:
    """A sentence without its final period, to go on inside another."""
    return text[:-1] if text.endswith(".") else text


def _english_of(message: str | tuple[str, str]) -> Callable[..., str]:
    """A function making the English sentence of `message` from its parameters. A plain one
    is compiled into an f-string: `%` with a mapping parses a long message on every call, three
    times slower; a count, a clause or a list takes a word of English more (`_composed`)."""
    names = re.findall(r"%\((\w+)\)s", message) if type(message) is str else ()
    if type(message) is tuple or any(n.startswith("clause") or n in LISTS for n in names):
        return lambda **params: _composed(message, params)
    body = re.sub(r"%\((\w+)\)s", _field, message.replace("{", "{{").replace("}", "}}"))
    arguments = ", ".join(dict.fromkeys(names))
    return eval(f"lambda {arguments}{', ' if names else ''}**_: f{body!r}")  # noqa: S307


def _field(match: re.Match) -> str:
    """An f-string field for a parameter: a phrase parameter's value looked up in its table."""
    name = match.group(1)
    prefix = _prefix(name)
    return f"{{{name}}}" if prefix is None else f"{{_phrase(PHRASES[{prefix!r}], {name})}}"


def phrases_of(name: str) -> dict[str, str] | None:
    """The phrase table of parameter `name` (`into*`, `where*`), or None."""
    prefix = _prefix(name)
    return None if prefix is None else PHRASES[prefix]


def _prefix(name: str) -> str | None:
    return next((prefix for prefix in PHRASES if name.startswith(prefix)), None)


def _phrase(table: dict[str, str], value: Any) -> Any:
    return table.get(value, value)


_ENGLISH: dict[str, Callable[..., str]] = {}


def _composed(message: str | tuple[str, str], params: dict[str, Any]) -> str:
    """The English of a message with a count, a clause or a list."""
    if type(message) is tuple:
        message = message[0] if params["count"] == 1 else message[1]
    return message % {name: _english(name, value) for name, value in params.items()}


def _english(name: str, value: Any) -> Any:
    if type(value) is tuple:
        return separator(name).join(str(_english(name, item)) for item in value)
    if name.startswith("clause"):
        return clause(value)
    table = phrases_of(name)
    return value if table is None else _phrase(table, value)


def separator(name: str) -> str:
    """How a list parameter's items are joined: `*_or` with " or ", `*_and` with " and "."""
    return OR if name.endswith("_or") else AND if name.endswith("_and") else ", "


OR = gettext_noop(" or ")
AND = gettext_noop(" and ")

# The words for zones a reason names (card.zone, destinations, "library or graveyard").
ZONE_WORDS = {
    "battlefield": gettext_noop("battlefield"),
    "hand": gettext_noop("hand"),
    "library": gettext_noop("library"),
    "graveyard": gettext_noop("graveyard"),
    "exile": gettext_noop("exile"),
    "outside": gettext_noop("outside"),
    "stack": gettext_noop("stack"),
    "set aside": gettext_noop("set aside"),
    "set_aside": gettext_noop("set aside"),
}
# Where a card goes (`into*` parameters): a destination as a judge says it, "puts it onto the
# battlefield", "goes into exile"; a card always goes to its owner's hand, library or graveyard
# (the zone rules, section 4). The search destinations with a place in the library or a way of
# exiling too.
INTO_WORDS = {
    "battlefield": gettext_noop("onto the battlefield"),
    "hand": gettext_noop("into the owner's hand"),
    "library": gettext_noop("into the owner's library"),
    "library_top": gettext_noop("on top of the owner's library"),
    "library_bottom": gettext_noop("on the bottom of the owner's library"),
    "graveyard": gettext_noop("into the owner's graveyard"),
    "exile": gettext_noop("into exile"),
    "exile_face_down": gettext_noop("into exile face down"),
    "stack": gettext_noop("onto the stack"),
    "set aside": gettext_noop("aside"),
    "set_aside": gettext_noop("aside"),
}
# Where a card is (`where*` parameters): "it stays on the battlefield".
WHERE_WORDS = {
    "library": gettext_noop("in its owner's library"),
    "hand": gettext_noop("in its owner's hand"),
    "graveyard": gettext_noop("in its owner's graveyard"),
    "battlefield": gettext_noop("on the battlefield"),
    "exile": gettext_noop("in exile"),
    "outside": gettext_noop("outside the game"),
    "stack": gettext_noop("on the stack"),
    "set aside": gettext_noop("set aside"),
    "set_aside": gettext_noop("set aside"),
}
# The phrase tables of the parameters named so.
PHRASES = {"into": INTO_WORDS, "where": WHERE_WORDS}
# Other words a reason names: what a "same name" filter refers to, a kind of mana.
WORDS = {
    "target": gettext_noop("target"),
    "chosen": gettext_noop("chosen"),
    "color": gettext_noop("color"),
    "type": gettext_noop("type"),
}

MESSAGES: dict[str, str | tuple[str, str]] = {
    # Counts.
    "cards": ngettext("%(count)s card", "%(count)s cards"),
    "such_cards": ngettext("%(count)s such card", "%(count)s such cards"),
    "seats": ngettext("%(count)s seat", "%(count)s seats"),
    "found_cards": ngettext("%(count)s found card", "%(count)s found cards"),
    "counters": ngettext("%(count)s %(kind)s counter", "%(count)s %(kind)s counters"),
    # Searching (search.py).
    "below_portion": gettext_noop(
        "Only the top %(top)s cards of %(whose)s's library are searched, and this card is below "
        "them."
    ),
    # One message per reference: "chosen" and "target" are words, not names to quote.
    "undefined_quality_chosen": gettext_noop(
        "The search is for a card with the same name as the chosen card, but no card was "
        "chosen: an undefined quality, so nothing can be found."
    ),
    "undefined_quality_target": gettext_noop(
        "The search is for a card with the same name as the target card, but there was no "
        "target card: an undefined quality, so nothing can be found."
    ),
    "no_match": gettext_noop("%(card)s is not %(description)s."),
    "quantity_every_one": gettext_noop(
        "The search is for %(cards)s with no stated quality and only %(total)s can be found, so "
        "%(card)s must be found."
    ),
    "quantity_any": gettext_noop("Any card qualifies; %(card)s is one the searcher may pick."),
    "quantity_count": gettext_noop(
        "A search simply for a quantity of cards finds that many, or as many as possible "
        "(%(total)s available)."
    ),
    "quantity_up_to": gettext_noop("The searcher chooses how many to find, up to %(high)s."),
    "another_could_be_found": gettext_noop(
        "Another %(card)s could be found instead: the found cards must have different names, so "
        "one of them is found."
    ),
    "all_public": gettext_noop(
        "%(card)s is %(description)s in a public zone (%(zone)s), so a search for all of them "
        "must find it."
    ),
    "all_hidden": gettext_noop(
        "%(card)s is in a hidden zone (%(zone)s), and a search for cards with a stated quality "
        "need not find it."
    ),
    "public_every_one": gettext_noop(
        "%(card)s is in a public zone and the search must find %(cards)s, so it must be found."
    ),
    "public_needed": gettext_noop(
        "%(card)s is %(description)s in a public zone (%(zone)s); the search is for %(amount)s "
        "and there are no more qualifying cards than that, so it can't be left unfound."
    ),
    "hidden_may": gettext_noop(
        "%(card)s is %(description)s in a hidden zone (%(zone)s); the searcher may find it or "
        "fail to find it."
    ),
    "outside_may": gettext_noop(
        "%(card)s is %(description)s %(owner)s owns outside the game (not a zone); %(owner)s may "
        "choose it and bring it into the game, or choose none."
    ),
    "outside_must": gettext_noop(
        "%(card)s is %(description)s %(owner)s owns outside the game (not a zone), and no other "
        "card is: %(owner)s must choose it and bring it into the game"
    ),
    "outside_not_owned": gettext_noop(
        "%(card)s is %(owner)s's, outside the game (not a zone): %(players)s may choose only a "
        "card they own from outside the game."
    ),
    "outside_not_chosen": gettext_noop(
        "%(card)s is outside the game (not a zone), and nothing here brings it into the game."
    ),
    "may_be_chosen": gettext_noop("%(card)s may or may not be chosen from outside the game."),
    "qualifies": gettext_noop(
        "%(card)s qualifies; the searcher chooses which qualifying cards to find."
    ),
    "fits_no_description": gettext_noop(
        "%(card)s fits no description this search looks for in its zone (%(zone)s)."
    ),
    "fills_needed": gettext_noop(
        "%(card)s is in a public zone and fits %(description)s, and without it that description "
        "can't be filled, so it must be found."
    ),
    "fills_any": gettext_noop(
        "%(card)s can fill %(descriptions_or)s in this one search for %(descriptions_and)s; the "
        "searcher "
        "chooses which cards fill them."
    ),
    "several_bounds": gettext_noop(
        "One search for %(descriptions_and)s (701.23h): each found card fills one description, so "
        "between "
        "%(low)s and %(high)s can be found."
    ),
    "bounds_hidden": gettext_noop(
        "Cards with a stated quality in a hidden zone may be left unfound, so between %(low)s and "
        "%(high)s can be found."
    ),
    "bounds_outside": gettext_noop(
        "Cards outside the game may be left unchosen, so between %(low)s and %(high)s can be "
        "brought into the game."
    ),
    "bounds": gettext_noop("Between %(low)s and %(high)s qualifying cards can be found."),
    "bounds_outside_none": gettext_noop(
        "No qualifying card is outside the game, so none can be brought into the game."
    ),
    "bounds_exact": ngettext(
        "Exactly %(count)s qualifying card can be found.",
        "Exactly %(count)s qualifying cards can be found.",
    ),
    "bounds_none": gettext_noop("No qualifying card can be found."),
    "prohibited": gettext_noop(
        "%(sources)s says %(player)s can't search this library, and a \"can't\" beats the "
        "instruction to search."
    ),
    "prohibited_escape": gettext_noop(
        "%(sources)s says %(player)s can't search this library, and a \"can't\" beats the "
        "instruction to search (%(cost)s could have been paid as a special action before this "
        "resolved, 116.2d, but nothing records that it was)."
    ),
    "prohibited_escapes": gettext_noop(
        "%(sources)s says %(player)s can't search this library, and a \"can't\" beats the "
        "instruction to search (%(cost)s could have been paid for each of the %(count)s of them, "
        "by %(player)s as a special action before this resolved, 116.2d, but nothing records "
        "that it was)."
    ),
    "escape_unpaid": gettext_noop(
        "%(source)s stops the search unless %(cost)s is paid for %(player)s (a special action any "
        "player may take while holding priority)."
    ),
    "may_search": gettext_noop("The instruction says %(player)s may search: it is optional."),
    "may_choose_outside": gettext_noop(
        "The instruction says %(player)s may choose from outside the game (not a zone, so no "
        "search of one): it is optional."
    ),
    "told_to_choose_outside": gettext_noop(
        "The instruction tells %(player)s to choose from outside the game (not a zone, so no "
        "search of one)."
    ),
    "must_search": gettext_noop("The instruction tells %(player)s to search; it is not optional."),
    "library_prohibited": gettext_noop(
        "%(player)s can't search %(whose)s's library (%(sources)s)."
    ),
    "depends_on_earlier_choice": gettext_noop(
        "Whether it can be found depends on an earlier choice in the same effect."
    ),
    "if_choosing": gettext_noop(
        "%(clause)s, if %(player)s chooses from outside the game at all (the choice is optional)."
    ),
    "if_searching": gettext_noop(
        "%(clause)s, if %(player)s searches at all (the search is optional)."
    ),
    "portion_top": gettext_noop(
        "%(source)s makes %(player)s search only the top %(top)s cards of %(whose)s's library "
        "instead."
    ),
    "portion_library": gettext_noop("%(player)s looks at all of %(whose)s's library."),
    "searches_no_library": gettext_noop("%(player)s searches no library here."),
    "reveal": gettext_noop("The effect tells the searcher to reveal the found cards."),
    "reveal_outside": gettext_noop(
        "The effect tells the player to reveal the card they choose from outside the game."
    ),
    "no_reveal_outside": gettext_noop(
        "The effect doesn't say to reveal the card chosen from outside the game, so it isn't "
        "revealed."
    ),
    "no_reveal": gettext_noop(
        "The effect doesn't say to reveal the found cards, so they aren't revealed."
    ),
    "not_in_searched_zone": gettext_noop("%(label)s is not in a zone this search looks at."),
    "cannot_be_found": gettext_noop("%(label)s cannot be found: %(reason)s"),
    "does_not_search": gettext_noop("%(player)s doesn't search here: %(reason)s"),
    "must_be_found": gettext_noop("%(label)s must be found: %(reason)s"),
    "too_many": gettext_noop("At most %(cards)s can be found; %(chosen)s were chosen."),
    "too_few": gettext_noop("At least %(cards)s must be found: %(reason)s"),
    "room_left": gettext_noop(
        "%(label)s is in a public zone and the search has room for it (%(chosen)s of %(room)s "
        "found), so it can't be left unfound."
    ),
    "names_not_different": gettext_noop("The cards found must have different names."),
    "legal_set": gettext_noop("Those cards are a legal set to find."),
    "descriptions_unfilled": gettext_noop(
        "Those cards can't each fill a different description of the search (%(description)s)."
    ),
    "description_open": gettext_noop(
        "%(label)s is in a public zone and a description it fits is still open, so it can't be "
        "left unfound."
    ),
    "zone_choice": gettext_noop(
        "%(player)s chooses which of the zones to search; between %(low)s and %(high)s cards can "
        "be found."
    ),
    "depends_on_zone_choice": gettext_noop(
        "Whether it can be found depends on which of the zones (%(zones)s) %(player)s chooses to "
        "search."
    ),
    # Claims (claims.py).
    "resolving_spell": gettext_noop("%(card)s is the resolving spell: it is on the stack."),
    "zone_not_searched": gettext_noop("No search looks at %(card)s's zone (%(zone)s)."),
    "no_search_here": gettext_noop("%(player)s doesn't search here."),
    "chooses_not_to_search": gettext_noop(
        "%(player)s chooses not to search on this line of play, so finds nothing."
    ),
    "not_instructed_to_search": gettext_noop("Nothing here instructs %(player)s to search."),
    "no_shuffle": gettext_noop("Nothing here tells %(player)s to shuffle."),
    "does_not_shuffle": gettext_noop("%(player)s doesn't shuffle here."),
    "nothing_revealed": gettext_noop("%(player)s doesn't search, so nothing is revealed."),
    "decided_by": gettext_noop("%(player)s by %(decider)s"),
    "controlled_decisions": gettext_noop(
        "A player who controls another player makes that player's decisions; the searches are "
        "decided in APNAP order of the searching players (%(decisions)s), each deciding player "
        "listed once."
    ),
    "apnap_decisions": gettext_noop(
        "Players searching at once look at the same time, then decide what to find in APNAP "
        "order (active player first, then turn order)."
    ),
    "one_decider": gettext_noop("Only one player decides what to find."),
    "sole_decider": gettext_noop(
        "Only %(player)s searches, and no other player controls them: %(player)s alone decides "
        "what to find."
    ),
    "history_searched": gettext_noop(
        "This turn's history records that %(player)s searched their library."
    ),
    "searched": gettext_noop("%(player)s searched their library; finding nothing would count too."),
    "searched_part": gettext_noop(
        "%(player)s searched their library (searching only part of it still counts); finding "
        "nothing would count too."
    ),
    "searches_if_chosen": gettext_noop(
        "%(player)s searches their library only if %(player)s chooses to (or the cost to ignore "
        "a prohibition is paid)."
    ),
    "library_not_chosen": gettext_noop(
        "%(player)s chose which zones to search and didn't choose their library."
    ),
    "cannot_search_library": gettext_noop("%(player)s can't search their library: %(reason)s"),
    "chose_not_to_search": gettext_noop(
        "%(player)s chooses not to search, so %(player)s hasn't searched their library this turn."
    ),
    "not_searched_this_turn": gettext_noop(
        "%(player)s didn't search their library this turn (looking at cards without the word "
        '"search" isn\'t searching).'
    ),
    "no_alt_cost": gettext_noop("%(card)s has no alternative cost."),
    "alt_cost_unlocked": gettext_noop(
        "%(other)s searched their library this turn, so %(player)s may cast %(card)s by paying "
        "%(cost)s instead of its mana cost."
    ),
    "alt_cost_unlocked_if": gettext_noop(
        "%(other)s searched their library this turn (if they take the optional search), so "
        "%(player)s may cast %(card)s by paying %(cost)s instead of its mana cost."
    ),
    "alt_cost_locked": gettext_noop(
        "No opponent of %(player)s searched their library this turn, so %(card)s's alternative "
        "cost isn't available."
    ),
    "no_mill": gettext_noop("Nothing here makes %(player)s mill."),
    "no_dredge": gettext_noop("%(card)s has no dredge."),
    "dredge_not_in_graveyard": gettext_noop(
        "Dredge functions only while the card is in a graveyard."
    ),
    "dredge_too_few": gettext_noop(
        "Dredge %(dredge)s needs at least %(dredge)s cards in the library; %(player)s has %(size)s."
    ),
    "dredge_enough": gettext_noop(
        "%(player)s has %(size)s cards in library, enough for dredge %(dredge)s."
    ),
    "not_moved": gettext_noop("Nothing moves %(card)s; it stays %(where)s."),
    "nothing_tapped_for_mana": gettext_noop("No permanent is tapped for mana here."),
    "not_watched": gettext_noop("%(card)s doesn't watch %(card_tapped)s."),
    "no_mana_no_trigger": gettext_noop(
        "%(card_tapped)s's mana ability resolves but produces no mana, so %(card)s's \"tapped for "
        "mana\" ability doesn't trigger."
    ),
    "tapped_for_mana_trigger": gettext_noop(
        "Activating %(card_tapped)s's {T} mana ability taps it for mana and it produces "
        "%(mana)s, so %(card)s triggers once."
    ),
    "no_trigger_here": gettext_noop("%(card)s has no ability that triggers here."),
    "not_on_battlefield": gettext_noop("%(card)s isn't on the battlefield, so it doesn't trigger."),
    "no_watched_search": gettext_noop(
        "No player searches their library in a way %(card)s watches."
    ),
    "search_triggers": gettext_noop(
        "%(card)s triggers once for each of %(players)s searching their library; a search "
        "limited to the top cards still counts, and several searches before one shuffle are one "
        "search (701.23h)."
    ),
    "search_triggers_optional": gettext_noop(
        "%(card)s triggers once for each of %(players)s searching their library (counting "
        "optional searches as taken); a search limited to the top cards still counts, and "
        "several searches before one shuffle are one search (701.23h)."
    ),
    "no_activated_ability": gettext_noop("%(card)s has no activated ability."),
    "can_activate": gettext_noop("%(card)s's ability (%(cost)s) can be activated."),
    "mana_value_alt": gettext_noop(
        "%(card)s's mana cost %(cost)s gives mana value %(value)s; paying an alternative cost "
        "doesn't change it."
    ),
    "mana_value": gettext_noop("The mana cost %(cost)s gives mana value %(value)s."),
    "mana_value_no_cost": gettext_noop("The mana cost (none) gives mana value %(value)s."),
    "mana_value_split": gettext_noop(
        "A split card's mana cost is its halves' combined (%(costs_and)s): mana value %(value)s."
    ),
    "no_mana_cost": gettext_noop("%(card)s has no mana cost to pay."),
    "alt_cost_optional": gettext_noop(
        "An alternative cost is optional: %(card)s can always be cast for its mana cost "
        "%(cost)s, even when the alternative cost's condition is met."
    ),
    "pays_mana_cost": gettext_noop("%(player)s pays its mana cost, %(total)s."),
    "pays_alt_cost": gettext_noop("%(player)s pays the alternative cost, %(total)s."),
    "pays_adjusted_mana_cost": gettext_noop(
        "%(player)s pays its mana cost %(cost)s adjusted by %(sources)s: cost increases and "
        "reductions apply to whichever cost is paid, so %(total)s."
    ),
    "pays_adjusted_alt_cost": gettext_noop(
        "%(player)s pays the alternative cost %(cost)s adjusted by %(sources)s: cost increases "
        "and reductions apply to whichever cost is paid, so %(total)s."
    ),
    "stays_tapped": gettext_noop("Nothing taps or untaps %(card)s; it stays tapped."),
    "stays_untapped": gettext_noop("Nothing taps or untaps %(card)s; it stays untapped."),
    "enters_untapped": gettext_noop(
        "%(card)s enters the battlefield untapped: nothing puts it there tapped."
    ),
    "put_onto_battlefield_tapped": gettext_noop(
        "%(card)s is put onto the battlefield tapped, as the instruction says."
    ),
    "enters_tapped_own_text": gettext_noop(
        "%(card)s enters the battlefield tapped, as its own text says."
    ),
    "enters_tapped_unless_paid": gettext_noop(
        "%(card)s enters tapped unless its controller pays as it enters, as its text offers; "
        "that choice isn't fixed here."
    ),
    "enters_tapped_not_modelled": gettext_noop(
        "Whether %(card)s enters tapped rests on a condition in its text that the engine "
        "doesn't model."
    ),
    "shuffles_if_library_chosen": gettext_noop(
        "%(player)s shuffles only if %(player)s chooses to search their library among the zones "
        '("if you search your library this way, shuffle"); that choice isn\'t fixed here.'
    ),
    "life_not_modelled": gettext_noop(
        "An instruction the engine doesn't model (%(text)s) may change life totals here, so no "
        "life total can be given."
    ),
    "damage_depends_on_name": gettext_noop(
        "The damage to %(player)s depends on which name is chosen, which isn't fixed here."
    ),
    "damage_to_player": gettext_noop(
        "%(amount)s damage is dealt to %(player)s, who loses that much life."
    ),
    "damage_for_each": gettext_noop(
        "%(count)s revealed cards have the chosen name: %(amount)s damage is dealt to "
        "%(player)s, who loses that much life."
    ),
    "damage_x_not_chosen": gettext_noop(
        "The damage is X, and X isn't fixed here, so how much damage is dealt isn't known."
    ),
    "exiled_instead": gettext_noop(
        "%(source)s exiles a card that would be put into a graveyard instead, so %(card)s is "
        "exiled."
    ),
    "aura_host_left": gettext_noop(
        "%(card)s is attached to %(card_host)s, which leaves the battlefield: an Aura attached "
        "to nothing is put into its owner's graveyard as a state-based action."
    ),
    "aura_host_may_leave": gettext_noop(
        "%(card)s is attached to %(card_host)s, which may leave the battlefield here; if it "
        "does, %(card)s is put into its owner's graveyard as a state-based action."
    ),
    "lethal_damage": gettext_noop(
        "%(amount)s damage is marked on %(card)s, whose toughness is %(toughness)s: that is "
        "lethal damage, so it is destroyed and put into its owner's graveyard."
    ),
    "damage_not_lethal": gettext_noop(
        "%(amount)s damage is marked on %(card)s, whose toughness is %(toughness)s: that isn't "
        "lethal damage, so it stays on the battlefield."
    ),
    "lethal_damage_indestructible": gettext_noop(
        "%(card)s is dealt lethal damage, but it has indestructible, so it isn't destroyed."
    ),
    "indestructible_not_destroyed": gettext_noop(
        "%(card)s has indestructible, so it isn't destroyed."
    ),
    "damage_not_modelled": gettext_noop(
        "Whether %(amount)s damage destroys %(card)s rests on what the engine doesn't model "
        "here (its toughness, or damage to a permanent that isn't a creature)."
    ),
    "moved_with_all": gettext_noop("%(card)s is one of the permanents the effect puts %(into)s."),
    "if_it_enters": gettext_noop("If it is put onto the battlefield: %(reason)s"),
    "enters_unless_met": gettext_noop(
        "As %(card)s enters, %(player)s controls %(count)s of the permanents its "
        "enters-tapped-unless condition counts: the condition is met, so it enters untapped."
    ),
    "enters_unless_failed": gettext_noop(
        "As %(card)s enters, %(player)s controls %(count)s of the permanents its "
        "enters-tapped-unless condition counts: the condition isn't met, so it enters tapped."
    ),
    "enters_unless_open": gettext_noop(
        "Whether %(card)s enters tapped depends on which permanents %(player)s still controls "
        "as it enters, which isn't fixed here."
    ),
    "untapped_condition_met": gettext_noop(
        "%(player)s controls %(count)s of the permanents the condition counts (%(amount)s "
        "needed), so %(card)s is untapped."
    ),
    "untapped_condition_failed": gettext_noop(
        "%(player)s controls %(count)s of the permanents the condition counts (%(amount)s "
        "needed), so %(card)s stays tapped."
    ),
    "untapped_condition_open": gettext_noop(
        "Whether %(player)s controls %(amount)s of the permanents the condition counts depends "
        "on what is found, so %(card)s may be untapped or stay tapped."
    ),
    "untapped_by_effect": gettext_noop("%(card)s is untapped by the effect."),
    "tapped_by_effect": gettext_noop("%(card)s is tapped by the effect."),
    "tap_not_modelled": gettext_noop(
        "An instruction the engine doesn't model may tap or untap %(card)s (%(text)s)."
    ),
    "counters_unchanged": gettext_noop("%(card)s has %(counters)s; nothing changes that."),
    "life_unchanged": gettext_noop("Nothing here changes %(player)s's life total (%(total)s)."),
    "not_exiled_face_down": gettext_noop("Nothing here exiles %(card)s face down."),
    "face_down_if_found": gettext_noop(
        "%(card)s is exiled face down only if it is the card found; on this line of play that "
        "isn't fixed."
    ),
    "public_look": gettext_noop("%(card)s is in a public zone (%(zone)s): anyone may look."),
    "hidden_look": gettext_noop(
        "%(card)s is in %(player)s's %(zone)s, a hidden zone only its owner may look at."
    ),
    "library_look": gettext_noop("%(card)s is in a library: no player may look at it."),
    "look_unfixed": gettext_noop(
        "Where %(card)s ends isn't fixed on this line of play (%(zones_or)s), so %(player)s "
        "can't count on looking at it."
    ),
    "x_is_zero": gettext_noop(
        "%(card)s doesn't enter from a spell cast with X here, so X is 0 for it."
    ),
    "left_game": gettext_noop("%(player)s has left the game: they affect no one."),
    "unlimited_range": gettext_noop(
        "The limited range of influence option isn't used: every player in the game is in "
        "%(player)s's range."
    ),
    "unlimited_range_left": gettext_noop(
        "The limited range of influence option isn't used: every player in the game is in "
        "%(player)s's range (%(players)s left the game, so the seats close up, 800.4a)."
    ),
    "limited_range": gettext_noop(
        "%(player)s's range of influence is %(seats)s: the players that many seats away or "
        "closer, and %(player)s."
    ),
    "limited_range_left": gettext_noop(
        "%(player)s's range of influence is %(seats)s: the players that many seats away or "
        "closer, and %(player)s (%(players)s left the game, so the seats close up, 800.4a)."
    ),
    "seats_apart": gettext_noop("%(other)s sits %(seats)s from %(player)s."),
    "seats_apart_left": gettext_noop(
        "%(other)s sits %(seats)s from %(player)s; %(players)s left the game, so the seats "
        "closed up (800.4a)."
    ),
    "seats_apart_within": gettext_noop(
        "%(other)s sits %(seats)s from %(player)s, within %(player)s's range of influence of "
        "%(reach)s."
    ),
    "seats_apart_within_left": gettext_noop(
        "%(other)s sits %(seats)s from %(player)s, within %(player)s's range of influence of "
        "%(reach)s; %(players)s left the game, so the seats closed up (800.4a)."
    ),
    "seats_apart_outside": gettext_noop(
        "%(other)s sits %(seats)s from %(player)s, outside %(player)s's range of influence of "
        "%(reach)s."
    ),
    "seats_apart_outside_left": gettext_noop(
        "%(other)s sits %(seats)s from %(player)s, outside %(player)s's range of influence of "
        "%(reach)s; %(players)s left the game, so the seats closed up (800.4a)."
    ),
    "looks_back": gettext_noop(
        "%(card)s's ability triggers on leaving the battlefield (%(event)s): it looks back in "
        "time, using the game state before the event (as for an object leaving a player's range "
        "of influence)."
    ),
    "looks_after": gettext_noop(
        "%(card)s's ability (%(event)s) checks the game state after the event (as for an object "
        "coming into a player's range of influence)."
    ),
    # Total cost and triggers (spell_claims.py).
    "total_cost_plain": gettext_noop(
        "No cost increase or reduction applies to %(card)s, so its total cost is its mana cost, "
        "%(total)s."
    ),
    "total_cost_changed": gettext_noop(
        "%(card)s costs %(cost)s. Its total cost adds every cost increase and subtracts every cost "
        "reduction that applies (%(sources)s); a reduction of generic mana never takes away "
        "colored mana nor goes below {0}: %(total)s."
    ),
    "cost_change_applies": gettext_noop(
        "%(source)s changes the cost of spells like %(card)s, so it counts in its total cost."
    ),
    "cost_change_not_applies": gettext_noop(
        "%(source)s names other spells than %(card)s, so it doesn't change its total cost."
    ),
    "triggers_look_back": ngettext(
        "A dies trigger looks back in time, to the board just before the event, creatures that die "
        "together included: %(card)s's ability triggers %(count)s time.",
        "A dies trigger looks back in time, to the board just before the event, creatures that die "
        "together included: %(card)s's ability triggers %(count)s times.",
    ),
    "trigger_order_apnap": gettext_noop(
        "The active player, %(active)s, puts their triggered abilities on the stack first and the "
        "others follow in turn order, so the last ones put there resolve first: %(players)s."
    ),
    # Power and toughness in layer 7 (layer_claims.py).
    "pt_unchanged": gettext_noop(
        "No effect changes the power or toughness of %(card)s: it is %(pt)s."
    ),
    "pt_layers": gettext_noop(
        "%(card)s has printed power and toughness %(base)s. The sublayers of layer 7 apply in "
        "order (7a, 7b, 7c, 7d; 613.4), each in timestamp order: %(clause_steps)s. So it is "
        "%(pt)s."
    ),
    "pt_step": gettext_noop("%(source)s (layer %(layer)s, %(rule)s) makes it %(pt)s."),
    "pt_step_waited": gettext_noop(
        "%(source)s (layer %(layer)s, %(rule)s), after the effects it depends on (613.8b), makes "
        "it %(pt)s."
    ),
    "pt_step_counters": ngettext(
        "its %(count)s %(kind)s counter (layer 7c, 613.4c) makes it %(pt)s.",
        "its %(count)s %(kind)s counters (layer 7c, 613.4c) make it %(pt)s.",
    ),
    "layer_7a": gettext_noop(
        "%(source)s defines its own power and toughness with a characteristic-defining ability, "
        "so that effect applies in layer 7a."
    ),
    "layer_7b": gettext_noop(
        "%(source)s sets power and toughness to specific values (base power and toughness), so "
        "its effect applies in layer 7b."
    ),
    "layer_7c": gettext_noop(
        "%(source)s modifies power and toughness without setting them, so its effect applies in "
        "layer 7c, with counters."
    ),
    "layer_7d": gettext_noop(
        "%(source)s switches power and toughness, so its effect applies in layer 7d, after every "
        "other layer 7 effect."
    ),
    # Turn structure and priority (turn_claims.py).
    "priority_none_untap": gettext_noop(
        "No player receives priority during the untap step, so no spells can be cast and none "
        "resolve; an ability that triggers then waits until a player would receive priority, "
        "usually in the upkeep step."
    ),
    "priority_none_cleanup": gettext_noop(
        "Normally no player receives priority during the cleanup step, so no spells can be "
        "cast; only if state-based actions would be performed or triggered abilities wait to be "
        "put on the stack does the active player, %(active)s, get priority."
    ),
    "priority_cleanup_waiting": gettext_noop(
        "A triggered ability waits to be put on the stack during the cleanup step: it is put "
        "on the stack and the active player, %(active)s, gets priority; once all players pass "
        "in succession with the stack empty, another cleanup step begins."
    ),
    "priority_step": gettext_noop(
        "Once this step or phase begins, after its turn-based actions and after the abilities "
        "that trigger at its beginning are put on the stack, the active player, %(active)s, "
        "receives priority."
    ),
    "priority_after_resolution": gettext_noop(
        "After a spell or ability resolves, the active player, %(active)s, receives priority, "
        "whoever controlled it."
    ),
    "priority_after_cast": gettext_noop(
        "A player who casts a spell while they have priority receives priority again "
        "afterward: %(player)s."
    ),
    "tba_untap": gettext_noop(
        "As the untap step begins, the active player's permanents with phasing phase out and "
        "their phased-out permanents phase in, day or night may change, then %(active)s untaps "
        "their permanents. These turn-based actions don't use the stack."
    ),
    "tba_draw": gettext_noop(
        "As the draw step begins, the active player, %(active)s, draws a card. This turn-based "
        "action doesn't use the stack."
    ),
    "tba_skipped": gettext_noop(
        "In a two-player game the player who plays first skips the draw step of their first "
        "turn, so %(active)s doesn't draw."
    ),
    "tba_none": gettext_noop(
        "This step or phase begins with no turn-based action here: the active player, "
        "%(active)s, simply receives priority once its triggered abilities are on the stack."
    ),
    "tba_lore": gettext_noop(
        "As %(active)s's precombat main phase begins, they put a lore counter on each Saga they "
        "control."
    ),
    "tba_choose_defender": gettext_noop(
        "In this multiplayer game the opponents don't all become defending players, so "
        "%(active)s chooses one of them as the defending player."
    ),
    "tba_declare_attackers": gettext_noop(
        "As the declare attackers step begins, the active player, %(active)s, declares "
        "attackers. This turn-based action doesn't use the stack."
    ),
    "tba_declare_blockers": gettext_noop(
        "As the declare blockers step begins, the defending player declares blockers. This "
        "turn-based action doesn't use the stack."
    ),
    "tba_combat_damage": gettext_noop(
        "As the combat damage step begins, each player assigns the combat damage of their "
        "attacking or blocking creatures, then all of it is dealt at once, without the stack."
    ),
    "tba_cleanup": gettext_noop(
        "As the cleanup step begins, %(active)s discards down to their maximum hand size, then "
        'all damage marked on permanents is removed and "until end of turn" and "this turn" '
        "effects end, at the same time."
    ),
    "cast_instant": gettext_noop(
        "%(card)s is an instant: %(player)s may cast it any time they have priority, in any "
        "player's turn, even with spells on the stack."
    ),
    "cast_flash": gettext_noop(
        "%(card)s has flash: %(player)s may cast it any time they could cast an instant."
    ),
    "cast_not_active": gettext_noop(
        "%(card)s is cast only in its caster's own main phase with the stack empty; this is "
        "%(active)s's turn, not %(player)s's."
    ),
    "cast_not_main": gettext_noop(
        "%(card)s is cast only in its caster's own main phase with the stack empty, and this "
        "is not a main phase."
    ),
    "cast_stack_not_empty": gettext_noop(
        "%(card)s is cast only in its caster's own main phase while the stack is empty, and the "
        "stack is not empty."
    ),
    "cast_sorcery_speed_ok": gettext_noop(
        "It is %(player)s's own main phase and the stack is empty, so once %(player)s has "
        "priority they may cast %(card)s."
    ),
    # The order of casting steps (spell_claims.py, 601.2).
    "casting_step_first": gettext_noop(
        "Casting %(card)s follows the steps of 601.2 in order: %(first)s (%(first_rule)s) comes "
        "before %(second)s (%(second_rule)s)."
    ),
    "step_move_to_stack": gettext_noop("moving the card to the stack"),
    "step_choose_mode": gettext_noop("choosing its mode"),
    "step_reveal_splice": gettext_noop("revealing the cards to splice onto it"),
    "step_announce_alternative_or_additional_costs": gettext_noop(
        "announcing whether it is kicked"
    ),
    "step_announce_x": gettext_noop("announcing X"),
    "step_choose_targets": gettext_noop("choosing its targets"),
    "step_divide_effect": gettext_noop("dividing its effect among its targets"),
    "step_check_legality": gettext_noop("checking that the proposed spell can legally be cast"),
    "step_determine_total_cost": gettext_noop("determining and locking in its total cost"),
    "step_activate_mana_abilities": gettext_noop("activating mana abilities"),
    "step_pay_total_cost": gettext_noop("paying its total cost"),
    "step_becomes_cast": gettext_noop(
        "the spell becoming cast (abilities that trigger on casting it trigger then)"
    ),
    # State-based actions on a board (sba_claims.py, 704).
    "sba_none": gettext_noop(
        "No state-based action applies to %(card)s: nothing happens to it when they are checked."
    ),
    "sba_704.5f": gettext_noop(
        "%(card)s has toughness 0 or less, so it is put into its owner's graveyard (704.5f): it "
        "isn't destroyed, so indestructible doesn't keep it."
    ),
    "sba_704.5g": gettext_noop(
        "%(card)s has damage marked on it greater than or equal to its toughness: it has been "
        "dealt lethal damage and is destroyed (704.5g)."
    ),
    "sba_704.5h": gettext_noop(
        "%(card)s has toughness greater than 0 and was dealt damage by a source with deathtouch "
        "since state-based actions were last checked, so it is destroyed (704.5h), however little "
        "damage that was."
    ),
    "sba_704.5i": gettext_noop(
        "%(card)s is a planeswalker with loyalty 0, so it is put into its owner's graveyard "
        "(704.5i)."
    ),
    "sba_704.5m": gettext_noop(
        "%(card)s is an Aura attached to nothing or to something it can't enchant, so it is put "
        "into its owner's graveyard (704.5m)."
    ),
    "sba_704.5q": ngettext(
        "%(card)s has both +1/+1 and -1/-1 counters on it: %(count)s of each kind is removed, "
        "as many as the smaller of the two numbers (704.5q).",
        "%(card)s has both +1/+1 and -1/-1 counters on it: %(count)s of each kind are removed, "
        "as many as the smaller of the two numbers (704.5q).",
    ),
    "sba_stays": gettext_noop(
        "No state-based action moves %(card)s, in the first check or in the ones after it "
        "(704.3): it stays on the battlefield."
    ),
    "sba_token_ceases": gettext_noop(
        "%(card)s is a token: it leaves the battlefield as a state-based action (%(rule)s), and "
        "in the next check a token in a zone other than the battlefield ceases to exist "
        "(704.5d)."
    ),
    "sba_to_graveyard": gettext_noop(
        "%(card)s is put into its owner's graveyard (%(owner)s's) as a state-based action "
        "(%(rule)s)."
    ),
    "sba_player_plays_on": gettext_noop(
        "%(player)s has more than 0 life, fewer than ten poison counters and didn't attempt to "
        "draw from an empty library, so %(player)s doesn't lose the game (704.5a-c)."
    ),
    "sba_player_draw": gettext_noop(
        "%(player)s loses the game (%(rule)s), and so does every other player still in it in the "
        "same check: when all the players remaining in a game lose simultaneously, the game is a "
        "draw (104.4a)."
    ),
    "sba_loses_704.5a": gettext_noop("%(player)s has 0 or less life and loses the game (704.5a)."),
    "sba_loses_704.5b": gettext_noop(
        "%(player)s attempted to draw a card from an empty library since state-based actions "
        "were last checked and loses the game (704.5b)."
    ),
    "sba_loses_704.5c": gettext_noop(
        "%(player)s has ten or more poison counters and loses the game (704.5c)."
    ),
    "sba_loses_several": gettext_noop(
        "%(player)s loses the game: more than one state-based action makes them lose at once "
        "(%(rules)s)."
    ),
    "sba_permanents_left": ngettext(
        "State-based actions are checked again until none apply (704.3), all those of one check "
        "at once (those that remove permanents here: %(rules)s); the legend rule keeps one of each "
        "name. %(player)s then controls %(count)s permanent.",
        "State-based actions are checked again until none apply (704.3), all those of one check "
        "at once (those that remove permanents here: %(rules)s); the legend rule keeps one of each "
        "name. %(player)s then controls %(count)s permanents.",
    ),
    "sba_permanents_left_none": ngettext(
        "No state-based action removes a permanent, so %(player)s still controls %(count)s "
        "permanent.",
        "No state-based action removes a permanent, so %(player)s still controls %(count)s "
        "permanents.",
    ),
    # Costs (costs.py).
    "works_on_battlefield": gettext_noop(
        "%(card)s's ability works only while it is on the battlefield."
    ),
    "works_in_zone": gettext_noop(
        "%(card)s's ability works only while it is in its owner's %(zone)s."
    ),
    "already_tapped": gettext_noop("%(card)s is already tapped, so it can't pay {T}."),
    "already_untapped": gettext_noop("%(card)s is untapped, so it can't pay {Q} (untap it)."),
    "summoning_sick": gettext_noop(
        "%(card)s is a creature that hasn't been under its controller's control continuously "
        "since their most recent turn began, so its %(cost)s ability can't be activated."
    ),
    "too_little_life": gettext_noop(
        "%(player)s has %(life)s life, less than the %(amount)s the cost asks for, so it can't be "
        "paid."
    ),
    "too_few_counters": gettext_noop(
        "%(card)s has %(counters)s, fewer than the %(amount)s the cost removes."
    ),
    "too_few_for_cost": gettext_noop(
        "The cost “%(cost)s” needs %(cards)s; %(player)s has %(size)s that could pay it."
    ),
    # Mana (mana.py).
    "mana_multiplied": gettext_noop(
        "%(clause)s; %(sources)s modifies that mana production event as the ability resolves, so "
        "it produces %(factor)s times as much."
    ),
    "no_mana_ability": gettext_noop("%(card)s has no mana ability."),
    "produces_no_mana": gettext_noop("%(clause)s; it produces no mana."),
    "intrinsic_mana": gettext_noop(
        "%(card)s has the intrinsic mana ability of its basic land type."
    ),
    "fixed_mana": gettext_noop("%(card)s adds exactly that mana."),
    "no_land_could_produce_yours": gettext_noop(
        "No land you control could produce a %(word)s of mana this ability can copy, so the "
        "mana's type is undefined and it adds no mana (106.5)."
    ),
    "no_land_could_produce_opponents": gettext_noop(
        "No land an opponent controls could produce a %(word)s of mana this ability can copy, so "
        "the mana's type is undefined and it adds no mana (106.5)."
    ),
    "could_produce_yours": gettext_noop(
        "%(card)s adds one mana of a %(word)s that a land you control could produce."
    ),
    "could_produce_opponents": gettext_noop(
        "%(card)s adds one mana of a %(word)s that a land an opponent controls could produce."
    ),
    "controller_picks_colors": gettext_noop("The controller picks the colors."),
    "one_of_these_types": gettext_noop(
        "%(card)s adds one mana of one of these types, chosen as it resolves."
    ),
    # Resolving (resolver.py).
    "mills_as_enters": gettext_noop(
        "%(source)s mills %(card_milled)s as %(card)s enters; %(card)s itself, entering from that "
        "library, isn't milled."
    ),
    "mills_player_as_enters": gettext_noop(
        "%(source)s mills %(player)s as %(card)s enters; the card entering isn't included."
    ),
    "tapped_to_pay": gettext_noop("%(card)s is tapped to pay {T}."),
    "untapped_to_pay": gettext_noop("%(card)s is untapped to pay {Q}."),
    "sacrifice_to_pay_self": gettext_noop(
        "%(card)s is sacrificed to pay the cost (%(cost)s), so it goes %(into)s."
    ),
    "discard_to_pay_self": gettext_noop(
        "%(card)s is discarded to pay the cost (%(cost)s), so it goes %(into)s."
    ),
    "exile_to_pay_self": gettext_noop(
        "%(card)s is exiled to pay the cost (%(cost)s), so it goes %(into)s."
    ),
    "return_to_pay_self": gettext_noop(
        "%(card)s is returned to pay the cost (%(cost)s), so it goes %(into)s."
    ),
    "pays_life": gettext_noop("%(player)s pays %(amount)s life."),
    "tapped_for_cost": gettext_noop("%(card)s is tapped to pay “%(cost)s”."),
    "may_tap_for_cost": gettext_noop(
        "%(player)s chooses which untapped permanents to tap for “%(cost)s”; %(card)s may be one."
    ),
    "sacrifice_to_pay": gettext_noop("%(card)s is sacrificed to pay “%(cost)s”."),
    "discard_to_pay": gettext_noop("%(card)s is discarded to pay “%(cost)s”."),
    "exile_to_pay": gettext_noop("%(card)s is exiled to pay “%(cost)s”."),
    "return_to_pay": gettext_noop("%(card)s is returned to pay “%(cost)s”."),
    "may_pay_cost": gettext_noop(
        "%(player)s chooses which card pays “%(cost)s”; %(card)s may be the one."
    ),
    "life_after": gettext_noop("%(reason)s %(player)s is at %(total)s life."),
    "counters_after_effect": gettext_noop("%(card)s has %(counters)s after the effect."),
    "counters_after_cost": gettext_noop("%(card)s has %(counters)s after %(cost)s."),
    "counters_after_loyalty": gettext_noop(
        "%(card)s has %(counters)s after loyalty cost %(cost)s."
    ),
    "on_stack": gettext_noop("%(card)s is on the stack while it resolves."),
    "more_lands": gettext_noop(
        "%(other)s controls more lands (%(lands)s) than %(player)s (%(mine)s), so %(card)s's "
        "ability triggers and, still true on resolution, does its work."
    ),
    "not_more_lands": gettext_noop(
        "No opponent controls more lands than %(player)s (%(mine)s; %(detail)s): the "
        'intervening "if" is false, so %(card)s\'s ability does nothing (no search, no '
        "shuffle)."
    ),
    "exiles_itself": gettext_noop("%(card)s exiles itself as part of its effect."),
    "own_instructions": gettext_noop(
        "%(card)s's own instructions put it %(into)s, so it doesn't go to the graveyard."
    ),
    "flashback_exiled": gettext_noop(
        "%(card)s was cast with flashback, so it is exiled instead of going anywhere else."
    ),
    "permanent_enters": gettext_noop("%(card)s is a permanent spell and enters the battlefield."),
    "spell_to_graveyard": gettext_noop(
        "%(card)s is an instant or sorcery: it goes to its owner's graveyard as the final step "
        "of resolving."
    ),
    "enters_x": gettext_noop(
        "%(card)s's enters-the-battlefield effects use the X of the spell it was (%(x)s); on the "
        "battlefield its own X is 0."
    ),
    "enters_x_not_chosen": gettext_noop(
        "%(card)s's enters-the-battlefield effects use the X of the spell it was (not chosen, so "
        "0); on the battlefield its own X is 0."
    ),
    "enters_with_counters": gettext_noop("%(card)s enters with %(counters)s."),
    "enters_with_x_counters": gettext_noop(
        "%(card)s enters with %(counters)s: X is the spell's X, %(x)s (107.3m)."
    ),
    "dredge_mills": gettext_noop("Dredge mills %(cards)s instead of the draw."),
    "dredge_possible": gettext_noop(
        "%(player)s has %(cards)s in library, at least the %(dredge)s dredge needs."
    ),
    "dredge_too_deep": gettext_noop(
        "Dredge %(dredge)s needs at least %(dredge)s cards in the library; %(player)s has only "
        "%(size)s."
    ),
    "draws_no_dredge": gettext_noop(
        "No dredge card can replace the draw (too few cards in the library), so %(player)s draws "
        "the top card, %(card)s."
    ),
    "draws_top": gettext_noop("%(player)s draws the top card of the library, %(card)s."),
    "dredge_mills_card": gettext_noop(
        "%(player)s dredges %(card_dredged)s instead of drawing: %(card)s is milled."
    ),
    "dredge_returns": gettext_noop(
        "%(player)s replaces the draw: mills %(amount)s and returns %(card)s to hand."
    ),
    "may_dredge": gettext_noop(
        "%(player)s may replace a draw by dredging %(card)s, returning it to hand."
    ),
    "milled_if_dredged": gettext_noop("%(card)s is milled if %(player)s dredges deep enough."),
    "drawn_unless_dredged": gettext_noop(
        "%(card)s is drawn, unless %(player)s dredges instead and mills it."
    ),
    "zone_not_chosen": gettext_noop(
        "%(player)s chose not to search their %(zone)s, so %(card)s can't be found."
    ),
    "puts_found_card": gettext_noop("%(player)s puts the found card %(into)s."),
    "found_then": gettext_noop("%(card)s must be found; %(reason)s"),
    "if_found": gettext_noop("If found: %(reason)s"),
    "may_be_found": gettext_noop("%(card)s may or may not be found."),
    "goes_with_rest": gettext_noop("%(card)s isn't found, so it goes with the rest."),
    "found_or_rest": gettext_noop("%(card)s goes where the found cards go, or with the rest."),
    "may_go_with_rest": gettext_noop("If %(player)s searches, %(card)s may go with the rest."),
    "face_down_lookers": gettext_noop(
        "%(card)s is exiled face down: %(players_and)s may look at it, as the effect allows."
    ),
    "face_down_nobody": gettext_noop(
        "%(card)s is exiled face down: no player may look at it, as the effect allows."
    ),
    "fills_description_to": gettext_noop(
        "The found %(card)s fills the description whose cards go %(into)s."
    ),
    "fills_several": gettext_noop(
        "The found %(card)s can fill more than one description; %(player)s chooses which, and so "
        "where it goes."
    ),
    "goes_where_described": gettext_noop(
        "If found, %(card)s goes where the description it fills says."
    ),
    "controlled_exiles": gettext_noop(
        "While %(player)s searches their library, %(controller)s controls them (Opposition "
        "Agent) and %(player)s exiles each card found instead of putting it where the effect "
        "says."
    ),
    "split_all_first": gettext_noop(
        "At most %(cards)s can be found, and the effect puts %(amount)s of the found cards "
        "%(into)s, so a found card goes there."
    ),
    # "chooses %(cards)s to go": no verb agrees with the count ("which 1 found card go" did not)
    "split_choice": gettext_noop(
        "%(player)s chooses %(cards)s to go %(into)s; the rest go %(into_rest)s."
    ),
    "split_too_few": gettext_noop(
        "Only %(cards)s found, and the effect puts %(amount)s of them %(into)s first, so "
        "%(card)s goes there (Cultivate ruling: if you find only one basic land card, you put it "
        "onto the battlefield tapped)."
    ),
    "split_found": gettext_noop(
        "%(card)s is found; %(player)s chooses %(cards)s to go %(into)s; the rest go %(into_rest)s."
    ),
    "split_chosen": gettext_noop("%(player)s puts the found %(card)s %(into)s, as chosen."),
    "library_not_chosen_no_shuffle": gettext_noop(
        "%(player)s chose not to search their library, so the shuffle that goes with searching "
        "it doesn't happen."
    ),
    "no_shuffle_short": gettext_noop("%(player)s doesn't shuffle."),
    "cannot_search_no_shuffle": gettext_noop(
        "%(player)s can't choose to search, so the shuffle that depends on searching doesn't "
        "happen."
    ),
    "searches_shuffles": gettext_noop("%(player)s searches, so %(player)s shuffles."),
    "no_search_no_shuffle": gettext_noop(
        "%(player)s doesn't search, so %(player)s doesn't shuffle."
    ),
    "shuffles_if_searching": gettext_noop(
        "%(player)s shuffles only if %(player)s chooses to search."
    ),
    "shuffles_anyway": gettext_noop(
        "%(player)s can't search, but the instruction to shuffle isn't optional or tied to "
        "searching, so %(player)s still shuffles."
    ),
    "told_to_shuffle": gettext_noop("The effect tells %(player)s to shuffle."),
    "shuffle_whole_after_part": gettext_noop(
        "%(player)s searched only part of the library, but the shuffle still refers to the whole "
        "library."
    ),
    "shuffles_whole": gettext_noop("%(player)s shuffles the whole library."),
    "milled": gettext_noop("%(card)s is milled into the graveyard."),
    "mills_what_there_is": gettext_noop(
        "%(player)s has only %(cards)s in library, so milling %(amount)s mills as many as possible."
    ),
    "mills_empty_library": gettext_noop(
        "%(player)s's library is empty, so milling %(amount)s mills no card: a player can't mill "
        "more cards than their library holds."
    ),
    "mills_top": gettext_noop("%(player)s mills %(cards)s from the top of the library."),
    "found_exiled": gettext_noop("The found card is exiled."),
    "found_exiled_face_down": gettext_noop("The found card is exiled face down."),
    "exiled_if_found": gettext_noop("If found, %(card)s is exiled."),
    "exiles_target": gettext_noop("The effect exiles the target, %(card)s."),
    "effect_puts": gettext_noop("The effect puts %(card)s %(into)s."),
    "found_put": gettext_noop("The found %(card)s is put %(into)s."),
    "put_if_found": gettext_noop("If found, %(card)s is put %(into)s."),
    "destroyed": gettext_noop("The effect destroys %(card)s: it goes to its owner's graveyard."),
    "graveyard_exiled": gettext_noop("%(player)s's graveyard is exiled."),
    "opponent_chooses_open": gettext_noop(
        "%(player)s chooses %(amount)s of the found cards; which ones is not fixed."
    ),
    "opponent_must_choose": gettext_noop(
        "%(player)s must choose %(amount)s of the %(cards)s, so %(card)s goes %(into)s."
    ),
    "not_chosen": gettext_noop("%(card)s was not chosen, so it goes %(into)s."),
    "opponent_choice_if_found": gettext_noop(
        "If found, %(card)s goes %(into)s or %(into_rest)s depending on %(player)s's choice."
    ),
    "only_card_discarded": gettext_noop(
        "%(card)s is the only card left to discard, so it is discarded."
    ),
    "may_be_discarded": gettext_noop(
        "%(card)s is in %(player)s's hand when a card is discarded, so it may be the one discarded."
    ),
    "taken_to": gettext_noop("%(card)s is taken: it goes %(into)s."),
    "rest_to": gettext_noop("%(card)s goes %(into)s with the rest."),
    "may_be_taken": gettext_noop("%(player)s chooses whether %(card)s is one of the cards taken."),
    "must_be_taken": gettext_noop("%(card)s must be taken: it goes %(into)s."),
    "not_taken": gettext_noop("%(card)s isn't %(description)s, so it goes with the rest."),
    "loses_life": gettext_noop("%(player)s loses %(amount)s life."),
    "gains_life": gettext_noop("%(player)s gains %(amount)s life."),
    "depends_on_kicker": gettext_noop(
        "It depends on whether the spell was kicked (702.33d), which isn't fixed here."
    ),
    "if_not_kicked": gettext_noop(
        "If not kicked: %(reason)s It depends on whether the spell was kicked (702.33d), which "
        "isn't fixed here."
    ),
    "if_kicked": gettext_noop(
        "If kicked: %(reason)s It depends on whether the spell was kicked (702.33d), which isn't "
        "fixed here."
    ),
    # Checking a set of found cards (api.py).
    "no_such_label": gettext_noop("No card is labelled %(label)s."),
    "found_once": gettext_noop("A card can be found only once."),
    "nothing_can_be_found": gettext_noop(
        "%(player)s doesn't search here, so nothing can be found."
    ),
    "labelled_card": gettext_noop("The %(card)s (%(label)s)"),
    "must_be_found_in": gettext_noop("The %(card)s %(where)s must be found: %(reason)s"),
    # Casting timing (timing.py): one message per card type, so each language words its noun.
    "out_of_turn_artifact": gettext_noop(
        "%(player)s casts %(card)s while %(active)s is the active player: an artifact spell "
        "without flash can be cast only in a main phase of its caster's own turn, when the stack "
        "is empty."
    ),
    "out_of_turn_creature": gettext_noop(
        "%(player)s casts %(card)s while %(active)s is the active player: a creature spell "
        "without flash can be cast only in a main phase of its caster's own turn, when the stack "
        "is empty."
    ),
    "out_of_turn_enchantment": gettext_noop(
        "%(player)s casts %(card)s while %(active)s is the active player: an enchantment spell "
        "without flash can be cast only in a main phase of its caster's own turn, when the stack "
        "is empty."
    ),
    "out_of_turn_planeswalker": gettext_noop(
        "%(player)s casts %(card)s while %(active)s is the active player: a planeswalker spell "
        "without flash can be cast only in a main phase of its caster's own turn, when the stack "
        "is empty."
    ),
    "out_of_turn_sorcery": gettext_noop(
        "%(player)s casts %(card)s while %(active)s is the active player: a sorcery without "
        "flash can be cast only in a main phase of its caster's own turn, when the stack is "
        "empty."
    ),
    "out_of_turn_battle": gettext_noop(
        "%(player)s casts %(card)s while %(active)s is the active player: a battle spell "
        "without flash can be cast only in a main phase of its caster's own turn, when the stack "
        "is empty."
    ),
    # A scenario's error its author meets most, said in the author's language (scenario.py):
    # `name` as they wrote it.
    "unknown_card": gettext_noop(
        "unknown card '%(name)s': the card catalog has no card of that name (check its spelling "
        "on the Cards page, or add it there as your own card)"
    ),
    # Combat damage (combat_claims.py, 510 and the combat keywords).
    "combat_steps_one": gettext_noop(
        "No attacking or blocking creature has first strike or double strike, so there is one "
        "combat damage step (510.4)."
    ),
    "combat_steps_two": gettext_noop(
        "%(card)s has first strike or double strike as the combat damage step begins, so there "
        "are two combat damage steps: first strikers and double strikers first, then the others "
        "and double strikers again (510.4)."
    ),
    "combat_survives": gettext_noop(
        "%(card)s is dealt %(count)s combat damage in all and no state-based action destroys it "
        "(%(rules)s)."
    ),
    "combat_destroyed_first_strike": gettext_noop(
        "%(card)s is dealt %(count)s combat damage in the first-strike combat damage step and "
        "state-based actions destroy it right after that step (%(rules)s)."
    ),
    "combat_destroyed_regular": gettext_noop(
        "%(card)s is dealt %(count)s combat damage in all and state-based actions destroy it "
        "after the regular combat damage step (%(rules)s)."
    ),
    "combat_destroyed_trampled": gettext_noop(
        "%(card)s blocks a creature with trample, which must assign it at least lethal damage "
        "(702.19b), so state-based actions destroy it after that combat damage step (%(rules)s)."
    ),
    "combat_trample_most": gettext_noop(
        "%(card)s must assign lethal damage to each creature blocking it before any to the "
        "player; lethal damage takes into account damage already marked (%(rules)s). Of its "
        "power %(power)s, at most %(count)s can be assigned to %(player)s."
    ),
    "combat_life": gettext_noop(
        "Combat damage is dealt at once in each step (510.2): %(player)s's life total goes "
        "from %(before)s to %(count)s (%(rules)s)."
    ),
}

# Parameters that are lists (tuples): joined with ", " (`*_or`, `*_and`: " or ", " and ").
LISTS = frozenset(
    {
        "sources",
        "players",
        "players_and",
        "zones",
        "zones_or",
        "decisions",
        "descriptions_or",
        "descriptions_and",
        "costs_and",
    }
)

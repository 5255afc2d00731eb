"""A parsed scenario as a board for templates: players' zones as rows of cards, the stack, history.

Nothing here computes an outcome: the board shows the situation only, so the page holds no part of
the answer key. Cards are named by name and place ("the Howling Mine on top of Nadia's
library"), and the page refers to them by opaque references (`c1`, `c2`, in board order), never by
an author's label or a generated id.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy

from quizzes.rulings.claims import counters_text
from quizzes.rulings.names import has_translation, localized
from quizzes.rulings.type_lines import localized_type_line

ZONE_ORDER = ("battlefield", "hand", "library", "graveyard", "exile", "outside")
ZONE_TITLES = {
    "battlefield": gettext_lazy("Battlefield"),
    "hand": gettext_lazy("Hand"),
    "library": gettext_lazy("Library (top first)"),
    "graveyard": gettext_lazy("Graveyard"),
    "exile": gettext_lazy("Exile"),
    "outside": gettext_lazy("Outside the game"),
}
HIDDEN_ZONES = frozenset({"library", "hand"})  # CR 400.2
# Outside the game is not a zone (CR 400.11): shown beside the zones, never called a hidden one.
NOT_A_ZONE = "outside"
# Ordinals of a card (German and Italian: the feminine of Karte, carta).
ORDINALS = (
    pgettext_lazy("card", "first"), pgettext_lazy("card", "second"),
    pgettext_lazy("card", "third"), pgettext_lazy("card", "fourth"),
    pgettext_lazy("card", "fifth"), pgettext_lazy("card", "sixth"),
    pgettext_lazy("card", "seventh"), pgettext_lazy("card", "eighth"),
    pgettext_lazy("card", "ninth"), pgettext_lazy("card", "tenth"),
)  # fmt: skip
# Past the tenth, a number: "11th" in English, "11." in German, "11ª" in Italian.
NUMBERED_ORDINALS = {"de": "{}.", "it": "{}ª"}
MANA_SYMBOL = re.compile(r"\{[WUBRGC]\}")
MANA_ORDER = ("{W}", "{U}", "{B}", "{R}", "{G}", "{C}")
ANY_COLOR = re.compile(r"any colou?r|any type", re.IGNORECASE)
BASIC_LAND_MANA = {
    "Plains": "{W}", "Island": "{U}", "Swamp": "{B}", "Mountain": "{R}", "Forest": "{G}",
}  # fmt: skip
BASIC_LAND_TYPE = re.compile(r"\b(Plains|Island|Swamp|Mountain|Forest)\b")
GROUP_FROM = 3  # a run of this many identical cards nobody is asked about is drawn as one group
# What set off a triggered ability on the stack, in the card's own voice ("when it dies"): the
# engine's event names ("dies", "land_tapped_for_mana") never reach a page. A test fails when the
# engine knows an event this table lacks.
TRIGGER_EVENT_WORDS = {
    "dies": pgettext_lazy("trigger event", "when it dies"),
    "enters": pgettext_lazy("trigger event", "when it enters the battlefield"),
    "creature_dies": pgettext_lazy("trigger event", "when a creature dies"),
    "upkeep": pgettext_lazy("trigger event", "at the beginning of the upkeep"),
    "draw_step": pgettext_lazy("trigger event", "at the beginning of the draw step"),
    "cast": pgettext_lazy("trigger event", "when a spell is cast"),
    "opponent_searches_library": pgettext_lazy(
        "trigger event", "when an opponent searches their library"
    ),
    "player_searches_library": pgettext_lazy(
        "trigger event", "when a player searches their library"
    ),
    "you_search_library": pgettext_lazy(
        "trigger event", "when its controller searches their library"
    ),
    "tapped_for_mana": pgettext_lazy("trigger event", "when it is tapped for mana"),
    "enchanted_tapped_for_mana": pgettext_lazy(
        "trigger event", "when the enchanted land is tapped for mana"
    ),
    "land_tapped_for_mana": pgettext_lazy("trigger event", "when a land is tapped for mana"),
}


def ordinal(number: int) -> str:
    if 1 <= number <= len(ORDINALS):
        return str(ORDINALS[number - 1])
    numbered = NUMBERED_ORDINALS.get((translation.get_language() or "en").split("-")[0])
    if numbered:
        return numbered.format(number)
    suffix = (
        "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    )
    return f"{number}{suffix}"


@dataclass(frozen=True)
class CardView:
    ref: str  # what the page calls the card: a keyed hash, never the label
    label: str  # the engine's label: never rendered
    name: str
    phrase: str  # "the Howling Mine on top of Nadia's library"
    type_line: str
    mana_cost: str
    oracle: str
    owner: str
    controller: str
    zone: str
    position: int
    tapped: bool = False
    # What else the rules read off the card, in words: what it is attached to, that it entered
    # this turn, its counters (premises a question may turn on: they are never left unsaid).
    states: tuple[str, ...] = ()
    alt_cost: str = ""
    oracle_language: str = ""  # set when the text is not in the reader's language (English)
    type_line_shown: str = ""  # the type line in the reader's language where it has one
    type_language: str = ""  # "en" when the type line shown stays English
    name_language: str = ""  # set when the name has none in the reader's language (English)
    invented: bool = False  # an illustrative card of the scenario's own, not a real card

    @property
    def place(self) -> str:
        """Where a library card lies: "top card", "second from the top"."""
        if self.position == 1:
            return _("top card")
        return _("%(ordinal)s from the top") % {"ordinal": ordinal(self.position)}

    @property
    def controlled_by_other(self) -> bool:
        return self.controller != self.owner

    @property
    def dom_id(self) -> str:
        return self.ref

    @property
    def marked_name(self) -> SafeString:
        """The name in a sentence, marked lang="en" where it has none in the reader's language."""
        return _marked_name(self)


@dataclass(frozen=True)
class Run:
    """Cards drawn together: one card, or a group of identical ones (`Mountain ×20`)."""

    cards: tuple[CardView, ...]

    @property
    def grouped(self) -> bool:
        return len(self.cards) >= GROUP_FROM

    @property
    def first(self) -> CardView:
        return self.cards[0]

    @property
    def last(self) -> CardView:
        return self.cards[-1]


@dataclass(frozen=True)
class ZoneView:
    player: str
    name: str
    cards: tuple[CardView, ...]
    runs: tuple[Run, ...] = ()

    @property
    def title(self) -> str:
        return str(ZONE_TITLES.get(self.name, self.name.title()))

    @property
    def hidden(self) -> bool:
        return self.name in HIDDEN_ZONES

    @property
    def not_a_zone(self) -> bool:
        return self.name == NOT_A_ZONE


@dataclass(frozen=True)
class PlayerView:
    name: str
    is_active: bool
    zones: tuple[ZoneView, ...]
    # What state-based actions read of the player (704.5a-c), on a board checked for them.
    status: tuple[str, ...] = ()


@dataclass(frozen=True)
class StackItem:
    """What is resolving: who does what, with which card, and its targets in words."""

    text: str
    card: CardView | None
    targets: tuple[str, ...] = ()


@dataclass(frozen=True)
class Board:
    players: tuple[PlayerView, ...]
    resolving: StackItem | None
    history: tuple[str, ...]
    cards: Mapping[str, CardView] = field(default_factory=dict)  # by label

    def card(self, label: str) -> CardView | None:
        return self.cards.get(label)

    def name(self, label_or_player: str) -> str:
        """A card by name and place, or a player's name as is."""
        card = self.cards.get(label_or_player)
        return card.phrase if card else label_or_player

    def ref(self, label: str) -> str:
        card = self.cards.get(label)
        return card.ref if card else ""

    def label_of(self, ref: str) -> str | None:
        return next((card.label for card in self.cards.values() if card.ref == ref), None)

    def card_mana_costs(self, label: str) -> tuple[str, ...]:
        """The costs a card's spell can be cast for: its mana cost and any alternative cost."""
        card = self.cards.get(label)
        return tuple(cost for cost in (card.mana_cost, card.alt_cost) if cost) if card else ()

    @functools.cached_property
    def mana_symbols(self) -> tuple[str, ...]:
        """The mana symbols some card on the board could make, in WUBRGC order: those its
        abilities add, "any color" as all five, and a basic land type's (CR 305.6)."""
        made: set[str] = set()
        for card in self.cards.values():
            for ability in card.oracle.split("\n"):
                if "add" in ability.lower():
                    made |= set(MANA_SYMBOL.findall(ability.split(":", 1)[-1]))
                    if ANY_COLOR.search(ability):
                        made |= set(BASIC_LAND_MANA.values())
            subtypes = card.type_line.split("—")[-1]
            made |= {BASIC_LAND_MANA[name] for name in BASIC_LAND_TYPE.findall(subtypes)}
        return tuple(symbol for symbol in MANA_ORDER if symbol in made)

    def library_sizes(self) -> dict[str, int]:
        return {
            player.name: len(zone.cards)
            for player in self.players
            for zone in player.zones
            if zone.name == "library"
        }


# A card by name and place, one sentence per zone, with and without an ordinal among cards of
# one name (German and Italian say "die Karte „…“", "la carta «…»": a card name has no gender).
PHRASES = {
    "battlefield": (
        gettext_lazy("the %(name)s %(controller)s controls"),
        gettext_lazy("the %(ordinal)s %(name)s %(controller)s controls"),
    ),
    "exile": (
        gettext_lazy("the %(name)s %(owner)s owns in exile"),
        gettext_lazy("the %(ordinal)s %(name)s %(owner)s owns in exile"),
    ),
    "outside": (
        gettext_lazy("the %(name)s %(owner)s has outside the game"),
        gettext_lazy("the %(ordinal)s %(name)s %(owner)s has outside the game"),
    ),
    "hand": (
        gettext_lazy("the %(name)s in %(owner)s's hand"),
        gettext_lazy("the %(ordinal)s %(name)s in %(owner)s's hand"),
    ),
    "graveyard": (
        gettext_lazy("the %(name)s in %(owner)s's graveyard"),
        gettext_lazy("the %(ordinal)s %(name)s in %(owner)s's graveyard"),
    ),
}


def _phrase(instance: Any, same_named: list[Any]) -> str:
    """Name and place: the board names each card so that only one card fits."""
    name, holder, zone = localized(instance.name), instance.owner, instance.zone
    if zone == "library":
        if instance.position == 1:
            return _("the %(name)s on top of %(owner)s's library") % {"name": name, "owner": holder}
        return _("the %(name)s %(ordinal)s from the top of %(owner)s's library") % {
            "name": name,
            "ordinal": ordinal(instance.position),
            "owner": holder,
        }
    if zone == "stack":
        return name
    values = {"name": name, "owner": holder, "controller": instance.controller}
    phrases = PHRASES.get(zone)
    nth = ordinal(same_named.index(instance) + 1) if len(same_named) > 1 else ""
    if phrases is None:  # a zone the board has no sentence for
        return f"the {nth + ' ' if nth else ''}{name} in {holder}'s {zone}"
    plain, numbered = phrases
    text = numbered % {**values, "ordinal": nth} if nth else plain % values
    if zone == "battlefield" and instance.controller != holder:
        text += _(" (owned by %(owner)s)") % values
    return text


def invented_names(spec: Any) -> frozenset[str]:
    """The scenario's own cards its author marks as invented (their notes say "invented" or
    "illustrative"): every other card is a real card's text."""
    cards = spec.get("cards", []) if isinstance(spec, Mapping) else []
    return frozenset(
        str(card.get("name"))
        for card in cards
        if isinstance(card, Mapping)
        and re.search(r"invented|illustrative", str(card.get("notes", "")), re.IGNORECASE)
    )


def _invented(view: CardView) -> CardView:
    """The card as invented: its type line says so (a learner must not take it for real)."""
    type_line = _("%(type_line)s (a card invented for this example)") % {
        "type_line": view.type_line
    }
    shown = _("%(type_line)s (a card invented for this example)") % {
        "type_line": view.type_line_shown
    }
    return replace(view, invented=True, type_line=type_line, type_line_shown=shown)


def _definition_view(definition: Any, **place: Any) -> CardView:
    """A card's face (name, cost, type, text) where `place` puts it."""
    shown_type, type_language = localized_type_line(definition.type_line)
    return CardView(
        name=localized(definition.name),
        name_language="" if has_translation(definition.name) else "en",
        type_line=definition.type_line,
        type_line_shown=shown_type,
        type_language=type_language,
        mana_cost=definition.mana_cost,
        oracle=definition.oracle,
        # The catalog holds English oracle text only: marked as such on another language's page.
        oracle_language="" if translation.get_language() in (None, "en") else "en",
        alt_cost=(definition.alt_cost or {}).get("cost", ""),
        **place,
    )


def _card_view(instance: Any, ref: str, phrase: str) -> CardView:
    return _definition_view(
        instance.definition,
        ref=ref,
        label=instance.label,
        phrase=phrase,
        owner=instance.owner,
        controller=instance.controller,
        zone=instance.zone,
        position=instance.position,
        tapped=instance.tapped,
    )


def _states(instance: Any, views: Mapping[str, CardView]) -> tuple[str, ...]:
    """The premises a card carries besides being tapped, as the board writes them."""
    states = []
    if instance.attached_to is not None:
        host = views.get(instance.attached_to)
        states.append(_("attached to %(card)s") % {"card": host.phrase if host else "?"})
    if instance.entered_this_turn:
        states.append(_("entered the battlefield this turn"))
    elif instance.summoning_sick:
        states.append(
            _("not under %(controller)s's control since their most recent turn began")
            % {"controller": instance.controller}
        )
    for kind, count in sorted((instance.counters or {}).items()):
        states.append(counters_text(count, kind))
    effects = getattr(instance, "effects", ())
    if effects:  # the spells that resolved targeting it this turn, in order (613.7b)
        names = [_marked_name(views[label]) if label in views else label for label in effects]
        if len(names) == 1:
            template = _("%(card)s resolved targeting it this turn")
            states.append(mark_safe(escape(template) % {"card": names[0]}))
        else:
            template = _("this turn, spells resolved targeting it in this order: %(cards)s")
            then = escape(_(", then "))
            states.append(mark_safe(escape(template) % {"cards": then.join(names)}))
    return tuple(states)


def _marked_name(view: CardView) -> SafeString:
    """A card's name in a board's sentence, marked English where it has no name in the reader's
    language (as on its card: a German board named Titanic Growth unmarked in its notes)."""
    if view.name_language:
        return format_html('<span lang="{}">{}</span>', view.name_language, view.name)
    return escape(view.name)


def _sba_extras(spec: Any) -> dict[str, Mapping[str, Any]] | None:
    """On a board checked for state-based actions (`"state_based_actions": true`), every
    labelled card object by label (its damage is read from it); None on any other board."""
    if not isinstance(spec, Mapping) or not spec.get("state_based_actions"):
        return None
    found: dict[str, Mapping[str, Any]] = {}
    for zones in spec.get("zones", {}).values():
        for entries in zones.values():
            for entry in entries if isinstance(entries, list) else ():
                if isinstance(entry, Mapping) and entry.get("label"):
                    found[str(entry["label"])] = entry
    return found


def _sba_states(instance: Any, extras: Mapping[str, Mapping[str, Any]] | None) -> tuple[str, ...]:
    """A permanent's power and toughness as printed, damage marked on it and whether a source
    with deathtouch dealt it damage: the premises of 704.5f-h."""
    if extras is None or instance.zone != "battlefield":
        return ()
    states = []
    definition = instance.definition
    if getattr(definition, "toughness", ""):
        states.append(
            _("printed power and toughness %(power)s/%(toughness)s")
            % {"power": definition.power, "toughness": definition.toughness}
        )
    extra = extras.get(instance.label, {})
    damage = extra.get("damage", 0)
    if damage:
        states.append(
            ngettext("%(count)s damage marked on it", "%(count)s damage marked on it", damage)
            % {"count": damage}
        )
    if extra.get("deathtouch_damage"):
        states.append(
            _(
                "dealt damage by a source with deathtouch since state-based actions were last "
                "checked"
            )
        )
    return tuple(states)


def _combat_states(
    instance: Any, extras: Mapping[str, Mapping[str, Any]] | None, views: Mapping[str, CardView]
) -> tuple[str, ...]:
    """An attacking creature, and a blocking one with the attacker it blocks (combat_claims.py:
    `"blocks": LABEL`), on a board checked for state-based actions."""
    combat = getattr(instance, "combat", "")
    if extras is None or not combat:
        return ()
    if combat == "attacking":
        return (_("attacking"),)
    blocked = views.get(str(extras.get(instance.label, {}).get("blocks", "")))
    if blocked is None:
        return (_("blocking"),)
    return (_("blocking %(card)s") % {"card": blocked.phrase},)


def _player_status(scenario: Any, player: str) -> tuple[str, ...]:
    """Life total, poison counters and an attempted draw from an empty library (704.5a-c)."""
    spec = scenario.spec
    life = (spec.get("life") or {}).get(player, 20)
    status = [_("life total: %(life)s") % {"life": life}]
    poison = (spec.get("poison") or {}).get(player, 0)
    status.append(
        ngettext("%(count)s poison counter", "%(count)s poison counters", poison)
        % {"count": poison}
    )
    if player in (spec.get("drew_from_empty_library") or ()):
        status.append(
            _(
                "attempted to draw a card from an empty library since state-based actions were "
                "last checked"
            )
        )
    return tuple(status)


def _runs(cards: tuple[CardView, ...], asked: frozenset[str]) -> tuple[Run, ...]:
    """Consecutive identical cards nobody is asked about form one run."""
    runs: list[list[CardView]] = []
    for card in cards:
        last = runs[-1] if runs else None
        if (
            last is not None
            and last[-1].name == card.name
            and last[-1].label not in asked
            and card.label not in asked
            and last[-1].tapped == card.tapped
            and last[-1].states == card.states
            and last[-1].controller == card.controller
        ):
            last.append(card)
        else:
            runs.append([card])
    split: list[Run] = []
    for run in runs:  # a short run is just its cards
        if len(run) >= GROUP_FROM:
            split.append(Run(tuple(run)))
        else:
            split.extend(Run((card,)) for card in run)
    return tuple(split)


def _step_text(step: Any, board_cards: Mapping[str, CardView], catalog: Any) -> StackItem:
    def named(ref: str) -> str:
        card = board_cards.get(ref)
        return card.phrase if card else ref

    if not hasattr(step, "by"):  # a Fact
        facts = {
            "searched_library": _("%(player)s searched their library"),
            "ignored_search_prohibition": _(
                "%(player)s paid to ignore the search prohibition of %(paid_for)s"
            ),
            "left_the_game": _("%(player)s left the game"),
        }
        paid_for = named(step.paid_for) if getattr(step, "paid_for", None) else _("a permanent")
        text = facts.get(step.kind, "%(player)s: " + step.kind.replace("_", " "))
        return StackItem(text % {"player": step.player, "paid_for": paid_for}, None)
    card = board_cards.get(step.source)
    if card is None and step.kind == "cast":
        definition = catalog.get(step.source)
        if definition is not None:
            card = _definition_view(
                definition,
                ref="stack",
                label=step.source,
                phrase=definition.name,
                owner=step.by or "",
                controller=step.by or "",
                zone="stack",
                position=1,
            )
    # a card that shares its name with another on the board is named by its place, so that the
    # page says which of them acts ("the second Forest Jonas controls"), as the claims do
    placed = (
        card is not None
        and step.kind in ("activate", "trigger")
        and _shares_name(card, board_cards)
    )
    source = localized(step.source) if card is None else card.phrase if placed else card.name
    event = TRIGGER_EVENT_WORDS.get(step.event or "")
    values = {"player": step.by, "source": source, "event": event}
    if placed:
        activated = pgettext(
            "a card named by its place", "%(player)s activates an ability of %(source)s"
        )
        triggered = (
            pgettext("a card named by its place", "The ability of %(source)s triggers (%(event)s)")
            if event
            else pgettext("a card named by its place", "The ability of %(source)s triggers")
        )
    else:
        activated = _("%(player)s activates an ability of %(source)s")
        triggered = (
            _("%(source)s's ability triggers (%(event)s)")
            if event
            else _("%(source)s's ability triggers")
        )
    verbs = {
        "cast": _("%(player)s casts %(source)s") % values,
        "activate": activated % values,
        "trigger": triggered % values,
        "draw": _("%(player)s would draw a card") % {"player": step.source},
    }
    targets = tuple(named(target) for target in step.targets)
    return StackItem(verbs.get(step.kind, f"{step.kind} {source}"), card, targets)


def _shares_name(card: CardView, board_cards: Mapping[str, CardView]) -> bool:
    return sum(1 for other in board_cards.values() if other.name == card.name) > 1


def _is_cast(step: Any) -> bool:
    return getattr(step, "kind", None) == "cast" and hasattr(step, "by")


REF_KEY_SALT = "quizzes.rulings.board"


@functools.lru_cache(maxsize=2)
def _ref_key(secret: str) -> bytes:
    """Django's `salted_hmac` key for the references, derived once per secret, not per card (a
    board of twenty cards derived it twenty times)."""
    return hashlib.sha1((REF_KEY_SALT + secret).encode()).digest()


def card_ref(label: str, salt: str) -> str:
    """An opaque reference for a card (no label, and no author's label can equal it):
    `salted_hmac(REF_KEY_SALT, f"{salt}:{label}")`, its key derived once."""
    mac = hmac.new(_ref_key(settings.SECRET_KEY), f"{salt}:{label}".encode(), hashlib.sha1)
    return "card-" + mac.hexdigest()[:12]


def build_board(scenario: Any, asked: frozenset[str] = frozenset(), salt: str = "") -> Board:
    """The board a judge reads at a glance, from a parsed scenario (`rules.engine.Scenario`).

    `asked` holds the labels of cards the question asks about: they are never grouped. `salt`
    (the variant's seed) makes the cards' references differ from one variant to the next.
    """
    state = scenario.state
    listed = scenario.spec.get("zones", {}) if isinstance(scenario.spec, Mapping) else {}
    views: dict[str, CardView] = {}
    players = []
    for player in state.apnap_order:
        for zone in ZONE_ORDER:
            instances = state.cards_in(player, zone)
            for instance in instances:
                same_named = [other for other in instances if other.name == instance.name]
                views[instance.label] = _card_view(
                    instance, card_ref(instance.label, salt), _phrase(instance, same_named)
                )
    cast = getattr(scenario.resolve, "source", None) if _is_cast(scenario.resolve) else None
    if cast in views and [view.name for view in views.values()].count(views[cast].name) == 1:
        # The spell being cast leaves its zone as it resolves: "the Hangarback Walker", as on
        # the stack, not "the Hangarback Walker in Jonas's hand" (it ends on the battlefield).
        views[cast] = replace(views[cast], phrase=views[cast].name)
    invented = invented_names(scenario.spec)
    sba = _sba_extras(scenario.spec)
    for label, view in views.items():
        states = _states(state.card(label), views) + _sba_states(state.card(label), sba)
        states += _combat_states(state.card(label), sba, views)
        if states:
            views[label] = replace(view, states=states)
        if state.card(label).name in invented:
            views[label] = _invented(views[label])
    for player in state.apnap_order:
        zones = []
        for zone in ZONE_ORDER:
            instances = state.cards_in(player, zone)
            # A zone the author lists empty is shown empty: Lobotomy on an empty hand turns on it.
            if instances or zone in listed.get(player, {}):
                cards = tuple(views[card.label] for card in instances)
                zones.append(ZoneView(player, zone, cards, _runs(cards, asked)))
        status = _player_status(scenario, player) if sba is not None else ()
        players.append(PlayerView(player, player == state.active, tuple(zones), status))
    resolving = _step_text(scenario.resolve, views, scenario.catalog) if scenario.resolve else None
    history = tuple(_step_text(step, views, scenario.catalog).text for step in scenario.history)
    return Board(tuple(players), resolving, history, views)

"""A bank's own cards in a Tutor JSON file: the export carries the instructors' own cards its
scenarios name (`cards_of`), and an import takes them as the importer's own cards
(`check_cards` / `do_create_cards`), so a colleague's file imports without "unknown card".

A card of the file that the importer already has, identical, is simply used. One that clashes
is refused in words, with its place: a different card of the catalog's name or look-alike, or a
different card of the importer's own of that name."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError

from config.inputs import plain_name
from quizzes import limits
from quizzes.models import Bank, Scenario
from quizzes.models.content import card_names
from quizzes.reference.forms import catalog_look_alike
from quizzes.rulings import Catalog
from quizzes.rulings.cards import ScenarioError, is_catalog_card, parse_card_definition
from rules.models import Card


def cards_of(bank: Bank) -> list[dict[str, Any]]:
    """The definitions of the instructors' own cards the bank's scenarios name (each scenario's
    author's), by name: what another instructor needs to import the bank."""
    named: set[str] = set()
    authors: set[int] = set()
    for author_id, spec in Scenario.objects.in_bank(bank).values_list("author_id", "spec"):
        named |= card_names(spec)
        if author_id is not None:
            authors.add(author_id)
    rows = Card.objects.filter(owner_id__in=authors, name__in=named).order_by("name", "pk")
    definitions: dict[str, dict[str, Any]] = {}
    for card in rows:
        definitions.setdefault(card.name, card.definition)  # two authors' cards of one name: one
    return list(definitions.values())


def check_cards(
    user, raw: Any, filename: str, catalog: Catalog, problems: list[str]
) -> list[dict[str, Any]]:
    """The file's `cards` that `user` lacks, each checked (a problem for each bad one, added to
    `problems`); the ones `user` already has, identical, are left out."""
    entries = raw.get("cards") if isinstance(raw, dict) else None
    if entries is None:
        return []
    if not isinstance(entries, list):
        problems.append(f"{filename}: cards: give a list of card definitions")
        return []
    room = limits.MAX_CARDS_PER_OWNER - Card.objects.owned_by(user).count()
    new: list[dict[str, Any]] = []
    seen: set[str] = set()
    for index, definition in enumerate(entries):
        where = f"{filename}: cards[{index}]"
        try:
            parsed = parse_card_definition(definition, f"cards[{index}]")
        except ScenarioError as error:
            problems.append(f"{filename}: {error}")
            continue
        name = parsed.name
        if name in seen:
            problems.append(f"{where}: {name!r} is defined twice")
            continue
        seen.add(name)
        known = catalog.get(name)
        if known is not None:
            if known == parsed:
                continue  # the importer has this very card: used as it is
            if is_catalog_card(name) or Card.objects.site().filter(name=name).exists():
                problems.append(
                    f"{where}: {name!r} is a different card in this site's catalog: rename the "
                    "file's card (in its scenarios too), or use the catalog's"
                )
            else:
                problems.append(
                    f"{where}: you have a card named {name!r} that differs from the file's: "
                    "rename one of them, or make yours the same"
                )
            continue
        problem = _name_problem(name)
        if problem:
            problems.append(f"{where}: {problem}")
            continue
        new.append(definition)
    if len(new) > room:
        problems.append(
            f"{filename}: cards: {len(new)} new cards, over your room for {max(room, 0)} "
            f"(the limit is {limits.MAX_CARDS_PER_OWNER} cards per instructor)"
        )
    return new


def _name_problem(name: str) -> str:
    """Why a file's card may not be made under `name` (as the card form refuses it), or ""."""
    try:
        plain_name(name, "the name")
    except ValidationError as error:
        return "; ".join(error.messages)
    if "#" in name:
        return f"{name!r}: a card name cannot contain # (it starts a label)"
    if (card := catalog_look_alike(name)) is not None:
        return f"{name!r} looks like {card!r}, a card in the catalog: rename it in the file"
    return ""


def with_cards(catalog: Catalog, definitions: list[dict[str, Any]]) -> Catalog:
    """`catalog` with the file's new cards, to check its scenarios with."""
    if not definitions:
        return catalog
    return catalog.extend(parse_card_definition(d, "card") for d in definitions)


def do_create_cards(user, definitions: list[dict[str, Any]]) -> list[Card]:
    """The file's new cards, made `user`'s own (inside the import's transaction)."""
    cards = []
    for definition in definitions:
        card = Card(owner=user, name=definition["name"], definition=definition)
        card.full_clean()
        card.save()
        cards.append(card)
    return cards

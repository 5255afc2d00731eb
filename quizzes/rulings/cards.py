"""A card definition as the engine reads it: the card form's types, its check and its preview
ask here, so the reference pages reach the engine through the door like every other page."""

from __future__ import annotations

from rules.engine import ScenarioError, default_catalog
from rules.engine.cards import CARD_TYPES, SUPERTYPES, CardDefinition, parse_card_definition

__all__ = [
    "CARD_TYPES",
    "SUPERTYPES",
    "CardDefinition",
    "ScenarioError",
    "catalog_names",
    "is_catalog_card",
    "parse_card_definition",
]


def is_catalog_card(name: str) -> bool:
    """Whether the site's card catalog (rules/catalog/) already has a card of that name."""
    return name in default_catalog()


def catalog_names() -> list[str]:
    """The names of the site's card catalog (rules/catalog/), sorted."""
    return default_catalog().names()

"""The banks an instructor owns and what they may draw on. Every lookup goes through
`banks_of(user)` / `scenarios_in(bank)`, so another instructor's bank is never reached."""

from __future__ import annotations

from django.db.models import QuerySet
from django.utils.text import slugify

from config.roles import INSTRUCTORS_GROUP, is_instructor  # noqa: F401 (re-exported)
from quizzes.models import Bank, Scenario
from rules.cards import catalog_for

RESERVED_SLUGS = frozenset({"new"})  # /banks/new/ and .../scenarios/new/ are pages

# Lookups that enforce ownership.


def banks_of(user) -> QuerySet[Bank]:
    """The banks `user` owns or co-owns (sharing.py): every bank page looks banks up here."""
    return Bank.objects.editable_by(user)


def catalog_owner(user, scenario: Scenario | None) -> int:
    """Whose cards a scenario is read with: its author's (a co-owner edits a scenario naming
    the author's own cards), a new one's its writer's."""
    if scenario is not None and scenario.author_id is not None:
        return scenario.author_id
    return user.pk


def scenarios_in(bank: Bank) -> QuerySet[Scenario]:
    """The scenarios an instructor may edit in their bank: those authored in it."""
    return Scenario.objects.filter(bank=bank)


def free_slug(model, base: str, max_length: int = 100) -> str:
    """`base` slugified, with -2, -3, ... when another row already has it."""
    root = (slugify(base) or "untitled")[: max_length - 4]
    slug, number = root, 2
    while slug in RESERVED_SLUGS or model.objects.filter(slug=slug).exists():
        slug, number = f"{root}-{number}", number + 1
    return slug


# Banks.


def do_create_bank(user, title: str, description: str, visibility: str) -> Bank:
    return Bank.objects.create(
        owner=user,
        slug=free_slug(Bank, title),
        title=title,
        description=description,
        visibility=visibility,
    )


def seed_scenarios(user) -> QuerySet[Scenario]:
    """The site's seed scenarios `user` may read, to start a new scenario from: the written ones,
    not a family's generated instances (hundreds, dozens sharing a title)."""
    return (
        Scenario.objects.visible_to(user)
        .filter(bank__isnull=True, family__isnull=True)
        .order_by("title")
    )


def card_names_for(user) -> list[str]:
    """Every card name `user` may put in a scenario, sorted (the builder's completion)."""
    return catalog_for(user.pk).names()

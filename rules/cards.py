"""The one card catalog: the file catalog (rules/catalog/*.json) with the database's cards.

Every way a scenario reaches the engine (authoring, practice, exams, variants, exports, checks)
reads its cards through `catalog_for(owner_id)`: the file catalog, the site's cards (no owner:
`load_content` and the admin) and the cards of `owner_id` (an instructor's own, from the app's
card form), never another instructor's (`Card.objects.usable_by`). A database row wins over a
file card of the same name, and a site card over an instructor's (the card form refuses the
catalog's names; one added to the site later takes the name back).

Built catalogs are kept per process and per owner, keyed by the table's generation (its row
count and latest `updated_at`): one small indexed query per call tells whether any card was
saved or deleted since, in this process or another one, so a saved card is seen at once by
every worker without a shared cache.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from django.db.models import Count, Max

from config import sql
from rules.engine import Catalog, default_catalog
from rules.engine.cards import parse_card_definition
from rules.models import Card

MAX_KEPT_OWNERS = 256  # catalogs kept per process; the least recently used goes first

_kept: OrderedDict[int | None, tuple[tuple, Catalog]] = OrderedDict()
_lock = threading.Lock()


# By hand (config/sql.py): every page that shows a question asks it, and building the ORM's
# aggregate cost more than the database's answer (`generation_by_orm` is the specification).
# As two columns, for a query that reads other things too (`generation_of` reads them).
GENERATION_COLUMNS = "(SELECT COUNT(*) FROM rules_card), (SELECT MAX(updated_at) FROM rules_card)"
GENERATION = f"SELECT {GENERATION_COLUMNS}"


def generation() -> tuple:
    """Changes whenever a card row is created, saved or deleted."""
    return generation_of(*sql.first(GENERATION, prepared=True))


def generation_of(count, latest) -> tuple:
    """The generation from the two values `GENERATION` or `GENERATION_COLUMNS` read."""
    return (count, sql.moment(latest))


def generation_by_orm() -> tuple:
    """`generation` through the ORM (its tests compare the two)."""
    row = Card.objects.aggregate(count=Count("pk"), latest=Max("updated_at"))
    return (row["count"], row["latest"])


def catalog_for(owner_id: int | None = None, current: tuple | None = None) -> Catalog:
    """The cards a scenario of `owner_id` may name (None: a site scenario, the site's cards).
    `current`: the table's generation when the caller has just read it (default: read now)."""
    current = generation() if current is None else current
    with _lock:
        kept = _kept.get(owner_id)
        if kept is not None and kept[0] == current:
            _kept.move_to_end(owner_id)
            return kept[1]
    built = build_catalog(owner_id)
    with _lock:
        _kept[owner_id] = (current, built)
        _kept.move_to_end(owner_id)
        while len(_kept) > MAX_KEPT_OWNERS:
            _kept.popitem(last=False)
    return built


def build_catalog(owner_id: int | None = None) -> Catalog:
    """`catalog_for` without the cache: one query for the rows."""
    # the owner's first, so a site card of the same name replaces theirs
    rows = sorted(Card.objects.usable_by(owner_id), key=lambda card: card.owner_id is None)
    return default_catalog().extend(
        parse_card_definition(card.definition, f"card {card.name}") for card in rows
    )


def forget() -> None:
    """Drop every kept catalog (tests that change cards outside the ORM)."""
    with _lock:
        _kept.clear()

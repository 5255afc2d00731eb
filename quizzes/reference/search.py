"""The card browser's near matches: a misspelt search ("Islnd") offers the names it was close
to ("Island"), as a spelling suggestion, when nothing matches it as typed."""

from __future__ import annotations

import difflib

MAX_NEAR = 5
CUTOFF = 0.75  # difflib's ratio: "Islnd" to "Island" is 0.91, to "Inland Sea" under it


def near_matches(query: str, cards) -> list[tuple[int, str]]:
    """(pk, name) of the cards whose name is closest to `query` (case aside), best first;
    one query for the names of `cards` (the ones the visitor may read)."""
    wanted = query.casefold()
    names: dict[str, tuple[int, str]] = {}
    for pk, name in cards.values_list("pk", "name"):
        names.setdefault(name.casefold(), (pk, name))
    close = difflib.get_close_matches(wanted, list(names), n=MAX_NEAR, cutoff=CUTOFF)
    return [names[key] for key in close]

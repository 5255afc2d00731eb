"""The engine's sessions, kept per process by what they are made from.

A session is a pure function of its spec and catalog: a scenario version never changes and a
variant is a function of its version and seed, so the scenario as written (every variant of a
question starts from it) and the variant just served (its answer comes next) are parsed and
resolved once per process, not once per request. Nothing of a learner is in a key or a value.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from quizzes.kept import Kept
from rules.engine import Catalog, Session

# A seed scenario's session, resolved, is about 11 KiB (measured over 300 of them): 1,024 kept,
# more than the seed's 843 scenarios, are about 12 MB per worker.
SESSIONS: Kept[tuple[Catalog | None, Session]] = Kept(1024)


def session_for(spec: Mapping[str, Any], catalog: Catalog | None) -> Session:
    """The session on `spec` with `catalog` (raises ScenarioError, keeping nothing, for a spec
    the engine refuses)."""
    # The entry holds its catalog, so no other catalog can take its id while the entry lives;
    # a card saved makes a new catalog (rules/cards.py), hence new keys.
    key = (id(catalog), json.dumps(spec, sort_keys=True))
    return SESSIONS.get(key, lambda: (catalog, Session(spec, catalog)))[1]

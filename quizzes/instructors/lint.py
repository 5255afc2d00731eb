"""The lint: stored rulings the engine disagrees with, and boards the rules don't allow."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from config.roles import INSTRUCTORS_GROUP, is_instructor  # noqa: F401 (re-exported)
from quizzes.models import Scenario
from quizzes.rulings import (
    Catalog,
    TimingFinding,
    casting_timing,
    catalog_of,
    checks,
)

FLAGGED = (Scenario.EngineStatus.DISAGREES, Scenario.EngineStatus.INVALID)

# The lint: stored rulings the engine disagrees with, and boards the rules don't allow.


@dataclass(frozen=True)
class LintEntry:
    scenario: Scenario
    status: str
    problems: tuple[str, ...]
    # Spells cast when the rules don't allow (CR 307.1 ...): warnings, the ruling still stands.
    warnings: tuple[TimingFinding, ...] = ()

    @property
    def status_display(self) -> str:
        return Scenario.EngineStatus(self.status).label

    @property
    def flagged(self) -> bool:
        return self.status in FLAGGED


def lint(scenarios: Iterable[Scenario], catalog: Catalog | None = None) -> list[LintEntry]:
    """Every scenario the engine (as it is now) disagrees with or rejects, with each mismatch,
    and every scenario that casts a spell when the rules don't allow, with each such cast.

    Runs the engine afresh (the stored status may predate an engine change) and saves nothing.
    """
    entries = []
    for scenario in scenarios:  # each with its own author's catalog unless `catalog` is given
        check = checks.check_with_engine(scenario, catalog)
        warnings: tuple[TimingFinding, ...] = ()
        if check.status != Scenario.EngineStatus.INVALID:  # parsed, and within the limits
            cards = catalog if catalog is not None else catalog_of(scenario)
            warnings = casting_timing(scenario.spec, cards)
        if check.status in FLAGGED or warnings:
            problems = tuple(check.report.splitlines()) if check.status in FLAGGED else ()
            entries.append(LintEntry(scenario, check.status, problems, warnings))
    return entries

"""The lint: stored rulings the engine disagrees with, and boards the rules don't allow."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from config.roles import INSTRUCTORS_GROUP, is_instructor  # noqa: F401 (re-exported)
from quizzes.models import Scenario, Variant
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
    # What the audit found wrong with a question as learners are served it (issue 20), in words.
    audited: tuple[str, ...] = ()

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
        audited = _audited(scenario)
        if check.status in FLAGGED or warnings or audited:
            problems = tuple(check.report.splitlines()) if check.status in FLAGGED else ()
            entries.append(LintEntry(scenario, check.status, problems, warnings, audited))
    return entries


def _audited(scenario: Scenario) -> tuple[str, ...]:
    """What the audit flagged in the stored variants of the scenario's questions as given now
    (each problem once, with the question it is about)."""
    flagged = (
        Variant.objects.filter(
            question__scenario=scenario, scenario_version_id=scenario.current_version_id
        )
        .exclude(problems=[])
        .order_by("question_id", "seed")
        .values_list("question__prompt", "problems")
    )
    said: dict[str, None] = {}
    for prompt, problems in flagged:
        for problem in problems:
            said[f"{prompt}: {problem}"] = None
    return tuple(said)

"""Content checked by the engine when it is written (loaded, saved, imported, edited in the
admin): whether the engine reads a scenario, whether it agrees with the stored ruling, which
rules it exercises, and whether a question's claims fit its kind. The models hold the rows;
these are the engine's verdicts on them, so the models never import the engine."""

from __future__ import annotations

from typing import NamedTuple

from django.core.exceptions import ValidationError

from quizzes import limits
from quizzes.models import Scenario
from quizzes.rulings.kinds import KINDS
from rules.cards import catalog_for
from rules.engine import Catalog, ScenarioError, Session, check_expectations, parse_scenario
from rules.models import Rule
from rules.numbers import numbers_in


class EngineCheck(NamedTuple):
    status: str
    report: str
    cited_rules: frozenset[str]


def spec_error(spec: dict, catalog: Catalog) -> str:
    """Why the engine refuses `spec` ("spec.path: message"), or "" when it reads it."""
    try:
        parse_scenario(spec, catalog)
    except ScenarioError as error:
        return f"spec.{error.path}: {error.message}"
    return ""


def validate_scenario(scenario: Scenario, catalog: Catalog | None = None) -> None:
    """`full_clean`, then the engine reads the spec: a ValidationError on the field at fault."""
    scenario.full_clean()
    problem = spec_error(scenario.spec, catalog or catalog_for(scenario.author_id))
    if problem:
        raise ValidationError({"spec": problem})


def question_problem(kind: str, claims: list[dict]) -> str:
    """Why `claims` do not fit a question of `kind`, or "" when they do (the kind's own rule)."""
    return KINDS[kind].problem(claims) if kind in KINDS else ""


def validate_question(question, exclude: list[str] | None = None) -> None:
    """`full_clean`, then the question's kind takes its claims: a ValidationError on `claims`."""
    question.full_clean(exclude=exclude)
    problem = question_problem(question.kind, question.claims)
    if problem:
        raise ValidationError({"claims": problem})


def check_with_engine(scenario: Scenario, catalog: Catalog | None = None) -> EngineCheck:
    """Cross-check the stored ruling (`spec["expect"]`) against the engine.

    Sets `engine_status` and `engine_report` (not saved) and returns them with the numbers of
    the rules the computed claims cite. A scenario without `expect` claims is `not_checked`
    (its ruling lives in `stored_ruling`/`stored_expect`); one the engine rejects is
    `invalid`; a stored claim the engine computes differently is `disagrees`: flagged, never
    hidden.
    """
    status = Scenario.EngineStatus
    catalog = catalog if catalog is not None else catalog_for(scenario.author_id)
    spec = scenario.spec
    expect = spec.get("expect") or [] if isinstance(spec, dict) else []
    cited: set[str] = set()
    problem = limits.spec_problem(spec)
    if problem:  # never served (selection skips invalid scenarios)
        scenario.engine_status, scenario.engine_report = status.INVALID, problem
        return EngineCheck(scenario.engine_status, scenario.engine_report, frozenset())
    try:
        session = Session(spec, catalog)  # parsed once, resolved once for the claims
        mismatches = check_expectations(session.scenario)
    except ScenarioError as error:
        scenario.engine_status = status.INVALID
        scenario.engine_report = f"spec.{error.path}: {error.message}" if error.path else str(error)
        return EngineCheck(scenario.engine_status, scenario.engine_report, frozenset())
    for claim in expect:
        question = {key: value for key, value in claim.items() if key != "value"}
        try:
            cited.update(numbers_in(session.evaluate(question).rule))
        except ScenarioError:
            continue  # reported as a mismatch by check_expectations
    stored_only = len(scenario.stored_expect or [])
    if mismatches:
        scenario.engine_status = status.DISAGREES
        scenario.engine_report = "\n".join(mismatch.message for mismatch in mismatches)
    elif not expect:
        scenario.engine_status = status.NOT_CHECKED
        scenario.engine_report = "No engine-computable claims: the stored ruling stands alone."
    elif stored_only:
        # the paragraph's own point is in stored_expect, which the engine can't compute
        scenario.engine_status = status.NOT_CHECKED
        scenario.engine_report = (
            f"The engine agrees with the {len(expect)} computable claims; {stored_only} stored "
            "claim(s) of the ruling are not engine-checked."
        )
    else:
        scenario.engine_status = status.AGREES
        scenario.engine_report = f"The engine agrees with all {len(expect)} stored claims."
    return EngineCheck(scenario.engine_status, scenario.engine_report, frozenset(cited))


def record_engine_check(
    scenario: Scenario, catalog: Catalog | None = None, extra_rules: tuple[str, ...] = ()
) -> EngineCheck:
    """Run `check_with_engine`, save the status if it changed, link the rules it exercises.

    `extra_rules` are numbers the content cites for claims the engine cannot compute yet
    (`not_checked` scenarios); each resolves through `Rule.objects.resolve_number`.
    """
    before = (scenario.engine_status, scenario.engine_report)
    check = check_with_engine(scenario, catalog)
    if (scenario.engine_status, scenario.engine_report) != before:
        scenario.save(update_fields=["engine_status", "engine_report", "updated_at"])
    resolved = Rule.objects.resolve_numbers({*check.cited_rules, *extra_rules})
    rules = {rule.pk: rule for rule in resolved.values()}
    if set(scenario.rules_exercised.values_list("pk", flat=True)) != set(rules):
        scenario.rules_exercised.set(rules.values())
    scenario.link_cards()
    return check

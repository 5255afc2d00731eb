"""Scenario families (family/1, docs/families.md): one situation with parameters, read and
validated here. A family names every bad parameter with its file, its path and why; its
instances are made by `quizzes.rulings.instances`."""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from quizzes import limits
from rules.engine import CLAIM_SUBJECTS, Catalog, ScenarioError, parse_scenario
from rules.engine.cards import parse_filter

FORMAT = "family/1"
LEVELS = ("L1", "L2", "corner")
KEYS = {"format", "id", "title", "source", "level", "rules", "parameters", "scenario", "expect"}
SOURCES = {"choices", "cards", "range"}  # where a parameter's values come from
NAME = re.compile(r"[a-z][a-z0-9_]*")
SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
WHOLE = re.compile(r"\$([a-z][a-z0-9_]*)")  # "$name": the value itself
SPLICE = re.compile(r"\$\*([a-z][a-z0-9_]*)")  # "$*name" in a list: the value's items
INSIDE = re.compile(r"\$\{([a-z][a-z0-9_]*)\}")  # "${name}" inside a string: its text
MAX_ID = 60  # the instances' slugs add 11 characters (Scenario.slug, spec id: 100)
MAX_VALUES = 200  # values of one parameter
TRIES_PER_VALUE = 8  # combinations tried before a parameter value is called bad


class FamilyError(ValueError):
    """A bad family file: the file, the path in it, and why."""

    def __init__(self, file: str, path: str, why: str) -> None:
        super().__init__(f"{file}: {path}: {why}" if path else f"{file}: {why}")
        self.file, self.path, self.why = file, path, why


@dataclass(frozen=True)
class FamilyTemplate:
    id: str
    title: str
    source: str
    level: str
    rules: tuple[str, ...]
    parameters: dict[str, tuple[Any, ...]]  # in declaration order, each value as written
    scenario: dict[str, Any]  # the scenario/1 template
    expect: tuple[dict[str, Any], ...]  # claim templates, without values
    where: str
    definition: dict[str, Any]

    def combinations(self, rng: random.Random, most: int) -> Iterable[dict[str, Any]]:
        """Up to `most` different assignments of values, in an order drawn by `rng`."""
        names = list(self.parameters)
        sizes = [len(self.parameters[name]) for name in names]
        total = 1
        for size in sizes:
            total *= size
        if total <= 4 * most:
            indices = list(itertools.product(*(range(size) for size in sizes)))
            rng.shuffle(indices)
        else:
            seen: set[tuple[int, ...]] = set()
            indices = []
            while len(indices) < most:
                pick = tuple(rng.randrange(size) for size in sizes)
                if pick not in seen:
                    seen.add(pick)
                    indices.append(pick)
        for pick in indices[:most]:
            yield {name: self.parameters[name][i] for name, i in zip(names, pick, strict=True)}

    def fill(self, chosen: Mapping[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The scenario and its claims with `chosen` values put in (each parameter may use the
        ones declared before it)."""
        values: dict[str, Any] = {}
        for name in self.parameters:
            values[name] = substitute(chosen[name], values, f"parameters.{name}", self.where)
        spec = substitute(self.scenario, values, "scenario", self.where)
        claims = substitute(list(self.expect), values, "expect", self.where)
        return spec, claims


def substitute(template: Any, values: Mapping[str, Any], path: str, where: str) -> Any:
    """`template` with "$name", "$*name" (in a list) and "${name}" replaced by `values`."""
    if isinstance(template, str):
        whole = WHOLE.fullmatch(template)
        if whole:
            return _value(whole.group(1), values, path, where)
        return INSIDE.sub(lambda m: str(_value(m.group(1), values, path, where)), template)
    if isinstance(template, list):
        result = []
        for index, item in enumerate(template):
            splice = SPLICE.fullmatch(item) if isinstance(item, str) else None
            if splice:
                items = _value(splice.group(1), values, f"{path}[{index}]", where)
                if not isinstance(items, list):
                    raise FamilyError(where, f"{path}[{index}]", f"${splice.group(1)} is no list")
                result.extend(items)
            else:
                result.append(substitute(item, values, f"{path}[{index}]", where))
        return result
    if isinstance(template, dict):
        return {
            substitute(key, values, path, where): substitute(value, values, f"{path}.{key}", where)
            for key, value in template.items()
        }
    return template


def _value(name: str, values: Mapping[str, Any], path: str, where: str) -> Any:
    if name not in values:
        raise FamilyError(where, path, f"unknown parameter {name!r} (or one declared later)")
    return values[name]


def placeholders(template: Any) -> set[str]:
    """The parameter names `template` uses."""
    if isinstance(template, str):
        return {
            m.group(1) for pattern in (WHOLE, SPLICE, INSIDE) for m in pattern.finditer(template)
        }
    if isinstance(template, list):
        return set().union(*(placeholders(item) for item in template)) if template else set()
    if isinstance(template, dict):
        parts = [placeholders(key) | placeholders(value) for key, value in template.items()]
        return set().union(*parts) if parts else set()
    return set()


def read_family(
    raw: Any, where: str, stem: str, catalog: Catalog, rule_numbers: Iterable[str]
) -> FamilyTemplate:
    """A family file checked: its fields, each parameter and each of its values (a value is bad
    when no scenario made with it parses: the path names the value and the engine's reason)."""
    if not isinstance(raw, dict):
        raise FamilyError(where, "", "must be a family/1 object")
    unknown = set(raw) - KEYS
    if unknown:
        raise FamilyError(where, sorted(unknown)[0], f"is not a family field; use {sorted(KEYS)}")
    if raw.get("format") != FORMAT:
        raise FamilyError(where, "format", f"must be {FORMAT!r}")
    family_id = raw.get("id")
    if not isinstance(family_id, str) or family_id != stem:
        raise FamilyError(where, "id", f"must equal the file name {stem!r}")
    if not SLUG.fullmatch(family_id) or len(family_id) > MAX_ID:
        raise FamilyError(where, "id", f"must be a slug of at most {MAX_ID} characters")
    for name in ("title", "source"):
        if not isinstance(raw.get(name), str) or not raw[name].strip():
            raise FamilyError(where, name, "must be a non-empty string")
    if raw.get("level") not in LEVELS:
        raise FamilyError(where, "level", f"must be one of {', '.join(LEVELS)}")
    known = set(rule_numbers)
    rules = raw.get("rules")
    if not isinstance(rules, list) or not rules:
        raise FamilyError(where, "rules", "must list the rules the family exercises")
    for index, number in enumerate(rules):
        if not isinstance(number, str) or number not in known:
            raise FamilyError(where, f"rules[{index}]", f"no rule {number!r} in rules.json")
    scenario = raw.get("scenario")
    if not isinstance(scenario, dict):
        raise FamilyError(where, "scenario", "must be a scenario/1 object with parameters")
    for name in ("id", "expect"):
        if name in scenario:
            raise FamilyError(where, f"scenario.{name}", "is the family's: leave it out")
    expect = raw.get("expect")
    if not isinstance(expect, list) or not expect:
        raise FamilyError(where, "expect", "must list the claims asked (without values)")
    for index, claim in enumerate(expect):
        if not isinstance(claim, dict) or claim.get("claim") not in CLAIM_SUBJECTS:
            raise FamilyError(where, f"expect[{index}].claim", "must name a claim of the engine")
        if "value" in claim:
            raise FamilyError(where, f"expect[{index}].value", "the engine computes the values")
    parameters = _read_parameters(raw.get("parameters"), where, catalog)
    used = placeholders(scenario) | placeholders(expect)
    for values in parameters.values():
        used |= set().union(*(placeholders(value) for value in values))
    for name in parameters:
        if name not in used:
            raise FamilyError(where, f"parameters.{name}", "is not used by the scenario")
    family = FamilyTemplate(
        family_id,
        raw["title"].strip(),
        raw["source"].strip(),
        raw["level"],
        tuple(rules),
        parameters,
        scenario,
        tuple(expect),
        where,
        raw,
    )
    _check_values(family, catalog)
    return family


def _read_parameters(raw: Any, where: str, catalog: Catalog) -> dict[str, tuple[Any, ...]]:
    if not isinstance(raw, dict) or not raw:
        raise FamilyError(where, "parameters", "must be an object of parameters (a family varies)")
    parameters: dict[str, tuple[Any, ...]] = {}
    for name, source in raw.items():
        at = f"parameters.{name}"
        if not NAME.fullmatch(name):
            raise FamilyError(where, at, "a parameter name is lower case: a-z, 0-9, _")
        if not isinstance(source, dict) or len(set(source) & SOURCES) != 1:
            raise FamilyError(where, at, f"must give exactly one of {sorted(SOURCES)}")
        extra = set(source) - SOURCES - {"except"}
        if extra:
            raise FamilyError(where, f"{at}.{sorted(extra)[0]}", "is not a parameter field")
        if "choices" in source:
            values = source["choices"]
            if not isinstance(values, list) or not values:
                raise FamilyError(where, f"{at}.choices", "must be a non-empty list")
        elif "range" in source:
            bounds = source["range"]
            if (
                not isinstance(bounds, list)
                or len(bounds) != 2
                or not all(isinstance(b, int) and not isinstance(b, bool) for b in bounds)
                or bounds[0] > bounds[1]
            ):
                raise FamilyError(where, f"{at}.range", "must be [lowest, highest] whole numbers")
            values = list(range(bounds[0], bounds[1] + 1))
        else:
            values = _catalog_cards(source, f"{at}.cards", where, catalog)
        if len(values) > MAX_VALUES:
            raise FamilyError(where, at, f"has {len(values)} values; at most {MAX_VALUES}")
        parameters[name] = tuple(values)
    return parameters


def _catalog_cards(source: dict, at: str, where: str, catalog: Catalog) -> list[str]:
    """The names of the catalog's cards matching a filter (the engine's filter words)."""
    try:
        wanted = parse_filter(source["cards"], at)
    except ScenarioError as error:
        raise FamilyError(where, error.path, error.message) from error
    excluded = source.get("except", [])
    if not isinstance(excluded, list) or not all(name in catalog for name in excluded):
        raise FamilyError(where, at.replace(".cards", ".except"), "must list catalog card names")
    names = [
        card.name
        for card in catalog.definitions()
        if wanted.matches(card, {}) and card.name not in excluded
    ]
    if not names:
        raise FamilyError(where, at, "no card of the catalog matches")
    return names


def _check_values(family: FamilyTemplate, catalog: Catalog) -> None:
    """Every value of every parameter makes a scenario the engine parses with some choice of the
    other values (the first ones, then a few drawn): otherwise it is named with the reason."""
    base = {name: values[0] for name, values in family.parameters.items()}
    rng = random.Random(family.id)
    problems = [scenario_problem(family, base, catalog)]
    while problems[-1] and len(problems) < TRIES_PER_VALUE:
        problems.append(scenario_problem(family, _draw(family, rng), catalog))
    if problems[-1]:  # the template, not one value: no combination parses
        raise FamilyError(family.where, "scenario", problems[0])
    for name, values in family.parameters.items():
        for index, value in enumerate(values):
            problem = ""
            for attempt in range(TRIES_PER_VALUE):
                chosen = dict(base) if attempt == 0 else _draw(family, rng)
                chosen[name] = value
                problem = scenario_problem(family, chosen, catalog)
                if not problem:
                    break
            if problem:
                label = f"choices[{index}]" if isinstance(value, dict | list) else repr(value)
                raise FamilyError(family.where, f"parameters.{name} {label}", problem)


def _draw(family: FamilyTemplate, rng: random.Random) -> dict[str, Any]:
    return {name: rng.choice(values) for name, values in family.parameters.items()}


def scenario_problem(family: FamilyTemplate, chosen: Mapping[str, Any], catalog: Catalog) -> str:
    """Why the scenario made with `chosen` is refused, or ""."""
    try:
        spec, _ = family.fill(chosen)
    except FamilyError as error:
        return f"{error.path}: {error.why}"
    spec = instance_spec(family, spec, [], "check")
    try:
        limits.check_spec(spec)
        parse_scenario(spec, catalog)
    except limits.LimitError as error:
        return f"spec.{error.path}: {error.message}"
    except ScenarioError as error:
        return f"spec.{error.path}: {error.message}"
    return ""


def instance_spec(
    family: FamilyTemplate, spec: dict[str, Any], claims: list[dict[str, Any]], slug: str
) -> dict[str, Any]:
    """The scenario/1 document of one instance (zones of players not seated are left out, so
    a family can vary how many players there are)."""
    seated = spec.get("players")
    if isinstance(seated, list) and isinstance(spec.get("zones"), dict):
        zones = {player: zones for player, zones in spec["zones"].items() if player in seated}
        spec = {**spec, "zones": zones}
    return {
        "format": "scenario/1",
        "id": slug,
        "title": spec.get("title", family.title),
        "source": spec.get("source", family.source),
        **{key: value for key, value in spec.items() if key not in ("title", "source", "format")},
        "expect": claims,
    }

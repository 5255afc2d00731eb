"""Read and validate the content files: nothing here touches the database."""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from quizzes import limits
from quizzes.models.exams import rule_is_under
from quizzes.rulings.documents import TUTOR_KEYS
from rules.engine import ScenarioError, parse_scenario
from rules.engine.cards import CATALOG_DIR, Catalog, parse_card_definition
from rules.numbers import is_rule_number

CONTENT_DIR = Path(__file__).resolve().parent.parent / "content"

RULE_FIELDS = {"number", "kind", "title", "text", "language", "edition_name", "edition_date"}
RULE_OPTIONAL = {"source", "note", "canonical", "aliases"}
BLUEPRINT_FIELDS = {
    "slug",
    "title",
    "description",
    "time_limit_minutes",
    "pass_mark",
    "areas",
    "banks",
    "retake_wait_hours",
    "max_sittings",
}


class ContentError(Exception):
    """A bad content file: names the file, the field and why."""

    def __init__(self, file: Path | str, field_path: str, why: str) -> None:
        super().__init__(f"{file}: {field_path}: {why}" if field_path else f"{file}: {why}")
        self.file = str(file)
        self.field_path = field_path
        self.why = why


@dataclass
class ScenarioFile:
    path: Path
    slug: str
    spec: dict[str, Any]
    stored_ruling: str
    stored_expect: list[dict[str, Any]]
    cites: tuple[str, ...]


@dataclass
class Content:
    rules: list[dict[str, Any]] = field(default_factory=list)
    cards: list[dict[str, Any]] = field(default_factory=list)
    localized_names: dict[str, dict[str, str]] = field(default_factory=dict)
    banks: list[dict[str, Any]] = field(default_factory=list)
    scenarios: list[ScenarioFile] = field(default_factory=list)
    catalog: Catalog = field(default_factory=Catalog)
    blueprints: list[dict[str, Any]] = field(default_factory=list)


# The bank family questions are generated into (quizzes/loading/generated.py); an exam blueprint
# may draw from it by this slug, like any bank of banks.json.
GENERATED_BANK = {
    "slug": "generated-families",
    "title": "Families: generated situations",
    "description": (
        "Questions generated from scenario families: each situation drawn from its parameters and "
        "ruled by the engine; no two ask the same conclusions."
    ),
}


def _display(path: Path) -> str:
    """The path relative to the project when it is inside it, for error messages."""
    root = CONTENT_DIR.parent.parent
    try:
        return str(path.resolve().relative_to(root))
    except ValueError:
        return str(path)


def _read_json(path: Path, max_bytes: int | None = None) -> Any:
    try:
        return limits.load_json(path.read_text(encoding="utf-8"), max_bytes, "file")
    except FileNotFoundError as error:
        raise ContentError(_display(path), "", "file not found") from error
    except limits.LimitError as error:
        raise ContentError(_display(path), error.path, error.message) from error
    except json.JSONDecodeError as error:
        at = f"line {error.lineno} column {error.colno}"
        raise ContentError(_display(path), at, f"malformed JSON: {error.msg}") from error


def read_content(content_dir: Path = CONTENT_DIR, catalog_dir: Path = CATALOG_DIR) -> Content:
    """Every content file read and validated; raises ContentError at the first bad one."""
    content = Content()
    content.cards, content.catalog = _read_catalog(catalog_dir)
    content.rules = _read_rules(content_dir / "rules.json")
    content.localized_names = _read_localized_names(
        content_dir / "localized_names.json", content.catalog
    )
    content.banks = _read_banks(content_dir / "banks.json")
    content.scenarios = [
        _read_scenario(path, content.catalog)
        for path in sorted((content_dir / "scenarios").glob("*.json"))
    ]
    slugs = [scenario.slug for scenario in content.scenarios]
    for scenario in content.scenarios:
        if slugs.count(scenario.slug) > 1:
            raise ContentError(_display(scenario.path), "id", f"{scenario.slug!r} is used twice")
    known_numbers = {rule["number"] for rule in content.rules}
    for scenario in content.scenarios:
        for index, number in enumerate(scenario.cites):
            if number not in known_numbers:
                raise ContentError(
                    _display(scenario.path), f"cites[{index}]", f"no rule {number} in rules.json"
                )
    bank_slugs = {bank["slug"] for bank in content.banks} | {GENERATED_BANK["slug"]}
    content.blueprints = _read_blueprints(
        content_dir / "blueprints.json", content.rules, bank_slugs
    )
    return content


def _read_catalog(catalog_dir: Path) -> tuple[list[dict[str, Any]], Catalog]:
    cards: dict[str, dict[str, Any]] = {}
    for path in sorted(catalog_dir.glob("*.json")):
        raw = _read_json(path)
        if not isinstance(raw, list):
            raise ContentError(_display(path), "", "must be a list of card definitions")
        for index, definition in enumerate(raw):
            try:
                parsed = parse_card_definition(definition, f"[{index}]")
            except ScenarioError as error:
                raise ContentError(_display(path), error.path, error.message) from error
            if parsed.name in cards:
                raise ContentError(
                    _display(path), f"[{index}].name", f"{parsed.name!r} is defined twice"
                )
            cards[parsed.name] = definition
    catalog = Catalog(parse_card_definition(d, d["name"]) for d in cards.values())
    return [cards[name] for name in sorted(cards)], catalog


def _read_rules(path: Path) -> list[dict[str, Any]]:
    raw = _read_json(path)
    where = _display(path)
    if not isinstance(raw, list):
        raise ContentError(where, "", "must be a list of rules")
    keys: set[tuple[str, str, str, str]] = set()
    canonical_numbers = {
        row.get("number") for row in raw if isinstance(row, dict) and not row.get("canonical")
    }
    for index, row in enumerate(raw):
        at = f"[{index}]"
        if not isinstance(row, dict):
            raise ContentError(where, at, "must be an object")
        missing = RULE_FIELDS - set(row)
        if missing:
            raise ContentError(where, f"{at}.{sorted(missing)[0]}", "is missing")
        unknown = set(row) - RULE_FIELDS - RULE_OPTIONAL
        if unknown:
            raise ContentError(where, f"{at}.{sorted(unknown)[0]}", "is not a rule field")
        for name in ("number", "text", "language", "edition_name"):
            if not isinstance(row[name], str) or not row[name].strip():
                raise ContentError(where, f"{at}.{name}", "must be a non-empty string")
        if row["kind"] not in ("rule", "glossary"):
            raise ContentError(where, f"{at}.kind", 'must be "rule" or "glossary"')
        if row["edition_date"] is not None:
            try:
                row["edition_date"] = datetime.date.fromisoformat(row["edition_date"])
            except (TypeError, ValueError) as error:
                raise ContentError(
                    where, f"{at}.edition_date", "must be YYYY-MM-DD or null"
                ) from error
        if row.get("canonical") and row["canonical"] not in canonical_numbers:
            raise ContentError(
                where, f"{at}.canonical", f"no current rule {row['canonical']!r} in this file"
            )
        for alias_index, alias in enumerate(row.get("aliases", [])):
            if not isinstance(alias, dict) or not isinstance(alias.get("number"), str):
                raise ContentError(
                    where, f"{at}.aliases[{alias_index}]", 'must be {"number": ..., "note": ...}'
                )
        key = (row["number"], row["language"], row["edition_name"], row["kind"])
        if key in keys:
            raise ContentError(where, f"{at}.number", f"{key} appears twice")
        keys.add(key)
    return raw


def _read_localized_names(path: Path, catalog: Catalog) -> dict[str, dict[str, str]]:
    raw = _read_json(path)
    where = _display(path)
    if not isinstance(raw, dict):
        raise ContentError(where, "", "must be an object of card names to {language: name}")
    for name, names in raw.items():
        if name not in catalog:
            raise ContentError(where, name, "is not a card in the catalog")
        if not isinstance(names, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in names.items()
        ):
            raise ContentError(where, name, 'must be {"de": "...", "it": "..."}')
    return raw


def _read_banks(path: Path) -> list[dict[str, Any]]:
    raw = _read_json(path)
    where = _display(path)
    if not isinstance(raw, list):
        raise ContentError(where, "", "must be a list of banks")
    for index, bank in enumerate(raw):
        for name in ("slug", "title"):
            if not isinstance(bank, dict) or not isinstance(bank.get(name), str):
                raise ContentError(where, f"[{index}].{name}", "must be a string")
        if bank.get("visibility", "public") not in ("private", "shared", "public"):
            raise ContentError(where, f"[{index}].visibility", "must be private, shared or public")
    return raw


def _read_scenario(path: Path, catalog: Catalog) -> ScenarioFile:
    where = _display(path)
    raw = _read_json(path, limits.MAX_DOCUMENT_BYTES)
    if not isinstance(raw, dict):
        raise ContentError(where, "", "must be a scenario/1 object")
    try:
        limits.check_spec(raw)
    except limits.LimitError as error:
        at = f"spec.{error.path}" if error.path else "spec"
        raise ContentError(where, at, error.message) from error
    spec = {key: value for key, value in raw.items() if key not in TUTOR_KEYS}
    try:
        parse_scenario(spec, catalog)
    except ScenarioError as error:
        raise ContentError(where, f"spec.{error.path}", error.message) from error
    slug = spec.get("id") or path.stem
    if not isinstance(slug, str) or slug != path.stem:
        raise ContentError(where, "spec.id", f"must equal the file name {path.stem!r}")
    for name in ("title", "source"):
        if not isinstance(spec.get(name), str) or not spec[name].strip():
            raise ContentError(where, f"spec.{name}", "must be a non-empty string")
    stored_ruling = raw.get("stored_ruling", "")
    if not isinstance(stored_ruling, str):
        raise ContentError(where, "stored_ruling", "must be a string")
    stored_expect = raw.get("stored_expect", [])
    if not isinstance(stored_expect, list) or not all(
        isinstance(claim, dict) and isinstance(claim.get("claim"), str) for claim in stored_expect
    ):
        raise ContentError(where, "stored_expect", 'must be a list of {"claim": ...} objects')
    cites = raw.get("cites", [])
    if not isinstance(cites, list) or not all(isinstance(number, str) for number in cites):
        raise ContentError(where, "cites", "must be a list of rule numbers")
    if not spec.get("expect") and not stored_ruling:
        raise ContentError(where, "stored_ruling", "a scenario without expect needs its ruling")
    return ScenarioFile(path, slug, spec, stored_ruling, stored_expect, tuple(cites))


def _read_blueprints(
    path: Path, rules: list[dict[str, Any]], bank_slugs: set[str]
) -> list[dict[str, Any]]:
    """Exam blueprints (optional file): each area names rules that rules.json holds; `banks`
    (default: every bank of banks.json) names the banks the questions are drawn from."""
    if not path.exists():
        return []
    raw = _read_json(path)
    where = _display(path)
    if not isinstance(raw, list):
        raise ContentError(where, "", "must be a list of exam blueprints")
    current = [row["number"] for row in rules if not row.get("canonical")]
    slugs: set[str] = set()
    for index, blueprint in enumerate(raw):
        at = f"[{index}]"
        if not isinstance(blueprint, dict):
            raise ContentError(where, at, "must be an object")
        unknown = set(blueprint) - BLUEPRINT_FIELDS
        if unknown:
            raise ContentError(where, f"{at}.{sorted(unknown)[0]}", "is not a blueprint field")
        for name in ("slug", "title"):
            if not isinstance(blueprint.get(name), str) or not blueprint[name].strip():
                raise ContentError(where, f"{at}.{name}", "must be a non-empty string")
        if blueprint["slug"] in slugs:
            raise ContentError(where, f"{at}.slug", f"{blueprint['slug']!r} is used twice")
        slugs.add(blueprint["slug"])
        if not isinstance(blueprint.get("description", ""), str):
            raise ContentError(where, f"{at}.description", "must be a string")
        minutes = blueprint.setdefault("time_limit_minutes", None)  # None: untimed
        if minutes is not None and (not _is_int(minutes) or not 1 <= minutes <= 600):
            message = "must be a whole number 1-600, or null for an untimed exam"
            raise ContentError(where, f"{at}.time_limit_minutes", message)
        mark = blueprint.get("pass_mark", 0.8)
        if isinstance(mark, bool) or not isinstance(mark, int | float) or not 0 < mark <= 1:
            raise ContentError(where, f"{at}.pass_mark", "must be a share above 0, at most 1")
        banks = blueprint.setdefault("banks", sorted(bank_slugs))
        if not isinstance(banks, list) or not all(slug in bank_slugs for slug in banks):
            raise ContentError(where, f"{at}.banks", "must list banks of banks.json")
        for name, default in (("retake_wait_hours", 24), ("max_sittings", None)):
            value = blueprint.setdefault(name, default)
            if value is not None and (not _is_int(value) or value < 0):
                raise ContentError(where, f"{at}.{name}", "must be a whole number, 0 or more")
        areas = blueprint.get("areas")
        if not isinstance(areas, list) or not areas:
            raise ContentError(where, f"{at}.areas", "must be a non-empty list")
        for area_index, area in enumerate(areas):
            area_at = f"{at}.areas[{area_index}]"
            if not isinstance(area, dict) or not isinstance(area.get("title"), str):
                raise ContentError(where, f"{area_at}.title", "must be a string")
            if not _is_int(area.get("count")) or area["count"] < 1:
                raise ContentError(where, f"{area_at}.count", "must be a whole number, 1 or more")
            prefixes = area.get("rules")
            if not isinstance(prefixes, list) or not prefixes:
                raise ContentError(where, f"{area_at}.rules", "must be a non-empty list")
            for rule_index, prefix in enumerate(prefixes):
                rule_at = f"{area_at}.rules[{rule_index}]"
                if not isinstance(prefix, str) or not is_rule_number(prefix):
                    raise ContentError(where, rule_at, "must be a rule number such as 701.23")
                if not any(rule_is_under(number, prefix) for number in current):
                    raise ContentError(where, rule_at, f"no rule {prefix} in rules.json")
    return raw


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)

"""Write validated content to the database: idempotent, all in one transaction.

Each row is found by its natural key and saved only when a field differs, so a second run
changes nothing (no `updated_at` or `version` bump). Rows the files no longer mention are left
alone (instructors may have added their own); seed questions no longer generated are deactivated.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.db import models, transaction

from quizzes import levels, visibility
from quizzes.loading.read import (
    CONTENT_DIR,
    GENERATED_BANK,
    Content,
    ScenarioFile,
    read_content,
)
from quizzes.models import Bank, BlueprintArea, ExamBlueprint, Question, Scenario
from quizzes.practice import adaptive
from quizzes.reference import texts
from quizzes.rulings import casting_timing, checks
from quizzes.rulings.generate import questions_for, relevant
from rules.cards import catalog_for
from rules.engine import ScenarioError
from rules.engine.cards import CATALOG_DIR
from rules.models import Card, Rule, RuleAlias


@dataclass
class LoadReport:
    changes: Counter = field(default_factory=Counter)  # ("Rule", "created") -> n
    statuses: Counter = field(default_factory=Counter)  # engine status -> scenarios
    flagged: list[tuple[str, str, str]] = field(default_factory=list)  # slug, status, report
    without_questions: list[str] = field(default_factory=list)
    out_of_turn: list[str] = field(default_factory=list)  # a spell cast when the rules don't allow

    def note(self, model: type[models.Model], status: str) -> None:
        self.changes[(model.__name__, status)] += 1

    @property
    def changed(self) -> int:
        return sum(n for (_, status), n in self.changes.items() if status != "unchanged")


def sync(
    model: type[models.Model], lookup: dict[str, Any], values: dict[str, Any], report: LoadReport
) -> tuple[models.Model, bool]:
    """Create or update one row by its natural key; save only when something differs."""
    row = model.objects.filter(**lookup).first()
    if row is None:
        row = model(**lookup, **values)
        row.full_clean()
        row.save()
        report.note(model, "created")
        return row, True
    changed = [name for name, value in values.items() if getattr(row, name) != value]
    if not changed:
        report.note(model, "unchanged")
        return row, False
    for name in changed:
        setattr(row, name, values[name])
    row.full_clean()
    row.save()
    report.note(model, "updated")
    return row, True


def set_m2m(manager, rows, report: LoadReport, label: str) -> None:
    wanted = {row.pk for row in rows}
    if set(manager.values_list("pk", flat=True)) != wanted:
        manager.set(list(rows))
        report.changes[(label, "updated")] += 1


def load_content(
    content_dir: Path = CONTENT_DIR, catalog_dir: Path = CATALOG_DIR, verbosity: int = 1
) -> LoadReport:
    """Read and validate every file first, then write it all in one transaction."""
    content = read_content(content_dir, catalog_dir)
    report = LoadReport()
    with transaction.atomic():
        _load_rules(content, report)
        _load_cards(content, report)
        banks = _load_banks(content, report)
        catalog = catalog_for(None)
        for scenario_file in content.scenarios:
            _load_scenario(scenario_file, banks, catalog, report)
        seeded = Scenario.objects.filter(slug__in=[f.slug for f in content.scenarios])
        levels.recompute(Question.objects.filter(scenario__in=seeded), catalog)
        by_slug = {bank.slug: bank for bank in banks}
        if any(GENERATED_BANK["slug"] in row["banks"] for row in content.blueprints):
            by_slug[GENERATED_BANK["slug"]] = generated_bank(report)  # its questions come later
        _load_blueprints(content, by_slug, report)
        # every run, changed or not: a deploy (or a restored database) never serves older texts
        transaction.on_commit(texts.bump)
        transaction.on_commit(visibility.bump)
    return report


def generated_bank(report: LoadReport) -> Bank:
    """The bank generated family questions go into (made if it isn't there yet)."""
    bank, _ = sync(
        Bank,
        {"slug": GENERATED_BANK["slug"]},
        {
            "title": GENERATED_BANK["title"],
            "description": GENERATED_BANK["description"],
            "visibility": Bank.Visibility.PUBLIC,
            "owner": None,
        },
        report,
    )
    return bank


def _load_blueprints(content: Content, banks: dict[str, Bank], report: LoadReport) -> None:
    """Exam blueprints by slug, their areas by position; areas past the file's last are removed."""
    for position, row in enumerate(content.blueprints):
        blueprint, _ = sync(
            ExamBlueprint,
            {"slug": row["slug"]},
            {
                "title": row["title"],
                "description": row.get("description", ""),
                "time_limit_minutes": row["time_limit_minutes"],
                "pass_mark": float(row.get("pass_mark", 0.8)),
                "retake_wait_hours": row["retake_wait_hours"],
                "max_sittings": row["max_sittings"],
                "owner": None,
                "position": position,
                "is_active": True,
            },
            report,
        )
        set_m2m(
            blueprint.banks, [banks[slug] for slug in row["banks"]], report, "ExamBlueprint.banks"
        )
        for area_position, area in enumerate(row["areas"]):
            sync(
                BlueprintArea,
                {"blueprint": blueprint, "position": area_position},
                {"title": area["title"], "rules": ", ".join(area["rules"]), "count": area["count"]},
                report,
            )
        stale = BlueprintArea.objects.filter(blueprint=blueprint, position__gte=len(row["areas"]))
        removed = stale.count()
        if removed:
            stale.delete()
            report.changes[("BlueprintArea", "removed")] += removed


def _load_rules(content: Content, report: LoadReport) -> None:
    """Current rules are keyed by number; older and translated editions by number, language,
    edition and kind. Editions and aliases of a loaded rule that the files no longer list are
    removed, so renaming an edition updates it rather than leaving a stale copy behind."""
    by_number: dict[str, Rule] = {}
    kept_editions: set[int] = set()
    kept_aliases: set[int] = set()
    ordered = sorted(content.rules, key=lambda row: bool(row.get("canonical")))
    for row in ordered:
        canonical = by_number.get(row["canonical"]) if row.get("canonical") else None
        values = {
            "title": row.get("title", ""),
            "text": row["text"],
            "edition_date": row["edition_date"],
            "source": row.get("source", ""),
            "note": row.get("note", ""),
        }
        if canonical is None:
            lookup = {"number": row["number"], "kind": row["kind"], "canonical": None}
            values |= {"language": row["language"], "edition_name": row["edition_name"]}
        else:
            lookup = {
                "number": row["number"],
                "language": row["language"],
                "edition_name": row["edition_name"],
                "kind": row["kind"],
            }
            values["canonical"] = canonical
        rule, _ = sync(Rule, lookup, values, report)
        if canonical is None:
            by_number[rule.number] = rule
        else:
            kept_editions.add(rule.pk)
        for alias in row.get("aliases", []):
            alias_row, _ = sync(
                RuleAlias,
                {"rule": rule, "number": alias["number"]},
                {"note": alias.get("note", "")},
                report,
            )
            kept_aliases.add(alias_row.pk)
    loaded = list(by_number.values())
    stale_editions = Rule.objects.filter(canonical__in=loaded).exclude(pk__in=kept_editions)
    stale_aliases = RuleAlias.objects.filter(rule__in=loaded).exclude(pk__in=kept_aliases)
    for stale, model in ((stale_editions, Rule), (stale_aliases, RuleAlias)):
        removed = stale.count()
        if removed:
            stale.delete()
            report.changes[(model.__name__, "removed")] += removed


def _load_cards(content: Content, report: LoadReport) -> None:
    for definition in content.cards:
        name = definition["name"]
        sync(
            Card,
            {"name": name, "owner": None},  # the site's card, never an instructor's
            {
                "definition": definition,
                "localized_names": content.localized_names.get(name, {}),
            },
            report,
        )


def _load_banks(content: Content, report: LoadReport) -> list[Bank]:
    banks = []
    for row in content.banks:
        bank, _ = sync(
            Bank,
            {"slug": row["slug"]},
            {
                "title": row["title"],
                "description": row.get("description", ""),
                "visibility": row.get("visibility", Bank.Visibility.PUBLIC),
                "owner": None,
            },
            report,
        )
        banks.append(bank)
    return banks


def _load_scenario(
    scenario_file: ScenarioFile, banks: list[Bank], catalog, report: LoadReport
) -> None:
    spec = scenario_file.spec
    since = (
        Scenario.objects.filter(slug=scenario_file.slug)
        .values_list("current_version_id", flat=True)
        .first()
    )
    scenario, _ = sync(  # changed content starts a new version (Scenario.save)
        Scenario,
        {"slug": scenario_file.slug},
        {
            "title": spec["title"],
            "source": spec["source"],
            "spec": spec,
            "stored_ruling": scenario_file.stored_ruling,
            "stored_expect": scenario_file.stored_expect,
        },
        report,
    )
    check = checks.record_engine_check(scenario, catalog, extra_rules=scenario_file.cites)
    report.statuses[check.status] += 1
    if check.status in (Scenario.EngineStatus.DISAGREES, Scenario.EngineStatus.INVALID):
        report.flagged.append((scenario.slug, check.status, check.report))

    generated = []
    if casting_timing(spec, catalog):  # kept out of practice and exams, said in the report
        report.out_of_turn.append(scenario.slug)
    elif check.status != Scenario.EngineStatus.INVALID:
        try:
            generated = questions_for(spec, catalog)
        except ScenarioError as error:
            report.flagged.append((scenario.slug, "questions", str(error)))
    if not generated and scenario.slug not in report.out_of_turn:
        report.without_questions.append(scenario.slug)
    asked = {item.key: (item.kind, item.prompt, item.claims) for item in generated}
    for bank in banks:
        scenario.start_version_if_questions_change(bank, asked, since)
        since = scenario.current_version_id
        keys = []
        for position, item in enumerate(generated):
            question, _ = sync(
                Question,
                {"bank": bank, "scenario": scenario, "key": item.key},
                {
                    "kind": item.kind,
                    "prompt": item.prompt,
                    "claims": item.claims,
                    "position": position,
                    "is_active": True,
                },
                report,
            )
            prior = adaptive.prior_difficulty(item.kind, item.claims, spec)
            if not question.answer_count and question.difficulty != prior:
                question.difficulty = prior  # until learners answer it (adaptive.py)
                question.save(update_fields=["difficulty"])
            # The scenario's citations join a question only where they are about the rules
            # that decide its claims (a mill question never cites the Search rule its
            # scenario also names).
            cites = {n for n in scenario_file.cites if relevant(n, item.cited_rules)}
            resolved = Rule.objects.resolve_numbers(item.cited_rules | cites)
            rules = list({rule.pk: rule for rule in resolved.values()}.values())
            set_m2m(question.rules, rules, report, "Question.rules")
            keys.append(item.key)
        stale = Question.objects.filter(bank=bank, scenario=scenario, is_active=True).exclude(
            key__in=keys
        )
        for question in stale:
            question.is_active = False
            question.save(update_fields=["is_active"])
            report.note(Question, "deactivated")

"""Families' instances stored as scenarios and questions in the generated bank, in bulk.

Idempotent: rows are found by their natural keys (family: slug; scenario: slug, which hashes the
instance's spec; question: bank + scenario + key) and written only when something differs, so a
second run with the same seed changes nothing. Questions of the bank no longer generated (another
seed, a smaller amount) are deactivated, not deleted: answers point at them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.db import transaction

from quizzes import levels
from quizzes.loading.read import CONTENT_DIR, ContentError, _display, _read_json
from quizzes.loading.write import LoadReport, generated_bank, sync
from quizzes.models import Family, Question, Scenario
from quizzes.practice import adaptive, question_topics
from quizzes.rulings.families import FamilyError, read_family
from quizzes.rulings.instances import Expansion, expand
from rules.cards import catalog_for
from rules.models import Rule


@dataclass
class GenerateReport:
    load: LoadReport = field(default_factory=LoadReport)
    expansions: list[Expansion] = field(default_factory=list)

    @property
    def instances(self) -> int:
        return sum(len(expansion.instances) for expansion in self.expansions)

    @property
    def questions(self) -> int:
        return sum(len(i.questions) for e in self.expansions for i in e.instances)


def read_families(content_dir: Path = CONTENT_DIR, catalog=None) -> list:
    """Every family file of `content_dir/families`, validated (ContentError names the first bad
    one: file, path, why)."""
    catalog = catalog if catalog is not None else catalog_for(None)
    numbers = [rule["number"] for rule in _read_json(content_dir / "rules.json")]
    families = []
    for path in sorted((content_dir / "families").glob("*.json")):
        try:
            families.append(
                read_family(_read_json(path), _display(path), path.stem, catalog, numbers)
            )
        except FamilyError as error:
            raise ContentError(error.file, error.path, error.why) from error
    return families


def generate(
    content_dir: Path = CONTENT_DIR,
    seed: int | None = None,
    per_family: int | None = None,
    progress: Callable[[int, int, str], None] | None = None,
) -> GenerateReport:
    """Expand every family (`per_family` instances each, default the setting) and store them."""
    seed = settings.TUTOR_FAMILY_SEED if seed is None else seed
    per_family = settings.TUTOR_FAMILY_INSTANCES if per_family is None else per_family
    catalog = catalog_for(None)
    report = GenerateReport()
    families = read_families(content_dir, catalog)
    for done, family in enumerate(families, start=1):
        try:
            report.expansions.append(expand(family, catalog, seed, per_family))
        except FamilyError as error:
            raise ContentError(error.file, error.path, error.why) from error
        if progress:
            progress(done, len(families), family.id)
    if report.expansions:
        with transaction.atomic():
            _store(report)
    return report


def _store(report: GenerateReport) -> None:
    load = report.load
    bank = generated_bank(load)
    numbers = {
        number
        for expansion in report.expansions
        for number in expansion.family.rules
        + tuple(n for i in expansion.instances for q in i.questions for n in q.cited_rules)
    }
    rules = Rule.objects.resolve_numbers(numbers)
    families = {}
    for expansion in report.expansions:
        family = expansion.family
        row, _ = sync(
            Family,
            {"slug": family.id},
            {
                "title": family.title,
                "source": family.source,
                "level": family.level,
                "definition": family.definition,
            },
            load,
        )
        wanted = {rules[n].pk for n in family.rules if n in rules}
        if set(row.rules.values_list("pk", flat=True)) != wanted:
            row.rules.set(wanted)
            load.changes[("Family.rules", "updated")] += 1
        families[family.id] = row
    instances = [i for e in report.expansions for i in e.instances]
    scenarios = _store_scenarios(instances, families, load)
    _store_questions(bank, instances, scenarios, rules, load)


def _store_scenarios(instances, families, load: LoadReport) -> dict[str, Scenario]:
    existing = Scenario.objects.in_bulk([i.slug for i in instances], field_name="slug")
    new, changed = [], []
    for instance in instances:
        spec = instance.spec
        values = {
            "title": spec["title"][:200],
            "source": spec["source"][:300],
            "spec": spec,
            "family": families[instance.family.id],
            "engine_status": Scenario.EngineStatus.AGREES,
            "engine_report": (
                f"Generated from the family {instance.family.id}: every expect value is the "
                f"engine's own ({len(spec['expect'])} claims)."
            ),
        }
        row = existing.get(instance.slug)
        if row is None:
            new.append(Scenario(slug=instance.slug, **values))
        elif any(getattr(row, name) != value for name, value in values.items()):
            for name, value in values.items():
                setattr(row, name, value)
            changed.append(row)
    Scenario.objects.bulk_create(new, batch_size=500)
    Scenario.objects.bulk_update(changed, [*values], batch_size=500) if changed else None
    load.changes[("Scenario", "created")] += len(new)
    load.changes[("Scenario", "updated")] += len(changed)
    return Scenario.objects.in_bulk([i.slug for i in instances], field_name="slug")


def _store_questions(bank, instances, scenarios, rules, load: LoadReport) -> None:
    existing = {(q.scenario_id, q.key): q for q in Question.objects.filter(bank=bank).order_by()}
    new, changed, wanted_rules = [], [], {}
    for instance in instances:
        scenario = scenarios[instance.slug]
        for position, item in enumerate(instance.questions):
            values = {
                "kind": item.kind,
                "prompt": item.prompt,
                "claims": item.claims,
                "position": position,
                "is_active": True,
            }
            row = existing.pop((scenario.pk, item.key), None)
            prior = adaptive.prior_difficulty(item.kind, item.claims, instance.spec)
            if row is None:
                row = Question(
                    bank=bank, scenario=scenario, key=item.key, difficulty=prior, **values
                )
                new.append(row)
            else:
                differs = [name for name, value in values.items() if getattr(row, name) != value]
                if not row.answer_count and row.difficulty != prior:
                    differs.append("difficulty")
                    row.difficulty = prior  # until learners answer it (adaptive.py)
                if differs:
                    for name, value in values.items():
                        setattr(row, name, value)
                    changed.append(row)
            wanted_rules[(scenario.pk, item.key)] = {
                rules[n].pk for n in item.cited_rules if n in rules
            }
    Question.objects.bulk_create(new, batch_size=500)
    fields = ["kind", "prompt", "claims", "position", "is_active", "difficulty"]
    if changed:
        Question.objects.bulk_update(changed, fields, batch_size=500)
    stale = [q.pk for q in existing.values() if q.is_active]
    Question.objects.filter(pk__in=stale).update(is_active=False)
    load.changes[("Question", "created")] += len(new)
    load.changes[("Question", "updated")] += len(changed)
    load.changes[("Question", "deactivated")] += len(stale)
    _store_question_rules(bank, wanted_rules, load)
    # the family's level is each question's floor (quizzes/levels.py), with its rules now stored
    levels.recompute(Question.objects.filter(pk__in=[q.pk for q in [*new, *changed]]))


def _store_question_rules(bank, wanted_rules, load: LoadReport) -> None:
    """Question.rules through rows, added and removed in bulk."""
    through = Question.rules.through
    ids = {
        (scenario_id, key): pk
        for pk, scenario_id, key in Question.objects.filter(bank=bank).values_list(
            "pk", "scenario_id", "key"
        )
    }
    wanted = {(ids[k], rule) for k, rule_ids in wanted_rules.items() for rule in rule_ids}
    have = set(through.objects.filter(question__bank=bank).values_list("question_id", "rule_id"))
    missing = wanted - have
    through.objects.bulk_create(
        [through(question_id=q, rule_id=r) for q, r in sorted(missing)], batch_size=1000
    )
    extra = {(q, r) for q, r in have - wanted if q in {ids[k] for k in wanted_rules}}
    for question_id, rule_id in extra:
        through.objects.filter(question_id=question_id, rule_id=rule_id).delete()
    if missing or extra:
        load.changes[("Question.rules", "updated")] += len(missing) + len(extra)
        question_topics.store({q for q, _r in missing | extra})

"""Saving an instructor's scenarios (Zulip-style: `check_*` validates and authorises, `do_*`
writes): the engine checks the document, the questions follow its claims, a changed scenario
starts a new version."""

from __future__ import annotations

from django.db import transaction
from django.utils.text import slugify

from config.roles import INSTRUCTORS_GROUP, is_instructor  # noqa: F401 (re-exported)
from quizzes import levels
from quizzes.instructors.banks import (
    RESERVED_SLUGS,
    banks_of,
    catalog_owner,
    free_slug,
    scenarios_in,
)
from quizzes.models import Bank, Question, Scenario
from quizzes.practice import adaptive, topics
from quizzes.rulings import (
    Catalog,
    audit,
    checks,
    documents,
    store_variants,
)
from quizzes.rulings.checks import EngineCheck
from quizzes.rulings.documents import (
    AuthoringError,
    ScenarioDocument,
    generate_questions,
    parse_text,
    read_document,
)
from rules.cards import catalog_for
from rules.models import Rule

# Saving a scenario.


def check_save_scenario(
    user, bank: Bank, text: str, scenario: Scenario | None = None, catalog: Catalog | None = None
) -> ScenarioDocument:
    """The validated document, if `user` owns or co-owns `bank` and `scenario` (when editing) is
    in it; read with the cards of the scenario's author (`catalog_owner`)."""
    if not banks_of(user).filter(pk=bank.pk).exists():
        raise AuthoringError("", "You can only write in your own banks.")
    if scenario is not None and scenario.bank_id != bank.pk:
        raise AuthoringError("", "This scenario belongs to another bank.")
    catalog = catalog if catalog is not None else catalog_for(catalog_owner(user, scenario))
    document = read_document(parse_text(text), catalog)
    scenario_id = document.spec.get("id")
    same_id = scenarios_in(bank).filter(spec__id=scenario_id)
    if scenario is not None:
        same_id = same_id.exclude(pk=scenario.pk)
    if scenario_id is not None and same_id.exists():
        raise AuthoringError(
            "id",
            f"{scenario_id!r} is the id of another scenario in this bank: edit that one, or "
            "give this one an id of its own",
        )
    return document


def do_save_scenario(
    user,
    bank: Bank,
    document: ScenarioDocument,
    scenario: Scenario | None = None,
    catalog: Catalog | None = None,
    rules: dict[str, Rule] | None = None,
    checked: tuple[EngineCheck, list[tuple]] | None = None,
) -> Scenario:
    """Store the document, check it with the engine, and (re)generate its questions in `bank`.

    A change to the document or to what its questions ask starts a new version of the scenario
    (`Scenario.save`, `start_version`): answers already given keep the version they answered.
    `checked` (an import's plan): the engine's check and the questions, already computed, with
    `rules` resolving every number they cite; no engine runs then."""
    if checked is not None and rules is not None:
        return _save_checked(user, bank, document, scenario, checked, rules)
    catalog = catalog if catalog is not None else catalog_for(catalog_owner(user, scenario))
    spec = document.spec
    with transaction.atomic():
        if scenario is None:
            base = spec.get("id") if isinstance(spec.get("id"), str) else spec["title"]
            scenario = Scenario(bank=bank, author=user, slug=free_slug(Scenario, base, 120))
        scenario.changed_by = user  # on the version this save starts (its history)
        since = scenario.current_version_id
        scenario.title = spec["title"][:200]
        scenario.source = spec["source"][:300]
        scenario.spec = spec
        scenario.stored_ruling = document.stored_ruling
        scenario.stored_expect = document.stored_expect
        scenario.save()
        checks.record_engine_check(scenario, catalog)
        if document.questions is None:
            generated = []
            if scenario.engine_status != Scenario.EngineStatus.INVALID:
                generated = generate_questions(spec, catalog)
            items = [(q.key, q.kind, q.prompt, q.claims, q.cited_rules) for q in generated]
        else:
            items = [
                (
                    q["key"],
                    q["kind"],
                    q["prompt"],
                    q["claims"],
                    documents.cited(spec, q["claims"], catalog),
                )
                for q in document.questions
            ]
        asked = {key: (kind, prompt, claims) for key, kind, prompt, claims, _rules in items}
        scenario.start_version_if_questions_change(bank, asked, since)
        _sync_questions(scenario, bank, items, rules)
        levels.recompute(Question.objects.filter(scenario=scenario, bank=bank), catalog)
        _store_variants(Question.objects.filter(scenario=scenario, bank=bank), catalog)
    return scenario


def _save_checked(
    user,
    bank: Bank,
    document: ScenarioDocument,
    scenario: Scenario,
    checked: tuple[EngineCheck, list[tuple]],
    rules: dict[str, Rule],
) -> Scenario:
    check, items = checked
    spec = document.spec
    with transaction.atomic():
        scenario.changed_by = user
        since = scenario.current_version_id
        scenario.title, scenario.source = spec["title"][:200], spec["source"][:300]
        scenario.spec = spec
        scenario.stored_ruling = document.stored_ruling
        scenario.stored_expect = document.stored_expect
        scenario.engine_status, scenario.engine_report = check.status, check.report
        scenario.save()
        exercised = _rule_ids(check.cited_rules, rules)
        if set(scenario.rules_exercised.values_list("pk", flat=True)) != exercised:
            scenario.rules_exercised.set(exercised)
        asked = {key: (kind, prompt, claims) for key, kind, prompt, claims, _rules in items}
        scenario.start_version_if_questions_change(bank, asked, since)
        _sync_questions(scenario, bank, items, rules)
        catalog = catalog_for(user.pk)
        levels.recompute(Question.objects.filter(scenario=scenario, bank=bank), catalog)
        _store_variants(Question.objects.filter(scenario=scenario, bank=bank), catalog)
    return scenario


def do_create_scenarios(
    user,
    bank: Bank,
    checked: list[tuple[ScenarioDocument, EngineCheck, list[tuple]]],
    rules: dict[str, Rule],
) -> list[Scenario]:
    """Create many new scenarios in `bank` at once, each with version 1 and its questions, from
    documents the engine has already checked (`interchange.check_import`): a few bulk queries
    for any number of them. `rules` maps every rule number cited to its rule."""
    taken = set(
        Scenario.objects.filter(slug__in=[_slug_base(d) for d, *_rest in checked]).values_list(
            "slug", flat=True
        )
    )
    scenarios = []
    for document, check, _items in checked:
        base = _slug_base(document)
        slug = base if base not in taken and base not in RESERVED_SLUGS else None
        slug = slug or free_slug(Scenario, base, 120)
        taken.add(slug)
        spec = document.spec
        scenario = Scenario(
            bank=bank,
            author=user,
            slug=slug,
            title=spec["title"][:200],
            source=spec["source"][:300],
            spec=spec,
            stored_ruling=document.stored_ruling,
            stored_expect=document.stored_expect,
            engine_status=check.status,
            engine_report=check.report,
        )
        scenario.changed_by = user  # on its version 1
        scenarios.append(scenario)
    Scenario.objects.bulk_create(scenarios)  # with version 1 of each
    exercised = Scenario.rules_exercised.through
    exercised.objects.bulk_create(
        exercised(scenario_id=scenario.pk, rule_id=rule_id)
        for scenario, (_document, check, _items) in zip(scenarios, checked, strict=True)
        for rule_id in _rule_ids(check.cited_rules, rules)
    )
    questions, cited = [], []
    for scenario, (_document, _check, items) in zip(scenarios, checked, strict=True):
        for position, (key, kind, prompt, claims, numbers) in enumerate(items):
            difficulty = adaptive.prior_difficulty(kind, claims, scenario.spec)
            questions.append(
                Question(
                    bank=bank,
                    scenario=scenario,
                    key=key,
                    kind=kind,
                    prompt=prompt,
                    claims=claims,
                    position=position,
                    difficulty=difficulty,
                    # the topics of the rules linked below (question_topics: no read after)
                    topics=topics.mask_of(number for number in numbers if number in rules),
                )
            )
            cited.append(numbers)
    Question.objects.bulk_create(questions)
    Question.rules.through.objects.bulk_create(
        Question.rules.through(question_id=question.pk, rule_id=rule_id)
        for question, numbers in zip(questions, cited, strict=True)
        for rule_id in _rule_ids(numbers, rules)
    )
    created = Question.objects.filter(pk__in=[question.pk for question in questions])
    catalog = catalog_for(user.pk)
    levels.recompute(created, catalog)  # every board read with the author's cards
    _store_variants(created, catalog)
    return scenarios


def _store_variants(questions, catalog) -> None:
    """Every variant learners may be served, made and ruled now, as the content is written,
    each audited: what fails is flagged, and the bank's lint shows it in words."""
    active = questions.filter(is_active=True).select_related("scenario").prefetch_related("rules")
    store_variants(active, catalog, check=audit.checker())


def _slug_base(document: ScenarioDocument) -> str:
    spec = document.spec
    base = spec.get("id") if isinstance(spec.get("id"), str) else spec["title"]
    return (slugify(base) or "untitled")[:116]


def _rule_ids(numbers, rules: dict[str, Rule]) -> set[int]:
    return {rules[number].pk for number in numbers if number in rules}


def _sync_questions(
    scenario: Scenario, bank: Bank, items: list[tuple], rules: dict[str, Rule] | None = None
) -> None:
    """Create or update questions by key; ones no longer produced are deactivated (answers
    point at them), never deleted. `rules`: the cited numbers already resolved."""
    rows = Question.objects.filter(bank=bank, scenario=scenario).prefetch_related("rules")
    existing = {q.key: q for q in rows}
    loaded = {q.pk for q in existing.values()}  # their rules prefetched
    for position, (key, kind, prompt, claims, cited) in enumerate(items):
        question = existing.get(key) or Question(bank=bank, scenario=scenario, key=key)
        values = {"kind": kind, "prompt": prompt, "claims": claims, "position": position}
        if not question.answer_count:  # a prior until learners answer it (adaptive.py)
            values["difficulty"] = adaptive.prior_difficulty(kind, claims, scenario.spec)
        if (
            question.pk is None
            or not question.is_active
            or any(getattr(question, name) != value for name, value in values.items())
        ):
            for name, value in values.items():
                setattr(question, name, value)
            question.is_active = True
            question.save()
        resolved = rules if rules is not None else Rule.objects.resolve_numbers(cited)
        wanted = {resolved[n].pk: resolved[n] for n in cited if n in resolved}
        have = {rule.pk for rule in question.rules.all()} if question.pk in loaded else set()
        if have != set(wanted):
            question.rules.set(wanted.values())
    kept = [item[0] for item in items]
    Question.objects.filter(bank=bank, scenario=scenario, is_active=True).exclude(
        key__in=kept
    ).update(is_active=False)

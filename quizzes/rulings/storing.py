"""Every variant a learner may be served, made and ruled when content is written.

`store_variants(questions)` makes, for each question on its scenario's current version, the
variants of seeds 0 (as written) to `variant_count() - 1` (`variants.build`: renamed players,
swapped cards, another library order, each ruled like the original, else the scenario as
written), freezes the engine's answers on each (`frozen.freeze`) and stores them as `Variant`
rows. A page then serves one of them, and grades against it, with no engine run
(`served_ruling`, `answered_ruling`).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from quizzes.models import Question, ScenarioVersion, Variant
from quizzes.rulings.frozen import Unstorable, freeze
from quizzes.rulings.ruling import Ruling, Shown, shown_order
from quizzes.rulings.seeds import made_with, variant_count
from rules.cards import catalog_for
from rules.engine import ScenarioError
from rules.numbers import numbers_in

log = logging.getLogger("tutor.content")


# What the audit finds wrong with a variant as it is made (`audit.checker()`): stored with it.
Check = Callable[[Question, int, Ruling], list[str]]


def variants_of(
    question: Question, version: ScenarioVersion, catalog=None, check: Check | None = None
) -> list[Variant]:
    """The question's variants on `version`, made and ruled (unsaved rows), each with what
    `check` finds wrong with it."""
    kind, _prompt, claims = version.question_as_given(question)
    catalog = catalog if catalog is not None else catalog_for(question.scenario.author_id)
    made: list[Variant] = []
    for seed in range(variant_count()):
        try:
            ruling = Ruling.build(kind, version.spec, claims, seed, catalog=catalog, shuffle=False)
            ruled = freeze(ruling, kind)
        except (ScenarioError, Unstorable) as error:
            log.warning("question %s seed %s: variant not made: %s", question.pk, seed, error)
            continue
        numbers = sorted(
            {n for result in ruled["results"].values() for n in numbers_in(result["rule"])}
        )
        made.append(
            Variant(
                question=question,
                scenario_version=version,
                seed=seed,  # the seed asked for (a variant that fell back is shown as written)
                kind=kind,
                shown=ruling.shown.to_json(),
                ruled=ruled,
                rule_numbers=numbers,
                made_with=made_with(),
                problems=check(question, seed, ruling) if check is not None else [],
            )
        )
    return made


def store_variants(
    questions: Iterable[Question], catalog=None, check: Check | None = None
) -> Stored:
    """Store the variants of each question on its scenario's current version: made unless
    stored, made again when stored with another engine, wording or translations (`made_with`),
    in place, so what was served points at them still; each with what `check` finds wrong
    with it. Returns how many were made and what was flagged."""
    wanted = [(q, v) for q in questions if (v := q.scenario.current_version_id) is not None]
    version_ids = {version_id for _question, version_id in wanted}
    stored: dict[tuple[int, int, int], tuple[int | None, str | None]] = {
        (question_id, version_id, seed): (pk, made)
        for pk, question_id, version_id, seed, made in Variant.objects.filter(
            question__in=[q.pk for q, _version_id in wanted], scenario_version_id__in=version_ids
        ).values_list("pk", "question_id", "scenario_version_id", "seed", "made_with")
    }
    versions = {
        version.pk: version for version in ScenarioVersion.objects.filter(pk__in=version_ids)
    }
    current = made_with()
    new: list[Variant] = []
    remade: list[Variant] = []
    for question, version_id in wanted:
        keys = [(question.pk, version_id, seed) for seed in range(variant_count())]
        if all(stored.get(key, (None, None))[1] == current for key in keys):
            continue
        for variant in variants_of(question, versions[version_id], catalog, check):
            pk, made = stored.get((question.pk, version_id, variant.seed), (None, None))
            if pk is None:
                new.append(variant)
            elif made != current:
                variant.pk = pk
                remade.append(variant)
    Variant.objects.bulk_create(new, batch_size=200, ignore_conflicts=True)
    fields = ["kind", "shown", "ruled", "rule_numbers", "made_with", "problems"]
    Variant.objects.bulk_update(remade, fields, batch_size=200)
    made_now = new + remade
    flagged = [(v.question_id, v.seed, problem) for v in made_now for problem in v.problems]
    return Stored(len(made_now), flagged)


@dataclass(frozen=True)
class Stored:
    made: int  # variants made (new, or made again with today's engine and wording)
    flagged: list[tuple[int, int, str]]  # (question, seed, what the check found) of those made


def new_seed() -> int:
    """The seed of a variant to serve, at random among those stored."""
    return random.randrange(variant_count())


def stored_variant(question: Question, version_id: int | None, seed: int) -> Variant | None:
    """The stored variant `seed` of the question on a version of its scenario (None: not
    stored: content written before variants were, or a seed of no variant)."""
    return Variant.objects.of(question.pk, version_id).filter(seed=seed).first()


def pick_variant(question: Question) -> Variant:
    """A stored variant of the question as given now, at random. Content is written with its
    variants (`store_variants`); a question written otherwise (the admin, a script) gets them
    now, once, with a warning in the log."""
    version_id = question.scenario.current_version_id
    variant = stored_variant(question, version_id, new_seed())
    if variant is None:
        log.warning("question %s had no stored variants: made on its first serving", question.pk)
        store_variants([question])
        variant = Variant.objects.of(question.pk, version_id).order_by("seed").first()
    if variant is None:
        raise LookupError(f"question {question.pk}: the engine makes no variant of it")
    return variant


def served_ruling(question: Question, variant: Variant, learner_id: int | None) -> Ruling:
    """The stored variant as `learner_id` is shown it: its statements in their order for this
    learner and variant. No engine run."""
    shown = Shown.from_json(variant.shown)
    order = shown_order(len(shown.claims), variant.kind, question.pk, learner_id, shown.seed)
    shown = Shown(
        shown.spec, [shown.claims[i] for i in order], shown.players, shown.cards, shown.seed
    )
    return Ruling.stored(variant.kind, shown, variant.ruled)


def answered_ruling(question: Question, variant: Variant, shown: dict[str, Any]) -> Ruling:
    """The stored variant exactly as it was shown (a presentation's `shown`). No engine run."""
    return Ruling.stored(variant.kind, Shown.from_json(shown), variant.ruled)


__all__ = [
    "answered_ruling",
    "new_seed",
    "stored_variant",
    "pick_variant",
    "served_ruling",
    "store_variants",
    "variant_count",
    "variants_of",
]

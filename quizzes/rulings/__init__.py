"""The one door from quizzes to the rulings engine.

`ruling_for(question, seed, learner)` makes a `Ruling` once per request: the question's variant,
parsed and resolved once, its board and the wording of its claims; `grade(ruling, answer)` checks
an answer with the question's kind; `casting_timing(spec)` lists the spells a scenario casts when
the rules don't allow (the lint's warnings). Only this package (and content validation) imports
`rules.engine`. `ruling_report(spec, catalog)`: every claim with its value, rule and reason, as
`manage.py ruling` prints it and the rulings API answers (quizzes/api/).
"""

from __future__ import annotations

from typing import Any

from django.utils import translation

from quizzes.rulings.effects import static_effects
from quizzes.rulings.generate import generated_prompt
from quizzes.rulings.kinds import KINDS, AnswerError, QuestionKind, answer_key, kind_of
from quizzes.rulings.ruling import Ruling, Shown, asked_claim
from quizzes.rulings.sessions import session_for
from quizzes.rulings.storing import (
    answered_ruling,
    new_seed,
    pick_variant,
    served_ruling,
    store_variants,
    stored_variant,
    variant_count,
)
from quizzes.rulings.values import same
from quizzes.rulings.verdict import Grade, Part
from rules.cards import catalog_for
from rules.engine import Catalog, ScenarioError, TimingFinding, ruling_report, timing_findings


def catalog_of(scenario, generation: tuple | None = None) -> Catalog:
    """The cards `scenario` may name: the one catalog (rules/cards.py) of its author, so a card
    an instructor made is found wherever their scenario is shown, exported or checked.
    `generation`: the card table's, when the caller has just read it."""
    return catalog_for(scenario.author_id, generation)


def ruling_for(
    question, seed: int, learner_id: int | None = None, catalog=None, version=None
) -> Ruling:
    """The question as `learner_id` sees it with variant `seed` (statements in their order).

    `version` (a `ScenarioVersion`): the question as it was in that version of its scenario
    (an exam item, an old answer); default: as it is now. The stored variant when there is
    one (no engine run); else made by the engine (answers older than stored variants).
    """
    version_id = version.pk if version is not None else question.scenario.current_version_id
    variant = stored_variant(question, version_id, seed)
    if variant is not None:
        return served_ruling(question, variant, learner_id)
    spec, kind, claims = question.scenario.spec, question.kind, question.claims
    if version is not None:
        spec = version.spec
        kind, _, claims = version.question_as_given(question)
    return Ruling.build(
        kind,
        spec,
        claims,
        seed,
        order_key=(question.pk, learner_id),
        catalog=catalog if catalog is not None else catalog_of(question.scenario),
    )


def ruling_shown(question, shown: dict[str, Any], catalog=None, version=None) -> Ruling:
    """The question exactly as it was shown (a stored `Shown`), of the kind it had in `version`."""
    kind = version.question_as_given(question).kind if version is not None else question.kind
    catalog = catalog if catalog is not None else catalog_of(question.scenario)
    return Ruling.from_shown(kind, Shown.from_json(shown), catalog)


def ruling_answered(response, catalog=None) -> Ruling:
    """The question exactly as the learner saw it when answering, in the version answered: the
    variant shown (practice), or rebuilt from its seed (an exam answer has no presentation)."""
    question, version = response.question, response.scenario_version
    if response.presentation_id is not None:
        presentation = response.presentation
        if presentation.variant_id is not None:
            return answered_ruling(question, presentation.variant, presentation.shown)
        return ruling_shown(question, presentation.shown, catalog, version=version)
    return ruling_for(question, response.variant_seed, response.user_id, catalog, version=version)


def ruling_of_spec(spec: dict[str, Any], catalog=None, kind: str = "value") -> Ruling:
    """A scenario as written, with no question yet (the authoring preview, exports, checks)."""
    return Ruling.from_shown(kind, Shown(spec, [], {}, {}, 0), catalog)


def prompt(question, ruling: Ruling, version=None) -> str:
    """The question's prompt as shown, in the reader's language.

    Prompts are stored in English, in the original names, each card by name only. A generated
    prompt (the one `generate.build_questions` words for this scenario) is worded again from the
    question as shown: in the reader's language, its card by name and place on this board; an
    authored prompt stays as its author wrote it, in the variant's names. `version`: the
    scenario version it was given on, whose prompt it shows (default: the question's own).
    """
    written = version.question_as_given(question).prompt if version else question.prompt
    stored = ruling.rename(written)
    with translation.override("en"):
        generated = generated_prompt(question.kind, ruling, ruling.claims)
    if generated != stored:
        return stored
    return generated_prompt(question.kind, ruling, ruling.claims, placed=True)


def casting_timing(
    spec: dict[str, Any], catalog: Catalog | None = None
) -> tuple[TimingFinding, ...]:
    """Each spell `spec` casts at a time the rules don't allow (a sorcery in another player's
    turn, CR 307.1 and its kin): warnings, the ruling stands. Nothing for a document the engine
    rejects: its error is the problem to fix first."""
    try:
        return timing_findings(session_for(spec, catalog).scenario)  # no board: a lint
    except ScenarioError:
        return ()


def grade(ruling: Ruling, answer: dict[str, Any]) -> Grade:
    """The verdict on an answer, computed by the engine on what the learner saw."""
    if not isinstance(answer, dict):
        raise AnswerError("An answer is an object.")
    return Grade.of(kind_of(ruling.kind).grade(ruling, answer))


__all__ = [
    "answer_key",
    "answered_ruling",
    "pick_variant",
    "served_ruling",
    "store_variants",
    "stored_variant",
    "variant_count",
    "KINDS",
    "AnswerError",
    "Catalog",
    "Part",
    "QuestionKind",
    "Ruling",
    "ScenarioError",
    "Shown",
    "TimingFinding",
    "Grade",
    "asked_claim",
    "casting_timing",
    "ruling_report",
    "catalog_of",
    "static_effects",
    "grade",
    "kind_of",
    "new_seed",
    "prompt",
    "ruling_answered",
    "ruling_for",
    "ruling_of_spec",
    "ruling_shown",
    "same",
]

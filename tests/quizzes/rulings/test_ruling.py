"""A Ruling: the question as shown, its line of play in words, statements in a fixed shuffle."""

from __future__ import annotations

import json

from quizzes.loading import CONTENT_DIR
from quizzes.models import Question
from quizzes.rulings import Ruling, grade
from quizzes.rulings.ruling import shown_order
from tests.quizzes.conftest import land_tutor_spec

STATEMENTS = [
    {"claim": "revealed", "searcher": "Alice", "proposed": True},
    {"claim": "searches", "player": "Nadia", "proposed": "may"},
    {"claim": "shuffles", "player": "Alice", "proposed": "yes"},
    {"claim": "finds", "card": "s1", "proposed": "cannot"},
]


def test_statement_order_is_fixed_per_question_variant_and_learner():
    first = shown_order(4, "yes_no", 7, 1, 99)
    assert first == shown_order(4, "yes_no", 7, 1, 99)
    orders = {tuple(shown_order(4, "yes_no", 7, learner, 99)) for learner in range(30)}
    assert len(orders) > 5
    assert shown_order(4, "cards", 7, 1, 99) == [0, 1, 2, 3]  # only statements move


def test_the_shown_order_is_the_graded_order():
    ruling = Ruling.build("yes_no", land_tutor_spec(), STATEMENTS, 0, order_key=(1, 2))
    truths = {"revealed": True, "searches": False, "shuffles": True, "finds": True}
    answer = {"parts": ["yes" if truths[c["claim"]] else "no" for c in ruling.claims]}
    assert grade(ruling, answer).correct


def test_the_line_of_play_is_written_out():
    claim = {"claim": "zone_after", "card": "f1", "given": {"Alice": {"find": ["f1"]}}}
    ruling = Ruling.build("value", land_tutor_spec(), [claim], 0)
    assert ruling.premises() == ["Alice finds the Forest on top of Alice's library."]


def test_an_order_is_asked_with_a_place_per_player_not_every_permutation():
    spec = land_tutor_spec()
    spec["players"] = ["Alice", "Nadia", "Bram", "Chen", "Dalia", "Emeka", "Farah", "Gus", "Hana"]
    ruling = Ruling.build("value", spec, [{"claim": "decision_order"}], 0)
    from quizzes.rulings import kind_of

    fields = kind_of("value").fields(ruling)
    assert len(fields) == 9 and all(len(field.choices) == 9 for field in fields.values())


def test_a_generated_prompt_names_its_card_by_place_on_the_board_shown():
    """A stored prompt names a card by name only ("Where does Swamp end up?"); with two Swamps
    on the board a learner could not tell which (found walking an exam). The page words it
    from the board as shown, as the answer's own label does."""
    from quizzes import rulings
    from quizzes.rulings.generate import build_questions
    from tests.factories import ScenarioFactory

    spec = land_tutor_spec()
    spec["zones"]["Alice"]["graveyard"] = ["Forest#f2"]
    spec["expect"] = [{"claim": "zone_after", "card": "f1", "given": {"Alice": {"find": ["f1"]}}}]
    generated = next(q for q in build_questions(spec) if q.kind == "value")
    assert generated.prompt.endswith("Where does Forest end up?")  # stored: by name only
    scenario = ScenarioFactory.build(spec=spec)
    question = Question(
        scenario=scenario, kind="value", prompt=generated.prompt, claims=generated.claims
    )
    ruling = Ruling.build("value", spec, generated.claims, 0)
    shown = rulings.prompt(question, ruling)
    assert shown.endswith("Where does the Forest on top of Alice's library end up?"), shown
    authored = Question(
        scenario=scenario, kind="value", prompt="Where to?", claims=generated.claims
    )
    assert rulings.prompt(authored, ruling) == "Where to?"  # an author's words stay theirs


def test_a_wish_is_asked_as_a_choice_from_outside_the_game_not_a_find():
    """Outside the game is not a zone (CR 400.11): a wish searches nothing, so its legal-set
    question asks what may be chosen from outside the game; a library search still asks "find"."""
    spec = json.loads(
        (CONTENT_DIR / "scenarios" / "burning-wish-outside-the-game.json").read_text()
    )
    claim = {"claim": "legal_find_set", "searcher": "Alice"}
    asked = Ruling.build("legal_set", spec, [claim], 0).ask(claim)
    assert "choose from outside the game" in asked and "find" not in asked
    tutor = Ruling.build("legal_set", land_tutor_spec(), [claim], 0).ask(claim)
    assert "legally find" in tutor

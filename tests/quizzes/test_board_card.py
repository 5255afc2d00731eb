"""`{% board_card %}` (quizzes/templatetags/board_card.py) draws each card exactly as the
template partial it replaced did: that partial is kept here as the specification, and both
draw every card of the example boards, for every kind of question, in every language, with
forms unbound and bound, answered or not, and as the authoring preview draws them (no form)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.template import Context, Template
from django.utils import translation

from quizzes.practice.forms import AnswerForm
from quizzes.rulings import Ruling
from quizzes.rulings.generate import build_questions
from tests.quizzes.conftest import land_tutor_spec

EXAMPLES = Path(__file__).resolve().parents[3] / "shared" / "spec" / "examples"
# templates/quizzes/_board.html's card partial before {% board_card %}, word for word (its
# file ends without a newline, as the partial did)
SPEC = Template((Path(__file__).parent / "board_card_spec.html").read_text())
TAG = Template("{% load board_card %}{% board_card card %}")


def cards_of(board):
    for player in board.players:
        for zone in player.zones:
            for card in zone.cards:
                yield zone, card


def contexts(spec):
    """The board's contexts: each question's form unbound, bound (the last choice of each
    field; every other card ticked), answered; and the authoring preview's (no answer form)."""
    for question in build_questions(spec):
        for seed in (0, 7):
            ruling = Ruling.build(question.kind, spec, question.claims, seed)
            unbound = AnswerForm(ruling)
            data = {"cards": [card.ref for _, card in cards_of(ruling.board)][::2]}
            for name, field in unbound.fields.items():
                choices = list(getattr(field, "choices", []))
                data[name] = str(choices[-1][0]) if choices else "1"
            bound = AnswerForm(ruling, data=data)
            bound.is_valid()
            for form, answered in ((unbound, False), (bound, False), (bound, True)):
                yield (
                    ruling.board,
                    {
                        "form": form,
                        "card_fields": form.card_fields,
                        "picks_cards": form.picks_cards,
                        "answered": answered,
                    },
                )
    preview = Ruling.build("value", spec, [], 0)
    yield preview.board, {}  # the scenario form's preview: no answer form, no card fields


def drawn_alike(specs, language) -> tuple[int, int, int]:
    """Every card of the specs' boards drawn both ways, compared; (cards, asked, ticked)."""
    drawn = asked = picked = 0
    with translation.override(language):
        for spec in specs:
            for board, context in contexts(spec):
                for zone, card in cards_of(board):
                    values = {**context, "zone": zone, "card": card}
                    expected = SPEC.render(Context(values))
                    assert TAG.render(Context(values)) == expected, (spec["id"], card.label)
                    drawn += 1
                    asked += 'class="marks"' in expected
                    picked += " checked" in expected
    return drawn, asked, picked


@pytest.mark.skipif(not EXAMPLES.exists(), reason="shared examples not present")
@pytest.mark.parametrize("language", ["en", "de", "it"])
def test_every_card_of_the_examples_is_drawn_as_the_partial_drew_it(language):
    specs = [json.loads(path.read_text()) for path in sorted(EXAMPLES.glob("*.json"))]
    drawn, asked, picked = drawn_alike(specs, language)
    assert drawn > 500 and asked > 50 and picked > 10


@pytest.mark.parametrize("language", ["en", "de"])
def test_land_tutors_board_is_drawn_as_the_partial_drew_it(language):
    drawn, asked, _ = drawn_alike([land_tutor_spec()], language)
    assert drawn > 10 and asked

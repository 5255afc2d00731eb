"""The board drawn from a scenario: zones in order, hidden zones marked, empty zones kept."""

from __future__ import annotations

import json

from quizzes.board import build_board
from quizzes.loading import CONTENT_DIR


def lobotomy_spec() -> dict:
    return json.loads((CONTENT_DIR / "scenarios" / "lobotomy-empty-hand.json").read_text())


def zones_of(board, player: str) -> dict:
    view = next(p for p in board.players if p.name == player)
    return {zone.name: zone for zone in view.zones}


def test_an_empty_zone_the_author_lists_is_shown_empty():
    zones = zones_of(build_board(lobotomy_spec()), "Nadia")
    assert zones["hand"].cards == ()
    assert zones["hand"].hidden


def test_zones_the_author_leaves_out_are_not_drawn():
    zones = zones_of(build_board(lobotomy_spec()), "Nadia")
    assert "exile" not in zones and "battlefield" not in zones


def test_library_cards_keep_their_order_top_first():
    library = zones_of(build_board(lobotomy_spec()), "Nadia")["library"]
    assert [card.position for card in library.cards] == [1, 2]
    assert library.cards[0].label == "lc"

"""The board lists its players in turn order from the active player (`state.apnap_order`); with
three or more players the page says so, since APNAP questions turn on who comes next."""

from __future__ import annotations

from types import SimpleNamespace

from django.template.loader import render_to_string

SENTENCE = "The players are listed in turn order, starting with the active player."


def _board(names: list[str]) -> SimpleNamespace:
    players = [
        SimpleNamespace(name=name, is_active=i == 0, status=(), zones=())
        for i, name in enumerate(names)
    ]
    return SimpleNamespace(players=players, resolving=None, history=())


def test_three_players_are_said_to_be_in_turn_order() -> None:
    page = render_to_string("quizzes/_board.html", {"board": _board(["Olek", "Alice", "Nadia"])})
    assert SENTENCE in page
    assert page.index("Olek") < page.index("Alice") < page.index("Nadia")


def test_two_players_need_no_such_line() -> None:
    page = render_to_string("quizzes/_board.html", {"board": _board(["Nadia", "Olek"])})
    assert SENTENCE not in page

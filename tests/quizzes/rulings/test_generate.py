"""Generated questions ask nothing the board already answers (quizzes/rulings/generate.py)."""

from __future__ import annotations

import pytest

from quizzes.rulings.generate import build_questions

pytestmark = pytest.mark.django_db  # the card catalog is read from the database


def gifts(library: list[str]) -> dict:
    return {
        "id": "gifts",
        "players": ["Alice", "Nadia"],
        "zones": {"Alice": {"library": library}},
        "resolve": {"cast": "Gifts Ungiven", "by": "Alice", "targets": ["Nadia"]},
        "expect": [
            {"claim": "found_count", "searcher": "Alice"},
            {"claim": "revealed", "searcher": "Alice"},
            {"claim": "shuffles", "player": "Alice"},
            {"claim": "searches", "player": "Alice"},
        ],
    }


def asked(questions) -> set[str]:
    return {claim["claim"] for question in questions for claim in question.claims}


def test_a_search_through_empty_zones_asks_nothing_about_what_it_finds():
    """Found walking the app: "How many cards can Ravi find?" above an empty library (the board
    says 0), and "Are the cards Hana finds revealed?" about no card at all."""
    questions = build_questions(gifts([]))
    assert {"found_count", "revealed", "legal_find_set"}.isdisjoint(asked(questions))
    assert {q.kind for q in questions} >= {"value"}, "what the search still does is asked"
    assert {"shuffles", "searches"} <= asked(questions)


def test_a_library_with_cards_asks_what_the_search_finds():
    questions = build_questions(gifts(["Island#i1", "Mnemonic Wall#w1"]))
    assert {"found_count", "revealed", "legal_find_set"} <= asked(questions)
    assert "count_range" in {q.kind for q in questions}


def test_a_library_with_nothing_that_qualifies_still_asks_how_many():
    """Zero found among cards that don't qualify is the question, not the board's answer."""
    spec = {
        "id": "rampant",
        "players": ["Alice", "Nadia"],
        "zones": {"Alice": {"library": ["Overgrown Tomb#t", "Giant Growth#g"]}},
        "resolve": {"cast": "Rampant Growth", "by": "Alice"},
        "expect": [{"claim": "found_count", "searcher": "Alice"}],
    }
    assert "count_range" in {q.kind for q in build_questions(spec)}


def test_nothing_searches_so_nothing_is_asked_about_what_may_be_found():
    """Read as a judge: "For each highlighted card: must, may or can't it be found?" above a
    Hangarback Walker cast with X=2 asks about a search that never happens."""
    walker = {
        "id": "walker",
        "players": ["Alice", "Nadia"],
        "zones": {"Alice": {"hand": ["Hangarback Walker#w"], "library": ["Forest#f"]}},
        "resolve": {"cast": "w", "by": "Alice", "x": 2},
        "expect": [{"claim": "finds", "card": "f"}],
    }
    assert "finds" not in asked(build_questions(walker))
    tutor = {**walker, "resolve": {"cast": "Demonic Tutor", "by": "Alice"}}
    tutor["zones"] = {"Alice": {"library": ["Forest#f"]}}
    assert "finds" in asked(build_questions(tutor))


def test_a_card_left_in_hand_is_not_asked_how_it_enters():
    """Walking the app: "Alice casts Green Sun's Zenith. What is X for the ability of Hangarback
    Walker as it enters the battlefield?" while the Walker stays in Alice's hand."""
    spec = {
        "id": "zenith",
        "players": ["Alice", "Nadia"],
        "zones": {"Alice": {"hand": ["Hangarback Walker#w"], "library": []}},
        "resolve": {"cast": "Green Sun's Zenith", "by": "Alice", "x": 4},
        "expect": [
            {"claim": "enters_x", "card": "w"},
            {"claim": "counters", "card": "w", "kind": "+1/+1"},
            {"claim": "shuffles", "player": "Alice"},
        ],
    }
    assert asked(build_questions(spec)) == {"shuffles"}
    cast = {**spec, "resolve": {"cast": "w", "by": "Alice", "x": 4}}
    assert {"enters_x", "counters"} <= asked(build_questions(cast))

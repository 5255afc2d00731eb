"""Generated questions ask nothing the board already answers (quizzes/rulings/generate.py)."""

from __future__ import annotations

import json
import re

import pytest

from quizzes.loading import CONTENT_DIR
from quizzes.rulings.claims import CLAIMS, OUTSIDE_CLAIMS, claim_text
from quizzes.rulings.generate import build_questions
from quizzes.rulings.ruling import Ruling, Shown, chooses_outside, text_for
from tests.quizzes.conftest import summoning_sick_elves_spec

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


def wish() -> dict:
    """Burning Wish: a choice from outside the game, not a search (CR 400.11, 400.11b)."""
    path = CONTENT_DIR / "scenarios" / "burning-wish-outside-the-game.json"
    spec = json.loads(path.read_text())
    spec["expect"] = [
        {"claim": "finds", "card": "clasm"},
        {"claim": "finds", "card": "outbolt"},
        {"claim": "found_count", "searcher": "Alice"},
        {"claim": "revealed", "searcher": "Alice"},
        {"claim": "searches", "player": "Alice"},
    ]
    return spec


SEARCH_WORD = re.compile(r"\b(?:find|finds|found|search|searches|searched)\b", re.IGNORECASE)


def test_a_wish_is_asked_as_a_choice_from_outside_the_game_not_a_find():
    """Issue 20: "For each highlighted card: must, may or can't it be found?" and "How many
    cards can Alice find?" above Burning Wish taught a wish as a search."""
    questions = {question.kind: question for question in build_questions(wish())}
    assert questions["cards"].prompt.endswith(
        "For each highlighted card: must, may or can't Alice choose it from outside the game?"
    )
    assert "How many cards can Alice choose from outside the game?" in (
        questions["count_range"].prompt
    )
    for question in questions.values():
        assert not SEARCH_WORD.search(question.prompt.split(". ", 1)[1]), question.prompt


def test_a_wish_is_stated_only_in_a_choices_words():
    """A statement about a wish is made only when the page words it as a choice from outside
    the game (`Ruling.text_of` gives the table's wish entry); none reads "Alice can find"."""
    questions = build_questions(wish())
    ruling = Ruling.from_shown("yes_no", Shown(wish(), [], {}, {}, 0))
    for question in questions:
        if question.kind in ("yes_no", "multiple_choice"):
            for claim in question.claims:
                text = ruling.text_of(claim)
                assert text is claim_text(claim["claim"], outside=chooses_outside(ruling, claim))
                assert not SEARCH_WORD.search(text.state(claim["proposed"], ruling.subject(claim)))


def test_a_tutor_is_still_asked_what_it_finds():
    tutor = {
        "id": "tutor",
        "players": ["Alice", "Nadia"],
        "zones": {"Alice": {"library": ["Forest#f", "Island#i"]}},
        "resolve": {"cast": "Demonic Tutor", "by": "Alice"},
        "expect": [{"claim": "finds", "card": "f"}, {"claim": "found_count", "searcher": "Alice"}],
    }
    prompts = {question.kind: question.prompt for question in build_questions(tutor)}
    assert prompts["cards"].endswith("must, may or can't Alice find it?")
    assert "How many cards can Alice find?" in prompts["count_range"]


def test_a_player_no_instruction_has_search_is_not_asked_whether_they_can():
    """Issue 20: "Must, may or can't Nadia search?" keyed "can't" when Nadia's Path to Exile has
    Alice search (or Impulse, which looks and never searches): "can't" reads as a prohibition.
    The searcher is asked; a prohibited player is asked and keyed "can't"."""
    path = {
        "id": "path",
        "players": ["Alice", "Nadia"],
        "zones": {"Alice": {"battlefield": ["Grizzly Bears#bears"], "library": ["Forest"]}},
        "resolve": {"cast": "Path to Exile", "by": "Nadia", "targets": ["bears"]},
        "expect": [
            {"claim": "searches", "player": "Nadia"},
            {"claim": "searches", "player": "Alice"},
        ],
    }
    searched = {
        claim["player"]
        for question in build_questions(path)
        for claim in question.claims
        if claim["claim"] == "searches"
    }
    assert searched == {"Alice"}
    impulse = {
        "id": "impulse",
        "players": ["Alice", "Nadia"],
        "zones": {"Alice": {"library": ["Forest", "Island", "Swamp", "Plains"]}},
        "resolve": {"cast": "Impulse", "by": "Alice"},
        "expect": [{"claim": "searches", "player": "Alice"}],
    }
    assert "searches" not in asked(build_questions(impulse))
    orb = {
        "id": "orb",
        "players": ["Alice", "Nadia"],
        "zones": {"Alice": {"battlefield": ["Mindlock Orb"], "library": ["Forest"]}},
        "resolve": {"cast": "Demonic Tutor", "by": "Alice"},
        "expect": [{"claim": "searches", "player": "Alice"}],
    }
    assert "searches" in asked(build_questions(orb))


def test_the_order_in_which_nobody_decides_is_not_asked():
    """Read as a judge: "The players decide what to find in this order: nobody." keyed true
    when a Leonin Arbiter stops the only search."""
    spec = {
        "id": "arbiter",
        "players": ["Alice", "Nadia"],
        "zones": {
            "Alice": {"battlefield": ["Leonin Arbiter"]},
            "Nadia": {"battlefield": ["Grizzly Bears#bears"], "library": ["Forest"]},
        },
        "resolve": {"cast": "Path to Exile", "by": "Alice", "targets": ["bears"]},
        "expect": [{"claim": "decision_order"}, {"claim": "searches", "player": "Nadia"}],
    }
    assert asked(build_questions(spec)) == {"searches"}


def test_once_the_page_words_a_wish_as_a_choice_its_statements_are_made(monkeypatch):
    """With `Ruling.text_of` giving `text_for` (the hook the lead's ruling.py takes), a wish's
    claims are stated again, each in a choice's words."""
    monkeypatch.setattr(Ruling, "text_of", lambda self, claim: text_for(self, claim))
    questions = build_questions(wish())
    ruling = Ruling.from_shown("yes_no", Shown(wish(), [], {}, {}, 0))
    stated = [
        claim
        for question in questions
        if question.kind in ("yes_no", "multiple_choice")
        for claim in question.claims
    ]
    assert {"finds", "found_count"} & {claim["claim"] for claim in stated}
    for claim in stated:
        said = ruling.state(claim, claim["proposed"])
        assert not SEARCH_WORD.search(said), said
    value = [q for q in questions if q.kind == "value" and q.claims[0]["claim"] == "searches"]
    assert value and value[0].prompt.endswith(
        "Must, may or can't Alice choose a card from outside the game?"
    )


def test_the_yes_no_and_the_multiple_choice_question_draw_their_own_statements():
    """Issue 26: the two shared their statements, so one question taught the other's keys (a
    word vote trained on half the questions scored the other half's copies)."""
    library = ["Island#i1", "Mnemonic Wall#w1", "Forest#f1", "Plains#p1", "Swamp#s1"]
    drawn = []
    for number in range(12):
        questions = build_questions(gifts(library) | {"id": f"gifts-{number}"})
        by_kind = {
            q.kind: [(c["claim"], c["proposed"]) for c in q.claims]
            for q in questions
            if q.kind in ("yes_no", "multiple_choice")
        }
        if {"yes_no", "multiple_choice"} <= set(by_kind):
            drawn.append(by_kind["yes_no"] == by_kind["multiple_choice"][: len(by_kind["yes_no"])])
    assert drawn and not all(drawn)


def test_questions_on_the_layers_of_two_effects_are_two_questions():
    """effect_layer names no card: its questions are told apart by their source (a scenario
    asks the sublayer of Diminish and of Giant Growth, 613.4b and 613.4c)."""
    path = (
        CONTENT_DIR.parent.parent
        / "tests/engine/scenarios/twisted-image-switches-after-giant-growth.json"
    )
    spec = json.loads(path.read_text())
    keys = [q.key for q in build_questions(spec) if q.kind == "value"]
    assert len(keys) == len(set(keys))
    assert {"value-effect-layer-twist", "value-effect-layer-growth"} <= set(keys)


def test_every_claim_says_what_its_statements_are_about():
    """Issue 23: the question sentence of statements names what they are about, from the claim
    table, of one subject and of several, for a wish's claims too."""
    for name, text in {**CLAIMS, **{f"outside {n}": t for n, t in OUTSIDE_CLAIMS.items()}}.items():
        assert str(text.about).startswith("about "), name
        assert str(text.about_many).startswith("about "), name
        assert "{" not in str(text.about_many), f"{name}: several subjects, none named"


def test_a_statements_question_names_what_each_of_its_statements_is_about():
    """ "Alice casts Gifts Ungiven. Statements about how many cards Alice can find and about
    whether Alice shuffles: is each true or false?", each phrase the claim table's."""
    spec = gifts(["Island#i1", "Mnemonic Wall#w1"])
    ruling = Ruling.from_shown("yes_no", Shown(spec, [], {}, {}, 0))
    statements = [q for q in build_questions(spec) if q.kind in ("yes_no", "multiple_choice")]
    assert statements
    for question in statements:
        asked = question.prompt.split(". ", 1)[1]
        for claim in question.claims:
            phrase = text_for(ruling, claim).about_one(ruling.subject(claim))
            assert phrase in asked, (phrase, question.prompt)
        assert asked.startswith(("Statements about", "Which of these statements about"))


def test_a_cards_question_names_who_finds():
    spec = gifts(["Island#i1", "Mnemonic Wall#w1"])
    spec["expect"] = [{"claim": "finds", "card": "i1"}, {"claim": "finds", "card": "w1"}]
    cards = next(q for q in build_questions(spec) if q.kind == "cards")
    assert cards.prompt.endswith("For each highlighted card: must, may or can't Alice find it?")


def gilder_bairns() -> dict:
    """Three Gilder Bairns ({2}{G/U}, {Q}: the untap symbol), the tapped one activated."""
    bairns = [
        {"card": "Gilder Bairn", "label": "up"},
        {"card": "Gilder Bairn", "label": "down", "tapped": True},
        {"card": "Gilder Bairn", "label": "new", "tapped": True, "entered_this_turn": True},
    ]
    return {
        "id": "bairns",
        "players": ["Alice", "Nadia"],
        "zones": {"Alice": {"battlefield": bairns}},
        "resolve": {"activate": "down", "by": "Alice", "targets": ["up"]},
        "expect": [{"claim": "can_activate", "card": label} for label in ("up", "down", "new")],
    }


def test_an_ability_asked_about_is_wanted_not_already_activated():
    """Read as a judge: "Alice activates Gilder Bairn. Can the ability of Gilder Bairn be
    activated now?" said it happens, then asked whether it can (and said "activates Gilder
    Bairn" where a judge says "activates an ability of"). A question on the ability activated
    now says it is wanted; one on another card's says the activation happens."""
    questions = build_questions(gilder_bairns())
    assert {question.prompt.split(".")[0] for question in questions} == {
        "Alice wants to activate an ability of Gilder Bairn, targeting Gilder Bairn",
        "Alice activates an ability of Gilder Bairn, targeting Gilder Bairn",
    }
    for question in questions:
        on_it = any(claim.get("card") == "down" for claim in question.claims)
        verb = "wants to activate" if on_it else "activates"
        assert question.prompt.startswith(f"Alice {verb} an ability of"), question.prompt


def test_a_mana_ability_that_cant_be_activated_is_wanted():
    """A creature's {T} mana ability the turn it came under Alice's control (302.6): it can't
    be activated, so the page must not say Alice activates it."""
    questions = build_questions(summoning_sick_elves_spec("can_activate"))
    assert questions
    for question in questions:
        assert question.prompt.startswith(
            "Alice wants to activate an ability of Llanowar Elves. "
        ), question.prompt

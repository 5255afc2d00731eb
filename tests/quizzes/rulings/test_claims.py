"""The claim table covers every claim the engine computes, and words each one plainly."""

from __future__ import annotations

import random
import re

from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from quizzes.rulings.claims import (
    CLAIMS,
    NUMBER,
    OUTSIDE_CLAIMS,
    RANGE,
    Context,
    Subject,
    claim_text,
)
from rules.engine import CLAIM_SUBJECTS

SUBJECT = Subject(card="the Howling Mine on top of Nadia's library", player="Alice")


def test_the_table_knows_every_claim_the_engine_computes():
    assert set(CLAIM_SUBJECTS) <= set(CLAIMS), sorted(set(CLAIM_SUBJECTS) - set(CLAIMS))


def test_costs_offered_are_the_card_costs_with_one_more_and_one_less_generic():
    costs = claim_text("cost_paid").choices(SUBJECT, Context(card_costs=("{3}{U}{U}", "{0}")))
    assert {"{0}", "{2}{U}{U}", "{3}{U}{U}", "{4}{U}{U}", "{5}{U}{U}"} <= set(costs)
    assert claim_text("cost_paid").choices(SUBJECT, Context()) == ["{0}"]
    coloured = claim_text("cost_paid").choices(SUBJECT, Context(card_costs=("{U}{U}",)))
    assert coloured == ["{0}", "{U}{U}", "{1}{U}{U}", "{2}{U}{U}"]


def test_statements_read_as_sentences():
    assert claim_text("finds").state("cannot", SUBJECT) == (
        "The Howling Mine on top of Nadia's library can't be found."
    )
    assert claim_text("mills").state(1, SUBJECT) == "Alice mills 1 card."
    assert claim_text("mills").state(3, SUBJECT) == "Alice mills 3 cards."
    assert claim_text("zone_after").state("exile", SUBJECT).endswith("ends up in exile.")
    assert (
        claim_text("zone_after")
        .state("battlefield or library", SUBJECT)
        .endswith("ends up on the battlefield or in its owner's library.")
    )
    assert claim_text("shuffles").state("if_searched", SUBJECT) == (
        "Alice shuffles only if they actually searched."
    )


def test_mana_alternatives_are_joined_in_the_readers_language():
    """German pages said "erzeugt {U} or {G}" (found walking the app)."""
    mana = claim_text("mana_produced")
    assert mana.state("{U} or {G}", SUBJECT).endswith("produces {U} or {G}.")
    with translation.override("de"):
        assert mana.state("{U} or {G}", SUBJECT).endswith("{U} oder {G}.")
        assert mana.words("{W}{W} or {U}{U}").endswith(": {W}{W} oder {U}{U}")
    with translation.override("it"):
        assert mana.words("{U} or {G}").endswith(": {U} o {G}")


def test_an_undetermined_value_is_worded_as_what_it_depends_on():
    """Issue 20: "tapped or untapped" offered as if it were a state a learner could pick."""
    assert claim_text("tapped_after").words("tapped or untapped") == (
        "depends on a choice: tapped or untapped"
    )
    assert claim_text("shuffles").words("if_searched") == "depends on whether they search"
    assert claim_text("mana_produced").words("{B}") == "{B}"
    assert "if_searched" not in claim_text("shuffles").choices(SUBJECT, Context())


def test_mana_offered_is_mana_the_board_could_make():
    """Issue 20: "Forest produces {C}" offered where no card makes {C}."""
    options = claim_text("mana_produced").choices(SUBJECT, Context(mana=("{G}",)))
    assert options == ["", "{G}", "{G}{G}"]


@given(st.sampled_from(sorted(CLAIMS)), st.integers(0, 2**32))
def test_a_false_value_is_never_the_true_one(name, seed):
    text = claim_text(name)
    rng = random.Random(seed)
    context = Context(players=("Alice", "Nadia", "Bram"), library_sizes={"Alice": 5})
    if text.answer == NUMBER:
        value = rng.randrange(0, 5)
    elif text.answer == RANGE:
        low = rng.randrange(0, 3)
        value = [low, low + rng.randrange(0, 3)]
    elif text.domain is None:
        value = ["Alice", "Nadia", "Bram"]
    else:
        options = text.choices(SUBJECT, context) or ["{0}"]
        value = rng.choice(options)
    wrong = text.false_value(value, SUBJECT, context, rng)
    assert wrong is None or wrong != value


def test_every_question_and_statement_is_plain_english():
    for name, text in CLAIMS.items():
        question = text.ask(SUBJECT)
        assert question[0].isupper() and question.endswith(("?", ".")), name
        assert "_" not in question and "value of" not in question, name
        for value in text.choices(SUBJECT, Context(library_sizes={"Alice": 3})):
            words = text.words(value) + " " + text.state(value, SUBJECT)
            assert "_" not in words, (name, value, words)


WISH = Subject(card="the Pyroclasm Alice has outside the game", player="Alice", searcher="Alice")
SEARCH_WORD = re.compile(r"\b(?:find|finds|found|search|searches|searched)\b", re.IGNORECASE)


def test_a_wish_is_worded_as_a_choice_from_outside_the_game_never_a_search():
    """CR 400.11: outside the game is not a zone; a wish chooses, it doesn't search or find."""
    assert set(OUTSIDE_CLAIMS) == {"finds", "found_count", "revealed", "searches"}
    for name, text in OUTSIDE_CLAIMS.items():
        assert claim_text(name, outside=True) is text
        ranges = [[0, 1], [1, 1]] if name == "found_count" else []
        values = text.choices(WISH, Context()) or ranges
        texts = [text.ask(WISH), *(text.state(v, WISH) for v in values)]
        texts += [text.words(v) for v in values]
        for said in texts:
            assert not SEARCH_WORD.search(said), said
    assert claim_text("finds", outside=True).state("may", WISH) == (
        "The Pyroclasm Alice has outside the game may be chosen."
    )
    assert claim_text("found_count", outside=True).state([0, 1], WISH) == (
        "Alice can choose at least 0 and at most 1 card from outside the game."
    )
    assert claim_text("searches", outside=True).words("must") == "must choose from outside the game"
    assert claim_text("shuffles", outside=True) is claim_text("shuffles")  # no wish wording


def test_cant_search_is_worded_as_a_prohibition():
    """ "Can't" is what a prohibition (Ashiok, Mindlock Orb) makes; a player nothing has search
    is not asked (generate.ABOUT_A_SEARCH)."""
    searches = claim_text("searches")
    assert searches.words("cannot") == "can't search (an effect prohibits it)"
    assert searches.state("must", SUBJECT) == "Alice must search."
    with translation.override("de"):
        assert "verbietet" in searches.words("cannot")
    with translation.override("it"):
        assert "proibisce" in searches.words("cannot")


def test_a_player_who_loses_in_a_draw_is_not_said_not_to_lose():
    """104.4a: in a draw every player loses the game. The value 'loses' is the other case, so
    its statement says the game isn't a draw; were it only 'Nadia loses the game', a learner
    marking it true of a draw (Nadia does lose, 704.5a) would be marked wrong."""
    loses = claim_text("player_loses")
    assert loses.state("loses", SUBJECT) == (
        "When state-based actions are checked now, Alice loses the game, and the game isn't a draw."
    )
    statements = {value: loses.state(value, SUBJECT) for value in ("loses", "draw", "plays_on")}
    assert len(set(statements.values())) == 3
    assert "the game is a draw" in statements["draw"]
    with translation.override("de"):
        assert loses.state("loses", SUBJECT).endswith("das Spiel endet nicht unentschieden.")
    with translation.override("it"):
        assert loses.state("loses", SUBJECT).endswith("la partita non è un pareggio.")


def test_the_step_of_becoming_cast_reads_as_one_choice_beside_another():
    """'which comes first: the spell becoming cast, when abilities ... trigger or paying its
    total cost?' ran the two choices together; the trigger note is in parentheses."""
    subject = Subject(card="the Wargate in Nadia's hand", steps=("becomes_cast", "pay_total_cost"))
    question = claim_text("casting_step_order").ask(subject)
    assert "which comes first: the spell becoming cast (abilities that trigger on casting it " in (
        question
    )
    assert question.endswith("trigger then) or paying its total cost?")

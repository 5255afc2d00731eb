"""Statements whose values don't give their key away (quizzes/rulings/balance.py): each value of
a claim is named by false statements about as often as by true ones."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from quizzes.rulings import balance
from quizzes.rulings.balance import distractor_weight, stated_share, value_key
from quizzes.rulings.claims import Context, Subject, claim_text

FINDS = {'"must"': 72, '"may"': 1052, '"cannot"': 1054}
SEARCHES = {'"must"': 335, '"may"': 244, '"cannot"': 43}
LIFE = {"19": 48, "20": 12, "23": 4}


@pytest.fixture
def content(monkeypatch):
    counts = {
        "finds": FINDS,
        "searches": SEARCHES,
        "life_total": LIFE,
        "tapped_after": {'"tapped"': 18},
        "mana_value": {},
    }
    monkeypatch.setattr(balance, "true_values", lambda: counts)
    balance._fitted.cache_clear()
    yield counts
    balance._fitted.cache_clear()


def named(claim: str, counts: dict[str, int], rounds: int = 20_000) -> dict[str, Counter]:
    """Statements drawn as generation draws them from claims whose true values fall as `counts`
    do: per value named, how many are true and how many false."""
    rng = random.Random(claim)
    text = claim_text(claim)
    values = [balance.json.loads(key) for key in counts]
    drawn: dict[str, Counter] = {}
    for value in rng.choices(values, list(counts.values()), k=rounds):
        if rng.random() >= stated_share(claim, value, text.near):
            continue
        wrong = text.false_value(value, Subject(player="Alice"), Context(), rng, claim)
        assert wrong is not None
        truth = rng.random() < 0.5
        said = value if truth else wrong
        drawn.setdefault(value_key(said), Counter())[truth] += 1
    return drawn


@pytest.mark.parametrize(("claim", "counts"), [("finds", FINDS), ("searches", SEARCHES)])
def test_each_value_is_named_true_as_often_as_false(content, claim, counts):
    """Issue 26: "must be found" was true 59 of 79 times, "may search" false 70 of 113."""
    for key, truth in named(claim, counts).items():
        share = truth[True] / (truth[True] + truth[False])
        assert 0.45 < share < 0.55, (key, truth)


def test_a_value_commoner_than_all_others_is_stated_only_as_often_as_they_are(content):
    assert stated_share("searches", "must") == pytest.approx((244 + 43) / 335, rel=0.02)
    assert stated_share("searches", "cannot") == pytest.approx(1.0)
    assert stated_share("finds", "may") == pytest.approx(
        1.0
    )  # no value outnumbers the others together


def test_a_claim_of_one_value_or_none_to_balance_is_never_stated(content):
    """A land tapped for mana ends tapped: "… is untapped" was false 46 of 46 times."""
    assert stated_share("tapped_after", "tapped") == 0.0
    assert stated_share("mana_value", 5) == 0.0
    assert stated_share("never_asked_by_the_content", 1) == 1.0


def test_a_false_number_is_a_near_value_the_content_gives(content):
    """ "Alice's life total is 19" was true 26 of 28 times: its distractors were 18, 21 and 22,
    which no statement ever made true."""
    near = claim_text("life_total").near
    assert distractor_weight("life_total", 19, 20, near) > 0
    assert distractor_weight("life_total", 19, 21, near) == 0  # never a key
    assert distractor_weight("life_total", 19, 23, near) == 0  # a key, but not within 3
    assert distractor_weight("life_total", 20, 23, near) > 0
    for key, truth in named("life_total", LIFE).items():
        assert 0.4 < truth[True] / (truth[True] + truth[False]) < 0.6, (key, truth)

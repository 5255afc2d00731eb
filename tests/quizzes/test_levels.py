"""Judge levels (quizzes/levels.py): from what a question asks, its board and its facility."""

from __future__ import annotations

import os

import pytest
from django.core.management import call_command

from quizzes import levels
from quizzes.levels import CORNER, L1, L2, MANY_CARDS, MEASURED_AFTER, Facts, level_of
from quizzes.models import Attempt, Family, Question, Response
from tests.factories import QuestionFactory, RuleFactory, ScenarioFactory, UserFactory, simple_spec


def facts(
    claims=("finds",), rules=("701.23b",), players=2, effects=(), answers=0, right=0, cards=1
):
    return Facts(
        frozenset(claims), frozenset(rules), players, frozenset(effects), answers, right, cards
    )


def test_a_plain_search_is_l1():
    assert level_of(facts()) == L1
    assert level_of(facts(claims=("shuffles",), rules=("701.23a",))) == L1


@pytest.mark.parametrize(
    "case",
    [
        facts(effects=("search_replacement",)),  # Aven Mindcensor on the battlefield
        facts(effects=("search_prohibition",)),  # Stranglehold, Ashiok
        facts(rules=("701.23f",)),  # a portion searched instead
        facts(rules=("614.1",)),  # a replacement effect
        facts(claims=("alt_cost_available",)),  # Archive Trap
        facts(rules=("118.9c",)),
        facts(players=4),  # multiplayer
    ],
)
def test_replacements_prohibitions_archive_trap_and_multiplayer_are_l2(case):
    assert level_of(case) == L2


def test_one_matter_seen_twice_is_still_one():
    # Mindcensor's replacement cites 701.23f: one matter, not two
    assert level_of(facts(rules=("701.23f",), effects=("search_replacement",))) == L2


@pytest.mark.parametrize(
    "case",
    [
        facts(claims=("decision_order",)),
        facts(claims=("range_of_influence",), players=4),
        facts(rules=("101.4",)),
        facts(rules=("723.5",)),
        # two L2 matters together: a prohibition on a four-player board, Mindcensor and the Trap
        facts(effects=("search_prohibition",), players=4),
        facts(claims=("alt_cost_available",), effects=("search_replacement",)),
    ],
)
def test_rare_claims_and_l2_matters_together_are_corner_cases(case):
    assert level_of(case) == CORNER


def test_rule_prefixes_do_not_match_longer_numbers():
    assert level_of(facts(rules=("614",))) == L2
    assert level_of(facts(rules=("101.20",))) == L1  # not 101.2
    assert level_of(facts(rules=("7230",))) == L1  # not 723


def test_facility_moves_the_level_once_measured():
    few = MEASURED_AFTER - 1
    assert level_of(facts(answers=few, right=0)) == L1  # not enough answers yet
    assert level_of(facts(answers=MEASURED_AFTER, right=5)) == L2  # most miss it
    easy = facts(effects=("search_replacement",), answers=MEASURED_AFTER, right=MEASURED_AFTER)
    assert level_of(easy) == L1  # nine in ten get it right
    assert level_of(facts(claims=("decision_order",), answers=40, right=2)) == CORNER  # capped
    assert level_of(facts(answers=40, right=40)) == L1  # never below L1


def test_a_declared_level_is_the_floor():
    assert level_of(facts(), declared=L2) == L2
    assert level_of(facts(claims=("decision_order",)), declared=L2) == CORNER
    assert level_of(facts(), declared="nonsense") == L1


def mindcensor_spec(slug):
    spec = simple_spec(slug)
    spec["zones"]["Nadia"] = {"battlefield": ["Aven Mindcensor"]}
    return spec


@pytest.mark.django_db
def test_recompute_reads_the_board_rules_and_first_answers():
    plain = QuestionFactory()
    plain.rules.set([RuleFactory(number="701.23a")])
    censored = QuestionFactory(scenario=ScenarioFactory(spec=mindcensor_spec("censored")))
    hard = QuestionFactory()
    for index in range(MEASURED_AFTER):
        user = UserFactory()
        attempt = Attempt.objects.create(user=user)
        Response.objects.create(attempt=attempt, question=hard, user=user, correct=index < 3)
        # a repeat answer does not count: the first one does
        later = Attempt.objects.create(user=user)
        Response.objects.create(attempt=later, question=hard, user=user, correct=True)
    changed = levels.recompute(Question.objects.all())
    assert changed == 2
    assert dict(Question.objects.values_list("pk", "level")) == {
        plain.pk: L1,
        censored.pk: L2,
        hard.pk: L2,
    }
    assert levels.recompute(Question.objects.all()) == 0  # recomputing changes nothing


@pytest.mark.django_db
def test_recompute_levels_command_reports_the_levels():
    QuestionFactory(scenario=ScenarioFactory(spec=mindcensor_spec("censored")))
    QuestionFactory()
    with open(os.devnull, "w") as quiet:
        call_command("recompute_levels", stdout=quiet)
    assert sorted(Question.objects.values_list("level", flat=True)) == [L1, L2]


@pytest.mark.django_db
def test_levels_are_stored_in_batches_of_ids(monkeypatch):
    monkeypatch.setattr(levels, "UPDATE_BATCH", 2)
    scenario = ScenarioFactory(spec=mindcensor_spec("censored"))
    for n in range(3):
        QuestionFactory(scenario=scenario, key=f"q{n}")
    assert levels.recompute(Question.objects.all()) == 3  # two UPDATEs: 2 ids, then 1
    assert list(Question.objects.values_list("level", flat=True)) == [L2, L2, L2]


@pytest.mark.parametrize(
    "case",
    [
        facts(claims=("triggers",), rules=("603.2",)),  # a triggered ability
        facts(claims=("total_cost",), rules=("601.2f",)),  # a cost change
        facts(claims=("can_dredge",), rules=("702.52a",)),  # dredge replaces a draw
        facts(claims=("finds",), cards=MANY_CARDS),  # many cards to hold at once
    ],
)
def test_each_interaction_is_l2(case):
    assert level_of(case) == L2


def test_a_plain_mana_or_tapping_question_is_l1():
    """Issue 23: "corner cases" served basic tap and mana questions (their family's level)."""
    assert level_of(facts(claims=("mana_produced",), rules=("605.1a", "106.1"))) == L1
    assert level_of(facts(claims=("can_activate", "tapped_after"), rules=("302.6",))) == L1


def land_spec(slug, *battlefield):
    spec = simple_spec(slug)
    spec["zones"]["Alice"] = {"battlefield": ["Forest#f", *battlefield]}
    spec["resolve"] = {"activate": "f", "by": "Alice"}
    return spec


@pytest.mark.django_db
def test_a_questions_level_follows_from_its_content_not_its_family():
    """Two boards of one family declared "corner": a Forest tapped for mana alone is L1, the
    same question with Aven Mindcensor on the board is L2 (a replacement effect): the level is
    computed from the claims, rules, board and cards, whatever the family says."""
    family = Family.objects.create(slug="declared-corner", title="t", level=CORNER, definition={})
    alone = ScenarioFactory(spec=land_spec("alone"), family=family)
    beside = ScenarioFactory(spec=mindcensor_spec("beside"), family=family)
    claims = [{"claim": "mana_produced", "card": "f"}]
    plain = QuestionFactory(scenario=alone, kind="value", claims=claims, level=CORNER)
    plain.rules.set([RuleFactory(number="605.1a")])
    censored = QuestionFactory(scenario=beside, kind="value", claims=claims, level=CORNER)
    levels.recompute(Question.objects.all())
    plain.refresh_from_db()
    censored.refresh_from_db()
    assert (plain.level, censored.level) == (L1, L2)
    facts_of_plain = levels.facts_of(plain.claims, ["605.1a"], alone.spec, frozenset())
    assert plain.level == level_of(facts_of_plain)

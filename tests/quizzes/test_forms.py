"""The answer form's value domains: every value the engine can compute must be offered."""

from __future__ import annotations

from quizzes.forms import costs_near


def test_costs_near_offers_the_cost_with_one_more_and_one_less_generic():
    options = costs_near(["{3}{U}{U}", "{0}"])
    assert {"{0}", "{1}", "{2}{U}{U}", "{3}{U}{U}", "{4}{U}{U}"} <= set(options)


def test_costs_near_adds_generic_mana_to_a_coloured_cost():
    assert costs_near(["{U}{U}"]) == ["{0}", "{U}{U}", "{1}{U}{U}", "{2}{U}{U}"]


def test_costs_near_of_no_cost_is_zero():
    assert costs_near([]) == ["{0}"]

"""Content models: JSON fields validated with errors that name the field; the engine check."""

from __future__ import annotations

import copy

import pytest
from django.core.exceptions import ValidationError

from quizzes.models import Question, Scenario
from quizzes.rulings import checks
from tests.factories import QuestionFactory, RuleFactory, ScenarioFactory, simple_spec

pytestmark = pytest.mark.django_db


def test_a_valid_scenario_passes_full_clean():
    ScenarioFactory.build().full_clean()


def test_scenario_validation_names_the_spec_path_of_an_unknown_zone():
    spec = simple_spec()
    spec["zones"]["Alice"]["librar"] = spec["zones"]["Alice"].pop("library")
    scenario = ScenarioFactory.build(spec=spec)
    with pytest.raises(ValidationError) as error:
        checks.validate_scenario(scenario)
    message = error.value.message_dict["spec"][0]
    assert message.startswith("spec.zones.Alice.librar:")


def test_scenario_validation_names_an_unknown_card():
    spec = simple_spec()
    spec["zones"]["Alice"]["library"].append("No Such Card")
    with pytest.raises(ValidationError) as error:
        checks.validate_scenario(ScenarioFactory.build(spec=spec))
    assert "No Such Card" in error.value.message_dict["spec"][0]


def test_scenario_clean_rejects_a_spec_that_is_not_an_object():
    with pytest.raises(ValidationError) as error:
        ScenarioFactory.build(spec=["not", "a", "scenario"]).full_clean()
    assert "spec" in error.value.message_dict


def test_scenario_validation_names_stored_expect_when_malformed():
    with pytest.raises(ValidationError) as error:
        ScenarioFactory.build(stored_expect=[{"no": "claim"}]).full_clean()
    assert "stored_expect" in error.value.message_dict


def test_check_with_engine_agrees_and_records_the_cited_rules():
    rule = RuleFactory(number="701.24a")  # the engine cites 701.24a for shuffling
    scenario = ScenarioFactory()
    check = checks.record_engine_check(scenario)
    assert check.status == Scenario.EngineStatus.AGREES
    assert "701.24a" in check.cited_rules
    scenario.refresh_from_db()
    assert scenario.engine_status == Scenario.EngineStatus.AGREES
    assert list(scenario.rules_exercised.all()) == [rule]


def test_check_with_engine_flags_a_stored_ruling_the_engine_disagrees_with():
    spec = simple_spec()
    spec["expect"] = [{"claim": "shuffles", "player": "Alice", "value": "no"}]
    scenario = ScenarioFactory(spec=spec)
    check = checks.record_engine_check(scenario)
    assert check.status == Scenario.EngineStatus.DISAGREES
    assert scenario.engine_report


def test_check_with_engine_marks_a_scenario_without_expect_not_checked():
    spec = simple_spec()
    spec["expect"] = []
    scenario = ScenarioFactory(spec=spec, stored_ruling="Alice shuffles.")
    assert checks.record_engine_check(scenario).status == Scenario.EngineStatus.NOT_CHECKED


def test_check_with_engine_marks_stored_only_claims_not_checked():
    scenario = ScenarioFactory(stored_expect=[{"claim": "mana_value", "card": "x", "value": 5}])
    assert checks.record_engine_check(scenario).status == Scenario.EngineStatus.NOT_CHECKED


def test_check_with_engine_marks_a_rejected_spec_invalid():
    spec = copy.deepcopy(simple_spec())
    spec["resolve"] = {"cast": "No Such Card", "by": "Alice"}
    scenario = ScenarioFactory(spec=spec)
    check = checks.record_engine_check(scenario)
    assert check.status == Scenario.EngineStatus.INVALID
    assert "resolve" in check.report


def test_question_claims_must_not_hold_the_key():
    question = QuestionFactory.build(claims=[{"claim": "shuffles", "player": "Alice", "value": 1}])
    with pytest.raises(ValidationError) as error:
        checks.validate_question(question, exclude=["scenario", "bank"])
    assert "claims" in error.value.message_dict


def test_question_claims_must_be_a_list_of_claim_objects():
    question = QuestionFactory.build(claims={"claim": "shuffles"})
    with pytest.raises(ValidationError) as error:
        checks.validate_question(question, exclude=["scenario", "bank"])
    assert "claims" in error.value.message_dict


def test_yes_no_claims_need_a_proposed_value():
    question = QuestionFactory.build(
        kind=Question.Kind.YES_NO, claims=[{"claim": "shuffles", "player": "Alice"}]
    )
    with pytest.raises(ValidationError) as error:
        checks.validate_question(question, exclude=["scenario", "bank"])
    assert "proposed" in error.value.message_dict["claims"][0]


def test_yes_no_claims_with_proposed_values_are_valid():
    question = QuestionFactory(
        kind=Question.Kind.YES_NO,
        claims=[{"claim": "shuffles", "player": "Alice", "proposed": "yes"}],
    )
    checks.validate_question(question)


def test_a_cards_question_asks_only_finds_claims():
    question = QuestionFactory.build(
        kind=Question.Kind.CARDS, claims=[{"claim": "shuffles", "player": "Alice"}]
    )
    with pytest.raises(ValidationError) as error:
        checks.validate_question(question, exclude=["scenario", "bank"])
    assert "finds" in error.value.message_dict["claims"][0]


def test_a_value_question_asks_one_claim():
    question = QuestionFactory.build(
        claims=[{"claim": "shuffles", "player": "Alice"}, {"claim": "searches", "player": "Alice"}]
    )
    with pytest.raises(ValidationError) as error:
        checks.validate_question(question, exclude=["scenario", "bank"])
    assert "claims" in error.value.message_dict

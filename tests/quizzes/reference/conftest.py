"""Fixtures of the rule pages' tests, and the instructors' for the card form's."""

from __future__ import annotations

import datetime

import pytest

from tests.factories import (
    QuestionFactory,
    RuleAliasFactory,
    RuleFactory,
    ScenarioFactory,
    UserFactory,
)
from tests.quizzes.instructor_fixtures import (  # noqa: F401
    instructor,
    other_instructor,
    teacher_client,
)


@pytest.fixture
def search_rule():
    rule = RuleFactory(number="701.23b", text="If a player is searching a hidden zone ...")
    RuleAliasFactory(rule=rule, number="701.14b")
    RuleFactory(
        number="701.19b",
        text="Wenn ein Spieler eine verdeckte Zone durchsucht ...",
        language="de",
        edition_name="Duskmourn",
        edition_date=datetime.date(2024, 9, 27),
        canonical=rule,
    )
    ScenarioFactory(title="Splinter on Howling Mine").rules_exercised.add(rule)
    return rule


@pytest.fixture
def scenarios_by_bank(search_rule):
    """One scenario on 701.23b in each kind of bank, its title stating its ruling."""
    from quizzes.instructors import cohorts
    from quizzes.models import Bank
    from tests.factories import BankFactory

    owner, member = UserFactory(username="owner"), UserFactory(username="member")
    banks = {
        "public": BankFactory(visibility="public"),
        "private": BankFactory(visibility="private", owner=owner),
        "shared": BankFactory(visibility="shared", owner=owner),
    }
    cohort = cohorts.do_create_cohort(owner, "Class")
    cohorts.do_assign_banks(cohort, Bank.objects.filter(pk=banks["shared"].pk))
    cohorts.do_join(member, cohort)
    for kind, bank in banks.items():
        scenario = ScenarioFactory(title=f"{kind}: Alice must shuffle", bank=bank)
        scenario.rules_exercised.add(search_rule)
        QuestionFactory(scenario=scenario, bank=bank).rules.add(search_rule)
    return {"owner": owner, "member": member}

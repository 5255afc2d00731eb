"""Factories for the models, one per model; each builds a valid row with as little as possible."""

from __future__ import annotations

import datetime

import factory
from django.contrib.auth import get_user_model
from factory.django import DjangoModelFactory

from quizzes.models import Bank, Question, Scenario
from rules.models import Card, Rule, RuleAlias


def simple_spec(scenario_id: str = "factory-scenario") -> dict:
    """A small valid scenario/1 spec: Alice casts Demonic Tutor with three cards in her library."""
    return {
        "format": "scenario/1",
        "id": scenario_id,
        "title": "Demonic Tutor with three cards",
        "source": "tests/factories.py",
        "players": ["Alice", "Nadia"],
        "cards": [],
        "zones": {"Alice": {"library": ["Island#i1", "Forest#f1", "Swamp#s1"]}},
        "history": [],
        "resolve": {"cast": "Demonic Tutor", "by": "Alice"},
        "expect": [{"claim": "shuffles", "player": "Alice", "value": "yes"}],
    }


class UserFactory(DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.org")
    password = factory.django.Password("correct-horse-battery")


class RuleFactory(DjangoModelFactory):
    class Meta:
        model = Rule
        skip_postgeneration_save = True

    number = factory.Sequence(lambda n: f"999.{n}a")
    title = ""
    text = factory.Faker("sentence")
    language = "en"
    edition_name = "Marvel's Spider-Man"
    edition_date = datetime.date(2025, 9, 19)


class RuleAliasFactory(DjangoModelFactory):
    class Meta:
        model = RuleAlias
        skip_postgeneration_save = True

    rule = factory.SubFactory(RuleFactory)
    number = factory.Sequence(lambda n: f"998.{n}a")


class CardFactory(DjangoModelFactory):
    class Meta:
        model = Card
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Test Card {n}")
    definition = factory.LazyAttribute(
        lambda card: {"name": card.name, "mana_cost": "{1}", "types": ["Artifact"], "oracle": ""}
    )
    localized_names = factory.LazyFunction(dict)


class BankFactory(DjangoModelFactory):
    class Meta:
        model = Bank
        skip_postgeneration_save = True

    slug = factory.Sequence(lambda n: f"bank-{n}")
    title = factory.Sequence(lambda n: f"Bank {n}")
    owner = None
    visibility = Bank.Visibility.PUBLIC


class ScenarioFactory(DjangoModelFactory):
    class Meta:
        model = Scenario
        skip_postgeneration_save = True

    slug = factory.Sequence(lambda n: f"scenario-{n}")
    title = factory.Sequence(lambda n: f"Scenario {n}")
    source = "tests/factories.py"
    spec = factory.LazyAttribute(lambda scenario: simple_spec(scenario.slug))


class QuestionFactory(DjangoModelFactory):
    class Meta:
        model = Question
        skip_postgeneration_save = True

    scenario = factory.SubFactory(ScenarioFactory)
    bank = factory.SubFactory(BankFactory)
    kind = Question.Kind.VALUE
    prompt = "Alice casts Demonic Tutor. Does Alice shuffle her library?"
    claims = factory.LazyFunction(lambda: [{"claim": "shuffles", "player": "Alice"}])
    position = factory.Sequence(lambda n: n)

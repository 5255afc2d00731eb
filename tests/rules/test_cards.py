"""The one card catalog (rules/cards.py): files, site cards, an owner's cards; kept until saved."""

from __future__ import annotations

import pytest

from rules.cards import catalog_for
from rules.models import Card
from tests.factories import CardFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_the_catalog_has_the_file_cards_and_the_site_cards():
    CardFactory(name="Made Up Relic")
    catalog = catalog_for(None)
    assert "Made Up Relic" in catalog
    assert "Splinter" in catalog  # rules/catalog/*.json


def test_an_instructors_card_is_in_their_catalog_only():
    teacher, other = UserFactory(), UserFactory()
    CardFactory(name="Teacher's Relic", owner=teacher)
    assert "Teacher's Relic" in catalog_for(teacher.pk)
    assert "Teacher's Relic" not in catalog_for(other.pk)
    assert "Teacher's Relic" not in catalog_for(None)


def test_a_database_row_wins_over_the_file_card():
    CardFactory(
        name="Island",
        definition={"name": "Island", "types": ["Artifact"], "oracle": "Changed in the admin."},
    )
    assert catalog_for(None).get("Island").oracle == "Changed in the admin."


def test_the_built_catalog_is_kept_while_no_card_changes(django_assert_num_queries):
    CardFactory(name="Made Up Relic")
    first = catalog_for(None)
    with django_assert_num_queries(1):  # the generation only
        assert catalog_for(None) is first


def test_saving_a_card_is_seen_at_once():
    card = CardFactory(name="Made Up Relic")
    assert catalog_for(None).get("Made Up Relic").oracle == ""
    card.definition = {**card.definition, "oracle": "Now with text."}
    card.save()
    assert catalog_for(None).get("Made Up Relic").oracle == "Now with text."


def test_deleting_a_card_is_seen_at_once():
    card = CardFactory(name="Made Up Relic")
    assert "Made Up Relic" in catalog_for(None)
    Card.objects.filter(pk=card.pk).delete()
    assert "Made Up Relic" not in catalog_for(None)


def test_the_generation_by_hand_is_the_aggregate():
    """rules/cards.py reads the generation by hand; the aggregate it replaced is the spec."""
    from django.db.models import Count, Max

    from rules.cards import generation

    def spec() -> tuple:
        row = Card.objects.aggregate(count=Count("pk"), latest=Max("updated_at"))
        return (row["count"], row["latest"])

    assert generation() == spec() == (0, None)
    CardFactory(name="Made Up Relic")
    CardFactory(name="Made Up Trinket", owner=UserFactory())
    assert generation() == spec() and generation()[0] == 2

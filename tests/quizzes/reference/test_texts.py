"""Rule texts cached until the rules change: never stale, never another visitor's."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from quizzes.reference import texts
from tests.factories import RuleAliasFactory, RuleFactory, UserFactory
from tests.quizzes.reference.test_views import listed

pytestmark = pytest.mark.django_db


def rule_page(client) -> str:
    return client.get(reverse("rule_detail", args=["701.23b"])).content.decode()


def test_a_second_view_reads_the_rule_from_the_cache(
    client, search_rule, django_assert_num_queries
):
    rule_page(client)
    # the rules' version, then the visitor's scenarios: the rule, its aliases, editions, section
    # title and former meanings are not read again
    with django_assert_num_queries(1 + texts.version_reads_database()):
        html = rule_page(client)
    assert "searching a hidden zone" in html and "verdeckte Zone" in html and "701.14b" in html


def test_a_saved_rule_shows_at_once(client, search_rule, django_capture_on_commit_callbacks):
    assert "searching a hidden zone" in rule_page(client)
    with django_capture_on_commit_callbacks(execute=True):
        search_rule.text = "Reworded: a player searching a hidden zone ..."
        search_rule.save()
    assert "Reworded: a player searching" in rule_page(client)


def test_a_new_or_deleted_alias_shows_at_once(
    client, search_rule, django_capture_on_commit_callbacks
):
    assert "701.15b" not in rule_page(client)
    with django_capture_on_commit_callbacks(execute=True):
        alias = RuleAliasFactory(rule=search_rule, number="701.15b")
    assert "701.15b" in rule_page(client)
    with django_capture_on_commit_callbacks(execute=True):
        alias.delete()
    assert "701.15b" not in rule_page(client)


def test_the_version_moves_only_after_the_commit(search_rule, django_capture_on_commit_callbacks):
    before = texts.version()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        search_rule.save()
    assert texts.version() == before  # a reader before the commit must not cache under a new one
    for callback in callbacks:
        callback()
    assert texts.version() != before


def test_load_content_replaces_the_version_even_when_nothing_changed(
    django_capture_on_commit_callbacks,
):
    from quizzes.loading import load_content

    load_content()
    before = texts.version()
    with django_capture_on_commit_callbacks(execute=True):
        report = load_content()
    assert report.changed == 0 and texts.version() != before


def test_each_language_has_its_own_entry(search_rule, django_assert_num_queries):
    texts.rule_page("701.23b")
    with translation.override("de"), django_assert_num_queries(5 + texts.version_reads_database()):
        # a miss: the version, then the rule, its aliases and editions, the former meanings and
        # the section title (its headings' English titles and German translations, one query)
        texts.rule_page("701.23b")


def test_a_cached_page_lists_only_this_visitors_scenarios(client, scenarios_by_bank):
    # the owner's view fills the cache; a member and an anonymous visitor still see only theirs
    assert listed(client, scenarios_by_bank["owner"]).count("<li>") == 3
    assert listed(client, scenarios_by_bank["member"]).count("<li>") == 2
    client.logout()
    assert listed(client).count("<li>") == 1


def test_the_mastery_shown_is_this_visitors(client, search_rule):
    from quizzes.models import Mastery

    first, second = UserFactory(), UserFactory()
    Mastery.objects.create(user=first, rule=search_rule, answers=7, correct=5)
    client.force_login(first)
    assert "after 7 answers (5 right)" in rule_page(client)
    client.force_login(second)
    html = rule_page(client)
    assert "after 7 answers" not in html and "You haven't answered" in html


def test_cited_rules_follow_earlier_numbers_and_changes(
    search_rule, django_capture_on_commit_callbacks
):
    assert [rule.number for rule in texts.cited_rules(["701.14b"])] == ["701.23b"]
    other = RuleFactory(number="701.24")
    with django_capture_on_commit_callbacks(execute=True):
        RuleAliasFactory(rule=other, number="701.14b")
    assert [rule.number for rule in texts.cited_rules(["701.14b"])] == ["701.23b", "701.24"]

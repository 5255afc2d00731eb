from __future__ import annotations

import pytest
from django.urls import reverse

from quizzes.models import Mastery
from tests.factories import (
    QuestionFactory,
    RuleAliasFactory,
    RuleFactory,
    ScenarioFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


def test_rule_page_shows_every_edition_and_the_scenarios(client, search_rule):
    page = client.get(reverse("rule_detail", args=["701.23b"]))
    html = page.content.decode()
    assert page.status_code == 200
    assert "searching a hidden zone" in html
    assert "verdeckte Zone" in html and 'lang="de"' in html
    assert "701.14b" in html


@pytest.mark.parametrize("old_number", ["701.14b", "701.19b"])
def test_an_old_number_redirects_to_the_current_page(client, search_rule, old_number):
    page = client.get(reverse("rule_detail", args=[old_number]))
    assert page.status_code == 302
    assert page["Location"] == reverse("rule_detail", args=["701.23b"]) + f"?from={old_number}"


def test_the_page_says_which_edition_a_followed_number_belongs_to(client):
    rule = RuleFactory(number="723.5", text="A player who controls another player ...")
    RuleAliasFactory(
        rule=rule, number="722.5", note="722.5 in the Comprehensive Rules of 2025-09-19"
    )
    page = client.get(reverse("rule_detail", args=["722.5"]), follow=True)
    html = page.content.decode()
    assert page.redirect_chain[0][0].endswith("/rules/723.5/?from=722.5")
    assert "You followed 722.5: 722.5 in the Comprehensive Rules of 2025-09-19" in html


def test_an_old_number_that_names_another_rule_today_says_so(client, search_rule):
    # 701.17b is Mill's today and was Search's (now 701.23b) in an earlier edition.
    RuleAliasFactory(rule=search_rule, number="701.17b", note="Search 701.17b, earlier edition")
    mill = RuleFactory(number="701.17b", text="A player can't mill a number of cards greater ...")
    page = client.get(reverse("rule_detail", args=["701.17b"]))
    html = page.content.decode()
    assert page.status_code == 200
    assert "mill a number of cards" in html
    assert reverse("rule_detail", args=["701.23b"]) in html
    assert "Search 701.17b, earlier edition" in html
    assert list(mill.former_meanings().values_list("rule__number", flat=True)) == ["701.23b"]


def test_an_unknown_number_is_a_404(client, search_rule):
    assert client.get(reverse("rule_detail", args=["123.45z"])).status_code == 404


def test_rule_page_shows_my_mastery_only(client, search_rule):
    me, other = UserFactory(), UserFactory()
    Mastery.objects.create(user=other, rule=search_rule, theta=2.0, answers=7, correct=6)
    client.force_login(me)
    html = client.get(reverse("rule_detail", args=["701.23b"])).content.decode()
    assert "answered a question on this rule yet" in html
    Mastery.objects.create(user=me, rule=search_rule, theta=0.0, answers=3, correct=1)
    html = client.get(reverse("rule_detail", args=["701.23b"])).content.decode()
    assert "after 3 answers (1 right)" in html


def test_rule_index_lists_current_rules_with_their_questions(client, search_rule):
    QuestionFactory(scenario=ScenarioFactory()).rules.add(search_rule)
    page = client.get(reverse("rule_index"))
    html = page.content.decode()
    assert page.status_code == 200
    assert reverse("rule_detail", args=["701.23b"]) in html
    assert "Practise (1)" in html
    assert "verdeckte Zone" not in html  # editions show on the rule's own page


@pytest.mark.parametrize("extra_rules", [1, 30])
def test_rule_index_query_count_does_not_grow(client, django_assert_num_queries, extra_rules):
    for index in range(extra_rules):
        RuleFactory(number=f"999.{index}")
    with django_assert_num_queries(1):
        assert client.get(reverse("rule_index")).status_code == 200


@pytest.mark.parametrize("extra_rules", [1, 30])
def test_the_index_in_german_shows_official_translations_in_two_queries(
    client, django_assert_num_queries, extra_rules
):
    search = RuleFactory(number="701.23", title="Search", text="Search")
    RuleFactory(
        number="701.14", title="Durchsuchen", text="Durchsuchen", language="de", canonical=search
    )
    for index in range(extra_rules):
        RuleFactory(number=f"999.{index}", text="An English text")
    with django_assert_num_queries(2):
        html = client.get(reverse("rule_index"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '<td lang="de"><strong>Durchsuchen</strong></td>' not in html  # the page is German
    assert "<td><strong>Durchsuchen</strong></td>" in html
    assert '<td lang="en">An English text</td>' in html  # no translation: English, marked


def test_the_index_shows_a_section_title_once(client, db):
    RuleFactory(number="701.23", title="Search", text="Search")
    html = client.get(reverse("rule_index")).content.decode()
    assert "<strong>Search</strong></td>" in html
    assert "Search. Search" not in html


def test_a_subrule_heading_carries_its_sections_title(client, search_rule):
    RuleFactory(number="701.23", title="Search", text="Search")
    html = client.get(reverse("rule_detail", args=["701.23b"])).content.decode()
    assert '<h1>701.23b <span class="rule-title">Search</span></h1>' in html


def test_a_rule_without_a_titled_section_row_carries_its_sections_title(client, db):
    RuleFactory(number="106", title="Mana", text="Mana")
    RuleFactory(number="106.7", text="Some abilities produce mana ...")
    html = client.get(reverse("rule_detail", args=["106.7"])).content.decode()
    assert '<h1>106.7 <span class="rule-title">Mana</span></h1>' in html
    german = client.get(reverse("rule_detail", args=["106.7"]), HTTP_ACCEPT_LANGUAGE="de")
    assert (
        '<h1>106.7 <span class="rule-title" lang="en">Mana</span></h1>' in german.content.decode()
    )


def test_a_rule_number_in_capitals_leads_to_the_rule(client, search_rule):
    page = client.get(reverse("rule_detail", args=["701.23B"]))
    assert page.status_code == 302
    assert page["Location"] == reverse("rule_detail", args=["701.23b"])


@pytest.mark.parametrize("debug", [False, True])
def test_an_unknown_number_shows_the_sites_own_404_page(client, search_rule, settings, debug):
    settings.DEBUG = debug
    page = client.get(reverse("rule_detail", args=["123.45z"]))
    assert page.status_code == 404
    html = page.content.decode()
    assert "No rule is numbered “123.45z”" in html
    assert 'class="site-header"' in html  # the site's page, not Django's technical one


def test_any_other_missing_page_uses_the_sites_404_page(client, db):
    page = client.get("/no-such-page/")
    assert page.status_code == 404
    assert "There is no page at this address" in page.content.decode()


def listed(client, user=None) -> str:
    if user is not None:
        client.force_login(user)
    html = client.get(reverse("rule_detail", args=["701.23b"])).content.decode()
    return html.split('id="scenarios-title"')[1]


def test_a_visitor_sees_only_public_scenarios_and_no_titles(client, scenarios_by_bank):
    section = listed(client)
    # the fixture's unbanked scenario and the private and shared ones are not listed
    assert section.count("<li>") == 1
    assert "Scenario 1 · 1 question</li>" in section
    assert "Alice must shuffle" not in section and "Splinter" not in section


def test_a_cohort_member_sees_the_cohorts_shared_scenarios(client, scenarios_by_bank):
    assert listed(client, scenarios_by_bank["member"]).count("<li>") == 2


def test_the_owner_sees_their_private_scenarios(client, scenarios_by_bank):
    assert listed(client, scenarios_by_bank["owner"]).count("<li>") == 3


def test_a_scenario_is_named_once_its_visitor_has_answered_it(client, scenarios_by_bank):
    from quizzes.models import Attempt, Question, Response

    learner = UserFactory()
    question = Question.objects.get(bank__visibility="public")
    attempt = Attempt.objects.create(user=learner)
    Response.objects.create(attempt=attempt, question=question, user=learner)
    section = listed(client, learner)
    assert "public: Alice must shuffle" in section
    assert "private: Alice must shuffle" not in section


def test_the_index_orders_rules_as_the_rules_do(client, db):
    """106.12 came before 106.5 and 701.8 after 701.24: the numbers were sorted as text."""
    for number in ("701.24a", "106.12", "701.8a", "106.5"):
        RuleFactory(number=number, text=f"Rule {number}")
    html = client.get(reverse("rule_index")).content.decode()
    places = [html.index(f"Rule {number}") for number in ("106.5", "106.12", "701.8a", "701.24a")]
    assert places == sorted(places)

"""The progress page's mastery list is kept per process under the page's language and what its
rows show (`RuleProgress.shown`, progress.html, page_parts.py). These tests show that key is
complete: for each thing a row shows, a change of it alone (or two learners differing in it
alone) renders what a fresh render gives, byte for byte; and that it is no more than that: a
visit where nothing moved renders no row again.

Masteries are made directly: a rule with no question has median difficulty 0, so a mastery's
value is sigmoid(theta) and its percentage is set exactly."""

from __future__ import annotations

import math
from unittest import mock

import pytest
from django.urls import reverse

from quizzes.models import Mastery
from quizzes.practice import adaptive, reports
from quizzes.templatetags import page_parts
from tests.factories import RuleFactory, UserFactory

pytestmark = pytest.mark.django_db


def theta_for(value: float) -> float:
    """The theta whose mastery is `value` on a rule with no question (median difficulty 0)."""
    return math.log(value / (1 - value))


def mastery_list(client) -> str:
    """The progress page's mastery list, exactly as served."""
    page = client.get(reverse("progress"))
    assert page.status_code == 200
    html = page.content.decode()
    assert '<ul class="mastery-list">' in html, "a list to compare"
    listed = html.split('<ul class="mastery-list">', 1)[1].split("</ul>", 1)[0]
    return f'<ul class="mastery-list">{listed}</ul>'


def fresh_mastery_list(client) -> str:
    """The list as it renders with nothing kept (the rule titles' cache left as it is)."""
    page_parts._rendered.clear()
    return mastery_list(client)


def kept_is_fresh(client) -> str:
    """The list as served (kept, if a visit kept it), checked equal to a fresh render."""
    served = mastery_list(client)
    assert served == fresh_mastery_list(client)
    return served


def switch_language(client, language: str) -> None:
    """The language switcher (quizzes/language.py): the language cookie from now on."""
    answer = client.post(reverse("set_language"), {"language": language, "next": "/"})
    assert answer.status_code == 302


@pytest.fixture
def mana(db):
    """Section 106 "Mana" and two of its rules, untitled: each shows the section's title."""
    section = RuleFactory(number="106", title="Mana", text="Mana")
    return section, RuleFactory(number="106.12a"), RuleFactory(number="106.12b")


def test_the_kept_list_is_byte_for_byte_a_fresh_render(client, learner, mana):
    """Two rules, one mastered: the list kept by the first visit is what a fresh render gives,
    and what the reports compute."""
    _, first, second = mana
    Mastery.objects.create(user=learner, rule=first, theta=-1.0, answers=3, correct=1)
    Mastery.objects.create(user=learner, rule=second, theta=3.0, answers=6, correct=6)
    client.force_login(learner)
    first_visit = mastery_list(client)
    assert first_visit == mastery_list(client) == fresh_mastery_list(client)
    assert [item.percent for item in reports.rule_progress(learner)] == [27, 95]
    assert 'aria-label="Mastery of 106.12a: 27%"' in first_visit
    assert '<span>95% <span class="badge">mastered</span></span>' in first_visit
    assert first_visit.count('<span class="rule-title">Mana</span>') == 2


def test_two_learners_differing_only_in_the_rule_each_see_their_own(client, learner, mana):
    """The same section title, percentage and badge, another rule: only the rule's number
    tells the two lists apart (killed by leaving the number out of `RuleProgress.shown`)."""
    _, first, second = mana
    other = UserFactory()
    for user, rule in ((learner, first), (other, second)):
        Mastery.objects.create(user=user, rule=rule, theta=1.0, answers=3, correct=2)
    lists = {}
    for user in (learner, other, learner):
        client.force_login(user)
        lists[user.pk] = kept_is_fresh(client)
    assert "106.12a" in lists[learner.pk] and "106.12b" not in lists[learner.pk]
    assert "106.12b" in lists[other.pk] and "106.12a" not in lists[other.pk]
    assert lists[learner.pk].replace("106.12a", "106.12b") == lists[other.pk]


def test_a_renamed_section_shows_its_new_name(
    client, learner, mana, django_capture_on_commit_callbacks
):
    """An editor renames the section (the rules' version moves once it commits): the kept list
    shows the new name at once (killed by leaving the title out of `RuleProgress.shown`)."""
    section, first, _ = mana
    Mastery.objects.create(user=learner, rule=first, theta=1.0, answers=3, correct=2)
    client.force_login(learner)
    assert '<span class="rule-title">Mana</span>' in mastery_list(client)
    with django_capture_on_commit_callbacks(execute=True):
        section.title = "Mana and mana abilities"
        section.save()
    renamed = kept_is_fresh(client)
    assert '<span class="rule-title">Mana and mana abilities</span>' in renamed
    assert '<span class="rule-title">Mana</span>' not in renamed


def test_a_title_translated_as_the_same_word_loses_its_english_mark(
    client, learner, mana, django_capture_on_commit_callbacks
):
    """On a German page an untranslated title stands in English, marked lang="en"; once the
    official German heading is loaded ("Mana" in German too) the same word is German and the
    mark goes: only the title's language changed (killed by leaving `title_language` out of
    `RuleProgress.shown`)."""
    section, first, _ = mana
    Mastery.objects.create(user=learner, rule=first, theta=1.0, answers=3, correct=2)
    client.force_login(learner)
    switch_language(client, "de")
    assert '<span class="rule-title" lang="en">Mana</span>' in mastery_list(client)
    with django_capture_on_commit_callbacks(execute=True):
        RuleFactory(
            number="106", title="Mana", text="Mana", language="de", canonical=section,
            edition_name="Umfassende Regeln",
        )  # fmt: skip
    german = kept_is_fresh(client)
    assert '<span class="rule-title">Mana</span>' in german and 'lang="en"' not in german


def test_a_mastery_moving_by_one_point_shows(client, learner, mana):
    """50% to 51%, nothing else a row shows moving (killed by leaving the percentage out of
    `RuleProgress.shown`)."""
    _, first, _ = mana
    mastery = Mastery.objects.create(
        user=learner, rule=first, theta=theta_for(0.5), answers=3, correct=2
    )
    client.force_login(learner)
    assert 'aria-label="Mastery of 106.12a: 50%"' in mastery_list(client)
    Mastery.objects.filter(pk=mastery.pk).update(theta=theta_for(0.51))
    moved = kept_is_fresh(client)
    assert 'aria-label="Mastery of 106.12a: 51%"' in moved and "<span>51%</span>" in moved


@pytest.mark.parametrize(
    "before, after",
    [
        # a fifth answer, the mastery unmoved
        ({"theta": 3.0, "answers": 4}, {"answers": 5}),
        # an answer moves the mastery past 0.9 and the percentage stays 90%
        ({"theta": theta_for(0.8996), "answers": 8}, {"theta": theta_for(0.9004)}),
        # and back under it
        ({"theta": theta_for(0.9004), "answers": 8}, {"theta": theta_for(0.8996)}),
    ],
    ids=["fifth-answer", "past-0.9", "back-under-0.9"],
)
def test_the_mastered_badge_changing_alone_shows(client, learner, mana, before, after):
    """The badge changes and nothing else a row shows (killed by leaving `mastered` out of
    `RuleProgress.shown`)."""
    _, first, _ = mana
    mastery = Mastery.objects.create(user=learner, rule=first, correct=4, **before)
    client.force_login(learner)
    was = reports.rule_progress(learner)[0]
    listed = mastery_list(client)
    Mastery.objects.filter(pk=mastery.pk).update(**after)
    now = reports.rule_progress(learner)[0]
    assert now.percent == was.percent and now.title == was.title  # the badge alone moved
    assert now.mastered != was.mastered
    moved = kept_is_fresh(client)
    assert ('class="badge"' in moved) == now.mastered
    assert ('class="badge"' in listed) == was.mastered


def test_two_learners_differing_only_in_the_badge_each_see_their_own(client, learner, mana):
    """The same rule at 95%, four answers against five: only one has mastered it."""
    _, first, _ = mana
    other = UserFactory()
    Mastery.objects.create(user=learner, rule=first, theta=3.0, answers=4, correct=4)
    Mastery.objects.create(user=other, rule=first, theta=3.0, answers=5, correct=5)
    assert not adaptive.is_mastered(reports.rule_progress(learner)[0].value, 4)
    lists = {}
    for user in (learner, other, learner):
        client.force_login(user)
        lists[user.pk] = kept_is_fresh(client)
    assert 'class="badge"' not in lists[learner.pk]
    assert '<span>95% <span class="badge">mastered</span></span>' in lists[other.pk]


def test_each_language_renders_its_own_list_and_none_leaks_into_another(
    client, learner, mana, django_capture_on_commit_callbacks
):
    """One learner, two rules: 106.12a under a section translated into German ("Mana", the same
    word), 701.23b under one that is not ("Search"). Switching language back and forth, each
    language's list is its own fresh render: German words and lang="en" marks on the German
    page only (killed by leaving the page's language out of the list's key in progress.html:
    what the rows show is the same in both languages for 701.23b)."""
    section, first, _ = mana
    RuleFactory(number="701.23", title="Search", text="Search")
    searching = RuleFactory(number="701.23b")
    with django_capture_on_commit_callbacks(execute=True):
        RuleFactory(
            number="106", title="Mana", text="Mana", language="de", canonical=section,
            edition_name="Umfassende Regeln",
        )  # fmt: skip
    Mastery.objects.create(user=learner, rule=first, theta=3.0, answers=6, correct=6)
    Mastery.objects.create(user=learner, rule=searching, theta=-1.0, answers=2, correct=0)
    client.force_login(learner)
    lists = {}
    for language in ("en", "de", "it", "en", "de"):
        switch_language(client, language)
        served = kept_is_fresh(client)
        assert lists.setdefault(language, served) == served
    assert '<span class="rule-title">Search</span>' in lists["en"]
    assert 'lang="en"' not in lists["en"] and 'class="badge">mastered<' in lists["en"]
    assert '<span class="rule-title" lang="en">Search</span>' in lists["de"]
    assert '<span class="rule-title">Mana</span>' in lists["de"]
    assert 'aria-label="Beherrschung von 701.23b: 27 %"' in lists["de"]
    assert '<span class="rule-title" lang="en">Mana</span>' in lists["it"]
    assert len({lists["en"], lists["de"], lists["it"]}) == 3


def test_a_second_visit_with_nothing_moved_renders_no_row(client, learner, mana):
    """Two learners and two languages visiting in turn: each list is rendered on its first
    visit only, however the visits interleave (killed by a key that never repeats)."""
    _, first, second = mana
    other = UserFactory()
    Mastery.objects.create(user=learner, rule=first, theta=3.0, answers=6, correct=6)
    Mastery.objects.create(user=learner, rule=second, theta=-1.0, answers=2, correct=0)
    Mastery.objects.create(user=other, rule=second, theta=0.5, answers=1, correct=1)
    rendered = []
    kept_get = page_parts._rendered.get

    def spying(key, make):
        return kept_get(key, lambda: rendered.append(key[0]) or make())

    visits = [(learner, "en"), (other, "en"), (learner, "de"), (other, "de")]
    with mock.patch.object(page_parts._rendered, "get", spying):
        first_visits = {}
        for user, language in visits:
            client.force_login(user)
            switch_language(client, language)
            first_visits[user.pk, language] = mastery_list(client)
        assert rendered.count("mastery-list") == 4 and rendered.count("mastery-row") == 6
        rendered.clear()
        for user, language in reversed(visits * 2):
            client.force_login(user)
            switch_language(client, language)
            assert mastery_list(client) == first_visits[user.pk, language]
    assert "mastery-list" not in rendered and "mastery-row" not in rendered

"""Template filters: authored text is sanitised before it is rendered."""

from __future__ import annotations

import pytest

from quizzes.templatetags.quizzes_extras import authored


def test_authored_text_keeps_light_formatting():
    assert authored("Find <em>all</em> of them") == "Find <em>all</em> of them"


def test_authored_text_drops_scripts_and_handlers():
    cleaned = authored('<script>alert(1)</script><a href="/x" onclick="steal()">rule</a>')
    assert "<script" not in cleaned
    assert "onclick" not in cleaned
    assert 'href="/x"' in cleaned


def test_authored_text_escapes_bare_angle_brackets():
    assert authored("X < 3 & Y") == "X &lt; 3 &amp; Y"


@pytest.mark.django_db
def test_a_rule_is_headed_by_its_nearest_title_in_feedback_and_reviews():
    """Feedback and exam reviews showed "106.7" bare where the rule pages say "106.7 Mana"."""
    from django.core.cache import cache
    from django.utils import translation

    from quizzes.templatetags.quizzes_extras import rule_heading
    from tests.factories import RuleFactory

    cache.clear()
    RuleFactory(number="106", title="Mana", text="Mana")
    rule = RuleFactory(number="106.7")
    assert rule_heading(rule) == '<span class="rule-title">Mana</span>'
    with translation.override("de"):
        assert rule_heading(rule) == '<span class="rule-title" lang="en">Mana</span>'
    assert rule_heading(RuleFactory(number="999.1")) == ""

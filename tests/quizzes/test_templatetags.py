"""Template filters: authored text is sanitised before it is rendered."""

from __future__ import annotations

import pytest

from quizzes import rulings
from quizzes.models import Question
from quizzes.practice.forms import AnswerForm
from quizzes.templatetags.quizzes_extras import authored, input_tag
from tests.quizzes.conftest import QUESTION_SHAPES, land_tutor_spec


def test_authored_text_keeps_light_formatting():
    assert authored("Find <em>all</em> of them") == "Find <em>all</em> of them"


def test_authored_text_drops_scripts_and_handlers():
    cleaned = authored('<script>alert(1)</script><a href="/x" onclick="steal()">rule</a>')
    assert "<script" not in cleaned
    assert "onclick" not in cleaned
    assert 'href="/x"' in cleaned


def test_authored_text_escapes_bare_angle_brackets():
    assert authored("X < 3 & Y") == "X &lt; 3 &amp; Y"


@pytest.mark.parametrize("kind", list(QUESTION_SHAPES))
@pytest.mark.parametrize("chosen", [False, True])
def test_input_tag_is_exactly_the_choice_tag_django_renders(kind, chosen):
    """`input_tag` writes the <input> in Python; it must be Django's own, byte for byte, for
    every radio and checkbox choice of every kind, chosen or not."""
    ruling = rulings.ruling_of_spec(land_tutor_spec(), kind=kind)
    ruling.claims = QUESTION_SHAPES[kind]
    groups = {
        name: field.choices[0][0]
        for name, field in AnswerForm(ruling).fields.items()
        if getattr(field, "choices", None)
    }
    form = AnswerForm(ruling, data=groups if chosen else None)
    choices = [choice for field in form for choice in field.subwidgets]
    inputs = [choice for choice in choices if choice.data.get("type") in {"radio", "checkbox"}]
    for choice in inputs:
        assert input_tag(choice) == choice.tag()
    if kind in {Question.Kind.CARDS, Question.Kind.YES_NO, Question.Kind.MULTIPLE_CHOICE}:
        drawn = "".join(input_tag(choice) for choice in inputs)
        assert inputs and ("checked" in drawn) == chosen


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

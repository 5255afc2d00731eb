"""Template filters: authored text is sanitised before it is rendered."""

from __future__ import annotations

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

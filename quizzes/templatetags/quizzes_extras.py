from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template
from django.utils import translation
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from config import roles
from quizzes import authored as authored_text
from quizzes import content_texts
from quizzes.reference import texts
from quizzes.rulings import documents
from quizzes.rulings.names import has_translation, localized
from quizzes.rulings.reasons import say

register = template.Library()


@register.filter
def lookup(mapping: Any, key: Any) -> Any:
    """mapping[key], or "" when absent: for dicts keyed by a card label."""
    try:
        return mapping.get(key, "")
    except AttributeError:
        return ""


@register.filter
def field_named(form: Any, name: str) -> Any:
    """The bound field `name` of a form, or None."""
    return form[name] if name and name in form.fields else None


# Authored text may carry light formatting; anything else (scripts, styles, handlers) is dropped.
AUTHORED_TAGS = authored_text.AUTHORED_TAGS


@register.filter
def authored(text: str) -> str:
    """Instructor-written text, sanitised with nh3 (an allow-list) and then safe to render."""
    return mark_safe(authored_text.clean(text))


@register.filter
def is_instructor(user: Any) -> bool:
    """Whether the navigation offers the instructors' pages (the pages check it again)."""
    return roles.is_instructor(user)


@register.filter
def translation_in(rule: Any, language: str) -> Any:
    """The rule's official text in `language` (an edition row), or None: reads the prefetched
    `editions`, so a page listing rules costs no query per rule."""
    if not language or language == getattr(rule, "language", "en"):
        return None
    return next((row for row in rule.editions.all() if row.language == language), None)


@register.filter
def rule_heading(rule: Any) -> str:
    """A rule's title or its nearest heading's ("106.7": "Mana"), as its page shows it: in the
    reader's language where an official translation gives it, else marked with its own."""
    title, language = texts.section_titles().get(rule.number, ("", ""))
    return rule_title(title, language)


@register.filter
def rule_title(title: str, language: str) -> str:
    """A rule's title beside its number ("" for none), marked lang= when it stands in another
    language than the page's: rule pages, progress, feedback and reviews alike."""
    if not title:
        return ""
    if language == (translation.get_language() or "en"):
        return format_html('<span class="rule-title">{}</span>', title)
    return format_html('<span class="rule-title" lang="{}">{}</span>', language, title)


@register.filter
def english(text: Any) -> Any:
    """Content written only in English (titles, sources, card texts) on a German or
    Italian page: marked lang="en", so a screen reader reads it as English."""
    if not text or (translation.get_language() or "en").startswith("en"):
        return text
    if isinstance(text, documents.Said):  # an error said in the reader's language
        return text
    return format_html('<span lang="en">{}</span>', text)


@register.filter
def errors(messages: Iterable[str]) -> str:
    """A field's errors one after another, each marked as `english` marks it: the format's
    English words lang="en", an error said in the reader's language as it is."""
    return format_html_join(" ", "{}", ((english(message),) for message in messages))


@register.filter
def content(text: Any) -> Any:
    """The site's own content (a title, a source, an exam area) in the reader's language, from
    the content catalogs; a text they lack stays as written, marked lang="en"."""
    return content_texts.shown(str(text)) if text else text


@register.filter
def content_authored(text: str) -> str:
    """Content that may carry an instructor's light formatting (a bank's description), in the
    reader's language when the catalogs have it, sanitised either way."""
    return authored(content_texts.translated(text or "") or text)


@register.filter
def content_in_english(text: str) -> bool:
    """Whether `text` shows in English on this page (to mark its element lang="en")."""
    return bool(text) and content_texts.shows_in_english(text)


@register.filter
def reason(text: Any) -> str:
    """An engine's reason in the reader's language (`rulings.reasons.say`): a live one is said
    now; one stored with an answer was said in the language the learner answered in."""
    return say(text)


@register.filter
def in_sentence(label: Any) -> str:
    """A label (a choice's name) as it reads mid-sentence: lowercased, but in German, whose
    nouns keep their capital letter ("Engine widerspricht ...")."""
    text = str(label)
    return text if (translation.get_language() or "en").startswith("de") else text.lower()


@register.filter
def card_name(name: str) -> Any:
    """A card's name in the reader's language (`rulings.names`); a card without a name in that
    language keeps its English name, marked lang="en"."""
    if not name or has_translation(name):
        return localized(name) if name else name
    return english(name)

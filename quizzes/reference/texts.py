"""Rule texts as pages show them, cached until the rules change.

Rules, their earlier numbers and their other editions change only when content is loaded or an
editor saves one, yet every rule page and every answer's feedback shows them. So they are read
from the default cache, under keys that carry the rules' version and the active language. The
version is kept where every worker sees the same value (the `shared` cache: Redis, or the
database table) and replaced after any save or delete of a `Rule` or `RuleAlias` commits, and by
`load_content`; a worker's entries of an older version are then never read again.

Only what every visitor sees alike is cached here: a visitor's mastery and the scenarios they
may practise are read per request.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from config import versions
from quizzes.kept import Kept
from rules.models import Rule, RuleAlias

TIMEOUT = 60 * 60 * 24  # entries of a replaced version age out (or are culled) unread


def version_reads_database() -> bool:
    """Whether reading the version is a database query (no Redis): query counts include it."""
    return versions.shared_reads_database()


def version() -> str:
    """The rules' current version: a random token, replaced whenever a rule changes."""
    return versions.current(versions.RULES)


def bump() -> None:
    """Forget every cached rule text, in every worker (call after the change is committed)."""
    versions.bump(versions.RULES)


def connect() -> None:
    """Cached rule texts are stale once a rule or alias row changes (from `QuizzesConfig.ready`)."""
    versions.bump_on_change(versions.RULES, (Rule, RuleAlias))


def _key(kind: str, *parts: str) -> str:
    digest = hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:32]
    return f"rules:{kind}:{version()}:{get_language() or ''}:{digest}"


@dataclass
class RulePage:
    """What a rule page shows alike to every visitor: the rule with its aliases and editions
    loaded, its section's title, and its text rendered (former meanings, text, editions)."""

    rule: Rule
    section_title: str
    section_title_language: str  # the reader's, or the language it stands in untranslated
    text_html: str

    @property
    def text(self) -> SafeString:
        return mark_safe(self.text_html)  # our own template's autoescaped output

    def alias_named(self, number: str) -> RuleAlias | None:
        return next((alias for alias in self.rule.aliases.all() if alias.number == number), None)


# Rule pages as read from the cache, kept in the process under the same key (the rules'
# version, the language, the number): reading one back from the cache unpickled the rule with
# its aliases and editions, about 0.1 ms of every rule page. A kept page is shared by the
# process's requests: nothing changes it once built.
PAGES: Kept[RulePage | None] = Kept(512)


def rule_page(number: str) -> RulePage | None:
    """The current rule numbered exactly `number`, ready to show; None when there is none (the
    caller then follows an earlier number or says it is unknown). A new rule replaces the
    version, so a number unknown under one version is looked up again under the next."""
    key = _key("page", number)
    return PAGES.get(key, lambda: _cached_rule_page(key, number))


def _cached_rule_page(key: str, number: str) -> RulePage | None:
    page = cache.get(key)
    if page is None:
        rule = (
            Rule.objects.current()
            .filter(number=number)
            .prefetch_related("aliases", "editions")
            .first()
        )
        if rule is None:
            return None
        text_html = render_to_string(
            "rules/_rule_text.html", {"rule": rule, "former_meanings": rule.former_meanings()}
        )
        title, title_language = Rule.objects.section_title_in(rule, get_language() or "en")
        page = RulePage(rule, title, title_language, str(text_html))
        cache.set(key, page, TIMEOUT)
    return page


def section_titles_key() -> str:
    """The cache's key of `section_titles()`: for a page to read it with its other keys."""
    return _key("titles")


def section_titles(kept: dict | None = None) -> dict[str, tuple[str, str]]:
    """Every current rule's section title in the active language, as its page shows it:
    {number: (title, the title's language)}, from the cache (the progress page's rows), or
    `kept`, what the page read under `section_titles_key()`."""
    key = section_titles_key()
    titles = kept if kept is not None else cache.get(key)
    if titles is None:
        titles = Rule.objects.section_titles_in(get_language() or "en")
        cache.set(key, titles, TIMEOUT)
    return titles


def cited_key(numbers: Iterable[str]) -> str:
    """What `cited_rules(numbers)` is a function of (the rules' version, the language, the
    numbers), as a key: the markup a page makes of those rules alone may be kept under it."""
    return _key("cited", *sorted(set(numbers)))


def cited_rules(numbers: Iterable[str]) -> list[Rule]:
    """`Rule.objects.cited(numbers)` with aliases and editions loaded, from the cache."""
    wanted = sorted(set(numbers))
    key = cited_key(wanted)
    rules = cache.get(key)
    if rules is None:
        rules = list(Rule.objects.cited(wanted))
        cache.set(key, rules, TIMEOUT)
    return rules

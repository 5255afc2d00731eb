"""Bounded URL converters: a path that no row could match is a 404 from the resolver, before
any query (an id past 64 bits overflows SQLite's integers; a 5,000-character slug is no slug)."""

from __future__ import annotations

from django.urls import register_converter
from django.urls.converters import IntConverter, SlugConverter


class IdConverter(IntConverter):
    """A database id or a position: 1 to 18 digits (always below 2**63)."""

    regex = "[0-9]{1,18}"


class BoundedSlugConverter(SlugConverter):
    """A slug as long as the longest slug field (Scenario.slug: 120)."""

    regex = "[-a-zA-Z0-9_]{1,120}"


class RuleNumberConverter:
    """A rule number as printed (701.23b) or a glossary word: no slash, at most 40 characters."""

    regex = "[^/]{1,40}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(IdConverter, "id")
register_converter(BoundedSlugConverter, "bounded_slug")
register_converter(RuleNumberConverter, "rule_number")

from __future__ import annotations

from typing import Any

from django import template

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

"""`{% fixed_part name key ... %}...{% endfixed_part %}`: a part of a page rendered once per
process for each set of key values, then reused: base.html's navigation and footer (the
language, the current page, the visitor's role), progress's rows (a rule's number and
percentage; an answer, which never changes once given).

Only for markup that is a function of its keys and the code alone: never a CSRF token, nor
anything the keys do not determine. Kept in the process, not in a shared cache, so that a
deploy (a new process) never serves the old markup; the least recently used go past MAX_PARTS.
"""

from __future__ import annotations

from django import template
from django.core.signals import setting_changed
from django.urls import get_script_prefix

from config.roles import is_instructor
from quizzes.kept import Kept

register = template.Library()

MAX_PARTS = 4000  # a few MB of markup per process
_rendered: Kept[str] = Kept(MAX_PARTS)


class FixedPartNode(template.Node):
    def __init__(self, name: str, keys: list, nodelist) -> None:
        self.name = name
        self.keys = keys
        self.nodelist = nodelist

    def render(self, context) -> str:
        key = (self.name, get_script_prefix(), *(k.resolve(context) for k in self.keys))
        return _rendered.get(key, lambda: self.nodelist.render(context))


@register.tag
def fixed_part(parser, token) -> FixedPartNode:
    name, *keys = token.split_contents()[1:]
    nodelist = parser.parse(("endfixed_part",))
    parser.delete_first_token()
    return FixedPartNode(name.strip("\"'"), [parser.compile_filter(k) for k in keys], nodelist)


def _forget(**_: object) -> None:
    _rendered.clear()  # a test's changed setting (URLs, languages, static files)


setting_changed.connect(_forget, dispatch_uid="page-parts-forget")


@register.filter
def nav_role(user) -> str:
    """What the navigation offers `user`: "instructor", "learner" or "anonymous"."""
    if is_instructor(user):
        return "instructor"
    return "learner" if user.is_authenticated else "anonymous"

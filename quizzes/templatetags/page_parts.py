"""`{% fixed_part name key ... %}...{% endfixed_part %}`: a part of every page rendered once per
process for each set of key values, then reused (base.html: the navigation, the footer).

Only for markup that depends on nothing but its keys (the language, the current page, the
visitor's role) and the code: never a CSRF token, a name or anything else of one visitor.
Kept in the process, not in a shared cache, so that a deploy (a new process) never serves the
old markup; the keys are few (languages x pages x roles), and the store is bounded anyway.
"""

from __future__ import annotations

from django import template
from django.core.signals import setting_changed
from django.urls import get_script_prefix

register = template.Library()

MAX_PARTS = 2000  # far above languages x pages x roles; past it, parts are rendered each time
_rendered: dict[tuple, str] = {}


class FixedPartNode(template.Node):
    def __init__(self, name: str, keys: list, nodelist) -> None:
        self.name = name
        self.keys = keys
        self.nodelist = nodelist

    def render(self, context) -> str:
        key = (self.name, get_script_prefix(), *(k.resolve(context) for k in self.keys))
        html = _rendered.get(key)
        if html is None:
            html = self.nodelist.render(context)
            if len(_rendered) < MAX_PARTS:
                _rendered[key] = html
        return html


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
    from quizzes import authoring

    if authoring.is_instructor(user):
        return "instructor"
    return "learner" if user.is_authenticated else "anonymous"

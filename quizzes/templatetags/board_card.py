"""`{% board_card card %}`: one card of the board (templates/quizzes/_board.html), its markup
built in Python. As a template partial it was most of the board's time (a practice page draws
ten to thirty cards, each some forty variable lookups, translations and widget renders); the
partial it replaces is kept in tests/quizzes/test_board_card.py, which holds this to it
character for character. It reads the board's context: `card_fields` (card reference -> the
field that marks it), `form`, `picks_cards`, `answered` and the `zone` being drawn.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.template.defaultfilters import capfirst, linebreaksbr
from django.utils.html import conditional_escape as escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, pgettext

from quizzes.templatetags.quizzes_extras import field_named, lookup

register = template.Library()


@register.simple_tag(takes_context=True)
def board_card(context: template.Context, card: Any) -> SafeString:
    form = context.get("form")
    field = field_named(form, lookup(context.get("card_fields"), card.ref)) if form else None
    picks = bool(context.get("picks_cards"))
    parts = [
        '\n<li class="card',
        " is-tapped" if card.tapped else "",
        " is-asked" if field else "",
        f'" id="{escape(card.dom_id)}">\n  ',
    ]
    if picks:
        checked = " checked" if _picked(form, card.ref) else ""
        disabled = " disabled" if context.get("answered") else ""
        parts.append(
            '\n  <label class="card-pick">\n    <input type="checkbox" name="cards"'
            f' value="{escape(card.ref)}"{checked}{disabled}>\n  '
        )
    parts.append('\n  <span class="card-face">\n    ')
    if getattr(context.get("zone"), "name", None) == "library":
        parts.append(f'<span class="card-pos">{escape(capfirst(card.place))}</span>')
    parts.append(
        f'\n    <span class="card-name"{_lang(card.name_language)}>{escape(card.name)}</span>\n    '
    )
    if card.mana_cost:
        parts.append(f'<span class="card-cost">{escape(card.mana_cost)}</span>')
    parts.append(
        f'\n    <span class="card-type"{_lang(card.type_language)}>'
        f"{escape(card.type_line_shown or card.type_line)}</span>\n    "
    )
    if card.controlled_by_other:
        controlled = gettext("controlled by %(controller)s") % {
            "controller": escape(card.controller)
        }
        parts.append(f'<span class="badge">{controlled}</span>')
    parts.append("\n    ")
    if card.tapped:
        parts.append(f'<span class="badge">{escape(gettext("tapped"))}</span>')
    parts.append("\n    ")
    parts.extend(f'<span class="badge">{escape(state)}</span>' for state in card.states)
    parts.append("\n    ")
    if picks:
        parts.append('<span class="pick-state" aria-hidden="true"></span>')
    parts.append("\n  </span>\n  ")
    if picks:
        parts.append("</label>")
    # The card text opens in place (a disclosure): it never covers another card or takes its taps.
    text = linebreaksbr(card.oracle, autoescape=True) if card.oracle else _no_text()
    of_card = gettext("of %(name)s") % {"name": card.marked_name}
    parts.append(
        f'\n  \n  <details class="card-text"><summary>{escape(pgettext("card text", "Text"))}'
        f'<span class="visually-hidden"> {of_card}</span></summary>'
        f"<p{_lang(card.oracle_language)}>{text}</p></details>\n  "
    )
    if field:
        question = gettext("%(phrase)s: must, may or can't be found?") % {
            "phrase": escape(capfirst(card.phrase))
        }
        parts.append(
            f'\n  <fieldset class="marks">\n    <legend class="visually-hidden">{question}'
            "</legend>\n    "
        )
        parts.extend(
            f'\n      <label class="mark mark-{escape(choice.data["value"])}">{choice.tag()}'
            f"<span>{escape(choice.choice_label)}</span></label>\n    "
            for choice in field
        )
        parts.append("\n  </fieldset>\n  ")
    parts.append("\n</li>\n")
    return mark_safe("".join(parts))  # every value above is escaped


def _lang(language: str) -> str:
    return f' lang="{escape(language)}"' if language else ""


def _no_text() -> str:
    return escape(gettext("(no rules text)"))


def _picked(form: Any, ref: str) -> bool:
    """Is the card ticked in the form's `cards` (as the template's `ref in form.cards.value`)?"""
    if form is None or "cards" not in form.fields:
        return False
    try:
        return ref in (form["cards"].value() or ())
    except TypeError:
        return False

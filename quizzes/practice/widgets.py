"""The answer form's widgets drawn in Python, exactly as Django's own templates draw them
(django/forms/widgets/input.html, select.html, select_option.html and attrs.html): each template
render of a widget cost about a fifth of a millisecond, a number field's a quarter of a practice
page's template time. tests/quizzes/test_widgets.py holds them to Django's output byte for byte.

Only the drawing changes: the widget's context (its name, value and attributes, from the bound
field: id, required, aria-invalid, min and max) is still Django's `get_context`.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe


def attrs_html(attrs: dict[str, Any]) -> str:
    """attrs.html: ` name="value"` each, ` name` for True, nothing for False."""
    html = ""
    for name, value in attrs.items():
        if value is True:
            html += format_html(" {}", name)
        elif value is not False:
            html += format_html(' {}="{}"', name, str(value))
    return html


def input_html(widget: dict[str, Any]) -> SafeString:
    """input.html, from a widget's context (`get_context(...)["widget"]`, or a choice's data)."""
    html = format_html('<input type="{}" name="{}"', widget["type"], widget["name"])
    if widget["value"] is not None:
        html += format_html(' value="{}"', str(widget["value"]))
    return mark_safe(html + attrs_html(widget["attrs"]) + ">")


def select_html(widget: dict[str, Any]) -> SafeString:
    """select.html with select_option.html (and the newline that file ends with) for each option."""
    parts = [format_html('<select name="{}"', widget["name"]), attrs_html(widget["attrs"]), ">"]
    for group_name, options, _index in widget["optgroups"]:
        if group_name:
            parts.append(format_html('\n  <optgroup label="{}">', group_name))
        for option in options:
            parts.append(
                format_html('\n  <option value="{}"', str(option["value"]))
                + attrs_html(option["attrs"])
                + format_html(">{}</option>\n", option["label"])  # the included file's newline
            )
        if group_name:
            parts.append("\n  </optgroup>")
    parts.append("\n</select>")
    return mark_safe("".join(parts))


class NumberInput(forms.NumberInput):
    def render(self, name, value, attrs=None, renderer=None) -> SafeString:
        return input_html(self.get_context(name, value, attrs)["widget"])


class Select(forms.Select):
    def render(self, name, value, attrs=None, renderer=None) -> SafeString:
        return select_html(self.get_context(name, value, attrs)["widget"])

"""quizzes/widgets.py draws the answer form's number fields and selects in Python: byte for byte
what Django's own widget templates draw, for any value sent, any choice label, in error or not."""

from __future__ import annotations

from django import forms
from hypothesis import given
from hypothesis import strategies as st

from quizzes.practice import widgets

TEXT = st.text(max_size=12)


def _pair(field: type[forms.Field], ours: forms.Widget, django: forms.Widget, **options):
    """The same form twice: with our widget and with Django's."""

    def form(widget):
        return type("F", (forms.Form,), {"x": field(widget=widget, **options)})

    return form(ours), form(django)


@given(value=st.one_of(st.none(), TEXT, st.integers().map(str)), required=st.booleans())
def test_a_number_field_is_drawn_as_django_draws_it(value, required):
    ours, django = _pair(
        forms.IntegerField,
        widgets.NumberInput,
        forms.NumberInput,
        label="At <least>",
        min_value=0,
        max_value=99,
        required=required,
    )
    data = None if value is None else {"x": value}
    assert str(ours(data)["x"]) == str(django(data)["x"])


@given(
    labels=st.lists(TEXT, min_size=1, max_size=4),
    value=st.one_of(st.none(), TEXT, st.sampled_from(["0", "1", "2"])),
    grouped=st.booleans(),
)
def test_a_select_is_drawn_as_django_draws_it(labels, value, grouped):
    choices = [(str(i), label) for i, label in enumerate(labels)]
    if grouped:
        choices = [("Group <1>", choices), ("3", "Loose")]
    ours, django = _pair(
        forms.TypedChoiceField, widgets.Select, forms.Select, choices=choices, coerce=str
    )
    data = None if value is None else {"x": value}
    assert str(ours(data)["x"]) == str(django(data)["x"])


def test_the_answer_forms_number_and_order_fields_use_them():
    """The kinds' fields (quizzes/rulings/kinds.py) draw through these widgets."""
    from quizzes.rulings import kinds

    for field in kinds._range_fields().values():
        assert isinstance(field.widget, widgets.NumberInput)

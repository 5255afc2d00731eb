"""The answer form, built by the question's kind from the question as shown (a `Ruling`)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from quizzes.rulings import Ruling, kind_of


class SignupForm(UserCreationForm):
    email = forms.EmailField(required=False, help_text=_("Only used to reset your password."))

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")


class AnswerForm(forms.Form):
    """The fields of the question's kind (quizzes/rulings/kinds.py), one per part."""

    def __init__(self, ruling: Ruling, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.ruling = ruling
        self.kind = kind_of(ruling.kind)
        self.fields.update(self.kind.fields(ruling))

    def clean(self) -> dict:
        cleaned = super().clean()
        low, high = cleaned.get("low"), cleaned.get("high")
        if low is not None and high is not None and low > high:
            raise forms.ValidationError(_("The lower bound can't be above the upper bound."))
        places = [cleaned[name] for name in self.fields if name.startswith("order_")]
        if places and len(set(places)) != len(places):
            raise forms.ValidationError(_("Give each player a different place in the order."))
        return cleaned

    @property
    def card_fields(self) -> dict[str, str]:
        """Card reference on the board -> the field that marks it (a `cards` question)."""
        return self.kind.card_fields(self.ruling)

    @property
    def picks_cards(self) -> bool:
        return self.kind.picks_cards

    def answer(self) -> dict[str, Any]:
        """The cleaned answer as JSON for `quizzes.answers.submit`."""
        return self.kind.answer(self.ruling, self.cleaned_data)

"""The answer form, built by the question's kind from the question as shown (a `Ruling`); the
practice filter (level, rule, bank)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import ValidationError
from django.template.loader import render_to_string
from django.utils.functional import cached_property
from django.utils.http import urlencode
from django.utils.safestring import SafeString
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from quizzes import visibility
from quizzes.instructors import cohorts
from quizzes.kept import Kept
from quizzes.models import Bank, Question
from quizzes.practice import topics
from quizzes.rulings import Ruling, kind_of
from rules.models import Rule


class SignupForm(UserCreationForm):
    email = forms.EmailField(required=False, help_text=_("Only used to reset your password."))
    code = forms.CharField(
        label=_("Join code"),
        max_length=16,
        required=False,
        help_text=_("If your instructor gave you one: you join their cohort as you sign up."),
        widget=forms.TextInput(attrs={"autocapitalize": "characters", "autocomplete": "off"}),
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")

    def clean_code(self) -> str:
        """The cohort to join (`self.cohort`), or none when no code was typed."""
        self.cohort = cohorts.cohort_of_code(self.cleaned_data["code"])
        if self.cleaned_data["code"].strip() and self.cohort is None:
            raise forms.ValidationError(
                _("No cohort has this code. Check it with your instructor.")
            )
        return self.cleaned_data["code"]


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
            # beside the fields it is about (a form's own errors show above its fields)
            self.add_error("high", _("The lower bound can't be above the upper bound."))
            return cleaned
        places = [cleaned.get(name) for name in self.fields if name.startswith("order_")]
        if None in places:  # a place out of range: its field says so
            return cleaned
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
        """The cleaned answer as JSON for `quizzes.practice.answers.submit`."""
        return self.kind.answer(self.ruling, self.cleaned_data)


class OfferedBankField(forms.ModelChoiceField):
    """A bank chosen by its slug among those the learner may practise from, found in the kept
    list of them (`offered`: slug, title, id) rather than by a query: the bank comes with its
    id, slug and title, and reads any other field when first asked (a deferred field)."""

    offered: Callable[[], tuple[tuple[str, str, int], ...]] = tuple

    def to_python(self, value: Any) -> Bank | None:
        if value in self.empty_values:
            return None
        for slug, title, pk in self.offered():
            if slug == value:
                return Bank.from_db(None, ["id", "slug", "title"], [pk, slug, title])
        raise ValidationError(
            self.error_messages["invalid_choice"], code="invalid_choice", params={"value": value}
        )


# The practice filter's fields as HTML, by all they show: most learners see the same fields.
FILTER_FIELDS_HTML: Kept[SafeString] = Kept(256)


class PracticeFilterForm(forms.Form):
    """What to practise: a judge level, a rule, a bank, only the rules due for review (each
    optional, combinable), read from the query string
    (`/practice/?level=L2&rule=701.23b&bank=<slug>`, `/practice/?review=1`: "Review now"). A
    bank is looked up among the banks the learner may practise from
    (`Bank.objects.visible_to`): any other slug is unknown."""

    level = forms.ChoiceField(
        required=False, choices=[("", _("Every level")), *Question.Level.choices], label=_("Level")
    )
    rule = forms.CharField(
        required=False,
        max_length=20,
        label=_("Rule"),
        help_text=_("A rule number, as the rule pages give it (earlier numbers work too)."),
        widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"}),
    )
    bank = OfferedBankField(
        queryset=Bank.objects.none(),
        required=False,
        to_field_name="slug",
        empty_label=_("Every bank"),
        label=_("Bank"),
    )
    plan = forms.ChoiceField(
        required=False,
        choices=topics.plan_choices,
        label=_("Study plan"),
        help_text=_("What the mix weighs: a plan's topics by its shares, or one topic alone."),
    )
    review = forms.BooleanField(
        required=False,
        label=_("Only rules due for review"),
        help_text=_("The progress page lists them, the most overdue first."),
    )

    def __init__(self, *args, user, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        self.fields["bank"].offered = lambda: self.offered

    @cached_property
    def offered(self) -> tuple[tuple[str, str, int], ...]:
        """The banks the learner may practise from (quizzes/visibility.py: kept per visitor)."""
        return visibility.offered_banks(self.user)

    def clean_rule(self) -> Rule | None:
        number = self.cleaned_data["rule"].strip()
        if not number:
            return None
        rule = Rule.objects.resolve_number(number)
        if rule is None:
            raise forms.ValidationError(
                _("There is no rule %(number)s."), code="unknown_rule", params={"number": number}
            )
        return rule

    def fields_html(self) -> SafeString:
        """The fields as `_form_fields.html` renders them (Django's widget templates cost a
        sixth of the practice page), kept per process under everything they show: language,
        values, errors and the banks offered (the banks `Bank.objects.visible_to` gives, each
        labelled by its title as `str(bank)`, kept per visitor until a bank or who may see it
        changes: quizzes/visibility.py)."""
        bank = self.fields["bank"]
        offered = self.offered
        bank.widget.choices = [("", bank.empty_label), *((slug, t) for slug, t, _pk in offered)]
        key = (
            get_language(),
            tuple(repr(self[name].value()) for name in self.fields),
            tuple((name, tuple(errors)) for name, errors in self.errors.items()),
            offered,
        )
        return FILTER_FIELDS_HTML.get(
            key, lambda: render_to_string("_form_fields.html", {"form": self})
        )

    @property
    def opened(self) -> bool:
        """Does the filter show open? When it has errors, or a level, rule or bank is chosen."""
        if self.errors:
            return True
        return any(self.cleaned_data.get(name) for name in ("level", "rule", "bank", "review"))

    def query(self) -> str:
        """The filter as a query string ("" for none): what "Next question" carries on."""
        data = self.cleaned_data
        pairs = {
            "level": data.get("level") or "",
            "rule": data["rule"].number if data.get("rule") else "",
            "bank": data["bank"].slug if data.get("bank") else "",
            "plan": data.get("plan") or "",
            "review": "1" if data.get("review") else "",
        }
        return urlencode({name: value for name, value in pairs.items() if value})

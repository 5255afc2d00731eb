"""Forms of the instructors' pages."""

from __future__ import annotations

from django import forms
from django.core.validators import MaxLengthValidator
from django.utils.functional import lazy
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from config.inputs import plain_name
from quizzes import limits
from quizzes.instructors import cohorts
from quizzes.instructors.interchange import ON_EXISTING, REPLACE
from quizzes.models import Bank, Cohort, ExamBlueprint

format_html_lazy = lazy(format_html, str)
MAX_TOPICS_TEXT = 300  # BlueprintArea.rules' length  # a help text built in the reader's language


class CoOwnerForm(forms.Form):
    username = forms.CharField(
        label=_("Username of the instructor to share it with"),
        max_length=150,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )


class BankForm(forms.ModelForm):
    class Meta:
        model = Bank
        fields = ["title", "description", "visibility"]
        widgets = {"description": forms.Textarea(attrs={"rows": 4})}
        help_texts = {
            # help text is rendered as HTML: the tag names are escaped, else they open tags
            "description": format_html_lazy(
                _(
                    "Shown to learners. Light formatting (<code>{}</code>, <code>{}</code>, "
                    "lists, links) is kept; anything else is removed."
                ),
                "<em>",
                "<strong>",
            ),
            "visibility": _("Shared banks are open to the learners of cohorts you assign them to."),
        }

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # the description's bound, as an import of a bank file keeps it (Django's own message)
        description = self.fields["description"]
        description.max_length = limits.MAX_BANK_DESCRIPTION
        description.validators.append(MaxLengthValidator(limits.MAX_BANK_DESCRIPTION))
        description.widget.attrs["maxlength"] = str(limits.MAX_BANK_DESCRIPTION)

    def clean_title(self) -> str:
        return plain_name(self.cleaned_data["title"], _("The title"))


class ScenarioDocumentForm(forms.Form):
    document = forms.CharField(
        label=_("Scenario JSON (scenario/1)"),
        strip=False,
        widget=forms.Textarea(
            attrs={"rows": 32, "spellcheck": "false", "autocapitalize": "off", "class": "code"}
        ),
        help_text=_(
            'A scenario/1 document, plus "stored_ruling" (the ruling in words) and '
            '"stored_expect" (claims the engine cannot compute yet).'
        ),
    )


class ImportForm(forms.Form):
    file = forms.FileField(
        label=_("Bank file (JSON)"),
        help_text=_(
            "A file exported from a bank. Nothing is imported unless every entry is "
            "valid: every problem is listed with its place in the file."
        ),
    )
    on_existing = forms.ChoiceField(
        label=_("A scenario whose id this bank already has"),
        choices=list(ON_EXISTING.items()),
        initial=REPLACE,
        required=False,  # a form sent without it (a script): replace, as the form proposes
        widget=forms.RadioSelect,
    )
    bank_details = forms.BooleanField(  # off: the bank keeps its title unless asked
        label=_("Take the bank's title and description from the file, when it has them"),
        required=False,
    )

    def clean_on_existing(self) -> str:
        return self.cleaned_data["on_existing"] or REPLACE


class MoodleImportForm(forms.Form):
    file = forms.FileField(
        label=_("Moodle XML file"),
        help_text=_(
            "Multiple choice, true/false, numerical and short-answer questions are imported "
            "with their key (no board: the engine does not rule them). Nothing is imported "
            "unless every question can be: every problem is listed with the question's name."
        ),
    )


class CohortForm(forms.ModelForm):
    def clean_name(self) -> str:
        return plain_name(self.cleaned_data["name"], _("The name"))

    class Meta:
        model = Cohort
        fields = ["name"]


class CohortBanksForm(forms.Form):
    banks = forms.ModelMultipleChoiceField(
        queryset=Bank.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Your shared and public banks. A private bank stays yours alone."),
    )

    def __init__(self, *args, instructor, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["banks"].queryset = Bank.objects.owned_by(instructor).exclude(
            visibility=Bank.Visibility.PRIVATE
        )


class JoinForm(forms.Form):
    code = forms.CharField(
        label=_("Join code"),
        max_length=16,
        help_text=_("The code your instructor gave you, e.g. K7QM3TXA."),
        widget=forms.TextInput(attrs={"autocapitalize": "characters", "autocomplete": "off"}),
    )

    def clean_code(self) -> str:
        return "".join(self.cleaned_data["code"].split()).upper()


class AssignmentForm(forms.Form):
    """A bank to practise or an exam to sit, with an optional due date."""

    bank = forms.ModelChoiceField(
        queryset=Bank.objects.none(),
        required=False,
        empty_label=_("(no bank)"),
        label=_("Bank to practise"),
        help_text=_("Your shared and public banks; assigning one adds it to the cohort's banks."),
    )
    blueprint = forms.ModelChoiceField(
        queryset=ExamBlueprint.objects.none(),
        required=False,
        empty_label=_("(no exam)"),
        label=_("Or an exam to sit"),
    )
    due_on = forms.DateField(
        required=False,
        label=_("Due on (optional)"),
        widget=forms.DateInput(attrs={"type": "date"}),
    )

    def __init__(self, *args, instructor, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["bank"].queryset = cohorts.assignable_banks(instructor)
        self.fields["blueprint"].queryset = cohorts.assignable_blueprints(instructor)

    def clean(self) -> dict:
        cleaned = super().clean()
        if not self.errors and (cleaned.get("bank") is None) == (cleaned.get("blueprint") is None):
            raise forms.ValidationError(_("Choose a bank or an exam (one of the two)."))
        return cleaned


class ExamForm(forms.Form):
    """An exam an instructor sets from their own banks."""

    title = forms.CharField(label=_("Title"), max_length=200)
    description = forms.CharField(
        label=_("Description (optional)"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    banks = forms.ModelMultipleChoiceField(
        queryset=Bank.objects.none(),
        label=_("Banks to draw from"),
        widget=forms.CheckboxSelectMultiple,
    )
    topics = forms.MultipleChoiceField(
        label=_("Topics (rules)"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("None ticked: every rule your banks' questions ask about."),
    )
    question_count = forms.IntegerField(label=_("Questions"), min_value=1, max_value=200)
    time_limit_minutes = forms.IntegerField(
        label=_("Time limit (minutes)"),
        min_value=1,
        max_value=600,
        required=False,
        help_text=_("Empty: untimed, as Judge Foundry's exams are."),
    )
    pass_percent = forms.IntegerField(
        label=_("Pass mark (%)"), min_value=0, max_value=100, initial=80
    )
    max_sittings = forms.IntegerField(
        label=_("Sittings allowed (empty: no limit)"), min_value=1, max_value=100, required=False
    )
    retake_wait_hours = forms.IntegerField(
        label=_("Hours between two starts"), min_value=0, max_value=24 * 365, initial=24
    )

    def __init__(self, *args, instructor, topics: list[tuple[str, str]], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["banks"].queryset = Bank.objects.owned_by(instructor)
        self.fields["topics"].choices = [(number, f"{number} {title}") for number, title in topics]

    def clean_title(self) -> str:
        return plain_name(self.cleaned_data["title"], _("The title"))

    def clean_topics(self) -> list[str]:
        topics = self.cleaned_data["topics"]
        if len(", ".join(topics)) > MAX_TOPICS_TEXT:  # the exam area's rules field
            raise forms.ValidationError(
                _("Tick fewer topics, or none for every rule of your banks.")
            )
        return topics


class AccommodationForm(forms.Form):
    learner = forms.ModelChoiceField(queryset=Bank.objects.none(), label=_("Learner"))
    extra_minutes = forms.IntegerField(
        label=_("Extra minutes per sitting"), min_value=0, max_value=600, initial=0
    )
    extra_sittings = forms.IntegerField(
        label=_("Extra sittings"), min_value=0, max_value=20, initial=0
    )

    def __init__(self, *args, learners, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["learner"].queryset = learners
        self.fields["learner"].label_from_instance = lambda user: user.get_username()


class ExamAssignForm(forms.Form):
    cohort = forms.ModelChoiceField(queryset=Cohort.objects.none(), label=_("Cohort"))
    due_on = forms.DateField(
        required=False,
        label=_("Due on (optional)"),
        widget=forms.DateInput(attrs={"type": "date"}),
    )

    def __init__(self, *args, instructor, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["cohort"].queryset = Cohort.objects.owned_by(instructor)

"""Admin pages for content: banks, scenarios (engine-checked on save) and questions."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.utils import timezone

from config.admin import ModelAdmin
from quizzes.models import (
    ApiToken,
    Bank,
    BlueprintArea,
    ExamBlueprint,
    ExamSitting,
    Question,
    Scenario,
)
from quizzes.rulings import checks
from rules.cards import catalog_for

QUESTION_CONTENT = frozenset({"kind", "prompt", "claims", "scenario", "is_active"})


def _asks_otherwise(form) -> bool:
    """Whether a question form changes what its scenario's current version asks."""
    return form.instance.pk is not None and bool(QUESTION_CONTENT & set(form.changed_data))


class ScenarioForm(forms.ModelForm):
    """The admin's scenario: the engine must read the spec (with its author's cards)."""

    class Meta:
        model = Scenario
        fields = "__all__"

    def clean(self):
        cleaned = super().clean()
        spec = cleaned.get("spec")
        if isinstance(spec, dict) and "spec" not in self.errors:
            author = cleaned.get("author")
            problem = checks.spec_error(spec, catalog_for(author.pk if author else None))
            if problem:
                self.add_error("spec", problem)
        return cleaned


class QuestionForm(forms.ModelForm):
    """The admin's question: its kind must take its claims."""

    class Meta:
        model = Question
        fields = "__all__"

    def clean(self):
        cleaned = super().clean()
        claims, kind = cleaned.get("claims"), cleaned.get("kind")
        if isinstance(claims, list) and kind and "claims" not in self.errors:
            problem = checks.question_problem(kind, claims)
            if problem:
                self.add_error("claims", problem)
        return cleaned


class QuestionInline(admin.TabularInline):
    form = QuestionForm
    model = Question
    fk_name = "scenario"
    extra = 0
    fields = ["key", "kind", "prompt", "bank", "position", "is_active"]
    show_change_link = True


@admin.register(Bank)
class BankAdmin(ModelAdmin):
    list_display = ["title", "slug", "owner", "visibility", "question_count", "updated_at"]
    list_filter = ["visibility"]
    search_fields = ["title", "slug", "description", "owner__username"]
    prepopulated_fields = {"slug": ["title"]}
    autocomplete_fields = ["owner"]

    @admin.display(description="questions")
    def question_count(self, bank: Bank) -> int:
        return bank.questions.count()


@admin.register(Scenario)
class ScenarioAdmin(ModelAdmin):
    form = ScenarioForm
    list_display = ["title", "slug", "engine_status", "version", "author", "updated_at"]
    list_filter = ["engine_status", "rules_exercised"]
    search_fields = ["title", "slug", "source", "stored_ruling"]
    readonly_fields = ["engine_status", "engine_report", "rules_exercised", "version"]
    autocomplete_fields = ["author"]
    inlines = [QuestionInline]
    actions = ["check_selected_with_engine"]
    fieldsets = [
        (None, {"fields": ["title", "slug", "source", "author", "version"]}),
        ("The situation", {"fields": ["spec"]}),
        ("The ruling", {"fields": ["stored_ruling", "stored_expect"]}),
        ("Engine check", {"fields": ["engine_status", "engine_report", "rules_exercised"]}),
    ]

    def save_model(self, request, scenario: Scenario, form, change: bool) -> None:
        scenario._admin_since = scenario.current_version_id  # save() may start a version
        super().save_model(request, scenario, form, change)

    def save_formset(self, request, form, formset, change: bool) -> None:
        """An edited question of an answered version starts a new version first (once)."""
        scenario = form.instance
        edited = any(_asks_otherwise(f) for f in formset.forms) or formset.deleted_forms
        if change and edited and scenario.current_version_id == scenario._admin_since:
            scenario.start_version()
        super().save_formset(request, form, formset, change)

    def save_related(self, request, form, formsets, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        check = checks.record_engine_check(form.instance)
        if check.status != Scenario.EngineStatus.AGREES:
            self.message_user(
                request, f"Engine check: {check.status}. {check.report}", messages.WARNING
            )

    @admin.action(description="Check the selected scenarios with the engine")
    def check_selected_with_engine(self, request, queryset) -> None:
        statuses = [checks.record_engine_check(scenario).status for scenario in queryset]
        summary = ", ".join(f"{statuses.count(s)} {s}" for s in sorted(set(statuses)))
        self.message_user(request, f"Checked {len(statuses)} scenarios: {summary}.")


@admin.register(Question)
class QuestionAdmin(ModelAdmin):
    form = QuestionForm
    list_display = ["__str__", "kind", "level", "bank", "position", "difficulty", "is_active"]
    list_filter = ["kind", "level", "is_active", "bank", "rules"]
    search_fields = ["prompt", "key", "scenario__title", "scenario__slug"]
    list_select_related = ["scenario", "bank"]
    autocomplete_fields = ["scenario", "bank", "rules"]

    def save_model(self, request, question: Question, form, change: bool) -> None:
        """Changing what a question asks starts a new version of its scenario: answers given
        keep the old question (frozen into the version that ends)."""
        if change and _asks_otherwise(form):
            Scenario.objects.get(pk=form.initial["scenario"]).start_version()
        super().save_model(request, question, form, change)


class BlueprintAreaInline(admin.TabularInline):
    model = BlueprintArea
    extra = 1
    fields = ["position", "title", "rules", "count"]


@admin.register(ExamBlueprint)
class ExamBlueprintAdmin(ModelAdmin):
    list_display = [
        "title",
        "slug",
        "question_count",
        "time_limit_minutes",
        "pass_mark",
        "is_active",
    ]
    list_filter = ["is_active"]
    search_fields = ["title", "slug", "description"]
    prepopulated_fields = {"slug": ["title"]}
    inlines = [BlueprintAreaInline]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("areas")


@admin.register(ExamSitting)
class ExamSittingAdmin(ModelAdmin):
    """Sittings are the learners' record: read-only here."""

    list_display = ["title", "learner", "started_at", "right_count", "question_count", "passed"]
    list_filter = ["passed", "blueprint"]
    search_fields = ["title", "attempt__user__username"]
    list_select_related = ["attempt__user"]

    @admin.display(description="learner", ordering="attempt__user__username")
    def learner(self, sitting: ExamSitting) -> str:
        return str(sitting.attempt.user)

    @admin.display(description="started", ordering="attempt__started_at")
    def started_at(self, sitting: ExamSitting):
        return sitting.attempt.started_at

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def get_object(self, request, object_id, from_field=None):
        # the key is the attempt's id: a related-field lookup has no guard against ids past
        # 64 bits (SQLite raises OverflowError), unlike the plain id fields of other models
        try:
            return super().get_object(request, object_id, from_field)
        except OverflowError:
            return None


@admin.register(ApiToken)
class ApiTokenAdmin(ModelAdmin):
    """Rulings API tokens (docs/api.md): made here or by `manage.py api_token`, shown once as
    they are made, revoked with the action; only their hash is kept."""

    list_display = ["name", "owner", "prefix", "created_at", "last_used_at", "revoked_at"]
    list_filter = ["revoked_at"]
    search_fields = ["name", "owner__username", "prefix"]
    list_select_related = ["owner"]
    autocomplete_fields = ["owner"]
    readonly_fields = ["prefix", "created_at", "last_used_at"]
    actions = ["revoke"]

    def get_fields(self, request, obj=None):
        if obj is None:
            return ["owner", "name"]
        return ["owner", "name", "prefix", "created_at", "last_used_at", "revoked_at"]

    def get_readonly_fields(self, request, obj=None):
        return ["owner", *self.readonly_fields] if obj is not None else []

    def save_model(self, request, obj, form, change) -> None:
        if change:
            super().save_model(request, obj, form, change)
            return
        row, token = ApiToken.issue(obj.owner, obj.name)
        obj.pk, obj.digest, obj.prefix = row.pk, row.digest, row.prefix
        obj.created_at = row.created_at
        self.message_user(
            request,
            f"The token for {row.owner}, shown this once (only its hash is kept): {token}",
            messages.WARNING,
        )

    @admin.action(description="Revoke the selected tokens")
    def revoke(self, request, queryset) -> None:
        count = queryset.filter(revoked_at__isnull=True).update(revoked_at=timezone.now())
        self.message_user(request, f"{count} token(s) revoked.")


from quizzes.lti import admin as lti_admin  # noqa: E402,F401 (registers the LTI pages)

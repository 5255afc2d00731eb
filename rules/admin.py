"""Admin pages for rules (with the numbers they were printed under) and cards."""

from __future__ import annotations

from django.contrib import admin

from config.admin import ModelAdmin
from rules.models import Card, Rule, RuleAlias


class RuleAliasInline(admin.TabularInline):
    model = RuleAlias
    extra = 0
    fields = ["number", "note"]


class EditionInline(admin.TabularInline):
    model = Rule
    fk_name = "canonical"
    extra = 0
    fields = ["number", "language", "edition_name", "edition_date"]
    show_change_link = True
    verbose_name = "older or translated edition"
    verbose_name_plural = "older and translated editions"


@admin.register(Rule)
class RuleAdmin(ModelAdmin):
    list_display = ["number", "kind", "language", "edition_name", "edition_date", "current"]
    list_filter = ["kind", "language", "edition_name"]
    search_fields = ["number", "title", "text", "aliases__number"]
    list_select_related = ["canonical"]
    autocomplete_fields = ["canonical"]
    inlines = [RuleAliasInline, EditionInline]
    fieldsets = [
        (None, {"fields": ["number", "kind", "title", "text"]}),
        ("Edition", {"fields": ["language", "edition_name", "edition_date", "source"]}),
        ("History", {"fields": ["canonical", "note"]}),
    ]

    @admin.display(description="current rule", ordering="canonical__number")
    def current(self, rule: Rule) -> str:
        return rule.canonical.number if rule.canonical_id else "(this one)"


@admin.register(RuleAlias)
class RuleAliasAdmin(ModelAdmin):
    list_display = ["number", "rule", "note"]
    search_fields = ["number", "rule__number", "note"]
    list_select_related = ["rule"]
    autocomplete_fields = ["rule"]


@admin.register(Card)
class CardAdmin(ModelAdmin):
    list_display = ["name", "type_line", "localized"]
    search_fields = ["name", "oracle", "localized_names"]
    list_filter = ["type_line"]
    readonly_fields = ["type_line", "oracle"]
    fields = ["name", "definition", "localized_names", "type_line", "oracle"]

    @admin.display(description="localised names")
    def localized(self, card: Card) -> str:
        names = card.localized_names if isinstance(card.localized_names, dict) else {}
        return ", ".join(f"{language}: {name}" for language, name in sorted(names.items()))

from __future__ import annotations

from django.apps import AppConfig


class RulesConfig(AppConfig):
    name = "rules"
    verbose_name = "Rules and cards"

    def ready(self) -> None:
        from django.db.models.signals import post_delete, post_save

        from rules import texts
        from rules.models import Rule, RuleAlias

        for model in (Rule, RuleAlias):  # cached rule texts are stale once a row changes
            post_save.connect(texts.bump_after_commit, sender=model, dispatch_uid=f"texts-{model}")
            post_delete.connect(
                texts.bump_after_commit, sender=model, dispatch_uid=f"texts-del-{model}"
            )

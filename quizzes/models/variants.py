"""A question's stored variants: each one a learner may be served, made and ruled by the engine
when the content is written (`rulings.store_variants`), so a request serves data."""

from __future__ import annotations

import json
import zlib
from typing import Any

from django.db import models


class PackedJSONField(models.BinaryField):
    """JSON kept zlib-compressed: a variant's data is read whole, never queried inside, and is
    four times smaller packed (SQLite compresses nothing; PostgreSQL's TOAST would do it
    anyway)."""

    # What django-stubs types a model's attribute as: JSON in and out, not a BinaryField's bytes.
    _pyi_private_set_type: Any
    _pyi_private_get_type: Any

    def from_db_value(self, value: Any, expression, connection) -> Any:
        return None if value is None else json.loads(zlib.decompress(bytes(value)))

    def to_python(self, value: Any) -> Any:
        if isinstance(value, bytes | memoryview):
            return json.loads(zlib.decompress(bytes(value)))
        return value

    def get_prep_value(self, value: Any) -> Any:
        if value is None:
            return None
        packed = json.dumps(value, separators=(",", ":"), sort_keys=True).encode()
        return super().get_prep_value(zlib.compress(packed, 6))


class VariantQuerySet(models.QuerySet):
    def of(self, question_id: int, version_id: int | None) -> VariantQuerySet:
        """The variants of a question as given on a version of its scenario."""
        return self.filter(question_id=question_id, scenario_version_id=version_id)


class Variant(models.Model):
    """One variant of a question on one version of its scenario: the names, cards and order it
    is shown with (`shown`, statements in their written order) and what the engine ruled on it
    (`ruled`: the board's scene, each claim's value, rule and reason, a legal set's picks).
    Never changed once made: an edit starts a new version, with new variants."""

    question = models.ForeignKey(
        "quizzes.Question", on_delete=models.CASCADE, related_name="variants"
    )
    scenario_version = models.ForeignKey(
        "quizzes.ScenarioVersion", on_delete=models.CASCADE, related_name="variants"
    )
    seed = models.PositiveIntegerField(help_text="0: the scenario as written.")
    kind = models.CharField(max_length=20, help_text="The question's kind on this version.")
    shown = PackedJSONField(help_text="spec, claims (as written), players and cards renamed.")
    ruled = PackedJSONField(help_text="The engine's answers on this variant (rulings/frozen.py).")
    rule_numbers = models.JSONField(
        default=list, help_text="The rules the engine cites for the claims asked."
    )
    problems = models.JSONField(
        default=list,
        blank=True,
        help_text="What the audit found wrong with it when it was made, in words (flagged).",
    )
    made_with = models.CharField(
        max_length=40,
        blank=True,
        help_text="The engine, wording and translations it was made with (a hash): content "
        "loaded again remakes a variant made with others.",
    )

    objects = VariantQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["question", "scenario_version", "seed"], name="one_variant_per_seed"
            )
        ]

    def __str__(self) -> str:
        return f"question {self.question_id}, version {self.scenario_version_id}, seed {self.seed}"

"""How many variants a question has, and what a stored variant is made with."""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from django.conf import settings


def variant_count() -> int:
    """How many variants each question has (1, the scenario as written, when variants are
    off)."""
    if not getattr(settings, "QUIZZES_VARIANTS", True):
        return 1
    return int(getattr(settings, "QUIZZES_VARIANT_COUNT", 5))


# What a stored variant is made with: the engine, the catalog's card files, the code that makes
# a variant and says its reasons, and the translations they are said in. A variant made with
# other ones is made again when content is next loaded.
MADE_WITH = (
    ("rules/engine", "*.py"),
    ("rules/catalog", "*.json"),
    *(
        ("quizzes/rulings", f"{name}.py")
        for name in (
            "variants", "sessions", "frozen", "scene", "reasons", "descriptions", "names",
            "claims", "values",
        )
    ),
    ("locale", "*.po"),
    ("quizzes/content", "localized_names.json"),
)  # fmt: skip


@functools.cache
def made_with() -> str:
    """A hash of everything a stored variant is made with."""
    digest = hashlib.sha1(usedforsecurity=False)
    root = Path(settings.BASE_DIR)
    for folder, pattern in MADE_WITH:
        for path in sorted((root / folder).rglob(pattern)):
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()

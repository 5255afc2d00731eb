"""One door where the apps meet: only quizzes.rulings (and content validation) imports the
engine."""

from __future__ import annotations

import re
from pathlib import Path

import quizzes

ROOT = Path(quizzes.__file__).resolve().parent
# Content validation parses a scenario to refuse a bad file before anything is stored.
VALIDATION = {
    "authoring.py",
    "loading/read.py",
    "loading/write.py",
    "management/commands/load_content.py",
    "models/content.py",
}
ENGINE_IMPORT = re.compile(r"^\s*(?:from|import) rules\.engine", re.M)


def test_only_the_rulings_package_and_validation_import_the_engine():
    importers = {
        str(path.relative_to(ROOT))
        for path in ROOT.rglob("*.py")
        if "migrations" not in path.parts and ENGINE_IMPORT.search(path.read_text())
    }
    outside = {name for name in importers if not name.startswith("rulings/")} - VALIDATION
    assert not outside, sorted(outside)

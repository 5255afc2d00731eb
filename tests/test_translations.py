"""The German and Italian catalogs keep up with the code (docs/i18n.md).

`makemessages` runs on a copy of the sources; every message it finds must be translated in each
catalog (no untranslated, no fuzzy entry), and the committed .mo files must be what msgfmt
compiles from the .po files, so a fresh `dev.py serve` shows the translations. A failure names
the missing messages: run the workflow in docs/i18n.md.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = [code for code, _name in settings.LANGUAGES if code != "en"]
SOURCES = ("config", "quizzes", "rules", "templates", "manage.py")


def catalog(language: str) -> Path:
    return ROOT / "locale" / language / "LC_MESSAGES" / "django.po"


def tool(name: str) -> str:
    path = shutil.which(name)
    assert path, f"{name} (GNU gettext) is needed: apt-get install gettext"
    return path


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    """The messages the code marks today: makemessages on a copy of the sources."""
    copy = tmp_path_factory.mktemp("sources")
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, copy / name)
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings_test"}
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "--locale", "de", "--keep-pot",
         "--no-location", "--verbosity", "0"],
        cwd=copy, env=env, check=True, capture_output=True, text=True,
    )  # fmt: skip
    pot = copy / "locale" / "django.pot"
    assert pot.exists()
    return pot


def message_at(pot: Path, line: int) -> str:
    """The msgctxt/msgid of the entry around `line` (1-based) of a .pot file, as written."""
    lines = pot.read_text(encoding="utf-8").splitlines()
    first = line - 1
    while first > 0 and lines[first - 1].strip() and not lines[first - 1].startswith("#"):
        first -= 1
    last = first
    while last < len(lines) and lines[last].strip():
        last += 1
    entry = [text for text in lines[first:last] if not text.startswith("#")]
    return " ".join(text for text in entry if not text.startswith("msgstr"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_in_the_code_is_translated(template, language):
    # msgcmp reports each message of the template that the catalog lacks or leaves untranslated
    # or fuzzy (by its line in the template: named here by its msgid).
    result = subprocess.run(
        [tool("msgcmp"), str(catalog(language)), str(template)], capture_output=True, text=True
    )
    lines = [int(n) for n in re.findall(r"django\.pot:(\d+): this message", result.stderr)]
    missing = [message_at(template, line) for line in lines]
    assert result.returncode == 0 and not missing, (
        f"locale/{language} lacks {len(missing)} message(s) of the code (docs/i18n.md):\n"
        + "\n".join(missing or [result.stderr])
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_catalog_has_no_untranslated_or_fuzzy_entry(language):
    result = subprocess.run(
        [tool("msgfmt"), "--check", "--statistics", "-o", os.devnull, str(catalog(language))],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    statistics = result.stderr.strip().splitlines()[-1]
    assert "untranslated" not in statistics and "fuzzy" not in statistics, statistics


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_committed_mo_is_compiled_from_the_po(language, tmp_path):
    compiled = tmp_path / "django.mo"
    subprocess.run(
        [tool("msgfmt"), "--check", "-o", str(compiled), str(catalog(language))], check=True
    )
    committed = catalog(language).with_suffix(".mo")
    assert committed.read_bytes() == compiled.read_bytes(), (
        f"locale/{language}/LC_MESSAGES/django.mo is stale: compile it (docs/i18n.md)"
    )

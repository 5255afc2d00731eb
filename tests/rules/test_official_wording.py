"""Every rule a learner is shown is the official wording of the current Comprehensive Rules.

Reads the seed rule rows (quizzes/content/rules.json) as data, the way load_content stores them.
An editor's summary used to stand in for a rule no source printed; it was labelled in its
text ("Summary, not the rule's wording: ..."), its edition ("Editor's summary ...") and its
note. The fixture is an excerpt of the published text file effective 2026-09-25.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rules.management.commands.import_rules import read_rules_text

ROOT = Path(__file__).resolve().parents[2]
CONTENT = ROOT / "quizzes" / "content"
EXCERPT = Path(__file__).resolve().parent / "fixtures" / "cr-20260925-excerpt.txt"
ROWS = json.loads((CONTENT / "rules.json").read_text(encoding="utf-8"))
CURRENT = {(row["number"], row["kind"]): row for row in ROWS if not row.get("canonical")}
CURRENT_RULES = {number: row for (number, kind), row in CURRENT.items() if kind == "rule"}
ALIASES = {alias["number"]: row["number"] for row in ROWS for alias in row.get("aliases", [])}
NUMBER = re.compile(r"\b\d{3}\.\d+[a-z]?\b")
SUMMARY = re.compile(r"summary|not the rule.s wording", re.IGNORECASE)


def _engine_citations() -> set[str]:
    """Every rule number the engine's code names, as its current number (the content's own
    citations are checked on the loaded rows, in tests/quizzes/test_load_content.py)."""
    paths = (ROOT / "rules" / "engine").glob("*.py")
    found = {n for path in paths for n in NUMBER.findall(path.read_text(encoding="utf-8"))}
    return {ALIASES.get(number, number) for number in found}


def _labels(row: dict) -> str:
    return " ".join(row.get(field) or "" for field in ("text", "edition_name", "source", "note"))


def test_no_rule_the_engine_cites_is_an_editors_summary():
    cited = _engine_citations()
    assert {"101.4", "118.9", "608.2d", "704.5b", "723.5", "701.23i"} <= cited
    summaries = sorted(n for n in cited if SUMMARY.search(_labels(CURRENT_RULES[n])))
    assert summaries == []


def test_no_rule_row_at_all_is_labelled_a_summary():
    assert [row["number"] for row in ROWS if SUMMARY.search(_labels(row))] == []


def test_every_current_row_names_the_current_edition_and_its_source():
    dates = {row["edition_date"] for row in CURRENT.values()}
    assert dates == {"2026-09-25"}
    unnamed = [
        number
        for (number, _), row in CURRENT.items()
        if row["edition_name"] != "Comprehensive Rules effective 2026-09-25"
        or not row["source"].startswith("Comprehensive Rules")
        or "Wizards of the Coast" not in row["source"]
    ]
    assert unnamed == []


def test_every_translation_or_older_number_names_its_edition_and_source():
    other = [row for row in ROWS if row.get("canonical")]
    assert other
    assert [row["number"] for row in other if not (row["edition_name"] and row["source"])] == []


OFFICIAL = ["101.4", "118.9", "508.1k", "509.1g", "608.2d", "704.5b", "709.4a", "709.4b", "723.5"]


@pytest.mark.parametrize("number", OFFICIAL)
def test_the_stored_wording_is_the_published_files(number):
    date, rules = read_rules_text(EXCERPT.read_text(encoding="utf-8"))
    assert str(date) == CURRENT_RULES[number]["edition_date"]
    assert CURRENT_RULES[number]["text"] == rules[number]


def test_controlling_another_player_reads_as_the_2026_rules_word_it():
    text = CURRENT_RULES["723.5"]["text"]
    assert text.startswith("While controlling another player, a player makes all choices")
    assert "\nExample: The controller of another player decides which spells" in text

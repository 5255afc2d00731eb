"""Rule numbers: the engine cites current numbers; earlier numbers are aliases with their edition.

Reads the seed rule rows (quizzes/content/rules.json) as data, the way load_content stores them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rules.models import nearest_heading

ROOT = Path(__file__).resolve().parents[2]
ROWS = json.loads((ROOT / "quizzes/content/rules.json").read_text(encoding="utf-8"))
CURRENT = {row["number"]: row for row in ROWS if not row.get("canonical")}
ALIASES = {alias["number"]: row["number"] for row in ROWS for alias in row.get("aliases", [])}


def _engine_citations() -> set[str]:
    engine = ROOT / "rules" / "engine"
    return {
        number
        for path in engine.glob("*.py")
        for number in re.findall(r"\b\d{3}\.\d+[a-z]?\b", path.read_text(encoding="utf-8"))
    }


def test_the_engine_cites_current_numbers_only():
    # An engine citation that is only an earlier number would send a reader to a redirect.
    stale = {n for n in _engine_citations() if n not in CURRENT}
    assert stale == set()


def test_controlling_another_player_is_723_with_its_earlier_numbers():
    row = CURRENT["723.5"]
    notes = {alias["number"]: alias["note"] for alias in row["aliases"]}
    assert set(notes) == {"722.5", "721.5", "720.5"}
    assert "2025-09-19" in notes["722.5"]
    assert "June 2024" in notes["720.5"]
    assert "722.5" not in CURRENT


@pytest.mark.parametrize("letter", "abcdefghij")
def test_every_earlier_search_subrule_finds_its_rule(letter):
    assert ALIASES[f"701.19{letter}"] == f"701.23{letter}"


def test_every_alias_says_which_edition_it_belongs_to():
    vague = [
        (row["number"], alias)
        for row in ROWS
        for alias in row.get("aliases", [])
        if not re.search(r"edition|rules of|Search was", alias.get("note", ""), re.IGNORECASE)
    ]
    assert vague == []


def test_an_old_search_number_that_is_mills_today_says_so():
    note = next(a["note"] for a in CURRENT["701.23b"]["aliases"] if a["number"] == "701.17b")
    assert "701.17b" in CURRENT  # Mill's, today
    assert "Mill" in note


def test_every_rule_has_a_title_through_its_heading():
    """Pages name a rule by its nearest titled heading (106.7 "Mana", 701.24a "Shuffle"): a rule
    the content cites, or holds, without one would stand as a bare number."""
    english = [row for row in CURRENT.values() if row["language"] == "en"]
    titled = {row["number"] for row in english if row["title"].strip()}
    untitled = [row["number"] for row in english if not nearest_heading(row["number"], titled)]
    assert untitled == []

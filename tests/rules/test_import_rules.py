"""`manage.py import_rules`: the Comprehensive Rules text file as the current rules.

The fixture is a small excerpt in the published format (byte order mark, CRLF lines, the
contents, numbered rules with examples, the glossary).
"""

from __future__ import annotations

import datetime
import io
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from rules.management.commands.import_rules import read_rules_text
from rules.models import Rule, RuleAlias
from tests.factories import RuleAliasFactory, RuleFactory, ScenarioFactory

EXCERPT = Path(__file__).resolve().parent / "fixtures" / "cr-excerpt.txt"
CONTROL_TEXT = (
    "The controller of another player makes all choices and decisions the controlled player is "
    "allowed to make or is told to make by the rules or by any objects."
)


def _import(*extra: str) -> str:
    out = io.StringIO()
    call_command("import_rules", str(EXCERPT), *extra, stdout=out)
    return out.getvalue()


def test_the_text_file_is_read_into_numbers_and_texts():
    date, rules = read_rules_text(EXCERPT.read_text(encoding="utf-8-sig"))
    assert date == datetime.date(2026, 2, 27)
    assert rules["701.23"] == "Search"
    assert rules["100.1a"].startswith("A two-player game")
    assert rules["701.23b"].endswith("Example: Splinter says \u201cExile target artifact.\u201d")
    assert "100" not in rules and "723" not in rules  # section headings and contents
    assert not any(text.startswith("To look at all cards") for text in rules.values())


@pytest.mark.django_db
def test_a_renumbered_rule_moves_with_its_citations_and_aliases():
    old = RuleFactory(number="722.5", text=CONTROL_TEXT, edition_name="Marvel's Spider-Man")
    RuleAliasFactory(rule=old, number="721.5", note="721.5 in an earlier edition")
    scenario = ScenarioFactory()
    scenario.rules_exercised.add(old)
    output = _import()
    old.refresh_from_db()
    assert old.number == "723.5"
    assert old.edition_date == datetime.date(2026, 2, 27)
    assert "722.5 -> 723.5" in output
    aliases = dict(RuleAlias.objects.filter(rule=old).values_list("number", "note"))
    assert aliases["722.5"] == "722.5 in Marvel's Spider-Man, 2025-09-19"
    assert "721.5" in aliases
    assert list(scenario.rules_exercised.values_list("number", flat=True)) == ["723.5"]
    assert Rule.objects.resolve_number("722.5") == old


@pytest.mark.django_db
def test_a_labelled_summary_gives_way_to_the_official_text(client):
    summary = RuleFactory(
        number="701.24a",
        text="Summary, not the rule's wording: to shuffle a library is to randomize it.",
        note="The engine cites 701.24a; no source in hand prints its text, so this row is an "
        "editor's summary, labelled as such.",
        edition_name="Editor's summary",
        edition_date=None,
    )
    output = _import()
    summary.refresh_from_db()
    assert summary.text.startswith("To shuffle a library or a face-down pile")
    assert summary.note == ""
    assert summary.edition_name == "Comprehensive Rules effective 2026-02-27"
    assert "701.24a" in output
    page = client.get(reverse("rule_detail", args=["701.24a"])).content.decode()
    assert "Text from: Comprehensive Rules effective 2026-02-27" in page


@pytest.mark.django_db
def test_unchanged_missing_and_blocked_rules_are_reported_and_kept():
    RuleFactory(
        number="100.1a", text="A two-player game is a game that begins with only two players."
    )
    kept = RuleFactory(number="999.1", text="A rule this file doesn't have.")
    # 100.1's text in the file is this row's text, but 100.1 is held by another current rule
    # the file leaves as it is: the move is refused, not forced.
    RuleFactory(
        number="100.9",
        text="These Magic rules apply to any Magic game with two or more players, including "
        "two-player games and multiplayer games.",
    )
    RuleFactory(
        number="100.1",
        text="These Magic rules apply to any Magic game with two or more players, including "
        "two-player games and multiplayer games.",
    )
    output = _import()
    assert "unchanged: 2" in output
    assert "999.1" in output
    kept.refresh_from_db()
    assert kept.text == "A rule this file doesn't have."
    assert Rule.objects.current().filter(number="100.9").exists()
    assert "CONFLICT: 100.9 reads like 100.1" in output


@pytest.mark.django_db
def test_a_dry_run_saves_nothing():
    old = RuleFactory(number="722.5", text=CONTROL_TEXT)
    output = _import("--dry-run")
    old.refresh_from_db()
    assert old.number == "722.5"
    assert "dry run" in output and "722.5 -> 723.5" in output

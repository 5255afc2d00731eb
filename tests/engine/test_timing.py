"""Casting timing (rules/engine/timing.py): a spell cast at sorcery timing by a player who is
not the active player is a finding with its rule; the outcome never changes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine import check_expectations, default_catalog, parse_scenario, timing_findings
from rules.engine.timing import SORCERY_TIMING

from .builders import card, cast, scenario

SHARED_EXAMPLES = Path(__file__).resolve().parents[2].parent / "shared/spec/examples"
PLAYERS = ("Alice", "Nadia", "Priya", "Jonas")
SIEGE = card("Invasion of Testing", types=["Battle"], subtypes=["Siege"], mana_cost="{2}{R}")
CATALOG_NAMES = tuple(default_catalog().names())


def findings_of(spec: dict) -> tuple:
    return timing_findings(parse_scenario(spec))


def nadia_casts(name: str, *, active: str | None = None, **zones) -> dict:
    """Nadia casts `name` from her hand; Alice (the first player) is active unless `active`."""
    hand = {"Nadia": {"hand": [f"{name}#spell"], **zones}}
    return scenario(zones=hand, resolve=cast("spell", "Nadia"), active=active, cards=[SIEGE])


# ---------------------------------------------------------------- examples with real cards


def test_the_shared_case_nadia_casts_demonic_tutor_in_alices_turn():
    spec = json.loads((SHARED_EXAMPLES / "mindcensor-demonic-tutor.json").read_text())
    (finding,) = findings_of(spec)
    assert (finding.path, finding.card, finding.caster, finding.active, finding.rule) == (
        "resolve",
        "Demonic Tutor",
        "Nadia",
        "Alice",
        "307.1",
    )
    assert finding.reason == (
        "Nadia casts Demonic Tutor while Alice is the active player: a sorcery without flash can "
        "be cast only in a main phase of its caster's own turn, when the stack is empty."
    )
    assert check_expectations(spec) == []  # a warning: the stored ruling still agrees


def test_in_nadias_own_turn_demonic_tutor_is_fine():
    assert findings_of(nadia_casts("Demonic Tutor", active="Nadia")) == ()


@pytest.mark.parametrize(
    ("name", "rule"),
    [
        ("Demonic Tutor", "307.1"),
        ("Grizzly Bears", "302.1"),
        ("Mindlock Orb", "301.1"),
        ("Hangarback Walker", "301.1"),  # an artifact creature: the first type written
        ("Stranglehold", "303.1"),
        ("Ashiok, Dream Render", "306.1"),
        ("Invasion of Testing", "310.1"),
    ],
)
def test_each_type_cast_out_of_turn_cites_its_rule(name, rule):
    (finding,) = findings_of(nadia_casts(name))
    assert (finding.card, finding.rule) == (name, rule)


@pytest.mark.parametrize("name", ["Vampiric Tutor", "Mystical Teachings", "Aven Mindcensor"])
def test_instants_and_flash_may_be_cast_in_anyones_turn(name):
    assert findings_of(nadia_casts(name)) == ()


def test_a_land_is_no_timing_finding():
    """Dryad Arbor is a land creature: played as a land, never cast (305.9)."""
    assert findings_of(nadia_casts("Dryad Arbor")) == ()


def test_flashback_keeps_the_sorcerys_timing():
    """Faithless Looting cast from the graveyard is still a sorcery (702.34a)."""
    spec = scenario(
        zones={"Nadia": {"graveyard": ["Faithless Looting#loot"], "hand": ["Island", "Swamp"]}},
        resolve=cast("loot", "Nadia"),
    )
    assert [f.rule for f in findings_of(spec)] == ["307.1"]


def test_a_copy_cast_by_name_defaults_to_the_active_player():
    """With no "by" a copy cast by name is the active player's: nothing to report."""
    spec = scenario(resolve={"cast": "Demonic Tutor"})
    assert findings_of(spec) == ()


def test_a_sorcery_cast_earlier_this_turn_is_found_in_the_history():
    """Archive Trap's turn: Nadia cast Rampant Growth while Alice was the active player."""
    spec = scenario(
        zones={
            "Alice": {"hand": ["Archive Trap#trap"]},
            "Nadia": {"library": ["Forest", "Island"], "hand": ["Rampant Growth#growth"]},
        },
        history=[cast("growth", "Nadia", choices={"Nadia": {"find": []}})],
        resolve=cast("trap", "Alice", targets=["Nadia"]),
    )
    (finding,) = findings_of(spec)
    assert (finding.path, finding.card, finding.rule) == ("history[0]", "Rampant Growth", "307.1")
    assert findings_of({**spec, "active": "Nadia"}) == ()


def test_an_activation_or_a_draw_is_no_cast():
    spec = scenario(
        zones={"Nadia": {"battlefield": ["Jayemdae Tome#tome"], "library": ["Island"]}},
        resolve={"activate": "tome", "by": "Nadia"},
    )
    assert findings_of(spec) == ()
    assert findings_of(scenario(resolve={"draw": "Nadia"})) == ()


# ---------------------------------------------------------------- invariants


@st.composite
def casts(draw: st.DrawFn) -> tuple[dict, str, str, str]:
    """A cast of any catalog card by any player of 2-4, with any active player."""
    players = PLAYERS[: draw(st.integers(min_value=2, max_value=4))]
    active = draw(st.sampled_from(players))
    caster = draw(st.sampled_from(players))
    name = draw(st.sampled_from(CATALOG_NAMES))
    spec = scenario(
        players=players,
        active=active,
        zones={caster: {"hand": [f"{name}#spell"]}},
        resolve=cast("spell", caster),
    )
    return spec, name, caster, active


@given(casts())
def test_the_active_player_casting_never_has_a_finding(cast_spec):
    spec, _, caster, _ = cast_spec
    assert findings_of({**spec, "active": caster}) == ()


@given(casts())
def test_an_instant_or_a_card_with_flash_never_has_a_finding(cast_spec):
    spec, name, _, _ = cast_spec
    definition = default_catalog().get(name)
    if "Instant" in definition.types or "flash" in definition.keyword_names:
        assert findings_of(spec) == ()


@given(casts())
def test_a_finding_names_the_cast_and_the_rule_of_one_of_its_types(cast_spec):
    spec, name, caster, active = cast_spec
    rules = {SORCERY_TIMING[t][0] for t in default_catalog().get(name).types if t in SORCERY_TIMING}
    for finding in findings_of(spec):
        assert (finding.path, finding.card, finding.caster, finding.active) == (
            "resolve",
            name,
            caster,
            active,
        )
        assert finding.rule in rules
        assert f"{caster} casts {name} while {active} is the active player" in finding.reason


@given(casts())
def test_a_sorcery_without_flash_out_of_turn_always_has_a_finding(cast_spec):
    spec, name, caster, active = cast_spec
    definition = default_catalog().get(name)
    if definition.types == ("Sorcery",) and caster != active:
        assert [f.rule for f in findings_of(spec)] == ["307.1"]

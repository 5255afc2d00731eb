"""Scenario families: validation names the bad parameter, instances are deterministic per seed
and distinct by the engine's conclusions, and the default amount reaches the issue's targets."""

from __future__ import annotations

import io
import json
import random
import shutil

import pytest
from django.core.management import call_command

from config import settings as production_settings
from quizzes.loading import CONTENT_DIR, ContentError
from quizzes.loading.generated import read_families
from quizzes.loading.read import GENERATED_BANK
from quizzes.models import Family, Question, Scenario
from quizzes.rulings import casting_timing
from quizzes.rulings.families import FamilyError, instance_spec, read_family
from quizzes.rulings.instances import conclusions_of, expand, rule_instance
from quizzes.rulings.ruling import asked_claim
from rules.engine import Session, default_catalog, parse_scenario

RULES = [row["number"] for row in json.loads((CONTENT_DIR / "rules.json").read_text())]


def splinter(**parameters) -> dict:
    """A small family: Splinter on an artifact with copies around."""
    return {
        "format": "family/1",
        "id": "test-splinter",
        "title": "Splinter",
        "source": "CR 701.23b",
        "level": "L1",
        "rules": ["701.23b"],
        "parameters": parameters
        or {
            "artifact": {"choices": ["Howling Mine", "Sol Ring"]},
            "graveyard": {"choices": [[], ["${artifact}#gy"]]},
        },
        "scenario": {
            "players": ["Alice", "Nadia"],
            "zones": {"Nadia": {"battlefield": ["${artifact}#target"], "graveyard": "$graveyard"}},
            "resolve": {"cast": "Splinter", "by": "Alice", "targets": ["target"]},
        },
        "expect": [
            {"claim": "finds", "card": "gy"},
            {"claim": "found_count", "searcher": "Alice", "whose": "Nadia"},
        ],
    }


def read(raw: dict):
    return read_family(
        raw, "families/test-splinter.json", "test-splinter", default_catalog(), RULES
    )


def test_a_bad_card_choice_is_named_with_its_file_path_and_why():
    raw = splinter(
        artifact={"choices": ["Howling Mine", "Howlng Mine"]},
        graveyard={"choices": [[]]},
    )
    with pytest.raises(FamilyError) as caught:
        read(raw)
    assert caught.value.file == "families/test-splinter.json"
    assert caught.value.path == "parameters.artifact 'Howlng Mine'"
    assert "unknown card 'Howlng Mine'" in caught.value.why


def test_a_bad_filter_an_unused_parameter_and_an_unknown_one_are_named():
    with pytest.raises(FamilyError, match=r"parameters\.artifact\.cards"):
        read(splinter(artifact={"cards": {"colour": ["U"]}}, graveyard={"choices": [[]]}))
    with pytest.raises(FamilyError, match=r"parameters\.spare: is not used"):
        read(splinter(**splinter()["parameters"], spare={"range": [1, 2]}))
    raw = splinter()
    raw["scenario"]["zones"]["Nadia"]["hand"] = "$hand"
    with pytest.raises(FamilyError, match=r"unknown parameter 'hand'"):
        read(raw)
    raw = splinter()
    raw["level"] = "L3"
    with pytest.raises(FamilyError, match=r"level: must be one of L1, L2, corner"):
        read(raw)
    raw = splinter()
    raw["rules"] = ["999.9"]
    with pytest.raises(FamilyError, match=r"rules\[0\]: no rule '999.9'"):
        read(raw)


def test_renaming_a_card_is_not_a_new_instance():
    # Nadia's graveyard holds a card either way: a search through empty zones asks nothing
    family = read(
        splinter(
            artifact={"choices": ["Howling Mine", "Sol Ring"]},
            graveyard={"choices": [["Island#other"], ["${artifact}#gy"]]},
        )
    )
    catalog = default_catalog()
    mine = rule_instance(
        family, {"artifact": "Howling Mine", "graveyard": ["${artifact}#gy"]}, catalog
    )
    ring = rule_instance(family, {"artifact": "Sol Ring", "graveyard": ["${artifact}#gy"]}, catalog)
    assert mine[0]["id"] != ring[0]["id"]  # two boards...
    assert mine[1] == ring[1]  # ...one conclusion
    expansion = expand(family, catalog, seed=0, count=10)
    assert len(expansion.instances) == 2  # a copy in the graveyard or not, whatever its name
    assert len({instance.conclusions for instance in expansion.instances}) == 2


def test_a_family_with_one_outcome_is_a_scenario():
    family = read(
        splinter(artifact={"choices": ["Howling Mine", "Sol Ring"]}, graveyard={"choices": [[]]})
    )
    with pytest.raises(FamilyError, match="a scenario, not a family"):
        expand(family, default_catalog(), seed=0, count=5)


def test_the_same_seed_gives_the_same_instances():
    catalog = default_catalog()
    family = next(f for f in read_families(CONTENT_DIR, catalog) if f.id == "typed-tutors")
    first = [i.slug for i in expand(family, catalog, seed=7, count=12).instances]
    again = [i.slug for i in expand(family, catalog, seed=7, count=12).instances]
    other = [i.slug for i in expand(family, catalog, seed=8, count=12).instances]
    assert first == again
    assert first != other


def test_every_seed_family_reads_and_has_a_level():
    families = read_families(CONTENT_DIR, default_catalog())
    assert len(families) >= 20
    assert {family.level for family in families} == {"L1", "L2", "corner"}


def test_a_bad_family_file_stops_generation_naming_it(tmp_path, db):
    call_command("load_content", "--per-family", "0", stdout=io.StringIO())
    content = tmp_path / "content"
    shutil.copytree(CONTENT_DIR, content)
    raw = splinter(artifact={"choices": ["Islnd"]}, graveyard={"choices": [[]]})
    (content / "families" / "test-splinter.json").write_text(json.dumps(raw))
    with pytest.raises(ContentError) as caught:
        read_families(content)
    assert str(caught.value).startswith(str(content / "families" / "test-splinter.json"))


@pytest.mark.django_db
def test_the_default_amount_reaches_2000_questions_on_40_rules():
    call_command("load_content", "--per-family", "0", stdout=io.StringIO())
    out = io.StringIO()
    call_command(
        "generate_questions",
        "--per-family",
        str(production_settings.TUTOR_FAMILY_INSTANCES),
        stdout=out,
    )
    active = Question.objects.filter(bank__slug=GENERATED_BANK["slug"], is_active=True)
    assert active.count() >= 2000, out.getvalue()
    assert active.values("rules").exclude(rules=None).distinct().count() >= 40
    # distinct by the engine's conclusions: no two instances of a family conclude alike
    generated = Scenario.objects.filter(family__isnull=False)
    catalog = default_catalog()
    concluded = set()
    for scenario in generated:
        claims = [asked_claim(claim) for claim in scenario.spec["expect"]]
        session = Session(scenario.spec, catalog)
        results = [session.evaluate(claim) for claim in claims]
        concluded.add((scenario.family_id, json.dumps(conclusions_of(claims, results))))
    assert len(concluded) == generated.count()
    assert Family.objects.filter(level="L2").exists()
    # every family's declared rules are rules the engine cites for its questions
    for family in Family.objects.prefetch_related("rules"):
        cited = set(active.filter(scenario__family=family).values_list("rules__number", flat=True))
        declared = {rule.number for rule in family.rules.all()}
        assert declared and declared <= cited, (family.slug, declared - cited)
    # a second run with the same seed changes nothing
    again = io.StringIO()
    call_command(
        "generate_questions",
        "--per-family",
        str(production_settings.TUTOR_FAMILY_INSTANCES),
        stdout=again,
    )
    assert "generated changes: none" in again.getvalue()


# A shared acceptance case, kept in content unchanged (test_load_content): Nadia casts Demonic
# Tutor with no "active", so Alice is the active player. Its ruling doesn't hang on whose turn it
# is; the case is reported to its owners rather than edited here.
SHARED_CASES_OUT_OF_TURN = {"mindcensor-demonic-tutor.json"}


def test_no_seed_scenario_or_family_instance_casts_a_spell_out_of_turn():
    """Nadia cast Demonic Tutor while Alice was the active player (a learner met it in an exam
    walk): the board must be one the rules allow (the lint's warning, rulings.casting_timing)."""
    catalog = default_catalog()
    problems = []
    for path in sorted((CONTENT_DIR / "scenarios").glob("*.json")):
        if path.name not in SHARED_CASES_OUT_OF_TURN:
            findings = casting_timing(json.loads(path.read_text()), catalog)
            problems += [f"{path.name}: {f.path} {f.card} (CR {f.rule})" for f in findings]
    for family in read_families(catalog=catalog):
        for chosen in family.combinations(random.Random(family.id), 200):
            spec, _ = family.fill(chosen)
            findings = casting_timing(instance_spec(family, spec, [], "check"), catalog)
            problems += [f"{family.id}: {f.path} {f.card} (CR {f.rule})" for f in findings]
    assert not problems, sorted(set(problems))


def test_the_shared_case_is_still_cast_out_of_turn():
    """The allow-list names a case that needs it: once its owners fix it, the entry goes."""
    for name in SHARED_CASES_OUT_OF_TURN:
        spec = json.loads((CONTENT_DIR / "scenarios" / name).read_text())
        assert [f.rule for f in casting_timing(spec, default_catalog())] == ["307.1"]


def _expanded(family_id: str, count: int = 60):
    catalog = default_catalog()
    family = next(f for f in read_families(catalog=catalog) if f.id == family_id)
    return expand(family, catalog, seed=0, count=count).instances


@pytest.mark.parametrize("family_id", ["dies-triggers-apnap", "dies-triggers-apnap-three-players"])
def test_a_trigger_question_opens_with_the_creatures_dying_not_a_draw(family_id):
    """The trigger families resolved a draw nobody asked about, so every prompt began "Nadia
    would draw a card." before the creatures died: a premise a judge would ask the point of."""
    instances = _expanded(family_id)
    assert instances
    for instance in instances:
        assert "resolve" not in instance.spec
        for question in instance.questions:
            assert "would draw a card" not in question.prompt, question.prompt


def test_combat_steps_are_asked_only_where_a_creature_could_have_attacked():
    """506.1: a combat with no attacker has no declare blockers or combat damage step. The
    family asks those steps (its creatures are on the board) and never in the game's first
    turn, where none of them could have attacked (302.6)."""
    catalog = default_catalog()
    asked = []
    for instance in _expanded("turn-structure-and-priority"):
        state = parse_scenario(instance.spec, catalog).state
        for claim in instance.spec["expect"]:
            if claim.get("step") in ("declare_blockers", "combat_damage"):
                asked.append(claim)
                assert not claim.get("first_turn")
                assert any(
                    "Creature" in card.definition.types
                    for card in state.permanents_controlled_by(state.active)
                )
    assert asked

"""load_content: counts, idempotence, all-or-nothing on a bad file, engine agreement, aliases."""

from __future__ import annotations

import datetime
import json
import shutil
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.core.serializers import serialize
from django.db.models import Q

from quizzes.loading import CONTENT_DIR
from quizzes.models import Bank, Question, Scenario
from rules.models import Card, Rule, RuleAlias
from rules.numbers import numbers_in
from tests.quizzes.conftest import content_loaded_for_a_module

pytestmark = pytest.mark.django_db

EXAMPLES = [
    "archive-trap-short-library",
    "ashiok-evolving-wilds",
    "ashiok-own-veteran-explorer",
    "ashiok-path-to-exile",
    "demonic-tutor",
    "dredge-short-library",
    "gifts-ungiven-fail-to-find",
    "lobotomy-empty-hand",
    "mindcensor-demonic-tutor",
    "mindcensor-veteran-explorer",
    "reflecting-pool-alone",
    "splinter-howling-mine",
]
CONTENT_MODELS = [Rule, RuleAlias, Card, Bank, Scenario, Question]


def load(*args: str) -> str:
    out = StringIO()
    call_command("load_content", *args, stdout=out)
    return out.getvalue()


def dump() -> str:
    """Every content row, every field (timestamps and many-to-many links included)."""
    return "\n".join(serialize("json", model.objects.order_by("pk")) for model in CONTENT_MODELS)


@pytest.fixture(scope="module")
def loaded(django_db_setup, django_db_blocker):
    """The seed content, loaded once for this module (tests only read it or roll back)."""
    with content_loaded_for_a_module(django_db_blocker, load) as output:
        yield output


def test_load_content_reports_and_stores_the_counts(loaded):
    scenario_files = list((CONTENT_DIR / "scenarios").glob("*.json"))
    seed_scenarios = Scenario.objects.filter(family=None)  # the rest come from families
    assert seed_scenarios.count() == len(scenario_files) >= 40
    assert Rule.objects.filter(number__startswith="701.23").count() == 11
    assert Rule.objects.filter(kind=Rule.Kind.GLOSSARY, number="Search").exists()
    assert Card.objects.count() >= 50
    assert Question.objects.count() >= 100
    assert f"scenarios: {Scenario.objects.count()}" in loaded
    assert f"questions: {Question.objects.count()} active" in loaded


def test_load_content_twice_leaves_identical_rows(loaded):
    before = dump()
    second = load()
    assert dump() == before
    assert "changes: none" in second
    assert Question.objects.exists()


def test_every_shared_example_is_loaded_and_the_engine_agrees(loaded):
    for slug in EXAMPLES:
        scenario = Scenario.objects.get(slug=slug)
        assert scenario.engine_status == Scenario.EngineStatus.AGREES, (
            slug,
            scenario.engine_report,
        )


def test_the_examples_in_content_are_the_shared_files_unchanged():
    shared = Path(__file__).resolve().parents[2].parent / "shared/spec/examples"
    if not shared.exists():
        pytest.skip("shared/spec/examples is not beside this checkout")
    for path in shared.glob("*.json"):
        ours = CONTENT_DIR / "scenarios" / path.name
        assert json.loads(ours.read_text()) == json.loads(path.read_text()), path.name


def test_no_seed_scenario_is_flagged(loaded):
    assert "FLAGGED" not in loaded
    assert not Scenario.objects.filter(
        engine_status__in=[Scenario.EngineStatus.DISAGREES, Scenario.EngineStatus.INVALID]
    ).exists()


def test_every_rule_the_engine_cites_has_a_rule_page(loaded):
    """Mastery and feedback hang on Rule rows: no citation of the seed content may be orphaned."""
    from rules.engine import resolve

    cited = {
        number  # a claim may cite two rules ("601.2a, 601.2e"): each links the question
        for s in Scenario.objects.all()
        for claim in resolve(s.spec).claims
        for number in numbers_in(claim.rule)
    }
    stored = set(Rule.objects.current().values_list("number", flat=True))
    assert cited - stored == set()


@pytest.mark.parametrize("language", ["en", "de", "it"])
def test_every_rule_the_content_cites_has_a_title(loaded, language):
    """Progress and rule pages name a rule by its nearest titled heading ("106.7 Mana"): a
    citation without one would stand there as a bare number, in any language."""
    cited = set(
        Rule.objects.current()
        .filter(Q(questions__isnull=False) | Q(scenarios__isnull=False) | Q(families__isnull=False))
        .values_list("number", flat=True)
    )
    titles = Rule.objects.section_titles_in(language)
    assert {"106.7", "603.2", "701.24a", "723.5"} <= cited
    assert sorted(number for number in cited if not titles[number][0].strip()) == []


def test_every_rule_the_content_or_the_engine_cites_shows_the_official_wording(loaded):
    """A rule page shows the Comprehensive Rules' own words with their edition, never an
    editor's summary (once labelled "Summary, not the rule's wording" and "Editor's summary")."""
    from rules.engine import resolve

    linked = Q(questions__isnull=False) | Q(scenarios__isnull=False) | Q(families__isnull=False)
    cited = set(Rule.objects.current().filter(linked).values_list("number", flat=True))
    cited |= {
        number
        for s in Scenario.objects.all()
        for claim in resolve(s.spec).claims
        for number in numbers_in(claim.rule)
    }
    rules = Rule.objects.current().filter(number__in=cited, language="en")
    assert {"118.9", "608.2d", "723.5"} <= set(rules.values_list("number", flat=True))
    shown = [(r.number, r.text, r.edition_name, r.source, r.note) for r in rules]
    assert [row[0] for row in shown if "summary" in " ".join(row).lower()] == []
    assert [row[0] for row in shown if "not the rule" in " ".join(row).replace("’", "'")] == []
    assert set(rules.values_list("edition_date", flat=True)) == {datetime.date(2026, 9, 25)}
    assert [r.number for r in rules if "Wizards of the Coast" not in r.source] == []


def test_every_seed_ruling_is_engine_checked(loaded):
    # X in an enters ability (107.3m), range of influence (801) and a replacement that mills as
    # a permanent enters were stored-only rulings; the engine computes them now.
    for slug in (
        "x-in-enters-ability",
        "range-of-influence-trigger",
        "enters-replacement-and-mill",
    ):
        scenario = Scenario.objects.get(slug=slug)
        assert scenario.engine_status == Scenario.EngineStatus.AGREES, scenario.engine_report
        assert scenario.stored_ruling
    assert not Scenario.objects.filter(engine_status=Scenario.EngineStatus.NOT_CHECKED).exists()


def test_every_question_is_valid_and_holds_no_answer_key(loaded):
    for question in Question.objects.all():
        question.full_clean()
        assert all("value" not in claim for claim in question.claims)


def test_splinter_has_a_cards_question_in_the_public_bank(loaded):
    bank = Bank.objects.get(slug="search-and-its-neighbours")
    assert bank.visibility == Bank.Visibility.PUBLIC and bank.owner is None
    question = bank.questions.get(scenario__slug="splinter-howling-mine", kind="cards")
    assert {"claim": "finds", "card": "gy"} in question.claims
    assert question.prompt.startswith("Alice casts Splinter, targeting Howling Mine.")
    assert "701.23b" in {rule.number for rule in question.rules.all()}


def test_statement_questions_mix_true_and_false_proposals(loaded):
    from rules.engine import evaluate_claim

    question = Question.objects.get(scenario__slug="splinter-howling-mine", kind="multiple_choice")
    truths = []
    for claim in question.claims:
        asked = {k: v for k, v in claim.items() if k != "proposed"}
        truths.append(evaluate_claim(question.scenario.spec, asked).value == claim["proposed"])
    assert any(truths) and not all(truths)


@pytest.mark.parametrize(
    ("old", "current"),
    [
        ("701.19b", "701.23b"),
        ("701.14b", "701.23b"),
        ("701.15b", "701.23b"),
        ("701.14c", "701.23d"),
        ("701.14d", "701.23e"),
        ("701.15f", "701.23f"),
        ("701.23b", "701.23b"),
    ],
)
def test_old_and_translated_numbers_resolve_to_the_current_rule(loaded, old, current):
    rule = Rule.objects.resolve_number(old)
    assert rule is not None and rule.number == current and rule.canonical is None


def test_translations_point_at_their_canonical_rule_by_meaning(loaded):
    german = Rule.objects.get(number="701.14c", language="de")
    assert german.canonical.number == "701.23d"
    italian = Rule.objects.get(number="701.15f", language="it")
    assert italian.canonical.number == "701.23f"
    assert "differs in meaning" in italian.note


def test_localised_card_names_are_loaded(loaded):
    assert Card.objects.get(name="Splinter").localized_names == {
        "de": "Sorgfältige Zerstörung",
        "it": "Scheggia",
    }
    assert Card.objects.get(name="Aven Mindcensor").localized_names["it"] == (
        "Censore Mentale Aviano"
    )


@pytest.fixture
def content_copy(tmp_path) -> Path:
    """A copy of the content to spoil, and an empty database (this test's deletes roll back)."""
    target = tmp_path / "content"
    shutil.copytree(CONTENT_DIR, target)
    for model in reversed(CONTENT_MODELS):
        model.objects.all().delete()
    return target


def test_a_bad_scenario_file_names_file_and_field_and_loads_nothing(content_copy):
    before = dump()
    path = content_copy / "scenarios" / "splinter-howling-mine.json"
    spec = json.loads(path.read_text())
    spec["zones"]["Nadia"]["librar"] = spec["zones"]["Nadia"].pop("library")
    path.write_text(json.dumps(spec))
    with pytest.raises(CommandError) as error:
        load("--content-dir", str(content_copy))
    message = str(error.value)
    assert "splinter-howling-mine.json: spec.zones.Nadia.librar:" in message
    assert "unknown zone" in message
    assert dump() == before
    assert not any(model.objects.exists() for model in CONTENT_MODELS)


def test_malformed_json_names_the_file_and_loads_nothing(content_copy):
    before = dump()
    (content_copy / "scenarios" / "broken.json").write_text('{"format": "scenario/1",')
    with pytest.raises(CommandError) as error:
        load("--content-dir", str(content_copy))
    assert "broken.json" in str(error.value)
    assert "malformed JSON" in str(error.value)
    assert dump() == before
    assert not any(model.objects.exists() for model in CONTENT_MODELS)


def test_a_bad_rule_names_the_field(content_copy):
    before = dump()
    rules = json.loads((content_copy / "rules.json").read_text())
    rules[3]["edition_date"] = "19 September 2025"
    (content_copy / "rules.json").write_text(json.dumps(rules))
    with pytest.raises(CommandError) as error:
        load("--content-dir", str(content_copy))
    assert "rules.json: [3].edition_date:" in str(error.value)
    assert dump() == before
    assert not any(model.objects.exists() for model in CONTENT_MODELS)


def test_renamed_editions_are_updated_not_duplicated(content_copy):
    load("--content-dir", str(content_copy))
    counts = {model: model.objects.count() for model in (Rule, RuleAlias)}
    rules = json.loads((content_copy / "rules.json").read_text())
    for row in rules:
        if row["number"] in {"701.23b", "701.14b"}:
            row["edition_name"] += " (renamed)"
            for alias in row.get("aliases", []):
                alias["note"] = "renamed"
    rules = [row for row in rules if row["number"] != "701.15e"]  # an edition dropped
    (content_copy / "rules.json").write_text(json.dumps(rules))
    load("--content-dir", str(content_copy))
    assert Rule.objects.filter(number="701.23b").count() == 1
    assert Rule.objects.filter(number="701.14b").count() == 2  # German and older English
    assert not Rule.objects.filter(number="701.15e").exists()
    assert Rule.objects.count() == counts[Rule] - 1
    assert RuleAlias.objects.count() == counts[RuleAlias]


def test_a_changed_spec_bumps_the_version_once(content_copy):
    load("--content-dir", str(content_copy))
    path = content_copy / "scenarios" / "demonic-tutor.json"
    spec = json.loads(path.read_text())
    spec["title"] = "Demonic Tutor, retitled"
    path.write_text(json.dumps(spec))
    load("--content-dir", str(content_copy))
    load("--content-dir", str(content_copy))
    scenario = Scenario.objects.get(slug="demonic-tutor")
    assert scenario.title == "Demonic Tutor, retitled"
    assert scenario.version == 2


def test_create_demo_users_is_idempotent_and_prints_log_ins():
    from django.contrib.auth import get_user_model

    out = StringIO()
    call_command("create_demo_users", "--force", stdout=out)
    call_command("create_demo_users", "--force", stdout=StringIO())
    users = get_user_model().objects
    assert users.count() == 2
    instructor = users.get(username="instructor")
    assert instructor.is_staff and instructor.groups.filter(name="Instructors").exists()
    assert not users.get(username="learner").is_staff
    assert "'learner'" in out.getvalue() and "password" in out.getvalue()


def test_create_demo_users_gives_the_instructor_a_bank_and_a_cohort_once():
    from quizzes.models import Cohort

    call_command("create_demo_users", "--force", stdout=StringIO())
    call_command("create_demo_users", "--force", stdout=StringIO())
    cohort = Cohort.objects.get()
    assert cohort.instructor.username == "instructor"
    assert list(cohort.members.values_list("username", flat=True)) == ["learner"]
    bank = cohort.banks.get()
    assert bank.visibility == Bank.Visibility.SHARED
    assert Scenario.objects.filter(bank=bank).count() == 1
    assert Question.objects.filter(bank=bank, is_active=True).exists()


def test_create_demo_users_refuses_with_debug_off(settings):
    settings.DEBUG = False
    with pytest.raises(CommandError):
        call_command("create_demo_users", stdout=StringIO())


def test_a_scenario_that_fails_late_rolls_back_everything(content_copy, monkeypatch):
    """An error while writing (after validation) leaves no half-loaded content."""
    import quizzes.loading.write as write

    before = dump()
    calls = {"n": 0}
    original = write._load_scenario

    def fail_on_the_tenth(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 10:
            raise RuntimeError("disk on fire")
        return original(*args, **kwargs)

    monkeypatch.setattr(write, "_load_scenario", fail_on_the_tenth)
    with pytest.raises(RuntimeError):
        load("--content-dir", str(content_copy))
    assert dump() == before
    assert not any(model.objects.exists() for model in CONTENT_MODELS)


def test_a_failure_storing_generated_questions_leaves_no_rules_or_seed_either(
    content_copy, monkeypatch
):
    """One transaction around everything: the rules, cards, seed and generated scenarios were
    written when storing the generated questions fails, and none of them stays."""
    import quizzes.loading.generated as generated

    before = dump()
    written = {}

    def fail_midway(*args, **kwargs):
        written.update({model.__name__: model.objects.count() for model in CONTENT_MODELS})
        written["generated"] = Scenario.objects.exclude(family=None).count()
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(generated, "_store_questions", fail_midway)
    with pytest.raises(RuntimeError):
        load("--content-dir", str(content_copy))
    assert all(written[name] for name in ("Rule", "Card", "Question", "generated")), written
    assert dump() == before
    assert not any(model.objects.exists() for model in CONTENT_MODELS)


def test_a_bad_family_file_loads_nothing_not_even_the_seed(content_copy):
    before = dump()
    (content_copy / "families" / "broken.json").write_text('{"format": "family/1",')
    with pytest.raises(CommandError) as error:
        load("--content-dir", str(content_copy))
    assert "Nothing loaded." in str(error.value)
    assert "broken.json" in str(error.value)
    assert dump() == before
    assert not any(model.objects.exists() for model in CONTENT_MODELS)


def test_every_rule_number_in_the_engine_has_a_rule_row():
    """A citation anywhere in the engine's code leads to a rule page, not a dead end."""
    import re

    engine = Path(__file__).resolve().parents[2] / "rules" / "engine"
    cited = {
        number
        for path in engine.glob("*.py")
        for number in re.findall(r"\b\d{3}\.\d+[a-z]?\b", path.read_text())
    }
    rows = json.loads((CONTENT_DIR / "rules.json").read_text())
    assert cited - {row["number"] for row in rows} == set()

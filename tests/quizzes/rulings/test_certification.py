"""The certification-style kind: one situation, options that are each an outcome with a reason,
right only when both are the engine's (quizzes/rulings/certification.py)."""

from __future__ import annotations

import html as html_lib
import json
import re
from collections import Counter

import pytest
from django.urls import reverse
from django.utils import translation

from quizzes import rulings
from quizzes.models import Question, Response
from quizzes.rulings import certification
from quizzes.rulings.audit import audit
from quizzes.rulings.generate import build_questions
from quizzes.rulings.kinds import KINDS
from quizzes.rulings.storing import store_variants
from rules.engine import default_catalog
from tests.factories import QuestionFactory
from tests.quizzes.conftest import land_tutor_spec
from tests.quizzes.pages import token_of

KIND = certification.KIND
# Shock is no basic land: Land Tutor can't find it, because it doesn't have the quality the
# search asks for (701.23a); a misconception argues for the same outcome.
SHOCK_OPTIONS = [
    {"values": ["cannot"], "reason": "no_match"},
    {"values": ["cannot"], "reason": "hidden_unfindable"},
    {"values": ["may"], "reason": "any"},
    {"values": ["may"], "reason": "left_anywhere"},
]


def generated(spec: dict):
    made = [q for q in build_questions(spec, default_catalog()) if q.kind == KIND]
    assert len(made) == 1
    return made[0]


def ruling_of(item, seed: int = 0) -> rulings.Ruling:
    return rulings.Ruling.build(item.kind, land_tutor_spec(), item.claims, seed)


def test_a_scenario_gets_one_well_formed_question_of_the_kind():
    item = generated(land_tutor_spec())
    assert KINDS[KIND].problem(item.claims) == ""
    assert item.prompt.endswith("Choose the answer with the right reason.")
    options = item.claims[0]["proposed"]
    assert 3 <= len(options) <= 5
    for seed in range(4):
        ruling = ruling_of(item, seed)
        assert sum(certification.is_right(ruling, o) for o in options) == 1
    # no count of outcomes or reasons tells the key
    for part in ("values", "reason"):
        counts = Counter(json.dumps(option[part]) for option in options)
        assert len(set(counts.values())) == 1


def test_every_option_reads_as_an_outcome_with_a_reason_naming_a_rule():
    item = generated(land_tutor_spec())
    ruling = ruling_of(item)
    texts = [certification.option_text(ruling, o) for o in certification.options_of(ruling)]
    assert len(set(texts)) == len(texts)
    for text in texts:
        assert re.search(r", because .+ \(rule \d{3}\.\d+[a-z]?\)\.$", text), text
    lengths = [len(text) for text in texts]
    assert max(lengths) - min(lengths) < 40  # the right reason doesn't stand out by its length


def test_the_option_order_is_fixed_per_variant():
    item = generated(land_tutor_spec())
    orders = {tuple(certification.shown_positions(ruling_of(item, seed))) for seed in range(8)}
    assert len(orders) > 1
    assert certification.shown_positions(ruling_of(item, 3)) == certification.shown_positions(
        ruling_of(item, 3)
    )


def shock_ruling(seed: int = 0) -> rulings.Ruling:
    claims = [{"claim": "finds", "card": "s1", "proposed": SHOCK_OPTIONS}]
    assert KINDS[KIND].problem(claims) == ""
    return rulings.Ruling.build(KIND, land_tutor_spec(), claims, seed)


def grade(ruling, option: dict) -> rulings.Grade:
    return rulings.grade(ruling, {"option": certification.options_of(ruling).index(option)})


def test_the_right_outcome_with_a_wrong_reason_is_wrong():
    ruling = shock_ruling()
    assert grade(ruling, SHOCK_OPTIONS[0]).correct
    wrong_reason = grade(ruling, SHOCK_OPTIONS[1])
    assert not wrong_reason.correct and wrong_reason.score == 0
    assert not grade(ruling, SHOCK_OPTIONS[2]).correct
    part = wrong_reason.parts[0]
    assert part.rule == "701.23a" and part.expected != part.given


def test_a_wrong_outcome_with_the_right_reason_is_wrong():
    claims = [
        {
            "claim": "finds",
            "card": "s1",
            "proposed": [
                {"values": ["cannot"], "reason": "no_match"},
                {"values": ["may"], "reason": "no_match"},
                {"values": ["must"], "reason": "no_match"},
            ],
        }
    ]
    ruling = rulings.Ruling.build(KIND, land_tutor_spec(), claims, 0)
    verdicts = [rulings.grade(ruling, {"option": i}).correct for i in range(3)]
    assert verdicts == [True, False, False]


def test_an_answer_that_is_no_option_is_refused():
    ruling = shock_ruling()
    for answer in ({}, {"option": 7}, {"option": True}, {"option": "0"}):
        with pytest.raises(rulings.AnswerError):
            rulings.grade(ruling, answer)


def test_a_malformed_question_is_refused_by_its_kind():
    kind = KINDS[KIND]
    assert kind.problem([{"claim": "finds", "card": "s1"}])
    assert kind.problem([{"claim": "mills", "player": "Alice", "proposed": SHOCK_OPTIONS}])
    two = [{"values": ["cannot"], "reason": "no_match"}] * 2
    assert kind.problem([{"claim": "finds", "card": "s1", "proposed": two}])
    unknown = [*SHOCK_OPTIONS[:2], {"values": ["may"], "reason": "luck"}]
    assert kind.problem([{"claim": "finds", "card": "s1", "proposed": unknown}])


def test_german_and_italian_options_name_the_card_in_a_sentence():
    ruling = shock_ruling()
    for language, because in (("de", ", denn "), ("it", ", perché ")):
        with translation.override(language):
            texts = [certification.option_text(ruling, o) for o in SHOCK_OPTIONS]
        assert all(because in text for text in texts), texts
        assert not any("because" in text or "(rule " in text for text in texts), texts


@pytest.mark.django_db
def test_a_stored_variant_grades_with_the_engines_reason(scenario, bank):
    question = QuestionFactory(
        scenario=scenario,
        bank=bank,
        kind=KIND,
        claims=[{"claim": "finds", "card": "s1", "proposed": SHOCK_OPTIONS}],
        prompt="Alice casts Land Tutor. What happens, and why?",
    )
    store_variants([question])
    for seed in range(rulings.variant_count()):
        ruling = rulings.ruling_for(question, seed)
        assert grade(ruling, SHOCK_OPTIONS[0]).correct
        assert not grade(ruling, SHOCK_OPTIONS[1]).correct
    assert faults(audit([question])) == []


def faults(report) -> list:
    """The audit's findings but rules_current: no rules are loaded here (the seed content's
    audit, tests/quizzes/rulings/test_audit.py, checks the numbers against the current rules)."""
    return [v for v in report.violations if v.invariant != "rules_current"]


@pytest.fixture
def generated_question(scenario, bank):
    item = generated(scenario.spec)
    question = QuestionFactory(
        scenario=scenario, bank=bank, kind=item.kind, claims=item.claims, prompt=item.prompt
    )
    store_variants([question])
    return question


@pytest.mark.django_db
def test_the_generated_question_passes_the_audit(generated_question):
    report = audit([generated_question])
    assert report.served == rulings.variant_count()
    assert faults(report) == []


def options_on(html: str) -> dict[str, str]:
    """Option text -> the value of its radio button."""
    found = re.findall(
        r'<input type="radio" name="option" value="(\d+)"[^>]*>\s*(.*?)</label>', html, re.S
    )
    return {html_lib.unescape(text.strip()): value for value, text in found}


@pytest.mark.django_db
@pytest.mark.parametrize("pick", ["key", "right outcome, wrong reason"])
def test_practice_page_serves_and_grades_the_kind(client, learner, generated_question, pick):
    client.force_login(learner)
    page = client.get(reverse("practice"))
    html = page.content.decode()
    options = options_on(html)
    assert len(options) == 4
    assert "Right!" not in html and "Choose the option whose outcome and reason" in html
    ruling = None
    for seed in range(rulings.variant_count()):
        candidate = rulings.ruling_for(generated_question, seed, learner.pk)
        texts = {
            certification.option_text(candidate, o) for o in certification.options_of(candidate)
        }
        if texts == set(options):
            ruling = candidate
            break
    assert ruling is not None, "the page shows the options of a stored variant"
    stored = certification.options_of(ruling)
    key = next(o for o in stored if certification.is_right(ruling, o))
    if pick == "key":
        chosen = key
    else:
        chosen = next(o for o in stored if o["values"] == key["values"] and o is not key)
    answer = client.post(
        reverse("answer"),
        {"token": token_of(page), "option": options[certification.option_text(ruling, chosen)]},
    )
    assert answer.status_code in (200, 302)
    saved = Response.objects.get(user=learner)
    assert saved.correct is (pick == "key")
    assert saved.question.kind == Question.Kind.OUTCOME_REASON


@pytest.mark.django_db
@pytest.mark.parametrize("pick", [0, 1, 2])  # the key; its outcome with a misconception; another
def test_an_exam_serves_the_kind_and_grades_it_at_the_end(
    client, learner, bank, search_rule, no_variants, pick
):
    from quizzes.exams import proctor
    from tests.quizzes.exams.test_exams import blueprint_of, new_scenario, question_url

    question = QuestionFactory(
        scenario=new_scenario(),
        bank=bank,
        kind=KIND,
        claims=[{"claim": "finds", "card": "s1", "proposed": SHOCK_OPTIONS}],
        prompt="Alice casts Land Tutor. What happens, and why?",
    )
    question.rules.set([search_rule])
    store_variants([question])
    sitting = proctor.start(learner, blueprint_of(("701.23", 1)))
    client.force_login(learner)
    html = client.get(question_url(sitting)).content.decode()
    options = options_on(html)
    assert len(options) == 4 and "701.23a" in html  # every option names its rule: no key
    assert "Right!" not in html and "Not quite" not in html
    ruling = rulings.ruling_for(question, 0, learner.pk)
    text = certification.option_text(ruling, SHOCK_OPTIONS[pick])
    client.post(question_url(sitting), {"option": options[text]})
    assert not Response.objects.exists()  # graded at the end only
    client.post(reverse("exam_finish", args=[sitting.pk]))
    assert Response.objects.get(user=learner).correct is (pick == 0)


# How far apart (in characters, for one card's or player's name) a table's reasons may be: the
# English wording is the one balanced by hand, the translations follow its sense.
SPREAD = {"en": 8, "de": 30, "it": 30}


@pytest.mark.parametrize("language", list(SPREAD))
def test_right_and_wrong_reasons_are_worded_alike(language):
    """Every reason of a claim's table is about as long as every other, misconceptions and the
    engine's reasons alike (the shortest reason was once the key half the time): no length to
    pick the key by."""
    with translation.override(language):
        for claim, table in certification.REASONS.items():
            lengths = {
                code: len(translation.gettext(text.message) % {"card": "Plains", "player": "Kemi"})
                for code, text in table.items()
            }
            spread = max(lengths.values()) - min(lengths.values())
            assert spread <= SPREAD[language], (claim, lengths)

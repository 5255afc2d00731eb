"""Certification practice: drawing from a blueprint, the deadline, no feedback until the end,
the score report, access through the owner, seed blueprints and query counts."""

from __future__ import annotations

import datetime
import json
import re
import shutil

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone

from quizzes.exams import proctor
from quizzes.loading import CONTENT_DIR, ContentError, read_content
from quizzes.models import (
    Attempt,
    Bank,
    BlueprintArea,
    ExamBlueprint,
    ExamItem,
    ExamSitting,
    Family,
    Mastery,
    Question,
    Response,
    Scenario,
)
from quizzes.models.exams import rule_is_under
from quizzes.rulings import store_variants
from tests.factories import BankFactory, RuleFactory, ScenarioFactory
from tests.quizzes.conftest import QUESTION_SHAPES, land_tutor_spec, make_question

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
RIGHT = {"claim_0": "may", "claim_1": "cannot"}  # Land Tutor: may fail to find the Forest (701.23b)
WRONG = {"claim_0": "must", "claim_1": "may"}
# session with its user (with whether an instructor: the nav; config/auth.py; the user is read
# with the session once the process has met it: config/sessions), sitting, item statuses, the
# item with its scenario, the card catalog's generation (rules/cards.py); was 6
QUESTION_PAGE_QUERIES = 5
# the same, then the attempt's row lock and one UPDATE that keeps the answer, in a transaction
# (a savepoint inside the test's transaction: two statements more)
ANSWER_QUERIES = 9  # was 10: the user read with the session


@pytest.fixture
def logged_in(client, learner):
    client.force_login(learner)
    return client


@pytest.fixture
def shuffle_rule(db):
    return RuleFactory(number="701.24a", text="To shuffle a library is to randomize it.")


def new_scenario():
    scenario = ScenarioFactory()
    scenario.spec = land_tutor_spec(scenario.slug)
    scenario.save(update_fields=["spec"])
    return scenario


def blueprint_of(
    *areas, minutes=20, pass_mark=0.8, slug="mock-exam", banks=None, **policy
) -> ExamBlueprint:
    """A blueprint with areas given as (rules, count), drawing from `banks` (default: the
    site's public banks at the time)."""
    blueprint = ExamBlueprint.objects.create(
        slug=slug, title="Mock exam", time_limit_minutes=minutes, pass_mark=pass_mark, **policy
    )
    if banks is None:
        banks = Bank.objects.usable_in_blueprint_of(None)
    blueprint.banks.set(banks)
    for position, (rules, count) in enumerate(areas):
        BlueprintArea.objects.create(
            blueprint=blueprint, position=position, title=f"Area {rules}", rules=rules, count=count
        )
    return blueprint


def fill(bank, rule, scenarios: int, per_scenario: int = 1, kind=Question.Kind.CARDS):
    return [
        make_question(scenario, bank, kind, rules=[rule])
        for scenario in [new_scenario() for _ in range(scenarios)]
        for _ in range(per_scenario)
    ]


@pytest.fixture
def sitting(learner, bank, search_rule, no_variants):
    """A running five-question sitting on Land Tutor (cards questions)."""
    fill(bank, search_rule, 5)
    return proctor.start(learner, blueprint_of(("701.23", 5)))


def question_url(sitting, position=1):
    return reverse("exam_question", args=[sitting.pk, position])


def set_deadline(sitting, **delta):
    Attempt.objects.filter(pk=sitting.pk).update(
        deadline=timezone.now() + datetime.timedelta(**delta)
    )
    sitting.attempt.refresh_from_db()


def answer_all(client, sitting, answers):
    for position, data in enumerate(answers, start=1):
        client.post(question_url(sitting, position), data)


# Blueprints and drawing --------------------------------------------------------------------


def test_a_prefix_covers_the_rule_and_its_subrules_only():
    assert rule_is_under("701.23b", "701.23")
    assert rule_is_under("701.23", "701.23")
    assert rule_is_under("701.23b", "701")
    assert rule_is_under("701.23b", "701.23b")
    assert not rule_is_under("701.230", "701.23")
    assert not rule_is_under("701.23a", "701.2")
    assert not rule_is_under("702.1", "701")


def test_an_area_needs_rule_numbers():
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError):
        BlueprintArea(title="x", rules="search", count=1).clean()
    BlueprintArea(title="x", rules="701.23, 701.24a", count=1).clean()


AREAS = ("Area 701.23", "Area 701.24")


def test_draw_respects_the_count_of_each_area(learner, bank, search_rule, shuffle_rule):
    searching = fill(bank, search_rule, 6)
    shuffling = fill(bank, shuffle_rule, 4)
    blueprint = blueprint_of(("701.23", 3), ("701.24", 2))
    drawn = proctor.draw(learner, blueprint)
    by_area = {
        area: [d.question_id for d in drawn if d.area == area]
        for area in {"Area 701.23", "Area 701.24"}
    }
    assert len(drawn) == 5 and len({d.question_id for d in drawn}) == 5
    assert set(by_area["Area 701.23"]) <= {q.pk for q in searching}
    assert len(by_area["Area 701.23"]) == 3
    assert set(by_area["Area 701.24"]) <= {q.pk for q in shuffling}
    assert len(by_area["Area 701.24"]) == 2


def test_draw_takes_only_questions_the_learner_may_use(learner, other_learner, search_rule):
    public = BankFactory()
    theirs = BankFactory(owner=other_learner, visibility="private")
    allowed = fill(public, search_rule, 2)
    fill(theirs, search_rule, 2)
    inactive = fill(public, search_rule, 1)[0]
    inactive.is_active = False
    inactive.save()
    for status in (Scenario.EngineStatus.DISAGREES, Scenario.EngineStatus.INVALID):
        flagged = fill(public, search_rule, 1)[0].scenario
        Scenario.objects.filter(pk=flagged.pk).update(engine_status=status)
    blueprint = blueprint_of(("701", 10), owner=other_learner, banks=[public, theirs])
    drawn = proctor.draw(learner, blueprint)
    assert {d.question_id for d in drawn} == {q.pk for q in allowed}


def test_a_blueprint_draws_only_from_the_banks_its_owner_chose(
    learner, instructor, other_instructor, search_rule
):
    site = BankFactory()
    own = BankFactory(owner=instructor, visibility="shared")
    chosen = fill(site, search_rule, 1) + fill(own, search_rule, 1)
    learner_bank = BankFactory(owner=learner, visibility="private")
    fill(learner_bank, search_rule, 1)
    other_public = BankFactory(owner=other_instructor, visibility="public")
    fill(other_public, search_rule, 2)  # public, but not chosen: never in this exam
    from quizzes.models import Cohort

    cohort = Cohort.objects.create(name="Class", instructor=instructor)
    cohort.banks.add(own)
    cohort.members.add(learner)
    blueprint = blueprint_of(("701", 10), owner=instructor, banks=[site, own])
    assert {d.question_id for d in proctor.draw(learner, blueprint)} == {q.pk for q in chosen}
    # another instructor's bank put into the exam (the admin, a script) still feeds nothing
    blueprint.banks.add(other_public)
    assert {d.question_id for d in proctor.draw(learner, blueprint)} == {q.pk for q in chosen}


def test_a_site_blueprint_draws_from_the_site_banks_only(learner, other_instructor, search_rule):
    site = BankFactory()
    chosen = fill(site, search_rule, 2)
    instructors_public = BankFactory(owner=other_instructor, visibility="public")
    fill(instructors_public, search_rule, 2)
    blueprint = blueprint_of(("701", 10), banks=[site, instructors_public])
    assert {d.question_id for d in proctor.draw(learner, blueprint)} == {q.pk for q in chosen}


def test_draw_prefers_questions_from_different_scenarios(learner, bank, search_rule):
    fill(bank, search_rule, scenarios=3, per_scenario=3)
    for _ in range(5):
        drawn = proctor.draw(learner, blueprint_of(("701.23", 3), slug=f"b{_}"))
        scenarios = Question.objects.filter(pk__in=[d.question_id for d in drawn])
        assert scenarios.values("scenario").distinct().count() == 3


def test_draw_prefers_questions_from_different_families(learner, bank, search_rule):
    """A family's instances are one situation varied (a browser sitting met "Veteran Explorer
    dies" twice in one Level 1 exam): another family, or a scenario of none, comes first."""
    questions = fill(bank, search_rule, scenarios=6)
    families = [
        Family.objects.create(slug=f"family-{n}", title=f"Family {n}", level="L1", definition={})
        for n in range(2)
    ]
    for question, family in zip(questions, [families[0]] * 4 + [families[1]] + [None], strict=True):
        Scenario.objects.filter(pk=question.scenario_id).update(family=family)
    for n in range(8):
        drawn = proctor.draw(learner, blueprint_of(("701.23", 3), slug=f"b{n}"))
        picked = Question.objects.filter(pk__in=[d.question_id for d in drawn])
        assert len(drawn) == 3
        families_drawn = list(picked.values_list("scenario__family__slug", flat=True))
        assert sorted(families_drawn, key=str) == [None, "family-0", "family-1"]


def test_a_shallow_bank_fills_an_area_as_far_as_it_goes(learner, bank, search_rule):
    fill(bank, search_rule, scenarios=2, per_scenario=2)
    assert len(proctor.draw(learner, blueprint_of(("701.23", 10)))) == 4


def test_an_exam_without_questions_cannot_start(logged_in, search_rule):
    blueprint_of(("701.23", 5))
    page = logged_in.post(reverse("exam_start", args=["mock-exam"]))
    assert page.status_code == 409
    assert "no questions for this exam" in page.content.decode()
    assert not Attempt.objects.exists()


def test_starting_creates_an_exam_attempt_with_a_deadline(logged_in, learner, bank, search_rule):
    fill(bank, search_rule, 3)
    blueprint_of(("701.23", 3), minutes=15)
    before = timezone.now()
    page = logged_in.post(reverse("exam_start", args=["mock-exam"]))
    sitting = ExamSitting.objects.get()
    assert page["Location"] == question_url(sitting)
    attempt = sitting.attempt
    assert attempt.kind == Attempt.Kind.EXAM and attempt.user == learner
    expected = before + datetime.timedelta(minutes=15)
    assert expected <= attempt.deadline <= timezone.now() + datetime.timedelta(minutes=15)
    items = list(sitting.items.order_by("position"))
    assert [item.position for item in items] == [1, 2, 3]
    assert sitting.question_count == 3 and sitting.pass_mark == 0.8


def test_one_sitting_runs_at_a_time(logged_in, sitting):
    logged_in.post(reverse("exam_start", args=["mock-exam"]))
    assert ExamSitting.objects.count() == 1
    index = logged_in.get(reverse("exam_index")).content.decode()
    assert "Continue the exam" in index


def finish_now(sitting) -> None:
    proctor.finish(ExamSitting.objects.select_related("attempt").get(pk=sitting.pk))


def test_the_running_sitting_is_the_learners_own_unfinished_one(learner, other_learner, sitting):
    """`running_sitting`: the learner's unfinished sitting with its attempt, never another
    learner's nor a finished one."""
    running = proctor.running_sitting(learner)
    assert running == sitting and running.attempt.user_id == learner.pk
    assert proctor.running_sitting(other_learner) is None
    finish_now(sitting)
    assert proctor.running_sitting(learner) is None


def test_one_open_exam_per_learner_is_a_database_constraint(learner, sitting):
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        Attempt.objects.create(user=learner, kind=Attempt.Kind.EXAM)


def test_a_retake_waits_24_hours_by_default(logged_in, learner, sitting):
    finish_now(sitting)
    refused = logged_in.post(reverse("exam_start", args=["mock-exam"]))
    assert refused.status_code == 409
    html = refused.content.decode()
    assert "once every 24 hours" in html and "you can start it again from" in html
    assert ExamSitting.objects.count() == 1
    later = timezone.now() + datetime.timedelta(hours=24, seconds=1)
    blueprint = ExamBlueprint.objects.get(slug="mock-exam")
    assert proctor.start(learner, blueprint, now=later).pk != sitting.pk


def test_the_retake_policy_is_the_blueprints(learner, bank, search_rule, no_variants):
    fill(bank, search_rule, 2)
    blueprint = blueprint_of(("701.23", 1), retake_wait_hours=0, max_sittings=2)
    for _ in range(2):
        finish_now(proctor.start(learner, blueprint))
    with pytest.raises(proctor.RetakeRefused, match="can be taken 2 times; you have taken it 2"):
        proctor.start(learner, blueprint)
    assert ExamSitting.objects.count() == 2


def test_the_exams_page_says_when_a_retake_is_possible(logged_in, sitting):
    finish_now(sitting)
    html = logged_in.get(reverse("exam_index")).content.decode()
    assert "you can start it again from" in html
    assert reverse("exam_start", args=["mock-exam"]) not in html  # no start button for now
    ExamBlueprint.objects.filter(slug="mock-exam").update(retake_wait_hours=0)
    html = logged_in.get(reverse("exam_index")).content.decode()
    assert reverse("exam_start", args=["mock-exam"]) in html


def test_the_exams_page_states_the_retake_policy(logged_in, sitting):
    finish_now(sitting)
    ExamBlueprint.objects.filter(slug="mock-exam").update(max_sittings=3)
    html = logged_in.get(reverse("exam_index")).content.decode()
    assert "one start every 24 hours, at most 3 sittings" in html


def test_a_retake_policy_is_per_learner(learner, other_learner, sitting):
    finish_now(sitting)
    blueprint = ExamBlueprint.objects.get(slug="mock-exam")
    assert proctor.start(other_learner, blueprint).attempt.user == other_learner


def test_practice_is_paused_while_a_sitting_runs(logged_in, sitting, question):
    page = logged_in.get(reverse("practice"))
    html = page.content.decode()
    assert page.status_code == 200 and "Practice is paused during your exam" in html
    assert f'href="{reverse("exam_sitting", args=[sitting.pk])}"' in html
    assert 'name="token"' not in html


def test_a_practice_answer_is_refused_while_a_sitting_runs(
    logged_in, learner, question, bank, search_rule, no_variants
):
    page = logged_in.get(reverse("practice")).content.decode()
    token = re.search(r'name="token" value="([^"]+)"', page).group(1)
    fill(bank, search_rule, 1)
    sitting = proctor.start(learner, blueprint_of(("701.23", 1)))
    refused = logged_in.post(reverse("answer"), {"token": token, **RIGHT})
    assert refused.status_code == 409 and "Practice is paused" in refused.content.decode()
    by_htmx = logged_in.post(reverse("answer"), {"token": token, **RIGHT}, **HTMX)
    assert by_htmx.status_code == 409 and by_htmx["HX-Redirect"] == reverse("practice")
    assert not Response.objects.exists()
    finish_now(sitting)
    assert logged_in.post(reverse("answer"), {"token": token, **RIGHT}).status_code == 302


# Taking it: no feedback until the end -----------------------------------------------------


def test_the_question_page_shows_the_board_the_form_and_the_clock(logged_in, sitting):
    html = logged_in.get(question_url(sitting)).content.decode()
    assert "Library (top first)" in html and 'name="claim_0"' in html
    assert "Question 1 of 5" in html
    assert "20 minutes left" in html and 'role="timer"' in html
    assert 'hx-get="' + reverse("exam_clock", args=[sitting.pk]) in html


@pytest.mark.parametrize("kind", list(QUESTION_SHAPES))
def test_no_page_holds_the_key_before_the_end(logged_in, learner, bank, search_rule, kind):
    make_question(new_scenario(), bank, kind, rules=[search_rule])
    sitting = proctor.start(learner, blueprint_of(("701.23", 1)))
    pages = [
        logged_in.get(question_url(sitting)),
        logged_in.get(reverse("exam_sitting", args=[sitting.pk])),
        logged_in.get(reverse("exam_index")),
    ]
    for page in pages:
        html = page.content.decode()
        assert page.status_code == 200
        assert "expect" not in html and "The ruling" not in html
        if kind != Question.Kind.OUTCOME_REASON:  # whose options each name a rule, right or wrong
            assert "701.23" not in html
        assert "not a basic land" not in html
        assert "Right!" not in html and "Not quite" not in html


def test_an_answer_is_kept_ungraded_until_the_end(logged_in, learner, sitting):
    posted = logged_in.post(question_url(sitting, 1), RIGHT)
    assert posted.status_code == 302 and posted["Location"] == question_url(sitting, 2)
    item = sitting.items.get(position=1)
    assert item.answer == {"parts": ["may", "cannot"]} and item.answered_at is not None
    assert not Response.objects.exists() and not Mastery.objects.exists()  # no verdict yet
    after = logged_in.get(posted["Location"]).content.decode()
    assert "Right!" not in after and "Not quite" not in after and "4 unanswered" in after


def test_finishing_grades_the_answers_as_real_answers(logged_in, learner, sitting):
    logged_in.post(question_url(sitting, 1), RIGHT)
    logged_in.post(reverse("exam_finish", args=[sitting.pk]))
    response = Response.objects.get()
    assert response.correct and response.attempt_id == sitting.pk
    assert Mastery.objects.get(user=learner).answers == 1  # Elo and FSRS learn from it


def test_no_feedback_elsewhere_while_the_exam_runs(logged_in, sitting):
    logged_in.post(question_url(sitting, 1), RIGHT)
    history = logged_in.get(reverse("progress"), **HTMX).content.decode()
    assert "see the ruling" not in history
    review = logged_in.get(reverse("exam_review", args=[sitting.pk, 1]))
    assert review.status_code == 302 and review["Location"] == question_url(sitting, 1)
    answered = logged_in.get(question_url(sitting, 1)).content.decode()
    assert "You have answered this question" in answered and "Right" not in answered


def test_each_question_is_answered_once(logged_in, sitting):
    logged_in.post(question_url(sitting, 1), RIGHT)
    again = logged_in.post(question_url(sitting, 1), WRONG)
    assert again.status_code == 302
    assert sitting.items.get(position=1).answer == {"parts": ["may", "cannot"]}


def test_skipping_goes_to_the_next_unanswered_question(logged_in, sitting):
    logged_in.post(question_url(sitting, 2), RIGHT)
    page = logged_in.get(question_url(sitting, 1)).content.decode()
    assert f'href="{question_url(sitting, 3)}">Skip for now' in page
    statuses = [{"position": n, "answered": n in {2, 4}} for n in range(1, 6)]
    assert proctor.next_unanswered(statuses, 3) == 5
    assert proctor.next_unanswered(statuses, 5) == 1
    assert proctor.next_unanswered([{"position": 1, "answered": True}], 1) is None


def test_the_last_answer_leads_to_the_overview(logged_in, sitting):
    answer_all(logged_in, sitting, [RIGHT] * 4)
    posted = logged_in.post(question_url(sitting, 5), RIGHT)
    assert posted["Location"] == reverse("exam_sitting", args=[sitting.pk])
    overview = logged_in.get(posted["Location"]).content.decode()
    assert "Finish the exam" in overview and "Your score" not in overview


def test_an_incomplete_answer_shows_errors(logged_in, sitting):
    posted = logged_in.post(question_url(sitting, 1), {"claim_0": "must"})
    assert posted.status_code == 400
    assert "This field is required" in posted.content.decode()
    assert not Response.objects.exists()


# The deadline ------------------------------------------------------------------------------


def test_no_answer_after_the_deadline(logged_in, sitting):
    set_deadline(sitting, seconds=-30)
    posted = logged_in.post(question_url(sitting, 1), RIGHT)
    assert posted["Location"] == reverse("exam_sitting", args=[sitting.pk])
    assert not Response.objects.exists()
    assert not sitting.items.filter(answered_at__isnull=False).exists()
    sitting.refresh_from_db()
    sitting.attempt.refresh_from_db()
    assert sitting.attempt.finished_at == sitting.attempt.deadline  # time used: the limit
    assert sitting.right_count == 0 and sitting.passed is False


def test_an_answer_sent_just_before_the_deadline_counts(logged_in, sitting):
    set_deadline(sitting, seconds=-2)
    logged_in.post(question_url(sitting, 1), RIGHT)
    assert sitting.items.get(position=1).answered_at is not None


def test_opening_a_question_after_the_deadline_shows_the_report(logged_in, sitting, monkeypatch):
    later = timezone.now() + datetime.timedelta(minutes=21)
    monkeypatch.setattr(proctor.timezone, "now", lambda: later)
    page = logged_in.get(question_url(sitting, 2))
    assert page["Location"] == reverse("exam_sitting", args=[sitting.pk])
    report = logged_in.get(page["Location"]).content.decode()
    assert "Your score: 0%" in report and "not passed" in report


def test_the_clock_sends_htmx_to_the_report_at_the_end(logged_in, sitting):
    clock = logged_in.get(reverse("exam_clock", args=[sitting.pk]), **HTMX)
    assert "20 minutes left" in clock.content.decode() and "<html" not in clock.content.decode()
    set_deadline(sitting, seconds=-1)
    clock = logged_in.get(reverse("exam_clock", args=[sitting.pk]), **HTMX)
    assert clock["HX-Redirect"] == reverse("exam_sitting", args=[sitting.pk])


def test_the_deadline_is_shown_to_the_second_with_a_local_time_hook(logged_in, sitting):
    deadline = sitting.attempt.deadline
    html = logged_in.get(reverse("exam_clock", args=[sitting.pk]), **HTMX).content.decode()
    assert f'<time datetime="{deadline.isoformat()}" data-local-time>' in html
    assert f"{deadline:%H:%M:%S} UTC</time>" in html  # the text without JavaScript
    page = logged_in.get(question_url(sitting)).content.decode()
    assert '<script src="/static/js/local-time.js" defer></script>' in page  # no inline script


def test_the_clock_label():
    deadline = timezone.now()
    assert proctor.Clock(deadline, 0).label == "Time is up"
    assert proctor.Clock(deadline, 59).label == "Less than a minute left"
    assert proctor.Clock(deadline, 61).label == "2 minutes left"
    assert proctor.Clock(deadline, 60).label == "1 minute left"


# Finishing and the report ------------------------------------------------------------------


@pytest.mark.parametrize(("right", "passed"), [(5, True), (4, True), (3, False), (0, False)])
def test_score_and_pass_mark(logged_in, sitting, right, passed):
    answer_all(logged_in, sitting, [RIGHT] * right + [WRONG] * (5 - right))
    logged_in.post(reverse("exam_finish", args=[sitting.pk]))
    sitting.refresh_from_db()
    assert sitting.right_count == right and sitting.passed is passed
    assert sitting.score_percent == right * 20
    html = logged_in.get(reverse("exam_sitting", args=[sitting.pk])).content.decode()
    assert f"Your score: {right * 20}%" in html
    assert ("not passed" not in html) is passed


def test_needed_to_pass_rounds_up():
    assert proctor.needed_to_pass(0.8, 10) == 8
    assert proctor.needed_to_pass(0.8, 5) == 4
    assert proctor.needed_to_pass(0.8, 7) == 6
    assert proctor.needed_to_pass(0.7, 10) == 7


def test_unanswered_questions_count_as_wrong(logged_in, sitting):
    answer_all(logged_in, sitting, [RIGHT] * 3)
    sitting = proctor.finish(sitting)
    report = proctor.report(sitting)
    assert sitting.right_count == 3 and report.answered == 3 and not sitting.passed
    assert [result.answered for result in report.items] == [True] * 3 + [False] * 2


def test_finishing_twice_keeps_the_first_result(logged_in, sitting):
    answer_all(logged_in, sitting, [RIGHT])
    proctor.finish(sitting)
    first = Attempt.objects.get().finished_at
    proctor.finish(ExamSitting.objects.select_related("attempt").get())
    assert Attempt.objects.get().finished_at == first


def test_per_rule_scores(logged_in, learner, bank, search_rule, shuffle_rule, no_variants):
    both = [
        make_question(new_scenario(), bank, rules=[search_rule, shuffle_rule]) for _ in range(2)
    ]
    only_search = [make_question(new_scenario(), bank, rules=[search_rule]) for _ in range(2)]
    sitting = proctor.start(learner, blueprint_of(("701.23", 4)))
    right_ids = {both[0].pk, only_search[0].pk, only_search[1].pk}
    for item in sitting.items.all():
        data = RIGHT if item.question_id in right_ids else WRONG
        logged_in.post(question_url(sitting, item.position), data)
    report = proctor.report(proctor.finish(sitting))
    tallies = {tally.name: (tally.right, tally.asked, tally.percent) for tally in report.by_rule}
    assert tallies == {"701.23b": (3, 4, 75), "701.24a": (1, 2, 50)}
    html = logged_in.get(reverse("exam_sitting", args=[sitting.pk])).content.decode()
    assert "3 / 4" in html and "1 / 2" in html and "75%" in html


def test_report_time_used(sitting):
    Attempt.objects.filter(pk=sitting.pk).update(
        started_at=sitting.attempt.started_at - datetime.timedelta(minutes=7, seconds=5)
    )
    sitting.attempt.refresh_from_db()
    report = proctor.report(proctor.finish(sitting))
    assert report.time_used_label.startswith("7 min 0")


def test_review_shows_the_answer_the_ruling_and_the_rules(logged_in, sitting, search_rule):
    answer_all(logged_in, sitting, [WRONG, RIGHT])
    logged_in.post(reverse("exam_finish", args=[sitting.pk]))
    first = logged_in.get(reverse("exam_review", args=[sitting.pk, 1])).content.decode()
    assert "Not quite" in first and "You said: <strong>must be found</strong>" in first
    assert "The ruling: <strong>may be found</strong>" in first and search_rule.text in first
    assert f'href="{reverse("exam_review", args=[sitting.pk, 2])}"' in first
    assert "Right!" in logged_in.get(reverse("exam_review", args=[sitting.pk, 2])).content.decode()
    unanswered = logged_in.get(reverse("exam_review", args=[sitting.pk, 5])).content.decode()
    assert "Not answered" in unanswered and search_rule.text in unanswered
    assert f'href="{reverse("exam_sitting", args=[sitting.pk])}"' in unanswered
    feedback = logged_in.get(reverse("feedback", args=[Response.objects.first().pk]))
    assert feedback.status_code == 200  # after the end, practice's feedback page shows it too


def test_past_sittings_are_listed_with_their_scores(logged_in, sitting):
    answer_all(logged_in, sitting, [RIGHT] * 4)
    logged_in.post(reverse("exam_finish", args=[sitting.pk]))
    index = logged_in.get(reverse("exam_index")).content.decode()
    assert "4 / 5 (80%)" in index and "passed" in index
    assert "Continue the exam" not in index


# Access ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "extra", "method"),
    [
        ("exam_sitting", [], "get"),
        ("exam_question", [1], "get"),
        ("exam_question", [1], "post"),
        ("exam_clock", [], "get"),
        ("exam_finish", [], "post"),
        ("exam_review", [1], "get"),
    ],
)
def test_another_learner_gets_a_404(client, other_learner, sitting, name, extra, method):
    client.force_login(other_learner)
    page = getattr(client, method)(reverse(name, args=[sitting.pk, *extra]), RIGHT)
    assert page.status_code == 404
    assert not sitting.items.filter(answered_at__isnull=False).exists()
    assert Attempt.objects.get().finished_at is None


def test_exams_need_login(client):
    page = client.get(reverse("exam_index"))
    assert page.status_code == 302 and reverse("login") in page["Location"]


def test_a_position_outside_the_exam_is_a_404(logged_in, sitting):
    assert logged_in.get(question_url(sitting, 6)).status_code == 404


# Seed blueprints ---------------------------------------------------------------------------


def test_the_seed_blueprints_load_idempotently_and_start(learner):
    call_command("load_content", stdout=open("/dev/null", "w"))  # noqa: SIM115
    blueprint = ExamBlueprint.objects.get(slug="search-and-its-neighbours")
    assert blueprint.question_count == 10 and blueprint.time_limit_minutes == 20
    assert blueprint.pass_mark == 0.8
    assert ExamBlueprint.objects.filter(slug="searching-quick-check").exists()
    before = list(BlueprintArea.objects.order_by("pk").values())
    call_command("load_content", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert list(BlueprintArea.objects.order_by("pk").values()) == before
    sitting = proctor.start(learner, blueprint)
    assert sitting.items.count() == 10
    areas = list(sitting.items.values_list("area", flat=True))
    assert areas.count("Searching") == 5


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda rows: rows[0].update(time_limit_minutes=0), "[0].time_limit_minutes"),
        (lambda rows: rows[0].update(pass_mark=80), "[0].pass_mark"),
        (lambda rows: rows[0]["areas"][1].update(rules=["799.1"]), "[0].areas[1].rules[0]"),
        (lambda rows: rows[0]["areas"][0].update(rules=["search"]), "[0].areas[0].rules[0]"),
        (lambda rows: rows[0]["areas"][0].update(count=0), "[0].areas[0].count"),
        (lambda rows: rows[1].update(slug=rows[0]["slug"]), "[1].slug"),
    ],
)
def test_a_bad_blueprint_names_file_and_field(tmp_path, change, field):
    content = tmp_path / "content"
    shutil.copytree(CONTENT_DIR, content)
    rows = json.loads((content / "blueprints.json").read_text())
    change(rows)
    (content / "blueprints.json").write_text(json.dumps(rows))
    with pytest.raises(ContentError) as error:
        read_content(content)
    assert error.value.file.endswith("blueprints.json") and error.value.field_path == field


def test_a_bad_blueprint_loads_nothing(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(CONTENT_DIR, content)
    (content / "blueprints.json").write_text('[{"slug": "x"}]')
    with pytest.raises(CommandError, match=r"blueprints.json: \[0\].title"):
        call_command("load_content", "--content-dir", str(content))
    assert not ExamBlueprint.objects.exists() and not Question.objects.exists()


# Query counts ------------------------------------------------------------------------------


def fill_bank(bank, rule, size: int) -> None:
    scenario = new_scenario()
    questions = Question.objects.bulk_create(
        Question(
            scenario=scenario,
            bank=bank,
            kind=Question.Kind.CARDS,
            prompt="Mark each card.",
            claims=QUESTION_SHAPES[Question.Kind.CARDS],
            position=index,
        )
        for index in range(size)
    )
    Question.rules.through.objects.bulk_create(
        Question.rules.through(question_id=question.pk, rule_id=rule.pk) for question in questions
    )
    store_variants(Question.objects.select_related("scenario"))  # as content is written


@pytest.fixture
def big_sitting(logged_in, learner, bank, search_rule, no_variants, request):
    fill_bank(bank, search_rule, request.param)
    sitting = proctor.start(learner, blueprint_of(("701.23", 10)))
    logged_in.post(question_url(sitting, 1), RIGHT)  # warm: one answer and mastery exist
    return sitting


@pytest.mark.parametrize("big_sitting", [10, 500], indirect=True)
def test_question_page_queries(logged_in, big_sitting, django_assert_num_queries):
    with django_assert_num_queries(QUESTION_PAGE_QUERIES):
        assert logged_in.get(question_url(big_sitting, 2)).status_code == 200


@pytest.mark.parametrize("big_sitting", [10, 500], indirect=True)
def test_answer_queries(logged_in, big_sitting, django_assert_num_queries):
    with django_assert_num_queries(ANSWER_QUERIES):
        assert logged_in.post(question_url(big_sitting, 2), RIGHT).status_code == 302
    assert ExamItem.objects.filter(sitting=big_sitting).count() == 10

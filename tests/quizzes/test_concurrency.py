"""Answers exactly once and no lost updates, with real concurrency: threads, each with its own
database connection, sending at the same moment (a barrier). They run on whichever database the
suite uses: SQLite (IMMEDIATE transactions, one writer at a time) and PostgreSQL (row locks)."""

from __future__ import annotations

import datetime
import re
import threading
from collections.abc import Callable
from types import SimpleNamespace

import pytest
from django.db import close_old_connections, connection, transaction
from django.test import Client
from django.urls import reverse

from quizzes.exams import proctor
from quizzes.models import (
    Attempt,
    BlueprintArea,
    ExamBlueprint,
    ExamSitting,
    Mastery,
    Presentation,
    Question,
    Response,
    Scenario,
    ScenarioVersion,
)
from quizzes.practice import adaptive, answer_lookup, answers, recording, scheduling
from tests.factories import UserFactory
from tests.quizzes.conftest import make_question

pytestmark = pytest.mark.django_db(transaction=True)

RIGHT = {"claim_0": "may", "claim_1": "cannot"}


def at_once(jobs: list[Callable[[], object]]) -> list[object]:
    """Run each job in its own thread, released together; their results (or exceptions)."""
    barrier = threading.Barrier(len(jobs))
    results: list[object] = [None] * len(jobs)

    def run(index: int, job: Callable[[], object]) -> None:
        try:
            barrier.wait()
            results[index] = job()
        except Exception as error:  # reported by the test, not lost in the thread
            results[index] = error
        finally:
            connection.close()  # each thread opened its own

    threads = [threading.Thread(target=run, args=pair) for pair in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    close_old_connections()
    return results


def served_token(client: Client) -> str:
    page = client.get(reverse("practice")).content.decode()
    return re.search(r'name="token" value="([^"]+)"', page).group(1)


def test_the_same_answer_sent_at_once_is_stored_once(learner, question, no_variants):
    client = Client()
    client.force_login(learner)
    token = served_token(client)
    sessions = [Client() for _ in range(6)]
    for session in sessions:
        session.cookies = client.cookies

    def send(session=None):
        return lambda: session.post(reverse("answer"), {"token": token, **RIGHT})

    results = at_once([send(session) for session in sessions])
    assert [getattr(r, "status_code", r) for r in results] == [302] * 6
    assert len({r["Location"] for r in results}) == 1  # every one shows the first verdict
    assert Response.objects.filter(user=learner).count() == 1
    question.refresh_from_db()
    assert question.answer_count == 1
    mastery = Mastery.objects.get(user=learner)
    assert (mastery.answers, mastery.correct) == (1, 1)


def test_answer_count_and_difficulty_lose_no_update(question, no_variants):
    learners = [UserFactory() for _ in range(8)]
    clients = []
    for learner in learners:
        client = Client()
        client.force_login(learner)
        clients.append((client, served_token(client)))

    def send(client, token):
        return lambda: client.post(reverse("answer"), {"token": token, **RIGHT})

    results = at_once([send(client, token) for client, token in clients])
    assert [getattr(r, "status_code", r) for r in results] == [302] * len(learners)
    question.refresh_from_db()
    assert question.answer_count == len(learners)
    # new learners (theta 0) all right: in any order the steps are the same, none overwritten
    expected = 0.0
    for seen in range(len(learners)):
        expected = adaptive.updated_difficulty(0.0, expected, True, seen)
    assert question.difficulty == pytest.approx(expected)


def _sitting_for(user, blueprint) -> ExamSitting:
    sitting = proctor.start(user, blueprint)
    for item in sitting.items.all():
        proctor.record_answer(sitting, item, {"parts": ["may", "cannot"]})
    return sitting


@pytest.fixture
def shared_questions(bank, search_rule, scenario):
    return [make_question(scenario, bank, rules=[search_rule]) for _ in range(6)]


@pytest.fixture
def exam_blueprint(bank, shared_questions):
    blueprint = ExamBlueprint.objects.create(slug="mock", title="Mock", time_limit_minutes=20)
    blueprint.banks.set([bank])
    BlueprintArea.objects.create(blueprint=blueprint, title="Search", rules="701.23", count=6)
    return blueprint


def test_exam_finishes_at_once_neither_deadlock_nor_lose_updates(
    exam_blueprint, shared_questions, no_variants
):
    """Every sitting holds the same six questions in its own random order: finishing them all
    at once once deadlocked PostgreSQL (locks taken in item order)."""
    sittings = [_sitting_for(UserFactory(), exam_blueprint) for _ in range(8)]
    results = at_once([lambda s=s: proctor.finish(s) for s in sittings])
    assert not [r for r in results if isinstance(r, Exception)]
    assert Attempt.objects.filter(kind="exam", finished_at=None).count() == 0
    assert Response.objects.count() == 8 * 6
    for question in Question.objects.filter(pk__in=[q.pk for q in shared_questions]):
        assert question.answer_count == 8


def test_finishing_one_sitting_at_once_grades_it_once(exam_blueprint, learner, no_variants):
    sitting = _sitting_for(learner, exam_blueprint)
    copies = [ExamSitting.objects.select_related("attempt").get(pk=sitting.pk) for _ in range(4)]
    results = at_once([lambda s=s: proctor.finish(s) for s in copies])
    assert not [r for r in results if isinstance(r, Exception)]
    assert Response.objects.filter(attempt_id=sitting.pk).count() == 6
    assert {r.right_count for r in results} == {6}


def test_starts_at_once_open_one_sitting(exam_blueprint, learner, no_variants):
    results = at_once([lambda: proctor.start(learner, exam_blueprint) for _ in range(5)])
    assert not [r for r in results if isinstance(r, Exception)]
    assert len({r.pk for r in results}) == 1
    assert ExamSitting.objects.count() == 1


def test_double_clicked_start_buttons_open_one_sitting(exam_blueprint, learner, no_variants):
    client = Client()
    client.force_login(learner)
    sessions = [Client() for _ in range(4)]
    for session in sessions:
        session.cookies = client.cookies
    url = reverse("exam_start", args=[exam_blueprint.slug])
    results = at_once([lambda s=s: s.post(url) for s in sessions])
    assert [getattr(r, "status_code", r) for r in results] == [302] * 4
    assert ExamSitting.objects.count() == 1


def test_an_answer_sent_as_the_sitting_finishes_is_graded_or_refused(
    exam_blueprint, learner, no_variants
):
    """Answers and a finish at the same moment: every kept answer is graded, none is lost."""
    sitting = proctor.start(learner, exam_blueprint)
    items = list(sitting.items.order_by("position"))

    def answer(item):
        def send():
            own = ExamSitting.objects.select_related("attempt").get(pk=sitting.pk)
            try:
                return proctor.record_answer(own, item, {"parts": ["may", "cannot"]})
            except proctor.TimeUp:
                return "refused"

        return send

    def finish():
        return proctor.finish(ExamSitting.objects.select_related("attempt").get(pk=sitting.pk))

    results = at_once([answer(item) for item in items] + [finish])
    assert not [r for r in results if isinstance(r, Exception)]
    kept = sitting.items.filter(answered_at__isnull=False).count()
    assert kept == sum(r is True for r in results[:-1])
    assert Response.objects.filter(attempt_id=sitting.pk).count() == kept


def test_edits_saved_at_once_each_start_their_own_version(scenario):
    """Saves of one scenario at the same moment: each edit gets its own version number (ending
    the current version updates its row first, which orders the saves on PostgreSQL; SQLite
    has one writer), none refused by the unique constraint."""
    first = scenario.current_version

    def edit(title):
        def job():
            with transaction.atomic():
                copy = Scenario.objects.get(pk=scenario.pk)
                copy.title = title
                copy.save()
                return copy.version

        return job

    results = at_once([edit(f"Edited {n}") for n in range(4)])
    assert sorted(results) == [2, 3, 4, 5], results
    numbers = list(scenario.versions.values_list("number", flat=True))
    assert numbers == [1, 2, 3, 4, 5]
    assert ScenarioVersion.objects.get(pk=first.pk).title == first.title  # never rewritten


# Issue 19: an answer writes the question's counters and the learner's masteries from what its
# lookup read, where no row moved since; when one moved, it reads it again locked and learns
# from the fresh values, as if it had come after the answer that moved it.
NOW = datetime.datetime(2026, 3, 1, 12, tzinfo=datetime.UTC)


def test_answers_that_read_the_same_question_at_once_lose_no_update(
    question, search_rule, no_variants, monkeypatch
):
    """Both answers read the question before either writes (a barrier after the lookup): the
    second's counters no longer match, so it learns from the question as the first left it."""
    learners = [UserFactory() for _ in range(2)]
    clients = []
    for learner in learners:
        client = Client()
        client.force_login(learner)
        clients.append((client, served_token(client)))
    both_read = threading.Barrier(len(learners), timeout=60)
    find = answer_lookup.find

    def find_then_wait(*args, **kwargs):
        found = find(*args, **kwargs)
        both_read.wait()
        return found

    monkeypatch.setattr(answer_lookup, "find", find_then_wait)
    relocked = spied(monkeypatch, recording, "lock_question_and_masteries")

    def send(client, token):
        return lambda: client.post(reverse("answer"), {"token": token, **RIGHT})

    results = at_once([send(client, token) for client, token in clients])
    assert [getattr(r, "status_code", r) for r in results] == [302, 302]
    assert relocked == [1]  # the second read the question again, locked
    question.refresh_from_db()
    start = Question._meta.get_field("difficulty").default
    after_one = adaptive.updated_difficulty(0.0, start, True, 0)
    assert question.answer_count == 2
    assert question.difficulty == pytest.approx(
        adaptive.updated_difficulty(0.0, after_one, True, 1)
    )
    thetas = sorted(Mastery.objects.filter(rule=search_rule).values_list("theta", flat=True))
    # new learners (theta 0): one learnt from the question as it was, one as the first left it
    expected = sorted(adaptive.updated_theta(0.0, b, True, 0) for b in (start, after_one))
    assert thetas == pytest.approx(expected)


def spied(monkeypatch, module, name: str) -> list[int]:
    """How often `module.name` is called (a one-item list, counted in any thread)."""
    calls = [0]
    function = getattr(module, name)

    def counted(*args, **kwargs):
        calls[0] += 1
        return function(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


def moved_between_read_and_write(monkeypatch, name: str, move: Callable[[], None]) -> None:
    """`move` (another answer's writes, committed) runs once between the answer's lookup and
    its write `recording.name`, in the answer's transaction."""
    write = getattr(recording, name)

    def moved_then_written(*args, **kwargs):
        move()
        return write(*args, **kwargs)

    monkeypatch.setattr(recording, name, moved_then_written)


@pytest.mark.parametrize("known", [True, False], ids=["rule-answered-before", "rule-first"])
@pytest.mark.parametrize("moved", ["question", "mastery"])
def test_a_row_moved_after_the_lookup_is_learnt_from_afresh(
    learner, question, search_rule, no_variants, monkeypatch, known, moved
):
    """A row that moved between the lookup and the write (simulated: another answer's values
    written there) is read again and learnt from: the values an answer after that one gets."""
    monkeypatch.setattr(answers, "timezone", SimpleNamespace(now=lambda: NOW))
    card, due = scheduling.review({}, False, NOW - datetime.timedelta(days=1))
    if known:
        Mastery.objects.create(
            user=learner, rule=search_rule, theta=-0.2, answers=1, fsrs_card=card, due=due
        )
    client = Client()
    client.force_login(learner)
    token = served_token(client)
    question.refresh_from_db()
    difficulty, answer_count = question.difficulty, question.answer_count
    # another answer's values (any will do: the answer must learn from these, not from its read)
    mastery = {"theta": 0.4, "answers": 2 if known else 1, "correct": 1, "fsrs_card": card}
    if moved == "question":
        difficulty, answer_count = difficulty + 0.3, answer_count + 3

        def move():
            Question.objects.filter(pk=question.pk).update(
                difficulty=difficulty, answer_count=answer_count
            )

        moved_between_read_and_write(monkeypatch, "count_answer_if", move)
    else:

        def move():
            Mastery.objects.update_or_create(user=learner, rule=search_rule, defaults=mastery)

        moved_between_read_and_write(monkeypatch, "learn_if_unchanged", move)
    # the mastery the answer must learn from: the moved one, else as it was before the answer
    if moved == "mastery":
        theta, answers_seen, right_so_far, state = 0.4, mastery["answers"], 1, card
    elif known:
        theta, answers_seen, right_so_far, state = -0.2, 1, 0, card
    else:
        theta, answers_seen, right_so_far, state = 0.0, 0, 0, {}

    assert client.post(reverse("answer"), {"token": token, **RIGHT}).status_code == 302

    question.refresh_from_db()
    assert question.answer_count == answer_count + 1
    assert question.difficulty == pytest.approx(
        adaptive.updated_difficulty(theta, difficulty, True, answer_count)
    )
    learnt = Mastery.objects.get(user=learner, rule=search_rule)
    expected_card, expected_due = scheduling.review(state, True, NOW)
    assert (learnt.answers, learnt.correct) == (answers_seen + 1, right_so_far + 1)
    assert learnt.theta == pytest.approx(
        adaptive.updated_theta(theta, difficulty, True, answers_seen)
    )
    assert learnt.due == expected_due
    if not state:  # a new FSRS card's id is drawn from the clock
        learnt.fsrs_card.pop("card_id"), expected_card.pop("card_id")
    assert learnt.fsrs_card == expected_card


def test_answers_on_one_rule_read_at_once_lose_no_update(
    learner, scenario, bank, search_rule, no_variants, monkeypatch
):
    """One learner answers two questions of one rule, both read before either writes (a
    barrier after the lookup): the second's mastery no longer has the answers it read, so it is
    learnt again from the first's values, and its question's difficulty with them."""
    questions = [make_question(scenario, bank, rules=[search_rule]) for _ in range(2)]
    Mastery.objects.create(user=learner, rule=search_rule, theta=-0.3, answers=1)
    client = Client()
    client.force_login(learner)
    tokens = [served_token(client) for _ in questions]
    # the second shown as the first (same scenario, kind and claims), asked of the other question
    Presentation.objects.filter(token=tokens[1]).update(question=questions[1])
    both_read = threading.Barrier(2, timeout=60)
    find = answer_lookup.find

    def find_then_wait(*args, **kwargs):
        found = find(*args, **kwargs)
        both_read.wait()
        return found

    monkeypatch.setattr(answer_lookup, "find", find_then_wait)

    def send(token):
        return lambda: client.post(reverse("answer"), {"token": token, **RIGHT})

    results = at_once([send(token) for token in tokens])
    assert [getattr(r, "status_code", r) for r in results] == [302, 302]
    mastery = Mastery.objects.get(user=learner, rule=search_rule)
    (start,) = {question.difficulty for question in questions}
    between = adaptive.updated_theta(-0.3, start, True, 1)
    assert (mastery.answers, mastery.correct) == (3, 2)
    assert mastery.theta == pytest.approx(adaptive.updated_theta(between, start, True, 2))
    answered = Question.objects.filter(pk__in=[question.pk for question in questions])
    difficulties = sorted(answered.values_list("difficulty", flat=True))
    expected = sorted(adaptive.updated_difficulty(t, start, True, 0) for t in (-0.3, between))
    assert difficulties == pytest.approx(expected)

"""Adaptive selection, and a simulated learner driving the whole loop through
quizzes.practice.answers."""

from __future__ import annotations

import datetime
from collections import Counter
from statistics import mean

import pytest
from django.utils import timezone

from quizzes.models import Attempt, Family, Mastery, Question, Response, Scenario
from quizzes.practice import answers, selection
from tests.factories import BankFactory, RuleFactory, ScenarioFactory
from tests.quizzes.conftest import QUESTION_SHAPES, land_tutor_spec, make_question

pytestmark = pytest.mark.django_db

RIGHT = {"parts": ["may", "cannot"]}
WRONG = {"parts": ["cannot", "may"]}


def spread_bank(scenario, bank, rule, size=161):
    """Questions with difficulties from -4 to 4."""
    for index in range(size):
        make_question(scenario, bank, rules=[rule], difficulty=-4 + 8 * index / (size - 1))


def practise(user, rule, answer, rounds):
    served, masteries = [], []
    for _ in range(rounds):
        question = selection.next_question(user, rule).question
        served.append(question.difficulty)
        attempt = Attempt.objects.open_practice_for(user, question)
        answers.submit(attempt, question, answer)
        masteries.append(Mastery.objects.get(user=user, rule=rule).theta)
    return served, masteries


def test_always_right_raises_mastery_and_served_difficulty(learner, scenario, bank, search_rule):
    spread_bank(scenario, bank, search_rule)
    served, thetas = practise(learner, search_rule, RIGHT, 20)
    assert thetas[-1] > thetas[0] > 0
    assert mean(served[-5:]) > mean(served[:5])


def test_always_wrong_lowers_mastery_and_served_difficulty(learner, scenario, bank, search_rule):
    spread_bank(scenario, bank, search_rule)
    served, thetas = practise(learner, search_rule, WRONG, 20)
    assert thetas[-1] < thetas[0] < 0
    assert mean(served[-5:]) < mean(served[:5])


def test_never_the_question_just_answered(learner, scenario, bank, search_rule):
    first = make_question(scenario, bank, rules=[search_rule])
    second = make_question(scenario, bank, rules=[search_rule])
    answers.submit(Attempt.objects.open_practice_for(learner, first), first, RIGHT)
    assert selection.next_question(learner).question == second
    answers.submit(Attempt.objects.open_practice_for(learner, second), second, RIGHT)
    assert selection.next_question(learner).question == first


def test_unseen_questions_come_first(learner, scenario, bank, search_rule):
    seen = make_question(scenario, bank, rules=[search_rule], difficulty=-0.85)
    other = make_question(scenario, bank, rules=[search_rule], difficulty=3.0)
    unseen = make_question(scenario, bank, rules=[search_rule], difficulty=4.0)
    for question in (seen, other):
        answers.submit(Attempt.objects.open_practice_for(learner, question), question, RIGHT)
    assert selection.next_question(learner).question == unseen


def test_a_due_rule_comes_first(learner, scenario, bank, search_rule):
    other_rule = RuleFactory(number="701.24a")
    make_question(scenario, bank, rules=[search_rule])
    due_question = make_question(scenario, bank, rules=[other_rule])
    Mastery.objects.create(
        user=learner, rule=other_rule, due=timezone.now() - datetime.timedelta(days=1)
    )
    pick = selection.next_question(learner)
    assert pick.question == due_question and pick.due_rule_id == other_rule.pk


def test_a_repeat_starts_a_new_practice_attempt(learner, question):
    first = Attempt.objects.open_practice_for(learner, question)
    answers.submit(first, question, RIGHT)
    second = Attempt.objects.open_practice_for(learner, question)
    assert second != first
    first.refresh_from_db()
    assert first.finished_at is not None


def test_difficulty_moves_only_on_first_attempts(learner, question):
    for _ in range(2):
        attempt = Attempt.objects.open_practice_for(learner, question)
        answers.submit(attempt, question, RIGHT)
    question.refresh_from_db()
    assert question.answer_count == 2
    assert question.difficulty == pytest.approx(-0.5)  # K(0) * (1 - 0.5), once


def test_only_active_questions_in_visible_banks(learner, scenario, search_rule):
    make_question(scenario, BankFactory(visibility="private"), rules=[search_rule])
    make_question(scenario, BankFactory(), rules=[search_rule], is_active=False)
    assert selection.next_question(learner).question is None


def test_engine_disagreement_is_not_served(learner, scenario, bank):
    scenario.engine_status = "disagrees"
    scenario.save()
    make_question(scenario, bank, Question.Kind.CARDS)
    assert selection.next_question(learner).question is None


def other_scenario(slug: str):
    return ScenarioFactory(slug=slug, spec=land_tutor_spec(slug))


def answer(learner, question, given=RIGHT):
    answers.submit(Attempt.objects.open_practice_for(learner, question), question, given)


def test_never_two_in_a_row_from_one_scenario(learner, scenario, bank, search_rule):
    first = make_question(scenario, bank, rules=[search_rule], difficulty=0.0)
    make_question(scenario, bank, rules=[search_rule], difficulty=-0.85)  # nearest the target
    elsewhere = make_question(other_scenario("elsewhere"), bank, rules=[search_rule], difficulty=3)
    answer(learner, first)
    assert selection.next_question(learner).question == elsewhere


def test_no_rule_twice_in_three_questions(learner, bank):
    rules = [RuleFactory(number=f"701.{n}a") for n in (30, 31, 32)]
    scenarios = [other_scenario(f"board-{n}") for n in range(6)]
    asked = [make_question(scenarios[n], bank, rules=[rules[n]], difficulty=-0.8) for n in (0, 1)]
    # unseen questions of the two rules just asked sit nearer the target than the third rule's
    make_question(scenarios[3], bank, rules=[rules[0]], difficulty=-0.85)
    make_question(scenarios[4], bank, rules=[rules[1]], difficulty=-0.85)
    third = make_question(scenarios[5], bank, rules=[rules[2]], difficulty=2.5)
    for question in asked:
        answer(learner, question)
    assert selection.next_question(learner).question == third


def test_a_due_rule_may_come_again_within_three(learner, bank):
    rules = [RuleFactory(number=f"701.{n}a") for n in (30, 31)]
    first = make_question(other_scenario("board-a"), bank, rules=[rules[0]])
    again = make_question(other_scenario("board-b"), bank, rules=[rules[0]], difficulty=3)
    make_question(other_scenario("board-c"), bank, rules=[rules[1]])
    answer(learner, first)
    Mastery.objects.filter(user=learner, rule=rules[0]).update(
        due=timezone.now() - datetime.timedelta(minutes=1)
    )
    pick = selection.next_question(learner)
    assert pick.question == again and pick.due_rule_id == rules[0].pk


def test_a_missed_rule_comes_back_after_one_question_as_another_question(learner, bank):
    missed_rule, other_rule = RuleFactory(number="701.30a"), RuleFactory(number="701.31a")
    boards = [other_scenario(f"board-{n}") for n in range(4)]
    missed = make_question(boards[0], bank, rules=[missed_rule], difficulty=-0.85)
    same_board = make_question(boards[0], bank, rules=[missed_rule], difficulty=-0.85)
    between = make_question(boards[1], bank, rules=[other_rule], difficulty=-0.85)
    make_question(boards[2], bank, rules=[other_rule], difficulty=-0.85)
    relearn = make_question(boards[3], bank, rules=[missed_rule], difficulty=3)
    answer(learner, missed, WRONG)
    assert selection.next_question(learner).question == between  # interleaved first
    answer(learner, between)
    pick = selection.next_question(learner)
    assert pick.relearning and pick.question == relearn  # another board before the same one
    assert pick.question not in (missed, same_board)


def test_one_relearning_step_then_the_rule_is_left_to_its_schedule(learner, bank):
    missed_rule, other_rule = RuleFactory(number="701.30a"), RuleFactory(number="701.31a")
    boards = [other_scenario(f"board-{n}") for n in range(6)]
    first = make_question(boards[0], bank, rules=[missed_rule], difficulty=-0.85)
    between = make_question(boards[1], bank, rules=[other_rule], difficulty=-0.85)
    relearn = make_question(boards[2], bank, rules=[missed_rule], difficulty=-0.85)
    after = make_question(boards[3], bank, rules=[other_rule], difficulty=-0.85)
    make_question(boards[4], bank, rules=[missed_rule], difficulty=-0.85)
    make_question(boards[5], bank, rules=[other_rule], difficulty=-0.85)
    answer(learner, first, WRONG)
    answer(learner, between)
    pick = selection.next_question(learner)
    assert pick.relearning and pick.question == relearn
    answer(learner, relearn, WRONG)  # the relearning step missed too
    answer(learner, after)
    assert not selection.next_question(learner).relearning  # FSRS has the rule now


def test_no_relearning_step_after_a_right_answer(learner, bank):
    rules = [RuleFactory(number=f"701.{n}a") for n in (30, 31, 32)]
    boards = [other_scenario(f"board-{n}") for n in range(4)]
    first = make_question(boards[0], bank, rules=[rules[0]])
    between = make_question(boards[1], bank, rules=[rules[1]])
    make_question(boards[2], bank, rules=[rules[0]])
    third_rule = make_question(boards[3], bank, rules=[rules[2]], difficulty=3)
    answer(learner, first)
    answer(learner, between)
    pick = selection.next_question(learner)
    assert not pick.relearning and pick.question == third_rule


def test_the_least_seen_once_everything_is_seen(learner, bank, search_rule):
    boards = [other_scenario(f"board-{n}") for n in range(3)]
    twice, once, last = (make_question(board, bank, rules=[search_rule]) for board in boards)
    for question in (twice, once, twice, last):
        answer(learner, question)
    assert selection.next_question(learner).question == once


def test_the_rule_filter_serves_only_that_rule(learner, bank, search_rule):
    other_rule = RuleFactory(number="701.31a")
    boards = [other_scenario(f"board-{n}") for n in range(3)]
    ruled = [make_question(boards[n], bank, rules=[search_rule], difficulty=2) for n in (0, 1)]
    make_question(boards[2], bank, rules=[other_rule], difficulty=-0.85)
    answer(learner, ruled[0], WRONG)
    assert selection.next_question(learner, search_rule).question == ruled[1]


@pytest.mark.parametrize("size", [12, 300])
@pytest.mark.parametrize("answered", [0, 9])
def test_selection_queries_stay_constant(learner, bank, size, answered, django_assert_num_queries):
    """Two queries whatever the bank's size: the learner (their last answers with their rules,
    their masteries, the banks they may see), and the nearest unseen question above and below
    the target (a bank of many boards and kinds, so that the mix's first wish has a
    question)."""
    rules = [RuleFactory(number=f"701.{n}a") for n in range(30, 34)]
    boards = [other_scenario(f"board-{n}") for n in range(24)]
    kinds = list(QUESTION_SHAPES)  # the kinds make_question shapes
    questions = [
        make_question(
            boards[n % 24],
            bank,
            Question.Kind.CARDS if n < answered else kinds[n % len(kinds)],
            rules=[rules[n % 4]],
            difficulty=(n % 9 - 4) / 2,
        )
        for n in range(size)
    ]
    for question in questions[:answered]:
        answer(learner, question)
    # once the learner has answered, this bank's rules are of no topic of the study plan, so
    # every topic is missing from the last answers, and selection first asks for an unseen
    # question on one, preferring a topic's example families (quizzes/practice/topics.py): the
    # first wish, asked in the query with the mix's first (was a query of its own: 3 -> 2)
    with django_assert_num_queries(2):
        assert selection.next_question(learner).question is not None


def big_pool(bank, boards=300, per_board=2, rule_count=40, family_count=0):
    """A large pool as the scenario families make: many boards, a few questions each, every
    kind, forty rules, difficulties from a prior that favours one-answer questions; with
    `family_count`, most boards are a family's (one in six of none, as seed scenarios)."""
    import random

    rng = random.Random(12)
    rules = [RuleFactory(number=f"7{n // 10:02d}.{n % 10 + 1}a") for n in range(rule_count)]
    spec = land_tutor_spec("pool")
    families = [
        Family.objects.create(slug=f"family-{n}", title="f", level="L1", definition={})
        for n in range(family_count)
    ]
    scenarios = Scenario.objects.bulk_create(
        Scenario(
            slug=f"pool-{n}",
            title=f"Pool {n}",
            source="tests",
            spec=spec,
            family=families[n % family_count] if families and n % 6 else None,
        )
        for n in range(boards)
    )
    kinds = list(QUESTION_SHAPES)
    prior = {"value": -0.4, "yes_no": -0.2}  # as adaptive.KIND_PRIOR: one-answer easiest
    questions = Question.objects.bulk_create(
        Question(
            scenario=scenarios[n // per_board],
            bank=bank,
            kind=(kind := kinds[rng.randrange(len(kinds))]),
            prompt="?",
            claims=[{"claim": "shuffles", "player": "Alice"}],
            difficulty=prior.get(kind, 0.3) + rng.uniform(-0.1, 0.1),
            position=n,
        )
        for n in range(boards * per_board)
    )
    Question.rules.through.objects.bulk_create(
        Question.rules.through(question_id=q.pk, rule_id=rules[rng.randrange(rule_count)].pk)
        for q in questions
    )


def served_in_order(learner, count, right_rate=0.7):
    """`count` picks, each answered (right with `right_rate`) as a stored response."""
    import random

    rng = random.Random(3)
    served = []
    for _ in range(count):
        pick = selection.next_question(learner)
        question = pick.question
        Response.objects.create(
            attempt=Attempt.objects.open_practice_for(learner, question),
            question=question,
            user=learner,
            correct=rng.random() < right_rate,
        )
        served.append((question, set(question.rules.values_list("pk", flat=True)), pick))
    return served


def test_a_large_pool_is_mixed_from_the_first_question(learner, bank):
    big_pool(bank)
    served = served_in_order(learner, 200)
    first = served[:30]
    boards = [question.scenario_id for question, _, _ in served]
    assert len(set(boards[:30])) >= 20
    assert len(set().union(*(rules for _, rules, _ in first))) >= 8
    assert all(a != b for a, b in zip(boards, boards[1:], strict=False))  # never twice in a row
    kinds = Counter(question.kind for question, _, _ in first)
    assert len(kinds) >= 4 and max(kinds.values()) <= 12  # not 28 one-answer questions of 30
    for index in range(2, len(served)):  # no rule twice in three unless it is relearnt
        question, rules, pick = served[index]
        earlier = served[index - 1][1] | served[index - 2][1]
        assert not rules & earlier or pick.relearning or pick.due_rule_id
    assert len(set(boards)) >= 150


def test_a_family_comes_back_only_after_five_others(learner, bank):
    """A family's boards are one situation with other cards: none of the last five answers'
    families first (a new learner met four Lobotomy boards in seventeen questions)."""
    big_pool(bank, family_count=10)
    served = served_in_order(learner, 120)
    families = [question.scenario.family_id for question, _, _ in served]
    assert len(set(families[:30]) - {None}) >= 8
    for index, (_, _, pick) in enumerate(served):
        before = set(families[max(0, index - selection.FAMILY_GAP) : index]) - {None}
        if families[index] in before:  # only a relearning step or a due rule may repeat one
            assert pick.relearning or pick.due_rule_id, index


def test_a_missed_rule_still_comes_back_as_another_board(learner, bank):
    big_pool(bank)
    served = served_in_order(learner, 60, right_rate=0.5)
    responses = list(Response.objects.filter(user=learner).order_by("created_at", "id"))
    relearnt = 0
    for index, response in enumerate(responses[:-2]):
        if response.correct:
            continue
        question, rules, _ = served[index]
        back, back_rules, pick = served[index + 2]
        if pick.relearning:
            relearnt += 1
            assert rules & back_rules and back.scenario_id != question.scenario_id
    assert relearnt >= 5

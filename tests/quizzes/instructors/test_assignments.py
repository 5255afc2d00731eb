"""Cohort assignments (a bank to practise or an exam to sit, with an optional due date), the
learner's home page that shows them, and the banks a learner may practise (issue 9, item 5)."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from quizzes.instructors import cohorts
from quizzes.models import Assignment, Bank, ExamBlueprint
from tests.factories import BankFactory
from tests.quizzes.conftest import make_question

pytestmark = pytest.mark.django_db

# session, user with the instructor group (the nav; config/auth.py), the learner's assignments,
# their cohorts' banks
HOME_QUERIES = 4
# session, user with group, cohort, the members, its banks, the bank choices, then the assignment
# form's bank and exam choices and the assignments
COHORT_PAGE_QUERIES = 9


@pytest.fixture
def cohort(instructor, own_bank):
    return cohorts.do_create_cohort(instructor, "Level 1 class")


@pytest.fixture
def member(learner, cohort):
    cohorts.do_join(learner, cohort)
    return learner


@pytest.fixture
def exam(instructor):
    return ExamBlueprint.objects.create(
        slug="mock-l1", title="Mock L1 exam", owner=instructor, time_limit_minutes=30
    )


def assign(client, cohort, **data):
    return client.post(reverse("cohort_assign", args=[cohort.pk]), data)


def test_an_assigned_bank_shows_on_the_members_home_page_with_its_button(
    teacher_client, client, cohort, own_bank, member, scenario
):
    make_question(scenario, own_bank)
    posted = assign(teacher_client, cohort, bank=own_bank.pk, due_on="2026-12-24")
    assert posted.status_code == 302
    assignment = Assignment.objects.get()
    assert assignment.bank == own_bank and assignment.due_on == datetime.date(2026, 12, 24)
    assert own_bank in cohort.banks.all()  # the cohort practises it now
    client.force_login(member)
    home = client.get(reverse("home")).content.decode()
    assert "Level 1 class" in home and own_bank.title in home
    assert '<time datetime="2026-12-24">24 Dec 2026</time>' in home
    practise = f'href="{reverse("practice")}?bank={own_bank.slug}"'
    assert practise in home and "Practise this bank" in home
    page = client.get(f"{reverse('practice')}?bank={own_bank.slug}")
    assert page.status_code == 200 and 'name="token"' in page.content.decode()


def test_an_assigned_exam_shows_with_a_link_to_the_exams(
    teacher_client, client, cohort, exam, member
):
    assert assign(teacher_client, cohort, blueprint=exam.pk).status_code == 302
    client.force_login(member)
    home = client.get(reverse("home")).content.decode()
    assert "sit the exam Mock L1 exam" in home
    assert f'href="{reverse("exam_index")}"' in home


def test_an_overdue_assignment_says_so(teacher_client, client, cohort, own_bank, member):
    assign(teacher_client, cohort, bank=own_bank.pk, due_on="2020-01-01")
    client.force_login(member)
    assert "overdue" in client.get(reverse("home")).content.decode()


def test_a_non_member_sees_no_assignment(teacher_client, client, cohort, own_bank, other_learner):
    assign(teacher_client, cohort, bank=own_bank.pk)
    client.force_login(other_learner)
    home = client.get(reverse("home")).content.decode()
    assert "From your instructors" not in home and own_bank.title not in home
    assert client.get(f"{reverse('practice')}?bank={own_bank.slug}").status_code == 404


def test_a_bank_made_private_after_assigning_disappears(
    teacher_client, client, cohort, own_bank, member
):
    assign(teacher_client, cohort, bank=own_bank.pk)
    Bank.objects.filter(pk=own_bank.pk).update(visibility=Bank.Visibility.PRIVATE)
    client.force_login(member)
    assert own_bank.title not in client.get(reverse("home")).content.decode()


@pytest.mark.parametrize(
    "data",
    [{}, {"bank": "own", "blueprint": "exam"}, {"due_on": "2026-12-24"}],
    ids=["nothing", "both", "only-a-date"],
)
def test_an_assignment_is_a_bank_or_an_exam(teacher_client, cohort, own_bank, exam, data):
    values = {"own": own_bank.pk, "exam": exam.pk}
    posted = assign(teacher_client, cohort, **{k: values.get(v, v) for k, v in data.items()})
    assert posted.status_code == 400
    assert "Choose a bank or an exam" in posted.content.decode()
    assert not Assignment.objects.exists()


# Attacks: everything through its owner.


def test_another_instructors_bank_or_exam_cannot_be_assigned(
    teacher_client, cohort, other_instructor
):
    theirs = BankFactory(owner=other_instructor, visibility=Bank.Visibility.PUBLIC)
    their_exam = ExamBlueprint.objects.create(
        slug="theirs", title="T", owner=other_instructor, time_limit_minutes=30
    )
    assert assign(teacher_client, cohort, bank=theirs.pk).status_code == 400
    assert assign(teacher_client, cohort, blueprint=their_exam.pk).status_code == 400
    assert not Assignment.objects.exists() and not cohort.banks.exists()
    with pytest.raises(cohorts.CohortError):
        cohorts.do_assign(cohort, bank=theirs)


def test_a_private_bank_cannot_be_assigned(teacher_client, cohort, instructor):
    private = BankFactory(owner=instructor, visibility=Bank.Visibility.PRIVATE)
    assert assign(teacher_client, cohort, bank=private.pk).status_code == 400
    with pytest.raises(cohorts.CohortError):
        cohorts.do_assign(cohort, bank=private)


def test_another_instructor_cannot_assign_to_or_unassign_from_my_cohort(
    client, cohort, own_bank, other_instructor
):
    assignment = cohorts.do_assign(cohort, bank=own_bank)
    client.force_login(other_instructor)
    theirs = BankFactory(owner=other_instructor, visibility=Bank.Visibility.SHARED)
    assert assign(client, cohort, bank=theirs.pk).status_code == 404
    url = reverse("cohort_unassign", args=[cohort.pk, assignment.pk])
    assert client.post(url).status_code == 404
    assert Assignment.objects.count() == 1


def test_an_assignment_is_removed_only_through_its_own_cohort(
    teacher_client, instructor, cohort, own_bank
):
    other_cohort = cohorts.do_create_cohort(instructor, "Other class")
    assignment = cohorts.do_assign(other_cohort, bank=own_bank)
    wrong = reverse("cohort_unassign", args=[cohort.pk, assignment.pk])
    assert teacher_client.post(wrong).status_code == 404
    right = reverse("cohort_unassign", args=[other_cohort.pk, assignment.pk])
    assert teacher_client.post(right).status_code == 302
    assert not Assignment.objects.exists()


def test_a_learner_cannot_assign(client, member, cohort, own_bank):
    client.force_login(member)
    assert assign(client, cohort, bank=own_bank.pk).status_code == 403


def test_a_learner_cannot_open_the_per_learner_view(client, member, cohort):
    client.force_login(member)
    url = reverse("cohort_member", args=[cohort.pk, member.pk])
    assert client.get(url).status_code == 403


def test_another_instructor_cannot_open_my_learner(client, member, cohort, other_instructor):
    client.force_login(other_instructor)
    url = reverse("cohort_member", args=[cohort.pk, member.pk])
    assert client.get(url).status_code == 404


# The banks a learner may practise.


def test_the_banks_page_lists_what_the_learner_may_practise(
    client, member, cohort, own_bank, other_instructor, scenario
):
    make_question(scenario, own_bank)
    cohort.banks.add(own_bank)
    private = BankFactory(owner=other_instructor, visibility=Bank.Visibility.PRIVATE)
    make_question(scenario, private)
    empty = BankFactory()  # public but with nothing to serve
    client.force_login(member)
    page = client.get(reverse("practice_banks")).content.decode()
    assert own_bank.title in page and "1 question " in page
    assert private.title not in page and empty.title not in page
    assert f'href="{reverse("practice")}?bank={own_bank.slug}"' in page


def test_the_owners_bank_page_has_a_practise_button(teacher_client, own_bank):
    page = teacher_client.get(reverse("bank_detail", args=[own_bank.slug])).content.decode()
    assert f'href="{reverse("practice")}?bank={own_bank.slug}">Practise this bank' in page


# Query counts.


@pytest.mark.parametrize("count", [1, 6])
def test_home_page_queries_do_not_grow_with_assignments(
    client, instructor, cohort, member, count, django_assert_num_queries
):
    for index in range(count):
        bank = BankFactory(owner=instructor, visibility=Bank.Visibility.SHARED)
        cohorts.do_assign(cohort, bank=bank, due_on=datetime.date(2026, 12, 1 + index))
    client.force_login(member)
    with django_assert_num_queries(HOME_QUERIES):
        assert client.get(reverse("home")).status_code == 200


@pytest.mark.parametrize("count", [1, 6])
def test_cohort_page_queries_do_not_grow_with_assignments(
    teacher_client, instructor, cohort, exam, count, django_assert_num_queries
):
    for _ in range(count):
        cohorts.do_assign(cohort, blueprint=exam)
    with django_assert_num_queries(COHORT_PAGE_QUERIES):
        assert teacher_client.get(reverse("cohort_detail", args=[cohort.pk])).status_code == 200


@pytest.mark.parametrize("count", [1, 6])
def test_banks_page_queries_do_not_grow(client, member, scenario, count, django_assert_num_queries):
    for _ in range(count):
        make_question(scenario, BankFactory())
    client.force_login(member)
    with django_assert_num_queries(3):  # session, user with the nav's group, the banks, counts
        assert client.get(reverse("practice_banks")).status_code == 200

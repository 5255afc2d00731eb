"""Cohorts: join codes, shared banks visible to members only, per-learner progress for members."""

from __future__ import annotations

import pytest
from django.urls import reverse

from quizzes import rulings
from quizzes.instructors import cohorts
from quizzes.models import Attempt, Bank, Cohort, Presentation
from quizzes.models.cohorts import JOIN_CODE_ALPHABET, JOIN_CODE_LENGTH
from quizzes.practice import answers, selection
from tests.factories import BankFactory, UserFactory
from tests.quizzes.conftest import make_question

pytestmark = pytest.mark.django_db

# session, user with its group (config/auth.py), cohort, the bank choices, the members with their
# counts, its banks
COHORT_PAGE_QUERIES = 9  # and three: the assignment form's banks and exams, the assignments


@pytest.fixture
def cohort(instructor, own_bank):
    cohort = cohorts.do_create_cohort(instructor, "Level 1 class")
    cohort.banks.set([own_bank])
    return cohort


def test_a_join_code_is_random_and_unambiguous(instructor):
    codes = {cohorts.do_create_cohort(instructor, f"c{i}").join_code for i in range(20)}
    assert len(codes) == 20
    assert all(
        len(code) == JOIN_CODE_LENGTH and set(code) <= set(JOIN_CODE_ALPHABET) for code in codes
    )
    assert not set("01OIL") & set(JOIN_CODE_ALPHABET)


def test_create_a_cohort_through_the_page(teacher_client, instructor):
    response = teacher_client.post(reverse("cohort_index"), {"name": "Tuesday class"})
    cohort = Cohort.objects.get()
    assert response.status_code == 302 and cohort.instructor == instructor
    page = teacher_client.get(reverse("cohort_detail", args=[cohort.pk])).content.decode()
    assert cohort.join_code in page and f"/cohorts/join/?code={cohort.join_code}" in page
    assert f"/accounts/signup/?code={cohort.join_code}" in page  # new learners sign up and join


def test_learners_join_with_the_code(client, learner, cohort):
    client.force_login(learner)
    code = cohort.join_code.lower()
    response = client.post(reverse("cohort_join"), {"code": f" {code[:4]} {code[4:]} "})
    assert response.status_code == 200 and "You joined" in response.content.decode()
    again = client.post(reverse("cohort_join"), {"code": cohort.join_code})
    assert "already in" in again.content.decode()
    assert list(cohort.members.all()) == [learner]


def test_joining_offers_the_cohorts_banks_to_practise(client, learner, cohort, instructor):
    """Just joined, the learner is one click from the cohort's bank, not from all of practice;
    another cohort's bank (even one they are in) and a private bank of this one are not offered."""
    private = BankFactory(owner=instructor, slug="drafts", visibility=Bank.Visibility.PRIVATE)
    cohort.banks.add(private)
    elsewhere = cohorts.do_create_cohort(instructor, "Other class")
    elsewhere.banks.set([BankFactory(owner=instructor, slug="week-9", title="Week 9")])
    cohorts.do_join(learner, elsewhere)
    client.force_login(learner)
    page = client.post(reverse("cohort_join"), {"code": cohort.join_code}).content.decode()
    assert f'href="{reverse("practice")}?bank=week-1"' in page
    assert "?bank=drafts" not in page and "?bank=week-9" not in page


def test_a_wrong_code_is_refused(client, learner, cohort):
    client.force_login(learner)
    response = client.post(reverse("cohort_join"), {"code": "NOPE2345"})
    assert response.status_code == 400 and "No cohort has this code" in response.content.decode()
    assert not cohort.members.exists()


def test_the_join_page_prefills_the_code(client, learner, cohort):
    client.force_login(learner)
    page = client.get(reverse("cohort_join"), {"code": cohort.join_code}).content.decode()
    assert f'value="{cohort.join_code}"' in page


def test_shared_banks_are_visible_to_members_only(
    learner, other_learner, cohort, own_bank, scenario
):
    question = make_question(scenario, own_bank)
    cohorts.do_join(learner, cohort)
    assert list(selection.available_questions(learner)) == [question]
    assert not selection.available_questions(other_learner).exists()


def test_a_bank_in_two_cohorts_is_not_doubled(instructor, learner, cohort, own_bank, scenario):
    make_question(scenario, own_bank)
    second = cohorts.do_create_cohort(instructor, "Second")
    second.banks.set([own_bank])
    cohorts.do_join(learner, cohort)
    cohorts.do_join(learner, second)
    assert selection.available_questions(learner).count() == 1


def test_private_banks_stay_private_even_when_assigned(instructor, learner, cohort, scenario):
    private = BankFactory(owner=instructor, visibility=Bank.Visibility.PRIVATE)
    make_question(scenario, private)
    cohort.banks.add(private)
    cohorts.do_join(learner, cohort)
    assert not selection.available_questions(learner).exists()


def test_only_ones_own_banks_can_be_assigned(teacher_client, cohort, other_instructor):
    theirs = BankFactory(owner=other_instructor, visibility=Bank.Visibility.SHARED)
    url = reverse("cohort_banks", args=[cohort.pk])
    assert teacher_client.post(url, {"banks": [theirs.pk]}).status_code == 400
    with pytest.raises(cohorts.CohortError):
        cohorts.do_assign_banks(cohort, Bank.objects.filter(pk=theirs.pk))
    assert theirs not in cohort.banks.all()


def test_assigning_banks_through_the_page(teacher_client, instructor, cohort, own_bank):
    second = BankFactory(owner=instructor, visibility=Bank.Visibility.PUBLIC)
    url = reverse("cohort_banks", args=[cohort.pk])
    assert teacher_client.post(url, {"banks": [second.pk]}).status_code == 302
    assert list(cohort.banks.all()) == [second]


def test_saving_the_banks_says_so(teacher_client, cohort, own_bank):
    # found walking: "Save the banks" came back to the same page with no word that it had saved
    response = teacher_client.post(
        reverse("cohort_banks", args=[cohort.pk]), {"banks": [own_bank.pk]}, follow=True
    )
    page = response.content.decode()
    assert response.redirect_chain[-1][0].endswith("#banks-title")
    assert 'role="status">Saved: the cohort practises the banks ticked below.' in page
    plain = teacher_client.get(reverse("cohort_detail", args=[cohort.pk])).content.decode()
    assert "Saved: the cohort practises" not in plain


def answer(user, question, right: bool):
    attempt = Attempt.objects.open_practice_for(user, question)
    given = {"parts": ["may", "cannot"]} if right else {"parts": ["cannot", "may"]}
    return answers.submit(attempt, question, given)


def test_progress_of_members_on_the_cohorts_banks(
    teacher_client, learner, other_learner, cohort, own_bank, scenario, search_rule
):
    on_bank = make_question(scenario, own_bank, rules=[search_rule])
    elsewhere = make_question(scenario, BankFactory(), rules=[search_rule])
    cohorts.do_join(learner, cohort)
    answer(learner, on_bank, right=True)
    answer(learner, elsewhere, right=False)  # another bank: not the cohort's business
    answer(other_learner, on_bank, right=True)  # not a member
    page = teacher_client.get(reverse("cohort_detail", args=[cohort.pk])).content.decode()
    assert "learner" in page and "someone-else" not in page
    member = cohorts.members_of(cohort).get()
    assert (member.answers, member.first_answers, member.first_right) == (1, 1, 1)
    detail = teacher_client.get(reverse("cohort_member", args=[cohort.pk, learner.pk]))
    assert "701.23b" in detail.content.decode() and detail.status_code == 200


@pytest.fixture
def repeated(learner, cohort, own_bank, scenario, search_rule):
    """The learner misses a question, then answers it right twice; a second one right once."""
    cohorts.do_join(learner, cohort)
    missed = make_question(scenario, own_bank, rules=[search_rule], key="missed")
    for right in (False, True, True):
        answer(learner, missed, right=right)
    answer(learner, make_question(scenario, own_bank, key="known"), right=True)
    return missed


def test_first_attempts_and_repeats_are_told_apart(teacher_client, cohort, repeated):
    member = cohorts.members_of(cohort).get()
    assert member.answers == 4
    assert (member.first_answers, member.first_right) == (2, 1)  # not 4 answers, 75% right
    assert (member.repeats, member.repeats_right) == (2, 2)
    page = teacher_client.get(reverse("cohort_detail", args=[cohort.pk])).content.decode()
    row = page.split('<th scope="row">', 1)[1].split("</tr>", 1)[0]
    cells = [cell.split("</td>", 1)[0] for cell in row.split("<td>")[1:]]
    assert cells[1:5] == ["2", "50% (1)", "2", "100% (2)"]
    assert "Right first time" in page and "Repeat answers" in page


def test_recent_answers_show_the_question_and_what_was_answered(
    teacher_client, learner, cohort, repeated
):
    url = reverse("cohort_member", args=[cohort.pk, learner.pk])
    page = teacher_client.get(url).content.decode()
    recent = page.split('id="recent-title"', 1)[1]
    assert recent.count("A cards question about Land Tutor.") == 4  # the prompt of each
    assert recent.count("first attempt") == 2 and recent.count("repeat ·") == 2
    # the first, wrong answer: what was asked, what the learner said, and the ruling
    first = recent.rsplit("Wrong", 1)[1]
    forest = "Must, may or can&#x27;t the Forest on top of Alice&#x27;s library be found?"
    said = "answered <strong>can&#x27;t be found</strong>; the ruling: may be found (701.23b)"
    assert f"{forest} — {said}" in first


def test_recent_answers_keep_the_title_and_prompt_answered_after_an_edit(
    teacher_client, learner, cohort, own_bank, scenario
):
    # found walking: after the instructor retitled a scenario the learner had answered, the
    # member page listed the old answers under the new title and prompt
    cohorts.do_join(learner, cohort)
    question = make_question(scenario, own_bank)
    answer(learner, question, right=True)
    answered_title = scenario.title
    scenario.title = "Retitled after the answer"
    scenario.save()  # a new version; the old one keeps its title and freezes the questions
    question.prompt = "A reworded prompt."
    question.save()
    url = reverse("cohort_member", args=[cohort.pk, learner.pk])
    recent = teacher_client.get(url).content.decode().split('id="recent-title"', 1)[1]
    assert answered_title in recent and "Retitled after the answer" not in recent
    assert "A cards question about Land Tutor." in recent and "A reworded prompt." not in recent


def test_recent_answers_name_the_players_the_learner_saw(
    teacher_client, learner, cohort, own_bank, scenario
):
    # found walking: the title and prompt gave the scenario's written names, each part below
    # them the variant's the learner was shown (Priya's library under "Alice casts ...")
    scenario.title = "Alice casts Land Tutor"
    scenario.save()
    question = make_question(scenario, own_bank)
    question.prompt = "Which cards may Alice find?"
    question.save()
    cohorts.do_join(learner, cohort)
    ruling = next(
        shown
        for seed in range(1, 50)
        if "Alice" in (shown := rulings.ruling_for(question, seed, learner.pk)).shown.players
    )
    seen = ruling.shown.players["Alice"]
    served = Presentation.objects.create(
        user=learner,
        question=question,
        scenario_version=scenario.current_version,
        shown=ruling.shown.to_json(),
    )
    attempt = Attempt.objects.open_practice_for(learner, question)
    given = {"parts": ["may", "cannot"]}
    answers.submit(
        attempt, question, given, seed=ruling.shown.seed, ruling=ruling, presentation=served
    )
    url = reverse("cohort_member", args=[cohort.pk, learner.pk])
    recent = teacher_client.get(url).content.decode().split('id="recent-title"', 1)[1]
    assert f"{seen} casts Land Tutor" in recent and f"Which cards may {seen} find?" in recent
    assert f"{seen}&#x27;s library" in recent  # the parts, as they were stored
    assert "Alice" not in recent


def test_a_non_member_or_another_instructors_cohort_is_a_404(
    client, teacher_client, other_instructor, other_learner, cohort
):
    url = reverse("cohort_member", args=[cohort.pk, other_learner.pk])
    assert teacher_client.get(url).status_code == 404
    client.force_login(other_instructor)
    assert client.get(reverse("cohort_detail", args=[cohort.pk])).status_code == 404


def test_an_instructor_cannot_join_their_own_cohort(instructor, cohort):
    with pytest.raises(cohorts.CohortError):
        cohorts.check_join(instructor, cohort.join_code)


@pytest.mark.parametrize("size", [2, 8])
def test_cohort_page_queries_do_not_grow(
    teacher_client, cohort, own_bank, scenario, size, django_assert_num_queries
):
    question = make_question(scenario, own_bank)
    for index in range(size):
        member = UserFactory(username=f"member-{index}")
        cohorts.do_join(member, cohort)
        answer(member, question, right=bool(index % 2))
    with django_assert_num_queries(COHORT_PAGE_QUERIES):
        teacher_client.get(reverse("cohort_detail", args=[cohort.pk]))

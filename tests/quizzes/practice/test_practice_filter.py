"""Practice filtered by level, rule and bank (`/practice/?level=L2&rule=701.23b&bank=<slug>`):
only those questions, a bank only among the banks the learner may see, and the filter carried
on by "Next question" with htmx and without JavaScript."""

from __future__ import annotations

import pytest
from django.urls import reverse

from quizzes.models import Bank, Cohort, CohortMembership, Presentation, Question
from tests.factories import BankFactory, RuleFactory, ScenarioFactory, UserFactory
from tests.quizzes.conftest import land_tutor_spec, make_question
from tests.quizzes.pages import token_of

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def logged_in(client, learner, no_variants):
    client.force_login(learner)
    return client


def boards(count: int, prefix: str = "land-tutor") -> list:
    return [
        ScenarioFactory(slug=f"{prefix}-{i}", spec=land_tutor_spec(f"{prefix}-{i}"))
        for i in range(count)
    ]


@pytest.fixture
def pool(bank, search_rule):
    """Questions of every level, on two rules and in two public banks."""
    other_rule = RuleFactory(number="701.23a")
    other_bank = BankFactory(slug="other-bank")
    questions = []
    for index, scenario in enumerate(boards(12)):
        level = Question.Level.values[index % 3]
        rule = search_rule if index % 2 else other_rule
        in_bank = bank if index % 4 < 2 else other_bank
        questions.append(make_question(scenario, in_bank, rules=[rule], level=level))
    return questions


def served(client, query: str = "") -> tuple[Question, object]:
    page = client.get(f"{reverse('practice')}?{query}")
    assert page.status_code == 200
    return Presentation.objects.latest("created_at", "id").question, page


def answer(client, page, **extra):
    data = {"token": token_of(page), "claim_0": "may", "claim_1": "cannot"}
    return client.post(reverse("answer"), data, **extra)


def test_level_filter_serves_only_that_level(logged_in, pool):
    for _ in range(4):
        question, page = served(logged_in, "level=L2")
        assert question.level == "L2"
        answer(logged_in, page)


def test_rule_level_and_bank_combine(logged_in, pool, bank, search_rule):
    wanted = {
        q.pk
        for q in pool
        if q.level == "corner" and q.bank == bank and search_rule in q.rules.all()
    }
    assert wanted  # the pool has such questions
    question, page = served(logged_in, f"level=corner&rule=701.23b&bank={bank.slug}")
    assert question.pk in wanted
    assert "Practising corner rule" in page.content.decode()


def test_the_filter_survives_next_question_without_javascript(logged_in, pool, bank):
    query = f"level=L1&bank={bank.slug}"
    _, page = served(logged_in, query)
    posted = answer(logged_in, page)
    assert posted.status_code == 302
    feedback = logged_in.get(posted["Location"]).content.decode()
    next_url = f"{reverse('practice')}?{query.replace('&', '&amp;')}"
    assert f'id="next-question" href="{next_url}"' in feedback
    question, _ = served(logged_in, query)  # following that link
    assert question.level == "L1" and question.bank == bank


def test_the_filter_survives_next_question_with_htmx(logged_in, pool, search_rule):
    _, page = served(logged_in, "rule=701.23b&level=L2")
    fragment = answer(logged_in, page, **HTMX).content.decode()
    assert "<html" not in fragment
    # the order is the filter's own, whatever the order of the query string
    assert f'id="next-question" href="{reverse("practice")}?level=L2&amp;rule=701.23b"' in fragment


def test_an_earlier_rule_number_is_carried_as_the_current_one(logged_in, pool, search_rule):
    search_rule.aliases.create(number="701.19b")
    _, page = served(logged_in, "rule=701.19b")
    fragment = answer(logged_in, page, **HTMX).content.decode()
    assert 'href="/practice/?rule=701.23b"' in fragment


def test_the_filter_control_is_on_the_page_with_labels(logged_in, pool, bank):
    html = logged_in.get(reverse("practice")).content.decode()
    assert 'method="get" action="/practice/"' in html
    for name in ("level", "rule", "bank"):
        assert f'<label for="id_{name}">' in html
    assert f'<option value="{bank.slug}">' in html  # the learner's banks to choose from
    chosen = logged_in.get(f"{reverse('practice')}?level=L2").content.decode()
    assert '<option value="L2" selected>' in chosen  # the filter shows what it holds


def test_a_bank_the_learner_cannot_see_is_not_found(logged_in, pool, instructor):
    private = BankFactory(slug="private-bank", owner=instructor, visibility=Bank.Visibility.PRIVATE)
    make_question(boards(1, "private")[0], private)
    page = logged_in.get(f"{reverse('practice')}?bank={private.slug}")
    assert page.status_code == 404
    assert 'name="token"' not in page.content.decode()
    assert logged_in.get(f"{reverse('practice')}?bank=no-such-bank").status_code == 404


def test_a_cohort_member_practises_the_cohorts_shared_bank(
    logged_in, learner, instructor, django_capture_on_commit_callbacks
):
    shared = BankFactory(slug="cohort-bank", owner=instructor, visibility=Bank.Visibility.SHARED)
    BankFactory(slug="public-elsewhere")
    for scenario in boards(3):
        make_question(scenario, shared)
    url = f"{reverse('practice')}?bank={shared.slug}"
    assert logged_in.get(url).status_code == 404  # not a member yet
    # joining commits (the banks each visitor may see are kept until a change commits)
    with django_capture_on_commit_callbacks(execute=True):
        cohort = Cohort.objects.create(name="Tuesday", instructor=instructor)
        cohort.banks.add(shared)
        CohortMembership.objects.create(cohort=cohort, user=learner)
    question, _ = served(logged_in, f"bank={shared.slug}")
    assert question.bank == shared
    outsider = UserFactory()
    logged_in.force_login(outsider)
    assert logged_in.get(url).status_code == 404  # another learner: still unknown


def test_a_bad_level_is_refused(logged_in, pool):
    page = logged_in.get(f"{reverse('practice')}?level=L9")
    assert page.status_code == 400
    assert 'name="token"' not in page.content.decode()


def test_an_overlong_rule_is_refused(logged_in, pool):
    page = logged_in.get(f"{reverse('practice')}?rule={'7' * 5000}")
    assert page.status_code == 400


def test_nothing_at_this_level_says_so(logged_in, bank, question):
    page = logged_in.get(f"{reverse('practice')}?level=corner")
    assert page.status_code == 200
    assert "no questions for you yet with this choice" in page.content.decode()


def test_a_bank_of_one_question_just_answered_says_so(logged_in, bank, question, search_rule):
    """Not "no questions for you yet": the learner just answered the bank's only question,
    which never comes twice running."""
    query = f"bank={bank.slug}"
    first, page = served(logged_in, query)
    assert first == question
    answer(logged_in, page)
    after = logged_in.get(f"{reverse('practice')}?{query}").content.decode()
    assert "You have just answered the only question here" in after
    assert "no questions for you yet" not in after
    assert f'href="{reverse("practice_banks")}"' in after


def test_a_bank_with_nothing_for_the_learner_still_says_nothing_yet(logged_in, bank, question):
    empty = BankFactory(slug="empty-bank")
    page = logged_in.get(f"{reverse('practice')}?bank={empty.slug}").content.decode()
    assert "no questions for you yet with this choice" in page
    assert "You have just answered" not in page

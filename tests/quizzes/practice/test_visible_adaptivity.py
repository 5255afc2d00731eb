"""Visible adaptivity (issue 23): the reviews due listed with a "Review now" button that practises
them, and each practice question saying why it was chosen. Through the test client."""

from __future__ import annotations

import datetime

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from quizzes.models import Mastery
from tests.factories import RuleFactory, ScenarioFactory
from tests.quizzes.conftest import land_tutor_spec, make_question

pytestmark = pytest.mark.django_db

RIGHT_FOREST_WRONG_SHOCK = {"claim_0": "may", "claim_1": "may"}
ALL_RIGHT = {"claim_0": "may", "claim_1": "cannot"}


@pytest.fixture
def rules(db):
    return {number: RuleFactory(number=number) for number in ("701.23a", "701.23b", "118.9")}


def board(name: str):
    return ScenarioFactory(slug=name, spec=land_tutor_spec(name))


def answer(client, page, data: dict) -> None:
    posted = client.post(reverse("answer"), {"token": page.context["token"], **data})
    assert posted.status_code == 302


def why(page) -> str:
    html = page.content.decode()
    return html.split('class="why-chosen muted">')[1].split("</p>")[0]


def due(learner, rule, minutes_ago: int) -> Mastery:
    moment = timezone.now() - datetime.timedelta(minutes=minutes_ago)
    return Mastery.objects.create(user=learner, rule=rule, answers=1, correct=0, due=moment)


def test_the_reviews_due_are_listed_with_a_review_now_button(client, learner, bank, rules):
    make_question(board("tutor-a"), bank, rules=[rules["701.23a"]])
    due(learner, rules["701.23a"], 5)
    due(learner, rules["118.9"], 60)
    Mastery.objects.create(
        user=learner, rule=rules["701.23b"], due=timezone.now() + datetime.timedelta(days=2)
    )
    client.force_login(learner)
    html = client.get(reverse("progress")).content.decode()
    listed = html.split('id="reviews-title"')[1].split("</section>")[0]
    assert listed.index("118.9") < listed.index("701.23a")  # the most overdue first
    assert "701.23b" not in listed  # due in two days
    assert f'href="{reverse("practice")}?review=1"' in listed and "Review now" in listed


def test_review_now_serves_a_question_on_a_rule_due(client, learner, bank, rules, no_variants):
    make_question(board("tutor-a"), bank, rules=[rules["701.23b"]], difficulty=-0.85)
    on_due_rule = make_question(board("tutor-b"), bank, rules=[rules["701.23a"]], difficulty=2)
    due(learner, rules["701.23a"], 5)
    Mastery.objects.create(user=learner, rule=rules["701.23b"], due=None)
    client.force_login(learner)
    page = client.get(reverse("practice"), {"review": "1"})
    assert page.context["question"] == on_due_rule
    assert "Review due: rule 701.23a" in why(page)
    answer(client, page, ALL_RIGHT)  # reviewed: its rule is due again only in days
    done = client.get(reverse("practice"), {"review": "1"})
    assert done.context["question"] is None
    assert "No reviews are due now." in done.content.decode()


def test_a_new_question_says_it_is_new(client, learner, bank, rules, no_variants):
    make_question(board("tutor-a"), bank, rules=[rules["701.23a"]])
    client.force_login(learner)
    assert why(client.get(reverse("practice"))) == "New to you, chosen near your level."
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "it"
    assert "New to you" not in why(client.get(reverse("practice")))


def test_a_relearning_question_names_the_rule_of_the_missed_part(
    client, learner, bank, rules, no_variants
):
    make_question(
        board("tutor-a"), bank, rules=[rules["701.23a"], rules["701.23b"]], difficulty=-0.85
    )
    make_question(board("tutor-b"), bank, rules=[rules["118.9"]], difficulty=-0.8)
    make_question(board("tutor-c"), bank, rules=[rules["701.23a"]], difficulty=1.5)
    client.force_login(learner)
    answer(client, client.get(reverse("practice")), RIGHT_FOREST_WRONG_SHOCK)
    answer(client, client.get(reverse("practice")), ALL_RIGHT)
    page = client.get(reverse("practice"))
    assert page.context["pick"].why == "relearning"
    assert "Relearning rule 701.23a: you missed its part two questions ago." in why(page)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    german = client.get(reverse("practice"))
    assert "701.23a" in why(german) and "Relearning" not in why(german)

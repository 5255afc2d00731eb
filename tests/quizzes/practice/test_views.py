from __future__ import annotations

import re
from unittest import mock

import pytest
from django.db.models import F
from django.urls import reverse
from django.utils import timezone, translation

from quizzes.models import Mastery, Question, Response
from quizzes.practice import reports
from quizzes.templatetags import page_parts
from tests.factories import RuleFactory
from tests.quizzes.conftest import QUESTION_SHAPES, make_question
from tests.quizzes.pages import card_refs, ticked_statements, token_of, yes_no_statements

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
# What the engine makes of the statements in QUESTION_SHAPES (Land Tutor: Alice searches for a
# basic land; Nadia is told nothing).
TRUE_STATEMENTS = {
    "The cards Alice finds are revealed.": True,
    "Nadia may search.": False,
    "The Island third from the top of Alice's library may be found.": True,
    "Alice doesn't shuffle.": False,
}


@pytest.fixture
def logged_in(client, learner):
    client.force_login(learner)
    return client


def test_practice_needs_login(client):
    page = client.get(reverse("practice"))
    assert page.status_code == 302
    assert reverse("login") in page["Location"]


def test_practice_page_draws_the_board(logged_in, question, no_variants):
    page = logged_in.get(reverse("practice"))
    html = page.content.decode()
    assert page.status_code == 200
    assert "Land Tutor" in html and "Library (top first)" in html
    assert 'name="claim_0"' in html and "hidden zone" in html
    assert "Alice casts Land Tutor" in html


@pytest.mark.parametrize("kind", list(QUESTION_SHAPES))
def test_page_holds_no_answer_key(logged_in, scenario, bank, kind):
    make_question(scenario, bank, kind)
    html = logged_in.get(reverse("practice")).content.decode()
    assert "expect" not in html
    if kind != Question.Kind.OUTCOME_REASON:  # whose options each name a rule, right or wrong
        assert "701.23" not in html  # no citations, so no reasons either
    assert "not a basic land" not in html
    assert "The ruling" not in html


RIGHT_CARDS = {"claim_0": "may", "claim_1": "cannot"}
WRONG_CARDS = {"claim_0": "must", "claim_1": "may"}


def answer_cards(client, page, **extra):
    data = {"token": token_of(page), "claim_0": "may", "claim_1": "cannot"}
    return client.post(reverse("answer"), data, **extra)


def test_htmx_answer_returns_only_the_feedback(logged_in, question, search_rule, no_variants):
    page = logged_in.get(reverse("practice"))
    feedback = answer_cards(logged_in, page, **HTMX)
    html = feedback.content.decode()
    assert feedback.status_code == 200
    assert "<html" not in html
    assert "Right!" in html and "Next question" in html
    assert search_rule.text in html  # the rule that decides it
    assert 'hx-swap-oob="true"' in html
    response = Response.objects.get()
    assert response.correct and response.user.username == "learner"


def test_the_rules_that_decide_it_are_kept_per_version_and_language(
    logged_in, question, search_rule, no_variants, django_capture_on_commit_callbacks
):
    """The feedback's rules are markup kept per process (page_parts) under the rules' version,
    the language and the numbers cited: a saved rule shows at once, each language its own."""
    answer_cards(logged_in, logged_in.get(reverse("practice")), **HTMX)
    page = reverse("feedback", args=[Response.objects.get().pk])
    assert search_rule.text in logged_in.get(page).content.decode()
    with translation.override("de"):
        german = translation.gettext("The rules that decide it")
    assert german != "The rules that decide it"
    in_german = logged_in.get(page, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert german in in_german and search_rule.text in in_german
    assert german not in logged_in.get(page).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        search_rule.text = "A player searching a hidden zone need not find all of them."
        search_rule.save()
    assert search_rule.text in logged_in.get(page).content.decode()


def test_no_js_answer_redirects_to_the_feedback_page(logged_in, question, no_variants):
    page = logged_in.get(reverse("practice"))
    posted = logged_in.post(
        reverse("answer"), {"token": token_of(page), "claim_0": "must", "claim_1": "cannot"}
    )
    response = Response.objects.get()
    assert posted.status_code == 302
    assert posted["Location"] == reverse("feedback", args=[response.pk])
    shown = logged_in.get(posted["Location"]).content.decode()
    assert "Not quite" in shown and "<html" in shown
    assert "You said: <strong>must be found</strong>" in shown
    answer = shown[shown.index('id="answer-title"') : shown.index('id="feedback"')]
    assert "<input" not in answer and "<select" not in answer  # no empty form above it
    assert 'name="claim_0"' not in shown


def test_sending_the_same_form_twice_saves_one_response(logged_in, question, no_variants):
    page = logged_in.get(reverse("practice"))
    answer_cards(logged_in, page, **HTMX)
    again = answer_cards(logged_in, page, **HTMX)
    assert again.status_code == 200
    assert Response.objects.count() == 1


def test_the_same_question_served_twice_is_answered_twice(logged_in, question, no_variants):
    """Two tabs, the same question and variant in the same second: two servings, two answers."""
    tabs = [logged_in.get(reverse("practice")) for _ in range(2)]
    assert token_of(tabs[0]) != token_of(tabs[1])
    first, second = (answer_cards(logged_in, tab) for tab in tabs)
    assert first["Location"] != second["Location"]
    assert Response.objects.count() == 2


def test_a_form_replayed_later_returns_its_first_verdict(
    logged_in, question, scenario, bank, search_rule, no_variants
):
    make_question(scenario, bank, rules=[search_rule])  # so the next page serves another one
    first_page = logged_in.get(reverse("practice"))
    first = logged_in.post(reverse("answer"), {"token": token_of(first_page), **WRONG_CARDS})
    answer_cards(logged_in, logged_in.get(reverse("practice")))  # a later answer in between
    replayed = logged_in.post(reverse("answer"), {"token": token_of(first_page), **RIGHT_CARDS})
    assert replayed.status_code == 302 and replayed["Location"] == first["Location"]
    assert Response.objects.count() == 2
    assert not Response.objects.get(pk=first["Location"].rstrip("/").split("/")[-1]).correct


def test_an_incomplete_answer_shows_errors_in_the_form(logged_in, question, no_variants):
    page = logged_in.get(reverse("practice"))
    posted = logged_in.post(reverse("answer"), {"token": token_of(page)}, **HTMX)
    assert posted["HX-Retarget"] == "#answer-form"
    assert "This field is required" in posted.content.decode()
    assert not Response.objects.exists()


def _answer_section(html: str) -> str:
    """The page's "Your answer" section, where the form's errors belong: the board above it can
    be a phone's whole screen, so an error drawn above the board is never seen."""
    return html[html.index('id="answer-title"') :]


def test_a_range_upside_down_is_refused_beside_its_fields(logged_in, scenario, bank, no_variants):
    make_question(scenario, bank, Question.Kind.COUNT_RANGE)
    page = logged_in.get(reverse("practice"))
    answer = {"token": token_of(page), "low": "3", "high": "1"}
    posted = logged_in.post(reverse("answer"), answer, **HTMX)
    html = posted.content.decode()
    error = "The lower bound can&#x27;t be above the upper bound."
    assert html.count(error) == 1 and error in _answer_section(html)
    at_most = html[html.index('name="high"') :]
    assert at_most.index(error) < at_most.index("</div>")  # in the "At most" field's row
    assert 'value="3"' in html and 'value="1"' in html  # what was typed is kept
    assert not Response.objects.exists()


def test_the_forms_own_errors_show_in_the_answer_section(logged_in, scenario, bank, no_variants):
    order = [{"claim": "decision_order"}]
    Question.objects.create(
        scenario=scenario, bank=bank, kind=Question.Kind.VALUE, prompt="Order?", claims=order
    )
    page = logged_in.get(reverse("practice"))
    answer = {"token": token_of(page), "order_0": "1", "order_1": "1"}
    html = logged_in.post(reverse("answer"), answer, **HTMX).content.decode()
    error = "Give each player a different place in the order."
    assert html.count(error) == 1 and error in _answer_section(html)
    assert not Response.objects.exists()


def test_a_forged_token_is_refused(logged_in, question):
    posted = logged_in.post(reverse("answer"), {"token": "nope", "claim_0": "may"})
    assert posted.status_code == 400


def test_another_learner_cannot_see_my_feedback(client, logged_in, question, other_learner):
    page = logged_in.get(reverse("practice"))
    answer_cards(logged_in, page)
    response = Response.objects.get()
    client.force_login(other_learner)
    assert client.get(reverse("feedback", args=[response.pk])).status_code == 404


def test_private_bank_questions_are_not_served_to_others(logged_in, scenario, other_learner):
    from tests.factories import BankFactory

    private = BankFactory(owner=other_learner, visibility="private")
    make_question(scenario, private)
    page = logged_in.get(reverse("practice"))
    assert "There are no questions for you yet" in page.content.decode()


def right_answer(kind: str, html: str) -> dict:
    """The right answer, read off the page as a learner who knows the ruling would."""
    if kind == Question.Kind.COUNT_RANGE:
        return {"low": "0", "high": "1"}
    if kind == Question.Kind.VALUE:
        return {"claim_0": '"yes"'}
    if kind == Question.Kind.YES_NO:
        fields = yes_no_statements(html)
        assert set(fields) == set(TRUE_STATEMENTS) & set(fields) and len(fields) == 2
        return {name: "yes" if TRUE_STATEMENTS[text] else "no" for text, name in fields.items()}
    if kind == Question.Kind.MULTIPLE_CHOICE:
        boxes = ticked_statements(html)
        assert len(boxes) == 2, boxes
        return {"statements": [value for text, value in boxes.items() if TRUE_STATEMENTS[text]]}
    return {"cards": card_refs(html)["Forest"]}


@pytest.mark.parametrize(
    "kind",
    [
        Question.Kind.COUNT_RANGE,
        Question.Kind.VALUE,
        Question.Kind.YES_NO,
        Question.Kind.MULTIPLE_CHOICE,
        Question.Kind.LEGAL_SET,
    ],
)
def test_every_kind_can_be_answered_right(logged_in, scenario, bank, kind, no_variants):
    make_question(scenario, bank, kind)
    page = logged_in.get(reverse("practice"))
    answer = right_answer(kind, page.content.decode())
    posted = logged_in.post(reverse("answer"), {"token": token_of(page), **answer}, **HTMX)
    assert "Right!" in posted.content.decode(), posted.content.decode()


def test_an_illegal_set_is_explained(logged_in, scenario, bank, no_variants):
    make_question(scenario, bank, Question.Kind.LEGAL_SET)
    page = logged_in.get(reverse("practice"))
    shock = card_refs(page.content.decode())["Shock"]
    posted = logged_in.post(reverse("answer"), {"token": token_of(page), "cards": shock}, **HTMX)
    html = posted.content.decode()
    assert "Not quite" in html and "not a basic land card" in html


def test_practice_by_old_rule_number(logged_in, question, search_rule):
    from tests.factories import RuleAliasFactory

    RuleAliasFactory(rule=search_rule, number="701.14b")
    page = logged_in.get(reverse("practice"), {"rule": "701.14b"})
    assert "Practising rule" in page.content.decode()
    assert "701.23b" in page.content.decode()


def test_unknown_rule_is_a_404(logged_in, question):
    assert logged_in.get(reverse("practice"), {"rule": "999.99z"}).status_code == 404


def test_progress_shows_mastery_after_an_answer(logged_in, question, search_rule, no_variants):
    before = logged_in.get(reverse("progress")).content.decode()
    assert "No answers yet" in before
    answer_cards(logged_in, logged_in.get(reverse("practice")))
    after = logged_in.get(reverse("progress")).content.decode()
    assert "701.23b" in after and "Share of right answers per day" in after
    assert "Right" in after


def test_progress_names_each_rule_by_its_section_title(
    logged_in, question, search_rule, no_variants
):
    RuleFactory(number="701.23", title="Search", text="Search")
    # the Forest part, which 701.23b decides, answered wrong: a rule to work on
    data = {"token": token_of(logged_in.get(reverse("practice"))), "claim_0": "must"}
    logged_in.post(reverse("answer"), {**data, "claim_1": "cannot"})
    page = logged_in.get(reverse("progress")).content.decode()
    assert '701.23b <span class="rule-title">Search</span></a>' in page  # the mastery row
    assert '<li>701.23b <span class="rule-title">Search</span> (' in page  # a rule to work on
    # a German reader, with no German edition of the section stored: the title marked as English
    german = logged_in.get(reverse("progress"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '701.23b <span class="rule-title" lang="en">Search</span>' in german


def test_progress_names_a_rule_by_its_nearest_titled_heading(
    logged_in, scenario, bank, no_variants
):
    """106.12a is under 106.12, which has no title, and 106 "Mana" (found walking the app:
    "106.7", "603.2" and "701.24a" stood as bare numbers)."""
    RuleFactory(number="106", title="Mana", text="Mana")
    RuleFactory(number="106.12", text="To “tap [a permanent] for mana” is ...")
    rule = RuleFactory(number="106.12a", text="An ability that triggers whenever ...")
    make_question(scenario, bank, rules=[rule])
    answer_cards(logged_in, logged_in.get(reverse("practice")))
    page = logged_in.get(reverse("progress")).content.decode()
    assert '106.12a <span class="rule-title">Mana</span></a>' in page


@pytest.mark.parametrize("language", ["en", "de", "it"])
def test_progress_chart_coordinates_are_numbers_in_every_language(
    logged_in, question, no_variants, language
):
    """SVG attributes take a dot: German and Italian decimal commas ("30,0") drew no dots and
    logged an error each in the browser (found walking the app in German)."""
    answer_cards(logged_in, logged_in.get(reverse("practice")))
    page = logged_in.get(reverse("progress"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    coordinates = re.findall(r'<circle class="dot" cx="([^"]*)" cy="([^"]*)"', page)
    assert coordinates, "a dot for the day answered"
    for value in (value for pair in coordinates for value in pair):
        assert re.fullmatch(r"\d+(\.\d+)?", value), value


def mastery_rows(page) -> list[tuple[str, str]]:
    """The rows of the progress page's mastery list: each rule's number and percentage."""
    html = page.content.decode()
    listed = html.split('<ul class="mastery-list">', 1)[1].split("</ul>", 1)[0]
    return re.findall(r'<a href="[^"]+">([\d.a-z]+).*?<span>(\d+%)', listed, re.S)


def shown_percent(user) -> list[tuple[str, str]]:
    """Each rule's percentage as the reports compute it for `user` (what a row must show)."""
    return [(item.mastery.rule.number, f"{item.percent}%") for item in reports.rule_progress(user)]


def test_the_kept_mastery_list_follows_its_rows(logged_in, learner, question, no_variants):
    """The list is kept per process under what its rows show (page_parts.py): a mastery that
    moves shows at once, and a visit where none moved reuses the list without rendering a row."""
    answer_cards(logged_in, logged_in.get(reverse("practice")))
    first = mastery_rows(logged_in.get(reverse("progress")))
    assert first == shown_percent(learner) and first
    Mastery.objects.filter(user=learner).update(theta=F("theta") + 3)  # much stronger now
    moved = mastery_rows(logged_in.get(reverse("progress")))
    assert moved == shown_percent(learner)
    assert moved != first

    rendered = []
    kept_get = page_parts._rendered.get

    def spying(key, make):
        return kept_get(key, lambda: rendered.append(key[0]) or make())

    with mock.patch.object(page_parts._rendered, "get", spying):
        again = mastery_rows(logged_in.get(reverse("progress")))
    assert again == moved
    assert "mastery-list" not in rendered and "mastery-row" not in rendered


def test_each_learner_sees_their_own_mastery_list(
    client, learner, other_learner, question, no_variants
):
    """Two learners on one rule, one far stronger: each list shows its learner's own figures,
    never the other's kept one."""
    pages = {}
    for user, shift in ((learner, 0), (other_learner, 4)):
        client.force_login(user)
        answer_cards(client, client.get(reverse("practice")))
        Mastery.objects.filter(user=user).update(theta=F("theta") + shift)
    for user in (learner, other_learner):
        client.force_login(user)
        pages[user.pk] = mastery_rows(client.get(reverse("progress")))
        assert pages[user.pk] == shown_percent(user) and pages[user.pk]
    assert pages[learner.pk] != pages[other_learner.pk]


def test_progress_history_pages_with_htmx(logged_in, question, no_variants):
    answer_cards(logged_in, logged_in.get(reverse("practice")))
    fragment = logged_in.get(reverse("progress"), **HTMX).content.decode()
    assert fragment.lstrip().startswith('<div id="history">')


def test_signup_logs_in_and_starts_practice(client):
    posted = client.post(
        reverse("signup"),
        {
            "username": "newbie",
            "email": "",
            "password1": "a-long-pass-9",
            "password2": "a-long-pass-9",
        },
    )
    assert posted.status_code == 302 and posted["Location"] == reverse("practice")
    assert client.get(reverse("progress")).status_code == 200


@pytest.mark.parametrize("name", ["login", "password_reset", "signup", "home"])
def test_public_pages_render(client, name):
    assert client.get(reverse(name)).status_code == 200


def test_password_change_page_renders(logged_in):
    assert logged_in.get(reverse("password_change")).status_code == 200


def test_a_token_replayed_by_another_learner_is_refused(client, logged_in, question, other_learner):
    page = logged_in.get(reverse("practice"))
    client.force_login(other_learner)
    data = {"token": token_of(page), "claim_0": "may", "claim_1": "cannot"}
    assert client.post(reverse("answer"), data).status_code == 400
    assert not Response.objects.exists()


def test_no_hidden_field_holds_the_question_or_its_seed(logged_in, question):
    """The page's only hidden fields are the CSRF token and a random token: no id, no seed."""
    from quizzes.models import Presentation

    tokens = []
    for _ in range(2):
        html = logged_in.get(reverse("practice")).content.decode()
        hidden = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', html))
        assert set(hidden) == {"csrfmiddlewaretoken", "token"}
        tokens.append(hidden["token"])
    assert tokens[0] != tokens[1]  # the same question served twice: unrelated tokens
    for token in tokens:
        assert re.fullmatch(r"[A-Za-z0-9_-]{32}", token)  # secrets.token_urlsafe(24)
        presentation = Presentation.objects.get(token=token)
        # a seed is one digit (0..4): the token is random, not made of the question and seed
        made = f"{question.pk}:{presentation.shown['seed']}"
        assert made not in token and str(presentation.variant_id) != token


def test_next_question_keeps_the_rule_filter_without_javascript(
    logged_in, question, search_rule, no_variants
):
    page = logged_in.get(reverse("practice"), {"rule": "701.23b"})
    data = {"token": token_of(page), "claim_0": "may", "claim_1": "cannot"}
    posted = logged_in.post(reverse("answer"), data)
    feedback = logged_in.get(posted["Location"]).content.decode()
    assert 'id="next-question" href="/practice/?rule=701.23b"' in feedback


def test_a_question_served_over_a_day_ago_has_expired(logged_in, question, no_variants):
    import datetime

    from quizzes.models import Presentation

    page = logged_in.get(reverse("practice"))
    token = token_of(page)
    Presentation.objects.filter(token=token).update(
        created_at=timezone.now() - datetime.timedelta(days=1, minutes=1)
    )
    posted = logged_in.post(reverse("answer"), {"token": token, "claim_0": "may"})
    assert posted.status_code == 400 and b"expired" in posted.content
    assert not Response.objects.exists()


def test_a_place_out_of_range_in_an_order_is_a_form_error_not_a_500(
    logged_in, scenario, bank, no_variants
):
    order = [{"claim": "decision_order"}]
    Question.objects.create(
        scenario=scenario, bank=bank, kind=Question.Kind.VALUE, prompt="Order?", claims=order
    )
    page = logged_in.get(reverse("practice"))
    assert 'name="order_0"' in page.content.decode()
    answer = {"token": token_of(page), "order_0": "99", "order_1": "1"}
    posted = logged_in.post(reverse("answer"), answer)
    assert posted.status_code == 400
    assert not Response.objects.exists()

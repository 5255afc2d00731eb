"""Query counts of the practice page and the answer view stay the same as the bank grows."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from quizzes.models import Mastery, Presentation, Question, Response
from quizzes.practice import question_topics
from quizzes.rulings import store_variants
from tests.factories import RuleFactory, ScenarioFactory
from tests.quizzes.conftest import QUESTION_SHAPES, land_tutor_spec

pytestmark = pytest.mark.django_db

# one: is an exam running (practice then pauses); whether the user is an instructor (the nav)
# comes with the user (config/auth.py); one: the learner as selection reads them (last
# answers, masteries, banks); one: the nearest unseen question above and below the target
# difficulty, and two more here: this bank has one kind, so the mix's first wish (another kind
# than the last answers') finds nothing (no unseen, then no least seen); the banks the
# learner may choose from in the practice filter come from the cache (quizzes/visibility.py,
# under the banks' version, read with the session without Redis: was a query, 9 -> 8); the
# card catalog's generation (rules/cards.py: a card saved in any worker is seen at once) comes
# with the exam check (was a query of its own: 10 -> 9). Was 14: the learner's answers, due
# rule and mean skill were three queries, and the unseen question above and below two.
# The session's user comes with the session once the process has read that session before
# (config/sessions: a session key is one user's all its life), so every page here reads one
# query less than these notes count (was one more each: practice 8, answer 13, progress 6, rule
# page 4).
# One more: the stored variant served (issue 20: read, where the engine made it on every page);
# then one less (9 -> 8): the variant comes with the question selection finds, in its query.
# One more (8 -> 9): this bank's rules are of no topic of the study plan, so every topic is
# missing from the learner's last answers, and selection first looks for an unseen question on
# one of them (issue 23: a topic none of the last twenty answers was about comes first; one
# query, finding none here).
# Then one less (8 -> 7): whether an exam sitting is unfinished comes with the learner's rows
# (the card catalog's generation it brought is not needed where every variant is stored).
# Then two less (7 -> 5): the pick's wishes, the absent topic's and the mix's one after another,
# are asked two subqueries a query (selection_sql.first_wished: a COALESCE of them, each run
# only when the one before found nothing; two, as PostgreSQL plans each). Here: the absent
# topic's unseen and the first wish's unseen (none), then its least seen (none) and the second
# wish's unseen. So: the session (from Redis with it), the learner's rows, the pick's two, the
# presentation stored. Then one more (5 -> 6) when, as here, no question is on a topic missing
# from the last answers: that pick asked its own query first (Splinter's and Lobotomy's families,
# then the topic the fewest answers were about, then any missing one: issue 23's mix). Then one
# less again (6 -> 5): that pick is the first wish, asked with the mix's first in one query.
# So, with Redis: the learner's rows, the pick's two, the presentation stored (4).
PRACTICE_QUERIES = 5
# filtered by level and bank: as many. The bank was looked up among the ones the learner may
# see (one more); it is now found in the kept list of them the filter shows (visibility.py)
FILTERED_PRACTICE_QUERIES = PRACTICE_QUERIES
# one, written by hand (quizzes/answer_lookup.py): is an exam running, the presentation with
# its question, scenario, version and response, the open attempt (was three: 17 -> 15) and
# the card catalog's generation (was one more: 14 -> 13);
# one: the question's row lock, which says too whether the learner answered it before and has
# a mastery of each of its rules (was two more: 15 -> 14); two: the mix serves a rule the
# learner has not answered yet, so this answer reads the question's rules and creates its
# mastery before reading it locked (was three, a read before the insert too: 12 -> 11; none
# when every mastery exists). Was 23:
# the rules that decide it come from the cache (one read of the rules' version, a query only
# without Redis, instead of three), and the open attempt says in the same query whether it
# holds the question. Was 19: the response is stored in the answer's one transaction with no
# savepoint of its own (a conflict rolls the whole of it back). Without Redis the rules'
# version is read with the session (config/versions.py `table_rows`): no query of its own
# either way (was 13 + 1 without Redis).
# Then four less (11 -> 7): the response is stored with ON CONFLICT DO NOTHING (a second answer
# stores nothing and raises nothing), so the transaction takes no savepoint inside another (in
# the tests' transaction: SAVEPOINT and RELEASE were two queries); and the lookup says whether
# the learner lacks a mastery of one of the question's rules, so the missing ones are made in
# one INSERT ... SELECT first and then read locked with the question (was: a read finding them
# missing, the question's rules read, the insert, the masteries read locked). So: the session
# (from Redis with it), the lookup, the response, the masteries made, the question and the
# masteries read locked, a mastery and the question's counters written.
# Then two less (7 -> 5): the learner's masteries of the question's rules (one row per rule,
# none here) come with the lookup, and the answer writes from what it read: the question's
# counters where `answer_count` is as read, the masteries in one upsert where `answers` is as
# read (the missing one inserted), falling back to the locked read only when a row moved
# (quizzes/practice/recording.py). So: the session (from Redis with it), the lookup, the
# response, the question's counters, the masteries (4 with Redis).
ANSWER_QUERIES = 5
# an answer on rules the learner has answered before (every answer but a rule's first): the
# session, the lookup, the savepoint and its release (the test's transaction: BEGIN and COMMIT
# in production, which the count does not see), the response, the question's row and the
# learner's masteries locked in one read (was two), a mastery and the question's counters
# written; no savepoint now (see above: was 8); then the masteries read with the lookup and
# written where unchanged, as above (6 -> 5; 4 with Redis): no locked read
ANSWER_ON_KNOWN_RULES_QUERIES = ANSWER_QUERIES
# the session, the user (with the nav's instructor flag), the answers by day, their count with
# the page of history, the masteries with their rules (the reviews due counted from them); the
# rules' median
# difficulties and the rules' section titles come from the cache (the rules' version read for
# them: a query only without Redis); was 10: the count and the reviews due were queries of
# their own; was 8: the difficulties were read on every visit; without Redis the version comes
# with the session (was 6 + 1 without Redis)
PROGRESS_QUERIES = 5
# the session with the shared versions, rules' and banks' (read with it without Redis, from
# Redis with it: the rule, its aliases, editions, former meanings and section title, and the
# banks this visitor may practise from, come from the cache), the user (with the nav's
# instructor flag), the mastery and the scenarios this visitor may practise (was 11; was 7:
# the rule's difficulties were read on every visit, and the nav's group; was 4 + 1 without
# Redis: the versions were a query of their own); the mastery comes with the scenarios, in one
# query (quizzes.reference.queries.scenario_rows_and_mastery: was 3)
RULE_PAGE_QUERIES = 2
# With Redis (as deployed there: `cached_db` sessions, config/settings.py) each page reads its
# session and the session's user from Redis: one query less on every page above.
SESSION_QUERIES = 1
# Round trips to Redis (as deployed with it; none without it): the session, its user's kept row
# and the shared versions in one MGET (config/sessions/cached_db.py), then the medians with the
# rules' titles (progress) or the visitor's banks with the rule's median (rule page). Was five
# on each: a GET, a GET, an MGET, then two.
PROGRESS_REDIS_CALLS = 2
RULE_PAGE_REDIS_CALLS = 2


def fill_bank(scenario, bank, rule, size: int) -> None:
    """`size` questions over three scenarios and three rules, as a real bank mixes them (the
    mix never serves two in a row from one scenario, nor a rule twice in three questions)."""
    scenarios = [scenario] + [
        ScenarioFactory(slug=f"land-tutor-{index}", spec=land_tutor_spec(f"land-tutor-{index}"))
        for index in (2, 3)
    ]
    rules = [rule, RuleFactory(), RuleFactory()]
    questions = Question.objects.bulk_create(
        Question(
            scenario=scenarios[index % 3],
            bank=bank,
            kind=Question.Kind.CARDS,
            prompt="Mark each card.",
            claims=QUESTION_SHAPES[Question.Kind.CARDS],
            difficulty=(index % 21 - 10) / 5,
            position=index,
        )
        for index in range(size)
    )
    Question.rules.through.objects.bulk_create(
        Question.rules.through(question_id=question.pk, rule_id=rules[question.position % 3].pk)
        for question in questions
    )
    question_topics.store()  # as content loading links rules in bulk
    store_variants(Question.objects.select_related("scenario"))  # as content is written


@pytest.fixture
def on_redis(settings) -> int:
    """The session engine production runs: with Redis, sessions (and their users' rows) come
    from Redis (config/settings.py; the suite's default reads them from the database). The
    session's queries saved: SESSION_QUERIES with Redis, else 0."""
    if not settings.REDIS_URL:
        return 0
    settings.SESSION_ENGINE = "config.sessions.cached_db"
    return SESSION_QUERIES


@pytest.fixture
def warmed(client, learner, scenario, bank, search_rule, no_variants, on_redis, request):
    """A learner with a bank of the requested size and one answer already given (its feedback
    fragment, as htmx asks for it, so the rules it cites are cached as on a running server).
    With Redis, the session engine production runs there."""
    fill_bank(scenario, bank, search_rule, request.param)
    client.force_login(learner)
    page = client.get(reverse("practice"))
    token = re.search(r'name="token" value="([^"]+)"', page.content.decode()).group(1)
    client.post(
        reverse("answer"),
        {"token": token, "claim_0": "may", "claim_1": "cannot"},
        HTTP_HX_REQUEST="true",
    )
    return client


@pytest.mark.parametrize("warmed", [10, 500], indirect=True)
def test_practice_page_queries(warmed, on_redis, django_assert_num_queries):
    with django_assert_num_queries(PRACTICE_QUERIES - on_redis):
        assert warmed.get(reverse("practice")).status_code == 200


@pytest.mark.parametrize("warmed", [10, 500], indirect=True)
def test_filtered_practice_page_queries(warmed, bank, on_redis, django_assert_num_queries):
    Question.objects.filter(position__lt=9).update(level=Question.Level.L2)
    url = f"{reverse('practice')}?level=L2&bank={bank.slug}"
    with django_assert_num_queries(FILTERED_PRACTICE_QUERIES - on_redis):
        page = warmed.get(url)
    assert page.status_code == 200 and 'name="token"' in page.content.decode()


@pytest.mark.parametrize("warmed", [10, 500], indirect=True)
def test_answer_on_rules_answered_before_queries(
    warmed, learner, on_redis, django_assert_num_queries
):
    """Every answer but a rule's first: the learner has a mastery of each of its rules."""
    page = warmed.get(reverse("practice"))
    token = re.search(r'name="token" value="([^"]+)"', page.content.decode()).group(1)
    question = Presentation.objects.get(token=token).question
    for rule in question.rules.all():
        Mastery.objects.get_or_create(user=learner, rule=rule)
    with django_assert_num_queries(ANSWER_ON_KNOWN_RULES_QUERIES - on_redis):
        answered = warmed.post(
            reverse("answer"),
            {"token": token, "claim_0": "may", "claim_1": "cannot"},
            HTTP_HX_REQUEST="true",
        )
    assert answered.status_code == 200 and Response.objects.filter(question=question).exists()


@pytest.mark.parametrize("warmed", [10, 500], indirect=True)
def test_answer_view_queries(warmed, on_redis, django_assert_num_queries):
    page = warmed.get(reverse("practice"))
    token = re.search(r'name="token" value="([^"]+)"', page.content.decode()).group(1)
    with django_assert_num_queries(ANSWER_QUERIES - on_redis):
        answered = warmed.post(
            reverse("answer"),
            {"token": token, "claim_0": "may", "claim_1": "cannot"},
            HTTP_HX_REQUEST="true",
        )
    assert answered.status_code == 200


def engine_calls(client, monkeypatch, settings, *, served_here: bool) -> dict:
    """How often a practice page and its answer POST parse and resolve a scenario, the answer
    in the process that served the question or in another worker (nothing kept here)."""
    from quizzes.kept import clear_all
    from rules.engine import api

    settings.QUIZZES_VARIANTS = True
    store_variants(Question.objects.select_related("scenario"))
    calls = {"parse": 0, "resolve": 0}

    def counted(name, function):
        def wrapper(*args, **kwargs):
            calls[name] += 1
            return function(*args, **kwargs)

        return wrapper

    monkeypatch.setattr(api, "parse_scenario", counted("parse", api.parse_scenario))
    monkeypatch.setattr(api, "resolve_step", counted("resolve", api.resolve_step))
    page = client.get(reverse("practice"))
    token = re.search(r'name="token" value="([^"]+)"', page.content.decode()).group(1)
    if not served_here:
        clear_all()
    answered = client.post(
        reverse("answer"),
        {"token": token, "claim_0": "may", "claim_1": "cannot"},
        HTTP_HX_REQUEST="true",
    )
    assert answered.status_code == 200 and b"Right!" in answered.content
    return calls


@pytest.mark.parametrize("warmed", [10], indirect=True)
@pytest.mark.parametrize("served_here", [True, False])
def test_a_practice_page_and_its_answer_run_no_engine(warmed, monkeypatch, settings, served_here):
    """Every variant is stored, ruled, when content is written: serving one and grading an
    answer to it read the stored variant (issue 20: no engine run on the request path)."""
    calls = engine_calls(warmed, monkeypatch, settings, served_here=served_here)
    assert calls == {"parse": 0, "resolve": 0}


@pytest.mark.parametrize("warmed", [10, 500], indirect=True)
def test_progress_page_queries(warmed, on_redis, django_assert_num_queries):
    assert warmed.get(reverse("progress")).status_code == 200  # the medians are cached
    with django_assert_num_queries(PROGRESS_QUERIES - on_redis):
        assert warmed.get(reverse("progress")).status_code == 200


@pytest.mark.parametrize("warmed", [10, 500], indirect=True)
def test_rule_page_queries(warmed, search_rule, on_redis, django_assert_num_queries):
    page = reverse("rule_detail", args=[search_rule.number])
    assert warmed.get(page).status_code == 200  # the first visitor fills the cache
    with django_assert_num_queries(RULE_PAGE_QUERIES - on_redis):
        assert "% after 1 answer" in warmed.get(page).content.decode()


def redis_calls(monkeypatch) -> list[str]:
    """The commands sent to Redis from now on (a pipeline counted as one round trip)."""
    import redis

    calls: list[str] = []
    command = redis.Redis.execute_command

    def counted(self, *args, **options):
        calls.append(str(args[0]))
        return command(self, *args, **options)

    monkeypatch.setattr(redis.Redis, "execute_command", counted)
    return calls


@pytest.mark.parametrize("warmed", [10], indirect=True)
def test_progress_and_rule_pages_redis_round_trips(warmed, search_rule, settings, monkeypatch):
    rule_page = reverse("rule_detail", args=[search_rule.number])
    for page in (reverse("progress"), rule_page):  # the caches filled
        assert warmed.get(page).status_code == 200
    calls = redis_calls(monkeypatch)
    assert warmed.get(reverse("progress")).status_code == 200
    assert len(calls) == (PROGRESS_REDIS_CALLS if settings.REDIS_URL else 0), calls
    calls.clear()
    assert warmed.get(rule_page).status_code == 200
    assert len(calls) == (RULE_PAGE_REDIS_CALLS if settings.REDIS_URL else 0), calls

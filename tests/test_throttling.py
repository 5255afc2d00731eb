"""Throttles on log-in (the app's and the admin's), sign-up and password reset, per account and
per address, with the production limits (the suite's settings raise them): they stop attackers,
not a class behind one school address."""

from __future__ import annotations

import datetime
import time

import pytest
from axes.handlers.proxy import AxesProxyHandler
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.test import Client, RequestFactory
from django.urls import reverse

from config import settings as production
from config.throttling import client_address
from quizzes.models import Cohort
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

RIGHT = "correct-horse-battery"  # tests/factories.py's password


@pytest.fixture(autouse=True)
def production_limits(settings):
    settings.AXES_FAILURE_LIMIT = production.AXES_FAILURE_LIMIT
    settings.AXES_COOLOFF_TIME = production.AXES_COOLOFF_TIME
    settings.THROTTLE_RATES = production.THROTTLE_RATES
    caches["throttle"].clear()  # counts of earlier tests (a shared Redis keeps them)
    yield
    caches["throttle"].clear()


@pytest.fixture
def learner():
    return UserFactory(username="learner-7")


def rate_limit(name: str) -> int:
    return int(production.THROTTLE_RATES[name].split("/")[0])


def log_in(client, username, password, url_name="login", **extra):
    return client.post(reverse(url_name), {"username": username, "password": password}, **extra)


def test_thirty_wrong_passwords_are_throttled_and_then_the_right_one_is_refused(client, learner):
    statuses = [log_in(client, "learner-7", f"guess-{n}").status_code for n in range(30)]
    allowed = production.AXES_FAILURE_LIMIT - 1  # the limit-th failure already locks
    assert statuses == [200] * allowed + [429] * (30 - allowed)
    response = log_in(client, "learner-7", RIGHT)
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session
    page = response.content.decode()
    assert "Too many wrong passwords for this account" in page
    assert "try again in 15 minutes" in page
    assert response["Retry-After"] == str(int(production.AXES_COOLOFF_TIME.total_seconds()))


def test_the_right_password_works_again_once_the_wait_has_passed(client, learner, settings):
    # the mechanism, not the length: long enough that ten log-ins on a loaded machine fit in it
    settings.AXES_COOLOFF_TIME = datetime.timedelta(seconds=4)
    for n in range(production.AXES_FAILURE_LIMIT):
        log_in(client, "learner-7", f"guess-{n}")
    assert log_in(client, "learner-7", RIGHT).status_code == 429
    time.sleep(4.5)
    assert log_in(client, "learner-7", RIGHT).status_code == 302
    assert client.session["_auth_user_id"] == str(learner.pk)


def test_the_lock_is_in_the_shared_cache_where_another_worker_sees_it(client, learner):
    for n in range(production.AXES_FAILURE_LIMIT):
        log_in(client, "learner-7", f"guess-{n}")
    # another worker: its own connection to the throttle store (Redis, or the database table)
    handler = AxesProxyHandler.get_implementation()
    own_cache = handler.cache
    handler.cache = caches.create_connection("throttle")
    try:
        assert handler.cache is not own_cache
        assert log_in(client, "learner-7", RIGHT).status_code == 429
    finally:
        handler.cache = own_cache


def test_the_admin_log_in_locks_the_account_too(client):
    UserFactory(username="root-2", is_staff=True, is_superuser=True)
    for n in range(production.AXES_FAILURE_LIMIT):
        log_in(client, "root-2", f"guess-{n}", url_name="admin:login")
    response = log_in(client, "root-2", RIGHT, url_name="admin:login")
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


def test_an_unknown_username_is_locked_out_the_same_way(client, learner):
    """The lock does not tell an attacker which accounts exist."""
    pages = []
    for username in ("learner-7", "nobody-here"):
        for n in range(production.AXES_FAILURE_LIMIT):
            response = log_in(client, username, f"guess-{n}", REMOTE_ADDR=f"10.0.0.{len(pages)}")
        main = response.content.decode().split("<main")[1].split("</main>")[0]
        pages.append((response.status_code, main))
    assert pages[0] == pages[1]


def test_wrong_passwords_from_one_address_never_lock_the_owner_out_from_another(client, learner):
    for n in range(production.AXES_FAILURE_LIMIT + 2):
        log_in(client, "learner-7", f"guess-{n}", REMOTE_ADDR="203.0.113.9")
    assert log_in(client, "learner-7", RIGHT, REMOTE_ADDR="203.0.113.9").status_code == 429
    assert log_in(client, "learner-7", RIGHT, REMOTE_ADDR="198.51.100.4").status_code == 302
    assert client.session["_auth_user_id"] == str(learner.pk)


def test_a_cohort_of_seventy_logs_in_from_one_address():
    """A school's NAT: one address, right passwords, more than any failure rate."""
    students = [UserFactory(username=f"student-{n}") for n in range(70)]
    statuses = [log_in(Client(), student.username, RIGHT).status_code for student in students]
    assert statuses == [302] * 70


def test_failed_log_ins_are_limited_per_address_across_accounts(client, learner):
    limit = rate_limit("login_failures_per_address")
    statuses = [log_in(client, f"user-{n}", "guess").status_code for n in range(limit + 1)]
    assert statuses == [200] * limit + [429]
    assert "from your address" in log_in(client, "learner-7", RIGHT).content.decode()
    assert log_in(client, "learner-7", RIGHT, REMOTE_ADDR="10.1.2.3").status_code == 302


def test_right_passwords_do_not_fill_the_addresss_failure_count(client, learner):
    limit = rate_limit("login_failures_per_address")
    for _ in range(limit + 5):
        assert log_in(Client(), "learner-7", RIGHT).status_code == 302
    statuses = [log_in(client, f"user-{n}", "guess").status_code for n in range(limit + 1)]
    assert statuses == [200] * limit + [429]


def signup(client, username, **extra):
    form = {"username": username, "password1": "", "password2": ""}  # invalid: counted anyway
    return client.post(reverse("signup"), form, **extra)


def test_a_cohort_of_seventy_signs_up_from_one_address():
    statuses = []
    for n in range(70):
        form = {"username": f"newcomer-{n}", "password1": RIGHT, "password2": RIGHT}
        statuses.append(Client().post(reverse("signup"), form).status_code)
    assert statuses == [302] * 70


def test_sign_ups_are_limited_per_address(client):
    limit = rate_limit("signup_per_address")
    statuses = [signup(client, f"new-{n}").status_code for n in range(limit + 1)]
    assert statuses == [200] * limit + [429]
    response = signup(client, "another")
    assert "Too many sign-ups" in response.content.decode()
    assert int(response["Retry-After"]) > 0


def join_sign_up(username: str, code: str, **extra):
    form = {"username": username, "password1": RIGHT, "password2": RIGHT, "code": code}
    return Client().post(reverse("signup"), form, **extra)


@pytest.fixture
def cohort():
    return Cohort.objects.create(name="Exam day", instructor=UserFactory(username="teacher-3"))


def test_a_cohort_signs_up_by_its_code_where_the_address_is_used_up(client, cohort):
    limit = rate_limit("signup_per_address")
    statuses = [signup(client, f"new-{n}").status_code for n in range(limit + 1)]
    assert statuses[-1] == 429  # the address has used up its sign-ups
    students = [f"student-{n}" for n in range(30)]
    # the code as a learner may type it: lower case, spaced
    codes = [cohort.join_code.lower(), f"{cohort.join_code[:4]} {cohort.join_code[4:]}"]
    answers = [join_sign_up(name, codes[n % 2]) for n, name in enumerate(students)]
    assert [answer.status_code for answer in answers] == [302] * 30
    assert set(cohort.members.values_list("username", flat=True)) == set(students)
    assert signup(client, "without-a-code").status_code == 429  # the throttle still applies
    assert join_sign_up("wrong-code", "WRONG234").status_code == 429  # counted as the address's


def test_a_cohorts_code_has_its_own_count_at_an_address(settings, cohort):
    settings.THROTTLE_RATES = production.THROTTLE_RATES | {"signup_per_address": "10/h"}
    with_code = [join_sign_up(f"student-{n}", cohort.join_code) for n in range(11)]
    assert [answer.status_code for answer in with_code] == [302] * 10 + [429]
    # another address is counted apart, with or without the code
    assert join_sign_up("elsewhere", cohort.join_code, REMOTE_ADDR="10.9.0.1").status_code == 302


def test_signing_up_with_a_code_joins_the_cohort(cohort):
    page = Client().get(reverse("signup"), {"code": cohort.join_code}).content.decode()
    assert f'value="{cohort.join_code}"' in page  # the link on the cohort's page fills it in
    response = join_sign_up("newcomer", cohort.join_code)
    assert response.status_code == 302 and response["Location"] == reverse("home")
    assert cohort.members.filter(username="newcomer").exists()


def test_a_wrong_code_is_refused_beside_its_field_and_makes_no_account(cohort):
    response = join_sign_up("newcomer", "WRONG234")
    assert response.status_code == 200
    assert "No cohort has this code" in " ".join(response.context["form"].errors["code"])
    assert not get_user_model().objects.filter(username="newcomer").exists()


def test_sign_ups_are_limited_per_account(client):
    limit = rate_limit("signup_per_account")
    addresses = [f"10.2.0.{n}" for n in range(limit + 1)]
    statuses = [signup(client, "same-name", REMOTE_ADDR=a).status_code for a in addresses]
    assert statuses == [200] * limit + [429]


def reset(client, email, **extra):
    return client.post(reverse("password_reset"), {"email": email}, **extra)


def test_password_resets_are_limited_per_account_and_per_address(client, learner):
    per_account = rate_limit("password_reset_per_account")
    addresses = [f"10.3.0.{n}" for n in range(per_account + 1)]
    statuses = [reset(client, learner.email, REMOTE_ADDR=a).status_code for a in addresses]
    assert statuses == [302] * per_account + [429]
    per_address = rate_limit("password_reset_per_address")
    statuses = [reset(client, f"x{n}@example.org").status_code for n in range(per_address + 1)]
    assert statuses == [302] * per_address + [429]


def test_signing_up_with_an_existing_accounts_email_reveals_nothing(client, learner):
    form = {"username": "fresh", "email": learner.email}
    form |= {"password1": "a-long-new-passphrase", "password2": "a-long-new-passphrase"}
    response = client.post(reverse("signup"), form)
    assert response.status_code == 302
    assert get_user_model().objects.filter(email=learner.email).count() == 2


def test_a_reset_for_an_unknown_email_looks_like_one_for_a_known_email(client, learner):
    known, unknown = reset(client, learner.email), reset(client, "nobody@example.org")
    assert (known.status_code, known.url) == (unknown.status_code, unknown.url)


@pytest.mark.parametrize(
    ("proxies", "forwarded", "expected"),
    [
        (0, "1.1.1.1", "127.0.0.1"),  # no proxy trusted: the header is the client's to forge
        (1, "6.6.6.6, 1.1.1.1", "1.1.1.1"),  # the entry our proxy added
        (2, "6.6.6.6, 1.1.1.1, 10.0.0.9", "1.1.1.1"),
        (1, "", "127.0.0.1"),
    ],
)
def test_the_client_address_trusts_only_the_proxies_in_front(
    settings, proxies, forwarded, expected
):
    settings.THROTTLE_TRUSTED_PROXIES = proxies
    request = RequestFactory().get("/", HTTP_X_FORWARDED_FOR=forwarded, REMOTE_ADDR="127.0.0.1")
    assert client_address(request) == expected

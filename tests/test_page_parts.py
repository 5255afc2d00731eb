"""Every page's fixed cost: the navigation rendered once per language, page and role
(quizzes/templatetags/page_parts.py), the instructor flag loaded with the user (config/auth.py).
Nothing of one visitor reaches another, and a change of role shows at once."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from config import roles
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def nav(html: str) -> str:
    return html.split('<main id="main"')[0]


def test_each_visitor_sees_their_own_name_and_token():
    pages = {}
    for name in ("ada", "bram"):
        client = Client()
        client.force_login(UserFactory(username=name))
        html = client.get(reverse("progress")).content.decode()
        pages[name] = (html, re.search(r'"X-CSRFToken": "([^"]+)"', html)[1])
    assert 'visually-hidden">ada</span>' in pages["ada"][0] and "bram" not in pages["ada"][0]
    assert 'visually-hidden">bram</span>' in pages["bram"][0] and "ada<" not in pages["bram"][0]
    tokens = [re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', html) for html, _ in
              pages.values()]  # fmt: skip
    assert tokens[0] and tokens[1] and not set(tokens[0]) & set(tokens[1])


def test_the_navigation_follows_the_role_and_the_page(client):
    anonymous = nav(client.get(reverse("rule_index")).content.decode())
    assert "Log in" in anonymous and "Log out" not in anonymous and "Join a cohort" not in anonymous
    learner = UserFactory()
    client.force_login(learner)
    page = nav(client.get(reverse("progress")).content.decode())
    assert "Join a cohort" in page and "Log out" in page and "Log in" not in page
    assert f'href="{reverse("progress")}" aria-current="page"' in page
    assert f'href="{reverse("rule_index")}" aria-current' not in page
    page = nav(client.get(reverse("rule_index")).content.decode())
    assert f'href="{reverse("rule_index")}" aria-current="page"' in page
    assert f'href="{reverse("progress")}" aria-current' not in page
    assert reverse("bank_index") not in page


def test_a_learner_made_instructor_sees_the_instructors_pages_at_once(client):
    learner = UserFactory()
    client.force_login(learner)
    assert reverse("bank_index") not in nav(client.get(reverse("progress")).content.decode())
    group, _ = Group.objects.get_or_create(name=roles.INSTRUCTORS_GROUP)
    learner.groups.add(group)
    page = nav(client.get(reverse("progress")).content.decode())
    assert reverse("bank_index") in page and "Join a cohort" not in page
    learner.groups.remove(group)
    assert reverse("bank_index") not in nav(client.get(reverse("progress")).content.decode())


def test_the_navigation_is_in_the_pages_language(client):
    client.force_login(UserFactory())
    assert ">Practise<" in nav(client.get(reverse("progress")).content.decode())
    german = client.get(reverse("progress"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert ">Practise<" not in nav(german) and ">Üben<" in nav(german)


def test_a_changed_password_still_logs_out_the_other_sessions(client):
    user = UserFactory()
    client.force_login(user)
    assert client.get(reverse("progress")).status_code == 200
    user.set_password("another long passphrase 42")
    user.save()
    page = client.get(reverse("progress"))
    assert page.status_code == 302 and reverse("login") in page["Location"]


def test_log_out_still_logs_out(client):
    client.force_login(UserFactory())
    assert client.post(reverse("logout")).status_code == 302
    assert client.get(reverse("progress")).status_code == 302


def test_a_session_of_djangos_own_backend_logs_in_again(client):
    # config/auth.py replaced it in AUTHENTICATION_BACKENDS; Django accepts only listed backends
    client.force_login(UserFactory())
    session = client.session
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session.save()
    assert client.get(reverse("progress")).status_code == 302


@pytest.fixture
def cached_sessions(settings):
    # as with Redis (config/settings.py); the test's one process shares its local cache
    settings.SESSION_ENGINE = "config.sessions.cached_db"


def test_a_cached_session_replayed_after_log_out_is_refused(cached_sessions):
    client = Client()
    client.force_login(UserFactory())
    assert client.get(reverse("progress")).status_code == 200
    cookie = client.cookies["sessionid"].value
    client.post(reverse("logout"))
    replay = Client()
    replay.cookies["sessionid"] = cookie
    assert replay.get(reverse("progress")).status_code == 302


def test_a_changed_password_ends_the_other_cached_sessions(cached_sessions):
    user = UserFactory()
    other = Client()
    other.force_login(user)
    assert other.get(reverse("progress")).status_code == 200
    user.set_password("another long passphrase 42")
    user.save()
    assert other.get(reverse("progress")).status_code == 302


def test_every_page_names_its_icon_so_no_browser_asks_for_a_missing_favicon(client):
    from django.contrib.staticfiles import finders

    page = client.get(reverse("home")).content.decode()
    icon = re.search(r'<link rel="icon" href="/static/([^"]+)" type="image/svg\+xml">', page)
    assert icon and finders.find(icon.group(1)), "the icon is linked and shipped"


def test_the_progress_list_follows_every_mastery(client):
    # the list is one kept part for what its rows show (progress.html): a moved mastery, a new
    # rule, another learner's list each render their own
    from quizzes.models import Mastery
    from tests.factories import RuleFactory

    learner = UserFactory()
    client.force_login(learner)
    first = Mastery.objects.create(user=learner, rule=RuleFactory(number="701.23b"), theta=0.0)

    def rows() -> list[str]:
        page = client.get(reverse("progress")).content.decode()
        return re.findall(r'aria-label="Mastery of ([^"]+)"', page)

    assert rows() == ["701.23b: 50%"]
    assert rows() == ["701.23b: 50%"]  # the kept list
    Mastery.objects.filter(pk=first.pk).update(theta=3.0)
    assert rows() == ["701.23b: 95%"]
    Mastery.objects.create(user=learner, rule=RuleFactory(number="702.19b"), theta=-3.0)
    assert rows() == ["702.19b: 5%", "701.23b: 95%"]
    other = UserFactory()
    Mastery.objects.create(user=other, rule=first.rule, theta=0.0)
    client.force_login(other)
    assert rows() == ["701.23b: 50%"]

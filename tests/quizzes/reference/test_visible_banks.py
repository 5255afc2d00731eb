"""The banks a visitor may practise from, kept per visitor (quizzes/visibility.py): never another
visitor's, and never stale once a bank, a cohort or a membership changes."""

from __future__ import annotations

import pytest

from quizzes import visibility
from quizzes.instructors import cohorts
from quizzes.models import Bank, Cohort, CohortMembership
from tests.factories import UserFactory
from tests.quizzes.reference.test_views import listed

pytestmark = pytest.mark.django_db


def test_the_ids_are_each_visitors_own_and_read_once(
    client, scenarios_by_bank, django_assert_num_queries
):
    owner, member = scenarios_by_bank["owner"], scenarios_by_bank["member"]
    owners = visibility.bank_ids(owner)
    members = visibility.bank_ids(member)
    assert set(owners) == set(Bank.objects.visible_to(owner).values_list("pk", flat=True))
    assert set(members) == set(Bank.objects.visible_to(member).values_list("pk", flat=True))
    assert len(owners) == 3 and len(members) == 2
    # a request reads the versions once, then the cached ids: no query for the banks
    assert listed(client, member).count("<li>") == 2
    with django_assert_num_queries(0 + visibility.versions.shared_reads_database()):
        assert visibility.bank_ids(member) == members


def test_a_learner_who_joins_a_cohort_sees_its_shared_scenarios_at_once(
    client, scenarios_by_bank, django_capture_on_commit_callbacks
):
    learner = UserFactory()
    assert listed(client, learner).count("<li>") == 1
    with django_capture_on_commit_callbacks(execute=True):
        cohorts.do_join(learner, Cohort.objects.get())
    assert listed(client, learner).count("<li>") == 2


def test_a_member_who_leaves_sees_them_no_more(
    client, scenarios_by_bank, django_capture_on_commit_callbacks
):
    member = scenarios_by_bank["member"]
    assert listed(client, member).count("<li>") == 2
    with django_capture_on_commit_callbacks(execute=True):
        CohortMembership.objects.get(user=member).delete()
    assert listed(client, member).count("<li>") == 1


def test_a_member_removed_by_the_cohorts_members_list_sees_them_no_more(
    client, scenarios_by_bank, django_capture_on_commit_callbacks
):
    member = scenarios_by_bank["member"]
    assert listed(client, member).count("<li>") == 2
    with django_capture_on_commit_callbacks(execute=True):
        Cohort.objects.get().members.remove(member)
    assert listed(client, member).count("<li>") == 1


def test_a_bank_taken_from_the_cohort_is_gone_at_once(
    client, scenarios_by_bank, django_capture_on_commit_callbacks
):
    member = scenarios_by_bank["member"]
    assert listed(client, member).count("<li>") == 2
    with django_capture_on_commit_callbacks(execute=True):
        Cohort.objects.get().banks.clear()
    assert listed(client, member).count("<li>") == 1


def test_a_public_bank_made_private_is_gone_at_once(
    client, scenarios_by_bank, django_capture_on_commit_callbacks
):
    assert listed(client).count("<li>") == 1
    with django_capture_on_commit_callbacks(execute=True):
        bank = Bank.objects.get(visibility="public")
        bank.visibility = "private"
        bank.save()
    assert "None yet." in listed(client)


def test_the_version_moves_only_after_the_commit(
    scenarios_by_bank, django_capture_on_commit_callbacks
):
    before = visibility.versions.current(visibility.versions.BANKS)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        Bank.objects.get(visibility="public").save()
    assert visibility.versions.current(visibility.versions.BANKS) == before
    for callback in callbacks:
        callback()
    assert visibility.versions.current(visibility.versions.BANKS) != before


def offered(client, user) -> str:
    """The practice filter's bank choice as `user` sees it."""
    from django.urls import reverse

    client.force_login(user)
    page = client.get(reverse("practice")).content.decode()
    return page.split('name="bank"')[1].split("</select>")[0]


def test_the_filters_banks_are_each_visitors_own_and_read_once(
    client, scenarios_by_bank, django_assert_num_queries
):
    owner, member = scenarios_by_bank["owner"], scenarios_by_bank["member"]
    visible = Bank.objects.visible_to(owner).order_by("title", "id")
    assert visibility.offered_banks(owner) == tuple(visible.values_list("slug", "title", "id"))
    assert len(visibility.offered_banks(owner)) == 3
    assert len(visibility.offered_banks(member)) == 2
    assert offered(client, member).count("<option") == 3  # "Every bank" and the two
    with django_assert_num_queries(0 + visibility.versions.shared_reads_database()):
        assert len(visibility.offered_banks(member)) == 2


def test_a_renamed_bank_is_offered_renamed_at_once(
    client, scenarios_by_bank, django_capture_on_commit_callbacks
):
    member = scenarios_by_bank["member"]
    assert "Renamed bank" not in offered(client, member)
    with django_capture_on_commit_callbacks(execute=True):
        bank = Bank.objects.get(visibility="public")
        bank.title = "Renamed bank"
        bank.save()
    assert "Renamed bank" in offered(client, member)


def test_a_bank_the_member_may_no_longer_see_is_offered_no_more(
    client, scenarios_by_bank, django_capture_on_commit_callbacks
):
    member = scenarios_by_bank["member"]
    shared = Bank.objects.get(visibility="shared")
    assert f'value="{shared.slug}"' in offered(client, member)
    with django_capture_on_commit_callbacks(execute=True):
        CohortMembership.objects.get(user=member).delete()
    assert f'value="{shared.slug}"' not in offered(client, member)
    # and another visitor never gets this one's list
    assert f'value="{shared.slug}"' in offered(client, scenarios_by_bank["owner"])

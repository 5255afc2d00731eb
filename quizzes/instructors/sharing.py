"""Sharing a bank with co-instructors (Zulip-style `check_*` / `do_*`): the owner adds another
instructor by username as a co-owner, who then finds the bank at /banks/ and edits it as the
owner does (`banks.banks_of` is owner-or-co-owner); only the owner adds or removes co-owners.
Each scenario version keeps who saved it (`ScenarioVersion.changed_by`): its history page."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from config.roles import is_instructor
from quizzes.models import Bank, Scenario, ScenarioVersion

MAX_CO_OWNERS = 20


class SharingError(ValueError):
    """Why a co-owner can't be added, in the owner's language."""


def banks_shared_by(user) -> QuerySet[Bank]:
    """The banks whose sharing `user` may change: the ones they own (a co-owner's is a 404)."""
    return Bank.objects.owned_by(user)


def co_owners_of(bank: Bank):
    return bank.co_owners.order_by("username")


def check_add_co_owner(owner, bank: Bank, username: str):
    """The instructor named `username`, if `owner` owns `bank` and may add them."""
    if not banks_shared_by(owner).filter(pk=bank.pk).exists():
        raise SharingError(_("Only the bank's owner shares it."))
    user = get_user_model().objects.filter(username=username.strip()).first()
    if user is None or not user.is_active or not is_instructor(user):
        raise SharingError(
            _("No instructor has the username %(username)s.") % {"username": repr(username)}
        )
    if user.pk == bank.owner_id:
        raise SharingError(_("You own this bank already."))
    if bank.co_owners.filter(pk=user.pk).exists():
        raise SharingError(
            _("%(username)s already shares this bank.") % {"username": user.username}
        )
    if bank.co_owners.count() >= MAX_CO_OWNERS:
        raise SharingError(
            _("A bank is shared with %(count)d instructors at most.") % {"count": MAX_CO_OWNERS}
        )
    return user


def do_add_co_owner(bank: Bank, user) -> None:
    bank.co_owners.add(user)


def do_remove_co_owner(bank: Bank, user) -> None:
    bank.co_owners.remove(user)


def history_of(scenario: Scenario) -> QuerySet[ScenarioVersion]:
    """Every version of the scenario, the newest first, with who saved it."""
    return (
        ScenarioVersion.objects.filter(scenario=scenario)
        .select_related("changed_by")
        .only("number", "title", "created_at", "changed_by__username", "scenario_id")
        .order_by("-number")
    )

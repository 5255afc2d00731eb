"""The banks a visitor may practise from (`Bank.objects.visible_to`), as ids, kept per visitor.

Every page that lists what a visitor may practise asks it, and the query that answers it (public
banks, one's own, one's cohorts' shared ones) costs more to build than to run. So the ids are
cached per visitor under the banks' version (config/versions.py), which any saved or deleted
bank, cohort or membership, and any change of a cohort's banks or members, replaces once the
change commits: a visitor who leaves a cohort stops seeing its banks at once, in every worker.
"""

from __future__ import annotations

from django.core.cache import cache
from django.db.models import Q, QuerySet
from django.db.models.signals import m2m_changed

from config import versions
from quizzes.models import Bank, Cohort, CohortMembership
from rules.models import Card

TIMEOUT = 60 * 60  # ids of a replaced version, or of a visitor gone, age out unread


def bank_ids_key(user) -> str:
    """The cache's key of `bank_ids(user)`: for a page to read it with its other keys."""
    visitor = user.pk if user.is_authenticated else "anonymous"
    return f"visible-banks:{versions.current(versions.BANKS)}:{visitor}"


def bank_ids(user, kept: dict | None = None) -> tuple[int, ...]:
    """The ids of the banks `user` (or an anonymous visitor) may practise from; from the cache,
    or from `kept`, what the page read under `bank_ids_key(user)` with its other keys."""
    key = bank_ids_key(user)
    ids = kept.get(key) if kept is not None else cache.get(key)
    if ids is None:
        ids = tuple(Bank.objects.visible_to(user).order_by("pk").values_list("pk", flat=True))
        cache.set(key, ids, TIMEOUT)
    return ids


def offered_banks(user) -> tuple[tuple[str, str, int], ...]:
    """The slug, title and id of each bank `user` (signed in) may practise from, by title: the
    practice filter's choice of banks, and the bank it looks up (read by the ORM: kept, so not
    a query a page pays), kept as the ids are: a saved bank (its title, its slug) replaces the
    banks' version as any visibility change does."""
    key = f"offered-banks-ids:{versions.current(versions.BANKS)}:{user.pk}"
    offered = cache.get(key)
    if offered is None:
        banks = Bank.objects.visible_to(user).order_by("title", "id")
        offered = tuple(banks.values_list("slug", "title", "id"))
        cache.set(key, offered, TIMEOUT)
    return offered


def bump() -> None:
    """Forget every visitor's banks, in every worker."""
    versions.bump(versions.BANKS)


def connect() -> None:
    """Bump on every change that can change who sees which bank (from `QuizzesConfig.ready`)."""
    versions.bump_on_change(versions.BANKS, (Bank, Cohort, CohortMembership))
    for through in (Cohort.banks.through, Cohort.members.through):
        m2m_changed.connect(_m2m_changed, sender=through, dispatch_uid=f"banks-m2m-{through}")


def _m2m_changed(action: str, **_: object) -> None:
    if action in {"post_add", "post_remove", "post_clear"}:
        versions.bump_after_commit(versions.BANKS)


def cards_visible_to(user) -> QuerySet[Card]:
    """Cards `user` may read: the site's, their own, and those of the owners of banks they
    may practise from (`Bank.objects.visible_to`), whose scenarios may name them."""
    owners = Bank.objects.visible_to(user).filter(owner__isnull=False).values("owner_id")
    mine = Q(owner=user) if user.is_authenticated else Q(pk__in=[])
    return Card.objects.filter(Q(owner=None) | mine | Q(owner__in=owners))

"""Platform users and courses as Tutor's users and cohorts.

- A launched person is found by their platform and the platform's identifier for them (the
  registration and `sub`, django-lti's `LtiUser`), never by e-mail: a platform may assert any
  address. The first launch makes a Tutor account with no password (it logs in only through its
  platform) and no e-mail (so no password reset reaches it); names come from the launch.
- An LMS context (a course) has one cohort, made by the first launch of someone the platform
  calls an instructor (or administrator) of it, who becomes the cohort's instructor. Learners
  launched from the course join it. LMS instructors are not made Tutor instructors: their
  cohort's pages and banks of their own need the role an administrator grants
  (`manage.py make_instructor`).
"""

from __future__ import annotations

import hmac
import logging

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from lti_tool.models import LtiContext, LtiLaunch, LtiMembership, LtiUser

from quizzes.models import Cohort, CohortMembership, LtiCohort

logger = logging.getLogger("tutor.lti")

NAME_LENGTH = 150  # Django's first_name and last_name


def username_for(lti_user: LtiUser) -> str:
    """A username no two platform users share, keyed with the secret key: platforms' `sub`s are
    often small numbers, and a sign-up that took the name first would lock its owner out."""
    message = f"{lti_user.registration_id}\0{lti_user.sub}".encode()
    digest = hmac.new(settings.SECRET_KEY.encode(), message, "sha256").hexdigest()
    return f"lti-{lti_user.registration_id}-{digest[:24]}"


def user_for(lti_user: LtiUser):
    """The Tutor user of a platform user, made at their first launch."""
    with transaction.atomic():
        locked = LtiUser.objects.select_for_update().get(pk=lti_user.pk)
        if locked.auth_user_id is not None:
            user = locked.auth_user
        else:
            user = get_user_model()(username=username_for(locked))
            user.set_unusable_password()
            user.save()
            locked.auth_user = user
            locked.save(update_fields=["auth_user"])
            logger.info(
                "LTI account made",
                extra={"user": user.pk, "registration": locked.registration_id},
            )
        names = {
            "first_name": (locked.given_name or "")[:NAME_LENGTH],
            "last_name": (locked.family_name or "")[:NAME_LENGTH],
        }
        changed = [field for field, value in names.items() if getattr(user, field) != value]
        if changed:
            for field in changed:
                setattr(user, field, names[field])
            user.save(update_fields=changed)
    return user


def teaches(membership: LtiMembership) -> bool:
    return membership.is_instructor or membership.is_administrator


def cohort_for(launch: LtiLaunch, user) -> Cohort | None:
    """The course's cohort with `user` in it (as its instructor or as a member); None when the
    launch has no course, or no instructor of it has launched yet."""
    if not launch.context_claim or not launch.context_claim.get("id"):
        return None
    context: LtiContext = launch.context
    membership = launch.membership
    with transaction.atomic():
        link = LtiCohort.objects.select_related("cohort").filter(context=context).first()
        if link is None:
            if not teaches(membership):
                return None
            name = (context.title or context.label or context.id_on_platform)[:200]
            cohort = Cohort.objects.create(name=name, instructor=user)
            link = LtiCohort.objects.create(context=context, cohort=cohort)
        cohort = link.cohort
        if cohort.instructor_id != user.pk:
            CohortMembership.objects.get_or_create(cohort=cohort, user=user)
    return cohort

"""Create (or repair) the demo learner and the demo instructor, and print their log-ins."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from config.roles import INSTRUCTORS_GROUP as INSTRUCTORS  # grants no admin rights
from quizzes.instructors import banks, cohorts, saving
from quizzes.models import Bank, Cohort
from quizzes.rulings import documents

DEMO_BANK = "Demo bank: Demonic Tutor"
DEMO_COHORT = "Demo cohort"
DEMO_USERS = [
    # username, password, is instructor
    ("learner", "learn-the-rulings-2025", False),
    ("instructor", "teach-the-rulings-2025", True),
]


class Command(BaseCommand):
    help = "Create the demo learner and instructor (idempotent) and print their log-ins."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--force",
            action="store_true",
            help="Create them even with DEBUG off (public passwords: never in production).",
        )

    def handle(self, *args, force: bool, **options) -> None:
        if not settings.DEBUG and not force:
            raise CommandError(
                "Demo users have published passwords: run with DJANGO_DEBUG=1 (or --force)."
            )
        group = self.instructors_group()
        user_model = get_user_model()
        users = {}
        for username, password, instructor in DEMO_USERS:
            user, created = user_model.objects.get_or_create(
                username=username, defaults={"email": f"{username}@example.org"}
            )
            changed = created
            if not user.check_password(password):
                user.set_password(password)
                changed = True
            if user.is_staff != instructor or not user.is_active:
                user.is_staff, user.is_active = instructor, True
                changed = True
            if changed:
                user.save()
            if instructor and not user.groups.filter(pk=group.pk).exists():
                user.groups.add(group)
            users[username] = user
            role = "instructor (works at /banks/ and /cohorts/)" if instructor else "learner"
            self.stdout.write(f"{role}: username {username!r}, password {password!r}")
        cohort = self.demo_teaching(users["instructor"], users["learner"])
        self.stdout.write(
            f"demo cohort {cohort.name!r} (join code {cohort.join_code}) with its own bank; "
            "the learner is a member"
        )

    def demo_teaching(self, instructor, learner):
        """A shared bank with one scenario and a cohort holding the learner, so the instructor
        pages have something to show. Made once; left alone afterwards."""
        cohort = Cohort.objects.filter(instructor=instructor, name=DEMO_COHORT).first()
        if cohort is not None:
            return cohort
        with transaction.atomic():
            bank = banks.do_create_bank(
                instructor,
                DEMO_BANK,
                "A demo bank: edit its scenario to see the engine's preview update.",
                Bank.Visibility.SHARED,
            )
            document = saving.check_save_scenario(instructor, bank, documents.starter_text())
            saving.do_save_scenario(instructor, bank, document)
            cohort = cohorts.do_create_cohort(instructor, DEMO_COHORT)
            cohorts.do_assign_banks(cohort, Bank.objects.filter(pk=bank.pk))
            cohorts.do_join(learner, cohort)
        return cohort

    def instructors_group(self) -> Group:
        """The Instructors group, emptied of admin permissions an older version gave it: the
        admin is for superusers (config/admin.py)."""
        group, _ = Group.objects.get_or_create(name=INSTRUCTORS)
        if group.permissions.exists():
            group.permissions.clear()
        return group

"""Make a user an instructor: create them (with --password) or promote an existing one.

An instructor is a member of the Instructors group (quizzes.roles.is_instructor); the group
grants no admin rights, since the admin is for superusers (config/admin.py)."""

from __future__ import annotations

import logging

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from config.roles import INSTRUCTORS_GROUP


class Command(BaseCommand):
    help = "Create an instructor, or promote an existing user to instructor (idempotent)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("username")
        parser.add_argument(
            "--password", help="Required for a new user; for an existing one, replaces theirs."
        )
        parser.add_argument("--email", default="", help="For a new user.")

    def handle(self, *args, username: str, password: str | None, email: str, **options) -> None:
        user_model = get_user_model()
        user = user_model.objects.filter(username=username).first()
        if user is None and password is None:
            raise CommandError(f"No user {username!r}: give --password to create them.")
        if password is not None:
            try:
                validate_password(password, user or user_model(username=username, email=email))
            except ValidationError as error:
                raise CommandError(" ".join(error.messages)) from error
        with transaction.atomic():
            created = user is None
            if created:
                user = user_model.objects.create_user(username, email=email, password=password)
            elif password is not None:
                user.set_password(password)
                user.save(update_fields=["password"])
            group, _ = Group.objects.get_or_create(name=INSTRUCTORS_GROUP)
            already = not created and user.groups.filter(pk=group.pk).exists()
            user.groups.add(group)
        logging.getLogger("tutor.audit").info("instructor: %s", username, extra={"user": user.pk})
        if created:
            self.stdout.write(f"Created instructor {username!r}: they work at /banks/, /cohorts/.")
        elif already:
            self.stdout.write(f"{username!r} is already an instructor.")
        else:
            self.stdout.write(f"{username!r} is now an instructor: /banks/ and /cohorts/ are open.")
        if not user.is_active:
            self.stdout.write(self.style.WARNING(f"{username!r} is inactive and cannot log in."))

"""`manage.py api_token USERNAME [--name NAME]`: make a rulings API token for a user and print it
(this once: only its hash is kept). `--list` shows the user's tokens, `--revoke PREFIX` revokes
the ones starting so (docs/api.md)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from quizzes.models import ApiToken


class Command(BaseCommand):
    help = "Make (or list, or revoke) a user's rulings API tokens; a new token is shown once."

    def add_arguments(self, parser) -> None:
        parser.add_argument("username")
        parser.add_argument("--name", default="API", help="What the token is for.")
        parser.add_argument("--list", action="store_true", help="List the user's tokens.")
        parser.add_argument("--revoke", metavar="PREFIX", help="Revoke the token(s) shown so.")

    def handle(self, *args, username: str, name: str, **options) -> None:
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"No user {username!r}.")
        tokens = ApiToken.objects.filter(owner=user)
        if options["list"]:
            for token in tokens:
                state = "revoked" if token.revoked_at else "active"
                used = token.last_used_at.isoformat() if token.last_used_at else "never"
                self.stdout.write(f"{token.prefix}…  {state}  last used {used}  {token.name}")
            return
        if options["revoke"]:
            prefix = options["revoke"].rstrip("…")
            count = tokens.filter(prefix=prefix, revoked_at__isnull=True).update(
                revoked_at=timezone.now()
            )
            if not count:
                raise CommandError(f"{username} has no active token {prefix}… (see --list).")
            self.stdout.write(f"{count} token(s) revoked.")
            return
        name = name.strip()[: ApiToken._meta.get_field("name").max_length] or "API"
        _, token = ApiToken.issue(user, name)
        self.stderr.write(f"A token for {username} ({name}); it is shown this once:")
        self.stdout.write(token)

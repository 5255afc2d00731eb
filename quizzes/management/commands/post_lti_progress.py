"""Post practice progress to LMS gradebooks (docs/lti.md): for each bank a learner launched from
a course whose instructor asked for it, the share of its questions they have answered right,
when they answered since the last post. Run it from cron (every 15 minutes, say)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from quizzes.lti import grades


class Command(BaseCommand):
    help = "Post LTI practice progress to the gradebooks of the courses it was launched from."

    def handle(self, *args, **options) -> None:
        posted = grades.post_progress()
        self.stdout.write(f"Practice progress posted to {posted} line item(s).")

"""Load rules, the card catalog and the seed scenarios with their questions (idempotent)."""

from __future__ import annotations

import logging
import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from config import sql
from quizzes import rulings
from quizzes.loading import CONTENT_DIR, ContentError, load_content
from quizzes.loading.generated import generate
from quizzes.loading.read import CATALOG_DIR
from quizzes.management.commands.generate_questions import write_summary
from quizzes.models import Question, Scenario
from quizzes.practice import question_topics
from quizzes.rulings import ScenarioError, audit
from rules.models import Card, Rule, RuleAlias


class Command(BaseCommand):
    help = (
        "Load rules, cards and seed scenarios with questions from data files, in one "
        "transaction; a second run changes nothing. Every scenario is checked by the engine."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--content-dir", type=Path, default=CONTENT_DIR)
        parser.add_argument("--catalog-dir", type=Path, default=CATALOG_DIR)
        parser.add_argument(
            "--per-family",
            type=int,
            default=settings.TUTOR_FAMILY_INSTANCES,
            help="instances of each scenario family to generate (0: none)",
        )

    def handle(
        self, *args, content_dir: Path, catalog_dir: Path, per_family: int, **options
    ) -> None:
        try:
            with transaction.atomic():  # all or nothing: rules, cards, seed and generated rows
                report = load_content(content_dir, catalog_dir)
                start = time.monotonic()
                generated = generate(content_dir, per_family=per_family) if per_family > 0 else None
                question_topics.store()  # every question: a topic's prefixes may have changed
                variants_start = time.monotonic()
                stored = rulings.store_variants(
                    Question.objects.filter(is_active=True)
                    .select_related("scenario")
                    .prefetch_related("rules"),
                    check=audit.checker(),  # flagged below: CI fails on any
                )
                variants_time = time.monotonic() - variants_start
        except ContentError as error:
            raise CommandError(f"Nothing loaded. {error}") from error
        except ScenarioError as error:
            raise CommandError(f"Nothing loaded. {error}") from error
        sql.refresh_statistics()
        changed = {f"{m} {s}": n for (m, s), n in report.changes.items() if s != "unchanged"}
        logging.getLogger("tutor.content").info("content loaded: %s", changed or "no changes")
        statuses = report.statuses
        self.stdout.write(
            f"rules: {Rule.objects.count()} ({Rule.objects.current().count()} current), "
            f"aliases: {RuleAlias.objects.count()}, cards: {Card.objects.count()}"
        )
        self.stdout.write(
            f"scenarios: {Scenario.objects.count()} "
            f"(agree {statuses['agrees']}, disagree {statuses['disagrees']}, "
            f"not checked {statuses['not_checked']}, invalid {statuses['invalid']})"
        )
        self.stdout.write(f"questions: {Question.objects.filter(is_active=True).count()} active")
        self.stdout.write(
            f"variants stored: {stored.made} made, in {variants_time:.1f} s; "
            f"flagged by the audit: {len(stored.flagged)}"
        )
        self.stdout.write(
            "changes: "
            + (
                ", ".join(
                    f"{model} {status} {count}"
                    for (model, status), count in sorted(report.changes.items())
                    if status != "unchanged"
                )
                or "none"
            )
        )
        for question, seed, problem in stored.flagged:
            self.stdout.write(
                self.style.WARNING(f"FLAGGED question {question} seed {seed}: {problem}")
            )
        for slug, status, text in report.flagged:
            self.stdout.write(self.style.WARNING(f"FLAGGED {slug} ({status}): {text}"))
        for slug in report.out_of_turn:
            self.stdout.write(f"no questions: a spell is cast when the rules don't allow: {slug}")
        for slug in report.without_questions:
            self.stdout.write(f"no engine-computable questions yet: {slug}")
        if generated is not None:
            write_summary(self.stdout, generated, time.monotonic() - start)

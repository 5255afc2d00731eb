"""Audit every active question as learners are served it (quizzes/rulings/audit.py): counts per
invariant, family, kind and level; exit status 1 on any violation."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from quizzes.models import Question, Scenario
from quizzes.rulings import audit, tells


class Command(BaseCommand):
    help = "Check every variant of every active question against the audit's invariants."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--json", action="store_true", help="Print the report as JSON.")
        parser.add_argument(
            "--seeds",
            type=int,
            default=audit.DEFAULT_SEEDS,
            help="Variant seeds 0..n audited (default: every seed a learner may be served).",
        )
        parser.add_argument("--examples", type=int, default=0, help="Problems shown per invariant.")
        parser.add_argument(
            "--true-values",
            action="store_true",
            help="Print, per claim, the count of each true value asked (content/true_values.json).",
        )

    def handle(self, *args, **options) -> None:
        questions = (
            Question.objects.filter(is_active=True)
            .select_related("scenario", "scenario__family")
            .prefetch_related("rules")
            .order_by("pk")
        )
        if options["true_values"]:
            scenarios = Scenario.objects.filter(questions__is_active=True).distinct()
            self.stdout.write(json.dumps(audit.true_values(scenarios), indent=1, sort_keys=True))
            return
        report = audit.audit(questions, seeds=options["seeds"])
        vote = tells.word_vote(report.statements)
        places = tells.position_vote(report.places)
        summary = {
            "served": report.served,
            "word_vote": {
                "accuracy": round(vote.accuracy, 4),
                "blind": round(vote.blind, 4),
                "held_out": vote.held_out,
            },
            "position_vote": {
                "accuracy": round(places.accuracy, 4),
                "blind": round(places.blind, 4),
                "held_out": places.held_out,
            },
            "violations": len(report.violations),
            "invariants": dict.fromkeys(audit.NAMES, 0) | report.counts("invariant"),
            "questions": report.questions_with(),
            "family": report.counts("family"),
            "kind": report.counts("kind"),
            "level": report.counts("level"),
        }
        if options["json"]:
            self.stdout.write(json.dumps(summary, indent=2))
        else:
            self.stdout.write(
                f"served: {report.served} variants, violations: {len(report.violations)}"
            )
            self.stdout.write(
                f"word vote: {vote.accuracy:.1%} of {vote.held_out} held-out statements "
                f"(always the commoner answer: {vote.blind:.1%})"
            )
            self.stdout.write(
                f"position vote: {places.accuracy:.1%} of {places.held_out} held-out statements "
                f"(always the commoner answer: {places.blind:.1%})"
            )
            for heading in ("invariants", "questions", "family", "kind", "level"):
                self.stdout.write(f"{heading}:")
                for name, count in summary[heading].items():
                    self.stdout.write(f"  {name or '(authored)'}: {count}")
        shown = options["examples"]
        if shown:
            for name in audit.NAMES:
                for v in [v for v in report.violations if v.invariant == name][:shown]:
                    self.stderr.write(f"{name} q{v.question} seed {v.seed} {v.kind}: {v.problem}")
        if report.violations:
            raise CommandError(f"{len(report.violations)} violations")

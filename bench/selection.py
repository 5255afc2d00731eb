"""Next-question selection (`quizzes.practice.selection.next_question`) as the question bank grows.

    .venv/bin/python -m bench.selection [--sizes 1000,100000] [--repetitions 200]
                                        [--database sqlite|postgresql|both] [--explain] [--json]
                                        [--pg-name tutor_bench_selection]

For each database (SQLite in a temporary file; PostgreSQL at 127.0.0.1:5432 when one answers, in a
database of its own, `--pg-name`, dropped afterwards) it migrates, bulk-creates a public bank of
questions (1,000 scenarios, 40 rules, difficulties spread over -3..3) and two learners, then
times `next_question` one call at a time, for each bank size:

  fresh          a learner with no answers
  answered-500   a learner with 500 answers (and a mastery per rule, none due)
  due-rule       the same learner with one rule's review due
  rule-filter    the same learner practising one rule (`?rule=`)
  level-filter   the same learner practising one judge level (`?level=L2`)
  bank-filter    the same learner practising a bank holding a tenth of the questions (`?bank=`)
  all-filters    the three at once

It prints p50/p95 per call, the queries per call, and `ratio`: the case's p95 over its p95 at
the smallest size, measured in the same run (flat selection stays near 1); the machine being
shared, two figures that a busy neighbour moves less: `cpu ms`, this process's CPU time per
call (Django building and compiling the queries, reading rows; p50), and on PostgreSQL
`server`, the database's own planning and execution time of one call's queries (best of three
`EXPLAIN ANALYZE`). `--explain` prints
each query's plan at the largest size; `question scan` says whether any plan reads the whole
question table (SQLite `SCAN quizzes_question` without an index, PostgreSQL `Seq Scan`).
PostgreSQL tables are ANALYZEd after loading, as autovacuum would.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench.databases import postgres_answers, scratch_database

REPO = Path(__file__).resolve().parents[1]
PG_BENCH_DB = "tutor_bench_selection"
SCENARIOS = 1000
RULES = 40
FAMILIES = 25  # five of six boards a family's
ANSWERS = 500
KINDS = ("cards", "yes_no", "value", "count_range", "multiple_choice", "legal_set")
CASES = (
    "fresh",
    "answered-500",
    "due-rule",
    "rule-filter",
    "level-filter",
    "bank-filter",
    "all-filters",
)
# levels as the seed has them, about: half L1, a third L2, the rest corner cases
LEVELS = ("L1",) * 5 + ("L2",) * 3 + ("corner",) * 2
SMALL_BANK = "bench-cohort"  # one question in ten: a cohort's bank, for `?bank=`
SQLITE_FULL_SCAN = re.compile(r"\bSCAN (quizzes_question)\b(?! USING)")
PG_FULL_SCAN = re.compile(r"Seq Scan on quizzes_question\b")


# --- inside the benchmark's Django ------------------------------------------------------------


def spec(index: int) -> dict[str, Any]:
    """A small scenario: the selection reads its spec only to check the limits."""
    return {
        "format": "scenario/1",
        "id": f"bench-{index}",
        "title": f"Bench scenario {index}",
        "source": "bench",
        "players": ["Alice", "Nadia"],
        "zones": {"Alice": {"hand": ["Demonic Tutor#t"], "library": ["Island#i"]}},
        "history": [],
        "resolve": {"cast": "t", "by": "Alice"},
        "expect": [],
    }


def grow_bank(bank, rules, scenarios, start: int, stop: int, rng: random.Random) -> None:
    from quizzes.models import Bank, Question

    small = Bank.objects.get(slug=SMALL_BANK)
    batch = 5000
    for first in range(start, stop, batch):
        questions = Question.objects.bulk_create(
            Question(
                scenario=scenarios[index % len(scenarios)],
                bank=small if index % 10 == 0 else bank,
                level=LEVELS[index // 10 % len(LEVELS)],
                key=f"q{index}",
                kind=KINDS[index % len(KINDS)],  # a real bank mixes kinds (the mix wants it)
                prompt="Mark each card.",
                claims=[{"claim": "finds", "card": "i"}],
                difficulty=rng.uniform(-3, 3),
                position=index,
            )
            for index in range(first, min(stop, first + batch))
        )
        Question.rules.through.objects.bulk_create(
            Question.rules.through(
                question_id=question.pk, rule_id=rules[question.position % RULES].pk
            )
            for question in questions
        )


def setup_base(rng: random.Random):
    import datetime

    from django.contrib.auth.models import User

    from quizzes.models import Bank, Family, Scenario
    from rules.models import Rule

    rules = Rule.objects.bulk_create(
        Rule(
            number=f"9{index // 10:02d}.{index % 10}a",
            text="Bench rule.",
            edition_name="bench",
            edition_date=datetime.date(2025, 9, 19),
        )
        for index in range(RULES)
    )
    bank = Bank.objects.create(slug="bench", title="Bench", visibility=Bank.Visibility.PUBLIC)
    Bank.objects.create(slug=SMALL_BANK, title="Cohort", visibility=Bank.Visibility.PUBLIC)
    # Most boards are a family's, as the generated content's are (the mix keeps families apart).
    families = Family.objects.bulk_create(
        Family(slug=f"bench-family-{index}", title="Bench", level="L1", definition={})
        for index in range(FAMILIES)
    )
    scenarios = Scenario.objects.bulk_create(
        Scenario(
            slug=f"bench-{index}",
            title=f"Bench {index}",
            spec=spec(index),
            family=families[index % FAMILIES] if index % 6 else None,
        )
        for index in range(SCENARIOS)
    )
    fresh = User.objects.create(username="bench-fresh")
    seasoned = User.objects.create(username="bench-seasoned")
    return rules, bank, scenarios, fresh, seasoned


def answer_some(user, rules, rng: random.Random, count: int = ANSWERS) -> None:
    """`count` responses to questions spread over the bank, a mastery per rule, none due."""
    import datetime

    from django.utils import timezone

    from quizzes.models import Attempt, Mastery, Question, Response

    attempt = Attempt.objects.create(user=user)
    ids = list(Question.objects.values_list("pk", flat=True))
    now = timezone.now()
    Response.objects.bulk_create(
        Response(
            attempt=attempt,
            question_id=question_id,
            user=user,
            correct=rng.random() < 0.7,
            created_at=now - datetime.timedelta(minutes=count - index),
        )
        for index, question_id in enumerate(rng.sample(ids, count))
    )
    Mastery.objects.bulk_create(
        Mastery(
            user=user,
            rule=rule,
            theta=rng.uniform(-1, 1),
            answers=12,
            due=now + datetime.timedelta(days=3),
        )
        for rule in rules
    )


def explain(sql: str, vendor: str) -> str:
    from django.db import connection

    with connection.cursor() as cursor:
        if vendor == "sqlite":
            cursor.execute(f"EXPLAIN QUERY PLAN {sql}")
            return "\n".join(row[-1] for row in cursor.fetchall())
        cursor.execute(f"EXPLAIN {sql}")
        return "\n".join(row[0] for row in cursor.fetchall())


def server_time(sql: str) -> float:
    """PostgreSQL's own planning and execution time for `sql`, in ms (the best of three)."""
    from django.db import connection

    times = []
    with connection.cursor() as cursor:
        for _ in range(3):
            cursor.execute(f"EXPLAIN (ANALYZE, SUMMARY) {sql}")
            lines = [row[0] for row in cursor.fetchall()]
            times.append(sum(float(line.split()[2]) for line in lines if " Time: " in line))
    return min(times)


def time_case(user, rule, repetitions: int, with_plans: bool, **filters) -> dict[str, Any]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from quizzes.practice import selection

    with CaptureQueriesContext(connection) as captured:
        pick = selection.next_question(user, rule, **filters)
    assert pick.question is not None, "the bench bank always has a question to serve"
    latencies, cpu = [], []
    for _ in range(repetitions):
        started, cpu_started = time.perf_counter_ns(), time.thread_time_ns()
        selection.next_question(user, rule, **filters)
        latencies.append((time.perf_counter_ns() - started) / 1e6)
        cpu.append((time.thread_time_ns() - cpu_started) / 1e6)
    latencies.sort()
    result: dict[str, Any] = {
        "p50_ms": statistics.median(latencies),
        "p95_ms": latencies[int(0.95 * (len(latencies) - 1))],
        "cpu_p50_ms": statistics.median(cpu),
        "queries": len(captured.captured_queries),
    }
    selects = [
        query["sql"]
        for query in captured.captured_queries
        if query["sql"].lstrip("( ").upper().startswith("SELECT")  # a UNION starts with "("
    ]
    plans = [explain(sql, connection.vendor) for sql in selects]
    scan = SQLITE_FULL_SCAN if connection.vendor == "sqlite" else PG_FULL_SCAN
    result["question_scan"] = any(scan.search(plan) for plan in plans)
    if connection.vendor == "postgresql":
        result["server_ms"] = sum(server_time(sql) for sql in selects)
    if with_plans:
        result["plans"] = [
            {"sql": query["sql"], "plan": plan}
            for query, plan in zip(captured.captured_queries, plans, strict=False)
        ]
    return result


def worker(sizes: list[int], repetitions: int, with_plans: bool) -> None:
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.utils import timezone

    from quizzes.models import Bank, Mastery

    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)  # the cache is in the database without Redis
    rng = random.Random(2026)
    rules, bank, scenarios, fresh, seasoned = setup_base(rng)
    results: dict[str, dict[str, Any]] = {}
    built = 0
    for size in sizes:
        grow_bank(bank, rules, scenarios, built, size, rng)
        if built == 0:
            answer_some(seasoned, rules, rng)
        built = size
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")
        plans = with_plans and size == sizes[-1]
        Mastery.objects.filter(user=seasoned).update(
            due=timezone.now() + timezone.timedelta(days=3)
        )
        cases = {
            "fresh": time_case(fresh, None, repetitions, plans),
            "answered-500": time_case(seasoned, None, repetitions, plans),
        }
        Mastery.objects.filter(user=seasoned, rule=rules[7]).update(
            due=timezone.now() - timezone.timedelta(hours=1)
        )
        cases["due-rule"] = time_case(seasoned, None, repetitions, plans)
        Mastery.objects.filter(user=seasoned, rule=rules[7]).update(
            due=timezone.now() + timezone.timedelta(days=3)
        )
        cases["rule-filter"] = time_case(seasoned, rules[3], repetitions, plans)
        cases["level-filter"] = time_case(seasoned, None, repetitions, plans, level="L2")
        small = Bank.objects.get(slug=SMALL_BANK)
        cases["bank-filter"] = time_case(seasoned, None, repetitions, plans, bank=small)
        cases["all-filters"] = time_case(
            seasoned, rules[10], repetitions, plans, level="L2", bank=small
        )
        results[str(size)] = cases
    print(json.dumps(results))


# --- the driver --------------------------------------------------------------------------------


def run_database(database: str, args) -> dict[str, Any]:
    with scratch_database(database, args.pg_name) as (url, _):
        env = {
            **{k: v for k, v in os.environ.items() if k != "REDIS_URL"},
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": url,
        }
        command = [sys.executable, "-m", "bench.selection", "--worker", "--sizes", args.sizes]
        command += ["--repetitions", str(args.repetitions)]
        command += ["--explain"] if args.explain else []
        output = subprocess.run(
            command, cwd=REPO, env=env, check=True, capture_output=True, text=True
        ).stdout
    return json.loads(output.strip().splitlines()[-1])


def report(database: str, results: dict[str, Any]) -> None:
    sizes = list(results)
    print(f"\n{database}")
    print(f"{'questions':>10} {'case':<14} {'p50 ms':>8} {'p95 ms':>8} {'ratio':>6} "
          f"{'queries':>7} {'cpu ms':>7} {'server':>7}  question scan")  # fmt: skip
    for size in sizes:
        for case in CASES:
            row = results[size][case]
            ratio = row["p95_ms"] / results[sizes[0]][case]["p95_ms"]
            server = f"{row['server_ms']:>7.2f}" if "server_ms" in row else f"{'-':>7}"
            print(
                f"{int(size):>10,} {case:<14} {row['p50_ms']:>8.2f} {row['p95_ms']:>8.2f} "
                f"{ratio:>6.2f} {row['queries']:>7} {row['cpu_p50_ms']:>7.2f} {server}  "
                f"{'yes' if row['question_scan'] else 'no'}"
            )
    for case in CASES:
        for query in results[sizes[-1]][case].get("plans", []):
            print(f"\n-- {database}, {int(sizes[-1]):,} questions, {case}\n{query['sql']}")
            print(query["plan"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,100000")
    parser.add_argument("--repetitions", type=int, default=200)
    parser.add_argument("--database", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--explain", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--pg-name", default=PG_BENCH_DB, help="the scratch PostgreSQL database")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    sizes = sorted(int(size) for size in args.sizes.split(","))
    if args.worker:
        worker(sizes, args.repetitions, args.explain)
        return 0
    databases = ["sqlite", "postgresql"] if args.database == "both" else [args.database]
    if "postgresql" in databases and not postgres_answers():
        print("PostgreSQL does not answer at 127.0.0.1:5432: SQLite only", file=sys.stderr)
        databases.remove("postgresql")
    everything = {database: run_database(database, args) for database in databases}
    if args.json:
        print(json.dumps(everything, indent=2))
    else:
        for database, results in everything.items():
            report(database, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())

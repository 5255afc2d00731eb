"""Importing a bank file of 500 scenarios (`quizzes.instructors.interchange`): check, then save.

    .venv/bin/python -m bench.imports [--scenarios 500] [--database sqlite|postgresql|both]
                                      [--json]

For each database (SQLite in a temporary file; PostgreSQL at 127.0.0.1:5432 when one answers, in
a database of its own that is dropped afterwards) it migrates, loads the seed content (rules and
cards), writes a bank file of `--scenarios` documents (the seed scenarios again and again, each
under an id of its own, with their generated questions, as an export has them), and times, in
a fresh instructor's bank:

  check      `interchange.check_import`: every document read and engine-checked, nothing saved
  save       `interchange.do_import`: every scenario, its version, engine check and questions
  again      the same file, every title edited, imported again with "replace": each scenario
             gets a new version

It prints wall-clock seconds per phase, the process's CPU seconds (less moved by other work on a
shared machine) and the queries. The target: check + save under 5 s.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench.databases import postgres_answers, scratch_database

REPO = Path(__file__).resolve().parents[1]
PG_BENCH_DB = "tutor_bench_imports"
TARGET_SECONDS = 5.0


# --- inside the benchmark's Django ------------------------------------------------------------


def bank_file(count: int, edited: bool = False) -> bytes:
    """A tutor-bank/1 file of `count` documents: the seed scenarios cycled, ids made unique."""
    from quizzes.instructors import interchange
    from quizzes.loading.read import read_content
    from quizzes.rulings import documents
    from rules.cards import catalog_for

    content = read_content()
    catalog = catalog_for(None)
    entries = []
    for index in range(count):
        seed = content.scenarios[index % len(content.scenarios)]
        spec = {**seed.spec, "id": f"{seed.spec['id']}-{index}"}
        if edited:
            spec["title"] += " (edited)"
        document = documents.ScenarioDocument(spec, seed.stored_ruling, seed.stored_expect)
        questions = [
            {"key": q.key, "kind": q.kind, "prompt": q.prompt, "claims": q.claims}
            for q in documents.generate_questions(spec, catalog)
        ]
        entries.append(document.to_json() | {"questions": questions})
    bank = {"title": "Benchmark bank", "description": f"{count} scenarios"}
    return json.dumps({"format": interchange.FORMAT, "bank": bank, "scenarios": entries}).encode()


def timed(function) -> tuple[Any, float, float, int]:
    from django.db import connection

    queries = 0

    def count(execute, sql, params, many, context):
        nonlocal queries
        queries += 1
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        started, cpu = time.perf_counter(), time.process_time()
        result = function()
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    return result, seconds, cpu, queries


def worker(count: int) -> None:
    import django

    django.setup()
    from django.core.management import call_command

    from config import roles
    from quizzes.instructors import interchange
    from quizzes.models import Scenario, ScenarioVersion
    from tests.factories import BankFactory, UserFactory

    call_command("migrate", verbosity=0)
    call_command("createcachetable")  # the shared cache (rule texts' version) and the throttles
    call_command("load_content", verbosity=0)
    files = {"first": bank_file(count), "again": bank_file(count, edited=True)}
    instructor = UserFactory(username="bench-instructor", is_staff=True)
    bank = BankFactory(owner=instructor, slug="bench-import")
    assert roles.is_instructor(instructor)
    results: dict[str, Any] = {"scenarios": count, "file_bytes": len(files["first"])}
    for phase, content in files.items():
        plan, check_s, check_cpu, check_q = timed(
            lambda: interchange.check_import(instructor, bank, content, "bench.json")  # noqa: B023
        )
        report, save_s, save_cpu, save_q = timed(
            lambda: interchange.do_import(instructor, bank, plan)  # noqa: B023
        )
        results[phase] = {
            "check_s": round(check_s, 3),
            "check_queries": check_q,
            "save_s": round(save_s, 3),
            "cpu_s": round(check_cpu + save_cpu, 3),
            "save_queries": save_q,
            "created": len(report.created),
            "replaced": len(report.updated),
        }
    results["stored"] = Scenario.objects.filter(bank=bank).count()
    results["versions"] = ScenarioVersion.objects.filter(scenario__bank=bank).count()
    print(json.dumps(results))


# --- the driver --------------------------------------------------------------------------------


def run_database(database: str, count: int) -> dict[str, Any]:
    with scratch_database(database, PG_BENCH_DB) as (url, _):
        env = {
            **{k: v for k, v in os.environ.items() if k != "REDIS_URL"},
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DJANGO_DEBUG": "1",
            "DATABASE_URL": url,
        }
        command = [sys.executable, "-m", "bench.imports", "--worker", "--scenarios", str(count)]
        output = subprocess.run(
            command, cwd=REPO, env=env, check=True, capture_output=True, text=True
        ).stdout
    return json.loads(output.strip().splitlines()[-1])


def report(database: str, results: dict[str, Any]) -> None:
    print(
        f"\n{database}: {results['scenarios']} scenarios, {results['file_bytes']:,} bytes; "
        f"stored: {results['stored']} scenarios, {results['versions']} versions"
    )
    print(
        f"{'import':<8} {'check s':>8} {'save s':>8} {'total s':>8} {'cpu s':>8} {'queries':>8}"
        "  result"
    )
    for phase in ("first", "again"):
        row = results[phase]
        total = row["check_s"] + row["save_s"]
        queries = row["check_queries"] + row["save_queries"]
        verdict = "under" if total < TARGET_SECONDS else "OVER"
        print(
            f"{phase:<8} {row['check_s']:>8.2f} {row['save_s']:>8.2f} {total:>8.2f} "
            f"{row['cpu_s']:>8.2f} "
            f"{queries:>8}  {row['created']} new, {row['replaced']} replaced "
            f"({verdict} {TARGET_SECONDS:g} s)"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenarios", type=int, default=500)
    parser.add_argument("--database", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.scenarios)
        return 0
    databases = ["sqlite", "postgresql"] if args.database == "both" else [args.database]
    if "postgresql" in databases and not postgres_answers():
        print("PostgreSQL does not answer at 127.0.0.1:5432: SQLite only", file=sys.stderr)
        databases.remove("postgresql")
    everything = {database: run_database(database, args.scenarios) for database in databases}
    if args.json:
        print(json.dumps(everything, indent=2))
    else:
        for database, results in everything.items():
            report(database, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Time what the scenario limits (quizzes/limits.py) refuse and what they still let through.

    .venv/bin/python -m bench.bounds [--json]

In one run, on a temporary SQLite database with the seed content loaded:
  preview seed          the live preview of a seed-sized document: the baseline
  preview 100k cards    a 100,000-card document: refused by its size
  preview deep nesting  30,000 nested lists: refused by its depth (no RecursionError)
  preview at limits     the largest document the limits allow (6 players, 500 cards)
  view seed / view 100k cards
                        the preview view through Django's whole stack in process (test client:
                        middleware, session, form parsing of the 1 MB body, rendering)
  import 100 seed-size  a bank file of 100 documents (the count limit), checked and saved
  import 100 at limits  the same with 100 documents at the card limit

Each preview is timed `--repetitions` times (median); each import once. `ratio` is to the
seed preview. The imports show that the largest file the limits allow is checked and saved well
within gunicorn's 30 s worker timeout.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def document(scenario_id: str, players: int = 2, cards: int = 3) -> dict:
    names = ["Alice", "Nadia", "Bram", "Emeka", "Farah", "Lior"][:players]
    fillers = ["Island", "Forest", "Swamp", "Mountain", "Plains"]
    per_player = max(1, cards // players)
    zones = {
        name: {"library": [fillers[i % len(fillers)] for i in range(per_player)]} for name in names
    }
    zones["Alice"]["library"][0] = "Forest#f1"
    return {
        "format": "scenario/1",
        "id": scenario_id,
        "title": "Demonic Tutor on a full library",
        "source": "bench/bounds.py",
        "players": names,
        "cards": [],
        "zones": zones,
        "history": [],
        "resolve": {"cast": "Demonic Tutor", "by": "Alice"},
        "expect": [{"claim": "shuffles", "player": "Alice", "value": "yes"}],
        "stored_ruling": "Alice searches her library for a card and shuffles.",
    }


def timed(work: Callable[[], object], repetitions: int) -> float:
    samples = []
    for _ in range(repetitions):
        started = time.perf_counter()
        work()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def measure(repetitions: int) -> list[dict]:
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from config import roles
    from quizzes import limits
    from quizzes.instructors import interchange
    from quizzes.models import Bank
    from quizzes.rulings import preview
    from rules.cards import catalog_for

    with open(os.devnull, "w") as quiet:
        call_command("migrate", "--noinput", stdout=quiet)
        call_command("createcachetable", stdout=quiet)  # the throttles' table (log-in)
        call_command("load_content", stdout=quiet)
    catalog = catalog_for(None)
    instructor = get_user_model().objects.create(username="bench-instructor")
    bank = Bank.objects.create(slug="bench", title="Bench", owner=instructor)

    seed = json.dumps(document("seed"))
    huge = json.dumps(document("huge", cards=100_000))
    deep = "[" * 30_000 + "]" * 30_000
    at_limits = json.dumps(document("full", players=limits.MAX_PLAYERS, cards=limits.MAX_CARDS))
    previews = [
        ("preview seed", seed, True),
        ("preview 100k cards", huge, False),
        ("preview deep nesting", deep, False),
        ("preview at limits", at_limits, True),
    ]
    rows = []
    for name, text, accepted in previews:
        shown = preview.preview(text, catalog)
        assert (shown.error is None) == accepted, (name, shown.error)
        seconds = timed(lambda text=text: preview.preview(text, catalog), repetitions)
        rows.append({"name": name, "bytes": len(text), "seconds": seconds, "refused": not accepted})
    from django.contrib.auth.models import Group
    from django.test import Client
    from django.urls import reverse

    instructor.groups.add(Group.objects.get_or_create(name=roles.INSTRUCTORS_GROUP)[0])
    client = Client()
    client.force_login(instructor)
    url = reverse("scenario_preview_new", args=[bank.slug])
    for name, text, refused_by in (("view seed", seed, ""), ("view 100k cards", huge, "limit")):
        page = client.post(url, {"document": text}, HTTP_HX_REQUEST="true")
        assert page.status_code == 200 and (refused_by in page.content.decode()), name
        seconds = timed(
            lambda text=text: client.post(url, {"document": text}, HTTP_HX_REQUEST="true"),
            repetitions,
        )
        rows.append(
            {"name": name, "bytes": len(text), "seconds": seconds, "refused": bool(refused_by)}
        )
    for what, players, cards in (
        ("seed-size", 2, 3),
        ("at limits", limits.MAX_PLAYERS, limits.MAX_CARDS),
    ):
        # as many documents as one file may hold: by count, or by bytes for the largest ones
        one = len(json.dumps(document(f"{what}-0".replace(" ", "-"), players, cards))) + 2
        count = min(limits.MAX_IMPORT_SCENARIOS, limits.MAX_IMPORT_BYTES // one)
        name = f"import {count} {what}"
        entries = [document(f"{what}-{n}".replace(" ", "-"), players, cards) for n in range(count)]
        body = json.dumps(entries).encode()
        started = time.perf_counter()
        documents = interchange.check_import(instructor, bank, body, "bench.json", catalog)
        interchange.do_import(instructor, bank, documents)
        seconds = time.perf_counter() - started
        rows.append({"name": name, "bytes": len(body), "seconds": seconds, "refused": False})
    baseline = rows[0]["seconds"]
    for row in rows:
        row["ratio"] = round(row["seconds"] / baseline, 2)
        row["ms"] = round(1000 * row.pop("seconds"), 2)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repetitions", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        os.environ["DATABASE_URL"] = f"sqlite:///{scratch}/bounds.sqlite3"
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        os.environ |= {
            "DJANGO_DEBUG": "0",  # production settings, but plain HTTP for the test client
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
            "DJANGO_ALLOWED_HOSTS": "testserver",
            "DJANGO_SECURE_SSL_REDIRECT": "0",
        }
        sys.path.insert(0, str(REPO))
        rows = measure(max(1, min(args.repetitions, 200)))
    for row in rows:
        if args.json:
            print(json.dumps(row))
        else:
            verdict = "refused" if row["refused"] else "accepted"
            print(f"{row['name']:22} {row['bytes']:>10,} B {row['ms']:>10.2f} ms "
                  f"{row['ratio']:>8.2f}x  {verdict}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""What a new learner is served first: how mixed the first questions are, measured over HTTP.

    .venv/bin/python -m bench.mix [--questions 30,200] [--json]

In a temporary SQLite database it migrates and loads the seed content (`load_content`), then for
each count a new learner, through Django's test client as a browser would, asks for
`/practice/` and answers the question from the form on the page (the first choice of every
group), `count` times. It reports how many different scenarios (boards) and rules the questions
came from (and families: generated boards of one situation), how often one scenario came twice
in a row, how often a family came back within six questions, how often a rule came back within
three questions, and how often a missed rule came back within the next two questions; and how
much of the first `TOPICS_WITHIN` questions was about mana and tapping (issue 23: 28 of 60), and
how many were about dredge (0 of 133), by the rules the questions link. Issue 23's done-when,
over the first 30 on the default plan: each topic's questions against its share (at least twice,
none over its share + 10 points), dredge and the Splinter and Lobotomy name searches among them;
and how many different question sentences the first 60 read (names as placeholders).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import shutil
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from bench.web import answer_form

REPO = Path(__file__).resolve().parents[1]
# Topics measured by the rules a question links (a question on any of them counts)
MANA_AND_TAPPING = ("106.", "107.5", "107.6", "302.6", "605.")
DREDGE = ("702.52",)
TOPICS_WITHIN = 60
# Issue 23's done-when, over a new learner's first `PLAN_WITHIN` questions on the default plan:
# every topic at least `LEAST_PER_TOPIC` times, none over its share + `OVER_SHARE` points, the
# dredge questions and the name searches of `NAME_SEARCHES` among them.
PLAN_WITHIN = 30
LEAST_PER_TOPIC = 2
OVER_SHARE = 0.10
NAME_SEARCHES = ("Splinter", "Lobotomy")


def about(numbers: set[str], prefixes: tuple[str, ...]) -> bool:
    return any(number.startswith(prefixes) for number in numbers)


def serve_and_answer(client, count: int) -> None:
    """`count` questions served and answered, as a learner at /practice/ would."""
    from django.urls import reverse

    for _ in range(count):
        page = client.get(reverse("practice")).content.decode()
        form = answer_form(page)
        if form is None:
            break
        client.post(reverse("answer"), form)


def question_sentence(prompt: str, spec: dict[str, Any]) -> str:
    """What a prompt asks after its situation ("Alice casts Cultivate."), each card and player
    named by the same placeholder ("Does PLAYER shuffle?"), so that a sentence counts once
    whoever it names: the sentences a learner reads, not the names in them."""
    from django.utils import translation

    from quizzes.rulings.generate import card_names, describe_situation

    names = card_names(spec)
    with translation.override("en"):
        situation = describe_situation(spec, names)
    asked = prompt[len(situation) :] if situation and prompt.startswith(situation) else prompt
    players = [str(player) for player in spec.get("players") or []]
    for name in sorted({*names.values(), *players}, key=len, reverse=True):
        placeholder = "PLAYER" if name in players else "CARD"
        asked = re.sub(rf"(?<![\w']){re.escape(name)}(?![\w])", placeholder, asked)
    return " ".join(asked.split())


def resolved_card(spec: dict[str, Any]) -> str:
    """The card a scenario casts, activates or triggers, by name ("Splinter")."""
    from quizzes.rulings.generate import card_names

    step = spec.get("resolve") or {}
    label = str(step.get("cast") or step.get("activate") or step.get("trigger") or "")
    return card_names(spec).get(label, label)


def plan_figures(numbered: list[set[str]], cards: list[str]) -> dict[str, Any]:
    """The default plan's topics over the first `PLAN_WITHIN` questions (by the rules each
    links; one question may be about several topics), against issue 23's done-when."""
    from quizzes.practice.topics import PLAN, topics_of

    first = numbered[:PLAN_WITHIN]
    counts = Counter(slug for numbers in first for slug in topics_of(numbers))
    served = len(first) or 1
    topics = {
        topic.slug: {
            "questions": counts[topic.slug],
            "percent": round(100 * counts[topic.slug] / served),
            "share": round(100 * topic.share),
        }
        for topic in PLAN
    }
    return {
        "plan_topics_in_first_30": topics,
        "topics_under_twice": [slug for slug, row in topics.items() if row["questions"] < 2],
        "topics_over_share": [
            slug
            for slug, row in topics.items()
            if row["questions"] / served > row["share"] / 100 + OVER_SHARE
        ],
        "dredge_in_first_30": sum(about(numbers, DREDGE) for numbers in first),
        "name_searches_in_first_30": {
            name: sum(card == name for card in cards[:PLAN_WITHIN]) for name in NAME_SEARCHES
        },
    }


def figures(user) -> dict[str, Any]:
    """The mix of what `user` was served, in order (their practice answers)."""
    from quizzes.models import Response
    from quizzes.practice.topics import PLAN, topics_of

    rows = list(
        Response.objects.filter(user=user)
        .order_by("created_at", "id")
        .values_list("question__kind", "question__level")
    )
    kinds = Counter(kind for kind, _ in rows)
    answered = (
        Response.objects.filter(user=user)
        .order_by("created_at", "id")
        .select_related("question__scenario")
        .prefetch_related("question__rules")
    )
    served = [
        (response.question.scenario_id, set(response.question.rules.all()), response.correct)
        for response in answered
    ]
    families = [response.question.scenario.family_id for response in answered]
    sentences = [
        question_sentence(response.question.prompt, response.question.scenario.spec)
        for response in answered
    ]
    numbered = [{rule.number for rule in rules} for _, rules, _ in served]
    scenarios = [scenario for scenario, _, _ in served]
    missed = [index for index, (_, _, correct) in enumerate(served) if not correct]
    back_soon = [
        index
        for index in missed
        if any(served[index][1] & rules for _, rules, _ in served[index + 1 : index + 3])
    ]
    cards = [resolved_card(response.question.scenario.spec) for response in answered]
    return {
        **plan_figures(numbered, cards),
        "questions": len(served),
        "scenarios": len(set(scenarios)),
        "rules": len(set().union(*(rules for _, rules, _ in served))) if served else 0,
        "same_scenario_twice_in_a_row": sum(
            a == b for a, b in zip(scenarios, scenarios[1:], strict=False)
        ),
        "families": len(set(families) - {None}),
        # a family's board within five questions of another of the same family
        "family_again_within_six": sum(
            family is not None and family in families[max(0, index - 5) : index]
            for index, family in enumerate(families)
        ),
        "rule_again_within_three": sum(
            bool(served[index][1] & (served[index - 1][1] | served[index - 2][1]))
            for index in range(2, len(served))
        ),
        "missed": len(missed),
        "missed_back_within_two": len(back_soon),
        "kinds": dict(kinds.most_common()),
        "most_common_kind": kinds.most_common(1)[0][1] if kinds else 0,
        "levels": dict(Counter(level for _, level in rows).most_common()),
        "mana_and_tapping_in_first_60": sum(
            about(numbers, MANA_AND_TAPPING) for numbers in numbered[:TOPICS_WITHIN]
        ),
        "first_60": len(numbered[:TOPICS_WITHIN]),
        # different question sentences (after the situation, names as placeholders) in the
        # first 60 (issue 23: three covered 40 of 60)
        "question_sentences_in_first_60": len(set(sentences[:TOPICS_WITHIN])),
        "most_common_sentence_in_first_60": max(
            Counter(sentences[:TOPICS_WITHIN]).values(), default=0
        ),
        "dredge": sum(about(numbers, DREDGE) for numbers in numbered),
        # the default study plan's topics (quizzes/practice/topics.py) the first 30 were about
        "plan_topics_covered_in_first_30": len(set().union(*map(topics_of, numbered[:30]))),
        "plan_topics": len(PLAN),
        "first_dredge": next(
            (i + 1 for i, numbers in enumerate(numbered) if about(numbers, DREDGE)), None
        ),
    }


def worker(counts: list[int]) -> None:
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.test import Client

    call_command("migrate", verbosity=0)
    call_command("createcachetable")
    call_command("load_content", stdout=open(os.devnull, "w"))  # noqa: SIM115
    results = {}
    for count in counts:
        user = User.objects.create(username=f"bench-new-learner-{count}")
        client = Client()
        client.force_login(user)
        serve_and_answer(client, count)
        results[str(count)] = figures(user)
    print(json.dumps(results))


def main(argv: list[str] | None = None) -> int:
    import subprocess

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", default="30,200")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    counts = [int(count) for count in args.questions.split(",")]
    if args.worker:
        worker(counts)
        return 0
    tmp = tempfile.mkdtemp(prefix="tutor-bench-mix-")
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")},
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite3",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
        "DJANGO_ALLOWED_HOSTS": "testserver",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_DEBUG": "1",  # plain static files: no collectstatic manifest needed
    }
    command = [sys.executable, "-m", "bench.mix", "--worker", "--questions", args.questions]
    try:
        done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if done.returncode:
        sys.exit(done.stderr)
    output = done.stdout
    results = json.loads(output.strip().splitlines()[-1])
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"{'first':>6} {'boards':>6} {'families':>8} {'family in 6':>11} {'rules':>5} "
          f"{'same twice':>10} {'rule in 3':>9} {'missed':>6} {'back in 2':>9} {'top kind':>8} "
          f"{'mana/60':>7} {'dredge':>6} {'1st dredge':>10}  kinds")  # fmt: skip
    for count, row in results.items():
        print(
            f"{int(count):>6} {row['scenarios']:>6} {row['families']:>8} "
            f"{row['family_again_within_six']:>11} {row['rules']:>5} "
            f"{row['same_scenario_twice_in_a_row']:>10} {row['rule_again_within_three']:>9} "
            f"{row['missed']:>6} {row['missed_back_within_two']:>9} "
            f"{row['most_common_kind']:>8} "
            f"{row['mana_and_tapping_in_first_60']:>4}/{row['first_60']:<2} {row['dredge']:>6} "
            f"{row['first_dredge'] or '-':>10}  {row['kinds']}"
        )
    for count, row in results.items():
        print(f"\nfirst {min(int(count), PLAN_WITHIN)} questions of {count}, default plan "
              f"(questions, percent of them, the topic's share):")  # fmt: skip
        for slug, topic in row["plan_topics_in_first_30"].items():
            print(f"  {slug:<18} {topic['questions']:>3} {topic['percent']:>4}% "
                  f"(share {topic['share']}%)")  # fmt: skip
        print(
            f"  under twice: {row['topics_under_twice'] or 'none'}; over share + "
            f"{round(100 * OVER_SHARE)} points: {row['topics_over_share'] or 'none'}; dredge: "
            f"{row['dredge_in_first_30']}; name searches: {row['name_searches_in_first_30']}"
        )
        print(
            f"  question sentences in the first {row['first_60']}: "
            f"{row['question_sentences_in_first_60']} different, the commonest "
            f"{row['most_common_sentence_in_first_60']} times"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

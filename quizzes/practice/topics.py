"""Topics and the study plans that weigh them (issue 23, Build 1): "Search and its neighbours"
(the sources' domain, the default), "Level 1 rules" and "Level 2 rules" (weights after the
certification study guides), or one topic alone.

A question is about a topic when it links a rule the topic names (by number prefix: 702.52 is
dredge, with 702.52a and 702.52b); one question may be about several. Each topic has a share
of the plan. Selection (quizzes/practice/selection.py) reads the learner's last `WINDOW`
answers: a topic fewer than `LEAST` of them were about comes first (its `examples` first among
its questions), and a topic that had its share of them waits (so no family, one situation of
one topic, takes more than its topic's share), each wish relaxed when nothing is left.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import lru_cache

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class Topic:
    slug: str
    prefixes: tuple[str, ...]  # rule numbers the topic covers, as prefixes
    share: float  # of the plan
    # families a learner meets first among the topic's questions while it is short: the
    # Comprehensive Rules' own examples of it (Splinter under 701.23b, Lobotomy under 701.23c)
    examples: tuple[str, ...] = ()

    def covers(self, number: str) -> bool:
        return number.startswith(self.prefixes)

    @property
    def most(self) -> int:
        """How many of the last `WINDOW` answers may be about it (never fewer than `LEAST`)."""
        return max(LEAST, round(self.share * WINDOW))


WINDOW = 30  # the answers a topic's share is counted over (a new learner's first 30: issue 23)
LEAST = 2  # a topic fewer of the last answers were about comes first (issue 23: at least twice)
SEARCH_AND_ITS_NEIGHBOURS = (
    Topic(
        "search", ("701.23",), 0.30, ("name-search-splinter", "name-search-lobotomy")
    ),  # search and failing to find
    Topic("hidden-zones", ("400.", "401.", "402.", "404.", "406.", "701.20"), 0.10),
    Topic("shuffling", ("701.24",), 0.05),
    Topic("mill", ("701.17",), 0.08),
    Topic("dredge", ("702.52",), 0.07),
    # Traps and alternative costs: announcing one (601.2b) and the total cost (601.2f), not every
    # step of casting (the casting topic)
    Topic("alternative-costs", ("118.9", "601.2b", "601.2f"), 0.08),
    Topic("prohibitions", ("101.2", "614.", "723."), 0.10),  # prohibitions and replacements
    Topic("multiplayer", ("101.4", "800.", "801.", "802.", "805.", "806.", "810."), 0.07),
    Topic("mana", ("106.", "107.5", "107.6", "302.6", "605.", "119."), 0.15),  # mana and costs
)
PLAN = SEARCH_AND_ITS_NEIGHBOURS

# The sections of the Comprehensive Rules beyond search (issue 22). Not in the default plan: the
# Level 1 and Level 2 plans weigh them (shares here are placeholders until those plans set them).
BEYOND_SEARCH = (
    Topic("casting", ("601.", "602.", "118."), 0.0),  # casting a spell and its total cost
    Topic("triggers", ("603.",), 0.0),  # triggered abilities
    Topic("replacements", ("614.", "615.", "616."), 0.0),  # replacement and prevention effects
    Topic("sba", ("704.",), 0.0),  # state-based actions
    Topic("layers", ("613.",), 0.0),  # continuous effects and their layers
    Topic(
        "turns",
        (
            "117.",
            "500.",
            "501.",
            "502.",
            "503.",
            "504.",
            "505.",
            "512.",
            "513.",
            "514.",
            "703.",
        ),
        0.0,
    ),  # turn structure and priority
    # Combat damage (issue 22): the combat phase's rules and the combat keywords. Their subrules
    # by letter, so "702.2" doesn't also take in 702.20-702.29.
    Topic(
        "combat",
        ("506.", "507.", "508.", "509.", "510.", "511.")
        + tuple(f"702.{n}{letter}" for n in (2, 4, 7, 15, 19) for letter in "abcdefghij"),
        0.0,
    ),
)


def topics_of(numbers: Iterable[str], plan: tuple[Topic, ...] = PLAN) -> set[str]:
    """The topics of the plan a question linking rules `numbers` is about."""
    found: set[str] = set()
    for number in numbers:
        found |= _topics_of_rule(number, plan)
    return found


@lru_cache(maxsize=4096)
def _topics_of_rule(number: str, plan: tuple[Topic, ...]) -> frozenset[str]:
    # a practice page asks this of each of the last thirty answers' rules: the same few rules
    return frozenset(topic.slug for topic in plan if topic.covers(number))


@dataclass(frozen=True)
class Balance:
    """The plan's topics against the last answers: the ones fewer than `LEAST` were about,
    the ones full."""

    absent: tuple[Topic, ...]
    full: tuple[Topic, ...]
    fewest: tuple[Topic, ...] = ()  # of `absent`, the ones the fewest answers were about


def balance(recent_numbers: list[Iterable[str]], plan: tuple[Topic, ...] = PLAN) -> Balance:
    """`recent_numbers`: the rule numbers of each of the last answers, latest first (only the
    first `WINDOW` count)."""
    counts: Counter[str] = Counter()
    for numbers in recent_numbers[:WINDOW]:
        counts.update(topics_of(numbers, plan))
    absent = tuple(topic for topic in plan if counts[topic.slug] < min(LEAST, topic.most))
    full = tuple(topic for topic in plan if counts[topic.slug] >= topic.most)
    least = min((counts[topic.slug] for topic in absent), default=0)
    return Balance(absent, full, tuple(t for t in absent if counts[t.slug] == least))


TOPICS = {topic.slug: topic for topic in SEARCH_AND_ITS_NEIGHBOURS + BEYOND_SEARCH}
# Each topic's bit in `Question.topics`, the topics a question is about, stored when its rules
# are written (quizzes/practice/question_topics.py): the practice pick tests a bit where it
# joined the question's rules and matched their numbers, which PostgreSQL planned anew on every
# page (13 of a pick's 16 ms: docs/benchmarks.md). Appending a topic keeps the others' bits;
# any other change is stored again by `load_content`.
BITS = {slug: 1 << place for place, slug in enumerate(TOPICS)}


def mask(topics: Iterable[Topic]) -> int:
    """The bits of `topics`."""
    bits = 0
    for topic in topics:
        bits |= BITS[topic.slug]
    return bits


def mask_of(numbers: Iterable[str]) -> int:
    """The bits of every topic a question linking rules `numbers` is about."""
    return mask(TOPICS[slug] for slug in topics_of(numbers, tuple(TOPICS.values())))


TOPIC_TITLES: dict[str, Promise] = {
    "search": _("Searching and failing to find"),
    "hidden-zones": _("Hidden zones and revealing"),
    "shuffling": _("Shuffling"),
    "mill": _("Milling"),
    "dredge": _("Dredge"),
    "alternative-costs": _("Traps and alternative costs"),
    "prohibitions": _("Search prohibitions and replacements"),
    "multiplayer": _("Multiplayer"),
    "mana": _("Mana and costs"),
    "casting": _("Casting a spell and its total cost"),
    "triggers": _("Triggered abilities"),
    "replacements": _("Replacement effects"),
    "sba": _("State-based actions"),
    "layers": _("Layers: power and toughness"),
    "turns": _("Turn structure and priority"),
    "combat": _("Combat damage"),
}


def _weighted(shares: dict[str, float]) -> tuple[Topic, ...]:
    return tuple(replace(TOPICS[slug], share=share) for slug, share in shares.items())


# Judge Foundry's Level 1 study guide: casting and costs, turn structure and priority, triggers,
# replacements, state-based actions, layer 7, keyword actions (search among them).
LEVEL_1 = _weighted(
    {
        "casting": 0.13,
        "turns": 0.07,
        "triggers": 0.11,
        "replacements": 0.08,
        "sba": 0.11,
        "layers": 0.06,
        "search": 0.10,
        "hidden-zones": 0.04,
        "shuffling": 0.03,
        "mill": 0.04,
        "dredge": 0.03,
        "alternative-costs": 0.04,
        "prohibitions": 0.04,
        "mana": 0.06,
        "combat": 0.06,
    }
)
# Level 2: the whole book, each section about as much as the others.
LEVEL_2 = _weighted(
    {
        "casting": 0.09,
        "turns": 0.03,
        "triggers": 0.09,
        "replacements": 0.08,
        "sba": 0.07,
        "layers": 0.07,
        "search": 0.10,
        "hidden-zones": 0.05,
        "shuffling": 0.03,
        "mill": 0.05,
        "dredge": 0.05,
        "alternative-costs": 0.06,
        "prohibitions": 0.06,
        "multiplayer": 0.05,
        "mana": 0.07,
        "combat": 0.05,
    }
)


@dataclass(frozen=True)
class Plan:
    slug: str  # "" for the default
    title: Promise | str
    topics: tuple[Topic, ...]
    only: Topic | None = None  # one topic alone: only its questions are served


DEFAULT_PLAN = Plan("", _("Search and its neighbours"), SEARCH_AND_ITS_NEIGHBOURS)
PLANS = {
    plan.slug: plan
    for plan in (
        DEFAULT_PLAN,
        Plan("level-1", _("Level 1 rules"), LEVEL_1),
        Plan("level-2", _("Level 2 rules"), LEVEL_2),
    )
}
ONLY = "topic-"  # "topic-dredge": dredge alone


def plan_choices() -> list[tuple[str, Promise | str]]:
    """The plans, then each topic alone, as the practice filter offers them."""
    plans = [(plan.slug, plan.title) for plan in PLANS.values()]
    return plans + [(ONLY + slug, title) for slug, title in TOPIC_TITLES.items()]


def plan_named(slug: str) -> Plan:
    """The plan a choice of `plan_choices` names (an unknown one: the default)."""
    if slug.startswith(ONLY) and (topic := TOPICS.get(slug[len(ONLY) :])):
        alone = replace(topic, share=1.0)
        return Plan(slug, TOPIC_TITLES[topic.slug], (alone,), only=alone)
    return PLANS.get(slug, DEFAULT_PLAN)

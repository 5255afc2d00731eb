"""Topics of the default study plan, "Search and its neighbours" (issue 23, Build 1: a first step).

A question is about a topic when it links a rule the topic names (by number prefix: 702.52 is
dredge, with 702.52a and 702.52b); one question may be about several. Each topic has a share
of the plan. Selection (quizzes/practice/selection.py) reads the learner's last `WINDOW`
answers: a topic none of them was about comes first, and a topic that had its share of them
waits (so no family, one situation of one topic, takes more than its topic's share), each wish
relaxed when nothing is left.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Topic:
    slug: str
    prefixes: tuple[str, ...]  # rule numbers the topic covers, as prefixes
    share: float  # of the plan

    def covers(self, number: str) -> bool:
        return number.startswith(self.prefixes)

    @property
    def most(self) -> int:
        """How many of the last `WINDOW` answers may be about it."""
        return max(1, round(self.share * WINDOW))


WINDOW = 20  # the answers a topic's share is counted over
SEARCH_AND_ITS_NEIGHBOURS = (
    Topic("search", ("701.23",), 0.30),  # search and failing to find
    Topic("hidden-zones", ("400.", "401.", "402.", "404.", "406.", "701.20"), 0.10),
    Topic("shuffling", ("701.24",), 0.05),
    Topic("mill", ("701.17",), 0.08),
    Topic("dredge", ("702.52",), 0.07),
    Topic("alternative-costs", ("118.9", "601.2"), 0.08),  # Traps and alternative costs
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
            "506.",
            "507.",
            "508.",
            "509.",
            "510.",
            "511.",
            "512.",
            "513.",
            "514.",
            "703.",
        ),
        0.0,
    ),  # turn structure and priority
)


def _weighed(shares: dict[str, float]) -> tuple[Topic, ...]:
    """The topics named, in the order of `shares`, each with its share of this plan."""
    known = {topic.slug: topic for topic in SEARCH_AND_ITS_NEIGHBOURS + BEYOND_SEARCH}
    return tuple(replace(known[slug], share=share) for slug, share in shares.items())


# Level 1 (Judge Foundry's study guide): casting and costs, priority and the turn, triggers,
# replacements, state-based actions, layers, keyword actions and combat; no multiplayer.
LEVEL_1 = _weighed(
    {
        "casting": 0.14,
        "turns": 0.14,
        "triggers": 0.10,
        "replacements": 0.10,
        "sba": 0.10,
        "layers": 0.06,
        "search": 0.08,
        "mana": 0.08,
        "mill": 0.04,
        "hidden-zones": 0.04,
        "prohibitions": 0.04,
        "shuffling": 0.03,
        "alternative-costs": 0.03,
        "dredge": 0.02,
    }
)
# Level 2 rules: the whole book, layers and replacements weighed up, multiplayer in.
LEVEL_2 = _weighed(
    {
        "casting": 0.10,
        "turns": 0.10,
        "triggers": 0.10,
        "replacements": 0.10,
        "layers": 0.10,
        "sba": 0.08,
        "search": 0.08,
        "mana": 0.06,
        "hidden-zones": 0.05,
        "prohibitions": 0.05,
        "mill": 0.04,
        "alternative-costs": 0.04,
        "multiplayer": 0.04,
        "shuffling": 0.03,
        "dredge": 0.03,
    }
)
PLANS = {"search": SEARCH_AND_ITS_NEIGHBOURS, "level-1": LEVEL_1, "level-2": LEVEL_2}
TOPIC_PLAN = "topic-"  # "topic-dredge": the one-topic plan of dredge


def every_topic() -> tuple[Topic, ...]:
    return SEARCH_AND_ITS_NEIGHBOURS + BEYOND_SEARCH


def plan_named(name: str) -> tuple[Topic, ...]:
    """The plan a learner chose ("search", "level-1", "level-2", "topic-<slug>"); the default
    for a name that is none of them (a stale session)."""
    if name.startswith(TOPIC_PLAN):
        slug = name.removeprefix(TOPIC_PLAN)
        return tuple(replace(t, share=1.0) for t in every_topic() if t.slug == slug) or PLAN
    return PLANS.get(name, PLAN)


def topics_of(numbers: Iterable[str], plan: tuple[Topic, ...] = PLAN) -> set[str]:
    """The topics of the plan a question linking rules `numbers` is about."""
    numbers = list(numbers)
    return {topic.slug for topic in plan if any(topic.covers(number) for number in numbers)}


@dataclass(frozen=True)
class Balance:
    """The plan's topics against the last answers: the ones none was about, the ones full."""

    absent: tuple[Topic, ...]
    full: tuple[Topic, ...]


def balance(recent_numbers: list[Iterable[str]], plan: tuple[Topic, ...] = PLAN) -> Balance:
    """`recent_numbers`: the rule numbers of each of the last answers, latest first (only the
    first `WINDOW` count)."""
    counts: Counter[str] = Counter()
    for numbers in recent_numbers[:WINDOW]:
        counts.update(topics_of(numbers, plan))
    absent = tuple(topic for topic in plan if not counts[topic.slug])
    full = tuple(topic for topic in plan if counts[topic.slug] >= topic.most)
    return Balance(absent, full)


def prefixes(topics: Iterable[Topic]) -> list[str]:
    return sorted({prefix for topic in topics for prefix in topic.prefixes})

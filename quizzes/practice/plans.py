"""The study plans a learner may choose on the practice page, by name, in their words; the
choice is kept in the session (no query of its own: the session is read for the login)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from quizzes.practice import topics

SESSION_KEY = "study_plan"
DEFAULT = "search"

PLAN_LABELS = {
    "search": _("Search and its neighbours"),
    "level-1": _("Level 1 rules"),
    "level-2": _("Level 2 rules"),
}
TOPIC_LABELS = {
    "search": _("Searching and failing to find"),
    "hidden-zones": _("Hidden zones and revealing"),
    "shuffling": _("Shuffling"),
    "mill": _("Milling"),
    "dredge": _("Dredge"),
    "alternative-costs": _("Traps and alternative costs"),
    "prohibitions": _("Search prohibitions and replacements"),
    "multiplayer": _("Multiplayer"),
    "mana": _("Mana and costs"),
    "casting": _("Casting spells and their costs"),
    "triggers": _("Triggered abilities"),
    "replacements": _("Replacement and prevention effects"),
    "sba": _("State-based actions"),
    "layers": _("Continuous effects and layers"),
    "turns": _("Turn structure and priority"),
}


def choices() -> list[tuple[str, str]]:
    """Every plan's name and label: the three plans, then one topic each."""
    plans = [(name, str(label)) for name, label in PLAN_LABELS.items()]
    one = [
        (topics.TOPIC_PLAN + slug, str(_("One topic: %(topic)s") % {"topic": label}))
        for slug, label in TOPIC_LABELS.items()
    ]
    return plans + one


def chosen(session) -> str:
    name = session.get(SESSION_KEY, DEFAULT)
    return name if name in dict(choices()) else DEFAULT

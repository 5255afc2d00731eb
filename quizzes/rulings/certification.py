"""Questions in the certification style: one situation, 3-5 options, each an outcome with its
reason; an option is right only when its outcome and its reason are both right.

The question asks one focus claim (the outcome the reason is about) and, for a "What happens?"
question, up to two more claims of the same resolution. Its options are stored in the focus
claim's "proposed": each names a value for every claim asked and a reason code. Reasons come
from one short table (`REASONS`): per claim, a fact of the board or a statement of a rule, each
with the rule it names, all worded alike, so the right reason never stands out by its length or
style. The key is the engine's: an option is right when every value it names is the engine's
value and its reason is the one the engine gives for the focus claim (the reason's key, stored
with each variant, `frozen.freeze`).

The options are two outcomes (the engine's, and one with one claim's value changed) each with
two reasons (the engine's, and one that is false on this board or a misconception of a rule):
every outcome and every reason is offered twice, so no count of either tells the key.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from quizzes.rulings.names import localized
from quizzes.rulings.values import plain, same

KIND = "outcome_reason"
HIDDEN_ZONES = frozenset({"library", "hand"})


@dataclass(frozen=True)
class ReasonText:
    """One reason an option may give: the engine reason keys it stands for (none: a
    misconception, never right), the rule it names, the focus values it argues for, and its
    words (a gettext_noop'd message with %(card)s or %(player)s)."""

    code: str
    keys: frozenset[str]
    rule: str
    supports: frozenset[str]
    message: str


def _reason(
    code: str, keys: tuple[str, ...], rule: str, supports: tuple[str, ...], message: str
) -> ReasonText:
    return ReasonText(code, frozenset(keys), rule, frozenset(supports), message)


def _table(*reasons: ReasonText) -> dict[str, ReasonText]:
    return {reason.code: reason for reason in reasons}


# Per focus claim, the reasons its options give: the engine's reasons (by their keys) and
# misconceptions (no key), all worded alike.
REASONS: dict[str, dict[str, ReasonText]] = {
    "finds": _table(
        _reason(
            "hidden", ("hidden_may", "all_hidden"), "701.23b", ("may",),
            gettext_noop("%(card)s is in a hidden zone, and a search there need not find a card"),
        ),
        _reason(
            "public", ("all_public", "public_every_one"), "701.23b", ("must",),
            gettext_noop("%(card)s is in a public zone, and a search there must find what fits"),
        ),
        _reason(
            "no_match", ("no_match",), "701.23a", ("cannot",),
            gettext_noop("the search asks for a quality, and %(card)s doesn't have that quality"),
        ),
        _reason(
            "zone", ("zone_not_searched",), "701.23a", ("cannot",),
            gettext_noop("the search looks in other zones, and %(card)s isn't in one of them"),
        ),
        _reason(
            "prohibited", ("library_prohibited",), "101.2", ("cannot",),
            gettext_noop("an effect forbids searching, and %(card)s is in the library searched"),
        ),
        _reason(
            "portion", ("below_portion",), "701.23f", ("cannot",),
            gettext_noop("only the library's top cards are searched, and %(card)s is below them"),
        ),
        _reason(
            "any", ("quantity_any",), "701.23d", ("may",),
            gettext_noop("the search states no quality, and so %(card)s qualifies like any card"),
        ),
        _reason(
            "every", ("quantity_every_one",), "701.23d", ("must",),
            gettext_noop("the search wants more cards than there are, and %(card)s is one of them"),
        ),
        _reason(
            "undefined", ("undefined_quality_chosen",), "701.23c", ("cannot",),
            gettext_noop("no card was chosen, and so the quality searched for is undefined"),
        ),
        _reason(
            "found_anywhere", (), "701.23b", ("must",),
            gettext_noop("%(card)s fits the search, and a search must take each card that fits"),
        ),
        _reason(
            "left_anywhere", (), "701.23b", ("may",),
            gettext_noop("%(card)s fits the search, and a searcher may leave any card that fits"),
        ),
        _reason(
            "hidden_unfindable", (), "701.23b", ("cannot",),
            gettext_noop("%(card)s is hidden, and a hidden card can only be found once revealed"),
        ),
    ),
    "searches": _table(
        _reason(
            "must", ("must_search",), "701.23a", ("must",),
            gettext_noop(
                "the effect tells %(player)s to search, and it doesn't give "
                "%(player)s a choice"
            ),
        ),
        _reason(
            "may", ("may_search",), "608.2d", ("may",),
            gettext_noop(
                "the effect says %(player)s may search, and the choice is "
                "left to %(player)s"
            ),
        ),
        _reason(
            "prohibited", ("prohibited", "prohibited_escape"), "101.2", ("cannot",),
            gettext_noop("an effect says %(player)s can't search, and that beats the instruction"),
        ),
        _reason(
            "decline", (), "701.23b", ("may",),
            gettext_noop("%(player)s would search a hidden zone, and any player may decline that"),
        ),
        _reason(
            "never_optional", (), "608.2d", ("must",),
            gettext_noop("the effect resolves, and no part of a resolving effect is optional"),
        ),
        _reason(
            "can_beats", (), "101.2", ("must", "may"),
            gettext_noop(
                "an effect lets %(player)s search, and that beats any effect "
                "forbidding it"
            ),
        ),
    ),
    "shuffles": _table(
        _reason(
            "told", ("told_to_shuffle",), "701.24a", ("yes",),
            gettext_noop(
                "the text of the resolving effect tells %(player)s to "
                "shuffle their library"
            ),
        ),
        _reason(
            "searched", ("searches_shuffles",), "701.24a", ("yes",),
            gettext_noop(
                "%(player)s chooses to search, and the effect's shuffle "
                "follows that search"
            ),
        ),
        _reason(
            "not_searched", ("no_search_no_shuffle",), "608.2d", ("no",),
            gettext_noop(
                "%(player)s chooses not to search, and the effect's shuffle "
                "depends on that"
            ),
        ),
        _reason(
            "cannot", ("cannot_search_no_shuffle",), "101.2", ("no",),
            gettext_noop("%(player)s can't search, and the effect's shuffle depends on searching"),
        ),
        _reason(
            "anyway", ("shuffles_anyway",), "101.3", ("yes",),
            gettext_noop(
                "the shuffle is a separate instruction, and %(player)s still "
                "has to follow it"
            ),
        ),
        _reason(
            "none", ("no_shuffle",), "701.24a", ("no",),
            gettext_noop(
                "nothing in the resolving effect tells %(player)s to shuffle "
                "their library"
            ),
        ),
        _reason(
            "found_nothing", (), "701.24a", ("no",),
            gettext_noop(
                "%(player)s may find no card, and a player who finds none "
                "skips the shuffle"
            ),
        ),
        _reason(
            "always_shuffle", (), "701.24a", ("yes",),
            gettext_noop(
                "%(player)s searches a library, and every library search "
                "ends in a shuffle"
            ),
        ),
    ),
}  # fmt: skip


# Whether a reason is no reason on this board (it may then stand beside the engine's as wrong).
Falsity = Callable[[Any, Mapping[str, Any]], bool]


def _zone(ruling: Any, claim: Mapping[str, Any]) -> str:
    return str(ruling.session.scenario.state.card(str(claim["card"])).zone)


def _nobody_prohibited(ruling: Any, claim: Mapping[str, Any]) -> bool:
    players = ruling.session.scenario.state.players
    return all(
        plain(ruling.evaluate({"claim": "searches", "player": p}).value) != "cannot"
        for p in players
    )


def _whole_libraries(ruling: Any, claim: Mapping[str, Any]) -> bool:
    for player in ruling.session.scenario.state.players:
        try:
            portion = ruling.evaluate({"claim": "searched_portion", "player": player}).value
        except Exception:  # a claim the engine can't evaluate here: not known false
            return False
        if str(plain(portion)).startswith("top"):
            return False
    return True


def _player_can_search(ruling: Any, claim: Mapping[str, Any]) -> bool:
    value = ruling.evaluate({"claim": "searches", "player": claim["player"]}).value
    return plain(value) != "cannot"


def _always(ruling: Any, claim: Mapping[str, Any]) -> bool:
    return True


def _not_public(ruling: Any, claim: Mapping[str, Any]) -> bool:
    return _zone(ruling, claim) in HIDDEN_ZONES


# Per focus claim and the engine's reason (by code): the reasons that may stand beside it as
# the wrong reason for the right outcome (each arguing for that outcome too), with the check
# that it is no reason on this board: a misconception of a rule (always), or a fact false here.
WRONG: dict[str, dict[str, dict[str, Falsity]]] = {
    "finds": {
        "hidden": {"any": _always, "left_anywhere": _always},  # the search states a quality
        "public": {"found_anywhere": _always},
        "no_match": {
            "zone": _always,  # the engine weighed the card: it is in a zone searched
            "prohibited": _nobody_prohibited,
            "portion": _whole_libraries,
            "hidden_unfindable": _always,
        },
        "zone": {
            "prohibited": _nobody_prohibited,
            "portion": _whole_libraries,
            "hidden_unfindable": _always,
        },
        "prohibited": {"portion": _whole_libraries, "hidden_unfindable": _always},
        "portion": {"prohibited": _nobody_prohibited, "hidden_unfindable": _always},
        "any": {"left_anywhere": _always},
        "every": {"found_anywhere": _always, "public": _not_public},
        "undefined": {
            "prohibited": _nobody_prohibited,
            "portion": _whole_libraries,
            "hidden_unfindable": _always,
        },
    },
    "searches": {
        "must": {"never_optional": _always, "can_beats": _always},
        "may": {"decline": _always},
    },
    "shuffles": {
        "told": {"always_shuffle": _always},
        "searched": {"always_shuffle": _always},
        "not_searched": {"found_nothing": _always, "cannot": _player_can_search},
        "cannot": {"found_nothing": _always},
        "anyway": {"always_shuffle": _always},
        "none": {"found_nothing": _always},
    },
}


def reason_key(result: Any) -> str:
    """The engine's reason key of a claim's result (an engine `ClaimResult` or a stored one)."""
    key = getattr(result, "key", None)
    if isinstance(key, str):
        return key
    return str(getattr(result.reason, "key", "") or "")


def right_code(claim: str, key: str) -> str | None:
    """The reason code of `claim`'s table standing for the engine's reason `key`."""
    for code, text in REASONS.get(claim, {}).items():
        if key in text.keys:
            return code
    return None


def short_name(ruling: Any, claim: Mapping[str, Any]) -> str:
    """The claim's card by its name alone (the outcome beside it names its place)."""
    if "card" not in claim:
        return ""
    return localized(ruling.session.scenario.state.card(str(claim["card"])).name)


def reason_words(ruling: Any, claim: Mapping[str, Any], code: str, rule: bool = True) -> str:
    """A reason in the reader's language, with the rule it names (`rule`)."""
    text = REASONS[claim["claim"]][code]
    subject = ruling.subject(claim)
    words = _(text.message) % {"card": short_name(ruling, claim), "player": subject.player}
    if not rule:
        return words
    return _("%(reason)s (rule %(rule)s)") % {"reason": words, "rule": text.rule}


def option_text(ruling: Any, option: Mapping[str, Any], rule: bool = True) -> str:
    """An option as a learner reads it: the focus claim's outcome with its reason, then the
    other claims' outcomes. Without `rule`, as feedback quotes it (its reason's rule and final
    period left to the sentence around it)."""
    claims = ruling.claims
    values = option["values"]
    focus = ruling.state(claims[0], values[0]).rstrip(".")
    said = _("%(outcome)s, because %(reason)s.") % {
        "outcome": focus,
        "reason": reason_words(ruling, claims[0], option["reason"], rule),
    }
    others = [
        ruling.state(claim, value) for claim, value in zip(claims[1:], values[1:], strict=True)
    ]
    text = " ".join([said, *others])
    return text if rule else text.rstrip(".")


def options_of(ruling: Any) -> list[dict[str, Any]]:
    """The options as stored (in the focus claim's "proposed")."""
    stored = ruling.claims[0].get("proposed") if ruling.claims else None
    return list(stored) if isinstance(stored, list) else []


def shown_positions(ruling: Any) -> list[int]:
    """The stored options' indices in the order this variant shows them."""
    order = list(range(len(options_of(ruling))))
    random.Random(f"options:{ruling.shown.seed}:{len(order)}").shuffle(order)
    return order


def is_right(ruling: Any, option: Mapping[str, Any]) -> bool:
    """The engine's verdict on an option: every value the engine's, and its reason the engine's
    reason for the focus claim."""
    claims = ruling.claims
    values = option.get("values")
    if not isinstance(values, list) or len(values) != len(claims):
        return False
    for claim, value in zip(claims, values, strict=True):
        if not same(ruling.evaluate(claim).value, value):
            return False
    focus = ruling.evaluate(claims[0])
    text = REASONS.get(claims[0]["claim"], {}).get(str(option.get("reason")))
    return text is not None and reason_key(focus) in text.keys


def build_options(
    ruling: Any,
    focus: Mapping[str, Any],
    others: Sequence[Mapping[str, Any]],
    rng: random.Random,
    false_values: Callable[[Any, Any], list[tuple[Any, float]]],
) -> list[dict[str, Any]] | None:
    """The options of a question about `focus` (and `others`), or None when the table has no
    reason for the engine's, or no wrong reason fits this board.

    Two outcomes, each offered twice: the engine's, with its reason and with a wrong reason
    that argues for it too; and one with one claim's value changed, with two reasons that argue
    for it (the engine's two reasons again when the focus value stays). No option pairs an
    outcome with a reason against it, and no reason nor outcome is offered more often than
    another, so neither tells the key."""
    result = ruling.evaluate(focus)
    table = REASONS[focus["claim"]]
    code = right_code(focus["claim"], reason_key(result))
    if code is None or table[code].rule != str(result.rule):
        return None
    claims = [focus, *others]
    truth = [plain(ruling.evaluate(claim).value) for claim in claims]
    wrong = sorted(
        other
        for other, false_here in WRONG[focus["claim"]].get(code, {}).items()
        if str(truth[0]) in table[other].supports and false_here(ruling, focus)
    )
    if not wrong:
        return None
    wrong_code = rng.choice(wrong)
    changes = []
    for index, claim in enumerate(claims):
        for value, _weight in false_values(claim, truth[index]):
            changed = list(truth)
            changed[index] = plain(value)
            if index == 0:
                reasons = sorted(
                    other
                    for other, text in table.items()
                    if str(plain(value)) in text.supports and other not in (code, wrong_code)
                )
                if len(reasons) < 2:
                    continue
                reasons = rng.sample(reasons, 2)
            else:
                reasons = [code, wrong_code]
            changes.append((changed, reasons))
    if not changes:
        return None
    changed, reasons = rng.choice(changes)
    made = [
        {"values": truth, "reason": code},
        {"values": truth, "reason": wrong_code},
        *({"values": changed, "reason": reason} for reason in reasons),
    ]
    rng.shuffle(made)
    return made

"""Activation costs as data: what each part of a cost asks for.

A cost string such as "{1}{B}, Discard this card" or "{T}, Pay 1 life, Sacrifice this land" is
read once, when the card is parsed, into `CostPart`s; whether they can be paid on a board is
payment.py's concern.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import ScenarioError
from .filters import CARD_TYPES, COLOR_LETTERS, Filter

_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "another": 1}
_COUNT = r"(a|an|one|two|three|four|five|another|\d+)"
_SELF = r"(this(?: \w+)?|~|cardname|{name})"
# What each kind of part does to the cards it uses, and the rule that says so.
MOVES = {
    "sacrifice": ("graveyard", "701.21a"),
    "discard": ("graveyard", "701.9a"),
    "exile": ("exile", "701.13a"),
    "return": ("hand", "608.2c"),
}
_LOWER_TYPES = frozenset(t.lower() for t in CARD_TYPES)


@dataclass(frozen=True)
class CostPart:
    """One part of a cost: `kind`, how many, of what (`filter`), from where (`zone`)."""

    # mana, tap, untap, sacrifice, discard, exile, pay_life, tap_other, remove_counters,
    # return, loyalty, mill, other (a cost the engine doesn't model: never taken as paid)
    kind: str
    text: str
    self_only: bool = False  # "this card"/"this creature": the source itself
    count: int = 1
    filter: Filter | None = None
    zone: str = "battlefield"  # where the cards it uses are (hand, graveyard, battlefield)
    counter: str = ""  # remove_counters: the kind of counter
    other: bool = False  # "another": not the source

    @property
    def chooses(self) -> bool:
        """Does paying it need a choice of cards (which land to sacrifice, which card to exile)?"""
        return self.kind in (*MOVES, "tap_other") and not self.self_only


def _count(word: str) -> int:
    return int(word) if word.isdigit() else _NUMBERS[word]


def _description(text: str, path: str) -> Filter:
    """ "creature", "land", "nonland card", "basic land", "Goblin", "artifact or creature"."""
    words = text.replace(" or ", " ").split()
    types, supertypes, subtypes, excluded, colors = [], [], [], [], []
    for word in words:
        if word.lower() in ("white", "blue", "black", "red", "green"):
            colors.append(COLOR_LETTERS[word.lower()])  # "Sacrifice a green creature"
            continue
        bare = word.rstrip("s") if word.lower().rstrip("s") in _LOWER_TYPES else word
        if bare.lower() in ("card", "cards", "permanent", "permanents", "untapped", "other"):
            continue
        if bare.lower().startswith("non") and bare[3:].capitalize() in CARD_TYPES:
            excluded.append(bare[3:].capitalize())
        elif bare.capitalize() in CARD_TYPES:
            types.append(bare.capitalize())
        elif bare.lower() in ("basic", "legendary", "snow"):
            supertypes.append(bare.capitalize())
        elif bare[:1].isupper():
            subtypes.append(bare.rstrip("s") if bare.endswith("s") and len(bare) > 3 else bare)
        else:
            raise ScenarioError(path, f"can't read {text!r} as a kind of card")
    return Filter(
        types=tuple(types),
        supertypes=tuple(supertypes),
        subtypes=tuple(subtypes),
        exclude=Filter(types=tuple(excluded)) if excluded else None,
        colors=tuple(colors),
    )


def parse_cost(cost: str, card_name: str, path: str) -> tuple[CostPart, ...]:
    """Read a cost string into parts; a part the engine can't read is an error naming it."""
    parts: list[CostPart] = []
    own = _SELF.replace("{name}", re.escape(card_name.lower()))
    for raw in (p.strip() for p in cost.split(",")):
        if not raw:
            continue
        text = raw.lower()
        symbols = re.findall(r"\{([^}]+)\}", raw)
        if symbols and re.fullmatch(r"(\{[^}]+\})+", raw):
            if "T" in symbols:
                parts.append(CostPart("tap", raw, self_only=True))
            if "Q" in symbols:
                parts.append(CostPart("untap", raw, self_only=True))
            if any(s not in ("T", "Q") for s in symbols):
                parts.append(CostPart("mana", raw))
            continue
        if re.fullmatch(r"[+−-]?\d+", raw):
            parts.append(CostPart("loyalty", raw, self_only=True))
            continue
        if m := re.fullmatch(rf"(sacrifice|discard) {own}", text):
            zone = "battlefield" if m.group(1) == "sacrifice" else "hand"
            parts.append(CostPart(m.group(1), raw, self_only=True, zone=zone))
            continue
        if m := re.fullmatch(rf"exile {own} from your (graveyard|hand)", text):
            parts.append(CostPart("exile", raw, self_only=True, zone=m.group(2)))
            continue
        if re.fullmatch(rf"exile {own}", text):
            parts.append(CostPart("exile", raw, self_only=True, zone="battlefield"))
            continue
        if re.fullmatch(rf"return {own} to its owner's hand", text):
            parts.append(CostPart("return", raw, self_only=True))
            continue
        if m := re.fullmatch(rf"sacrifice {_COUNT} (.+)", text):
            parts.append(
                CostPart(
                    "sacrifice",
                    raw,
                    count=_count(m.group(1)),
                    filter=_description(_original(raw, m.group(2)), path),
                    other=m.group(1) == "another" or m.group(2).startswith("other "),
                )
            )
            continue
        if m := re.fullmatch(rf"discard {_COUNT} (.*?)\s*cards?", text):
            parts.append(
                CostPart(
                    "discard",
                    raw,
                    count=_count(m.group(1)),
                    filter=_description(_original(raw, m.group(2)), path),
                    zone="hand",
                )
            )
            continue
        if m := re.fullmatch(rf"exile {_COUNT} (.*?)\s*cards? from your (hand|graveyard)", text):
            parts.append(
                CostPart(
                    "exile",
                    raw,
                    count=_count(m.group(1)),
                    filter=_description(_original(raw, m.group(2)), path),
                    zone=m.group(3),
                    other=m.group(1) == "another" or m.group(2).startswith("other "),
                )
            )
            continue
        if m := re.fullmatch(rf"mill {_COUNT} cards?", text):
            # "Mill a card" as a cost (701.17b: not more than the library holds).
            parts.append(CostPart("mill", raw, count=_count(m.group(1)), zone="library"))
            continue
        if m := re.fullmatch(r"pay (\d+) life", text):
            parts.append(CostPart("pay_life", raw, count=int(m.group(1))))
            continue
        if m := re.fullmatch(rf"tap {_COUNT} untapped (.+?) you control", text):
            parts.append(
                CostPart(
                    "tap_other",
                    raw,
                    count=_count(m.group(1)),
                    filter=_description(_original(raw, m.group(2)), path),
                    other=m.group(1) == "another" or m.group(2).startswith("other "),
                )
            )
            continue
        if m := re.fullmatch(rf"remove {_COUNT} (.+?) counters? from {own}", text):
            parts.append(
                CostPart(
                    "remove_counters",
                    raw,
                    self_only=True,
                    count=_count(m.group(1)),
                    counter=m.group(2),
                )
            )
            continue
        if m := re.fullmatch(rf"return {_COUNT} (.+?) you control to its owner's hand", text):
            parts.append(
                CostPart(
                    "return",
                    raw,
                    count=_count(m.group(1)),
                    filter=_description(_original(raw, m.group(2)), path),
                )
            )
            continue
        # A cost the engine doesn't model (energy, exert, collect evidence …): kept, so a card
        # that has it can be on the board; whatever rests on paying it is refused (payment.py).
        parts.append(CostPart("other", raw))
    return tuple(parts)


def _original(raw: str, lowered: str) -> str:
    """The words of `lowered` as written in `raw` (subtypes keep their capital letter)."""
    start = raw.lower().rindex(lowered) if lowered else 0
    return raw[start : start + len(lowered)]


def activation_zone(parts: tuple[CostPart, ...]) -> str:
    """Where the ability can be activated from: a cost that discards or exiles the card itself
    from a zone says so (cycling, transmute: the hand, 702.29a, 702.53a); else the battlefield."""
    for part in parts:
        if part.self_only and part.kind in ("discard", "exile"):
            return part.zone
    return "battlefield"

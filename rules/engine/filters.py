"""Filters: the description a card must match (a search's "basic land card", a cost's
"creature"), read from JSON and matched against a card's characteristics."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .errors import ScenarioError

CARD_TYPES = frozenset(
    {
        "Artifact",
        "Battle",
        "Creature",
        "Enchantment",
        "Instant",
        "Kindred",
        "Land",
        "Planeswalker",
        "Sorcery",
        "Tribal",
    }
)
SUPERTYPES = frozenset({"Basic", "Legendary", "Snow", "World", "Ongoing"})
FILTER_KEYS = frozenset(
    {
        "types",
        "supertypes",
        "subtypes",
        "name",
        "same_name_as",
        "different_names",
        "not",
        "any_of",
        "keywords",
        "non_basic_land",
        "colors",
        "mana_value",
    }
)


def shares_a_name(remembered: str | None, card: Characteristics) -> bool:
    """Has `card` the remembered name, or, for a split card's "Fire // Ice", either half's?"""
    if remembered is None:
        return False
    if remembered == card.name:
        return True
    if " // " not in remembered:  # one name: one of the card's halves may have it
        return remembered in card.names
    wanted = set(remembered.split(" // "))
    return any(name in wanted for name in card.names)


class Characteristics(Protocol):
    """What a filter reads of a card (a `CardDefinition` has all of it), read-only."""

    @property
    def name(self) -> str: ...

    @property
    def names(self) -> tuple[str, ...]: ...  # a split card has its halves' names too (709.4a)

    @property
    def types(self) -> tuple[str, ...]: ...

    @property
    def supertypes(self) -> tuple[str, ...]: ...

    @property
    def subtypes(self) -> tuple[str, ...]: ...

    @property
    def keywords(self) -> Mapping[str, Any]: ...

    @property
    def colors(self) -> tuple[str, ...]: ...

    @property
    def mana_value(self) -> int: ...


COLOR_NAMES = {"W": "White", "U": "Blue", "B": "Black", "R": "Red", "G": "Green"}
COLOR_LETTERS = {
    **{v.lower(): k for k, v in COLOR_NAMES.items()},
    **{k.lower(): k for k in COLOR_NAMES},
}


def parse_colors(value: Any, path: str) -> tuple[str, ...]:
    names = strings(value, path)
    letters = [COLOR_LETTERS.get(n.lower()) for n in names]
    if None in letters:
        raise ScenarioError(
            path, f"unknown color(s) in {list(names)}; use White, Blue, ... or W U B R G"
        )
    return tuple(letters)  # type: ignore[arg-type]


MANA_VALUE_OPS = {"lt": "less than", "lte": "or less", "gt": "greater than", "gte": "or greater"}
_MANA_VALUE_SYNONYMS = {"max": "lte", "min": "gte", "eq": "eq"}


def _parse_mana_value(
    value: Any, path: str
) -> tuple[tuple[int, int] | None, tuple[tuple[str, int | str], ...]]:
    """A number, {"min": n, "max": n}, or comparisons {"lt"|"lte"|"gt"|"gte"|"eq": n or "X"}.

    Returns the numeric [min, max] range and the comparisons that refer to X (read when the
    search happens, from the X chosen as the spell was cast).
    """
    if value is None:
        return None, ()
    if isinstance(value, int) and not isinstance(value, bool):
        return (value, value), ()
    if value == "X":
        return None, (("eq", "X"),)
    if not isinstance(value, dict) or not value:
        raise ScenarioError(path, 'must be a number, "X" or an object such as {"lt": "X"}')
    low, high = 0, 10**6
    numeric_given = False
    with_x: list[tuple[str, int | str]] = []
    for key, bound in value.items():
        op = _MANA_VALUE_SYNONYMS.get(key, key)
        if op not in (*MANA_VALUE_OPS, "eq"):
            raise ScenarioError(
                f"{path}.{key}", "use lt, lte, gt, gte, eq (or min, max) with a number or X"
            )
        if bound == "X":
            with_x.append((op, "X"))
            continue
        if isinstance(bound, bool) or not isinstance(bound, int):
            raise ScenarioError(f"{path}.{key}", 'must be a whole number or "X"')
        numeric_given = True
        if op in ("lt", "lte"):
            high = min(high, bound - 1 if op == "lt" else bound)
        if op in ("gt", "gte"):
            low = max(low, bound + 1 if op == "gt" else bound)
        if op == "eq":
            low, high = max(low, bound), min(high, bound)
    return ((low, high) if numeric_given else None), tuple(with_x)


def _compare(op: str, value: int, bound: int) -> bool:
    if op == "lt":
        return value < bound
    if op == "lte":
        return value <= bound
    if op == "gt":
        return value > bound
    if op == "gte":
        return value >= bound
    return value == bound


def mana_value_of(cost: str) -> int:
    """Mana value of a cost like "{2}{U}{U}" or "{B/P}" (CR 202.3; X counts 0)."""
    total = 0
    for symbol in cost.replace("}", "").split("{")[1:]:
        if symbol.isdigit():
            total += int(symbol)
        elif symbol.startswith("2/"):
            total += 2
        elif symbol not in ("X", "Y", "Z"):
            total += 1
    return total


def _or_list(words: Sequence[str]) -> str:
    """ "Island", "Island or Swamp", "Plains, Island, Swamp or Mountain"."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def colors_of_cost(cost: str) -> tuple[str, ...]:
    """Colors from a mana cost's colored symbols (CR 202.2)."""
    return tuple(c for c in "WUBRG" if c in cost.replace("{P}", ""))


@dataclass(frozen=True)
class Filter:
    """A description a card must match (CR 701.23a); empty means "a card" (701.23d)."""

    types: tuple[str, ...] = ()
    supertypes: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()
    name: str | None = None
    same_name_as: str | None = None  # "target" or "chosen"
    different_names: bool = False
    keywords: tuple[str, ...] = ()
    colors: tuple[str, ...] = ()  # letters W U B R G; the card must have each
    mana_value: tuple[int, int] | None = None  # inclusive [min, max]
    # Comparisons with X, e.g. (("lt", "X"),) for Green Sun's Zenith; X comes from `names["X"]`.
    mana_value_x: tuple[tuple[str, int | str], ...] = ()
    exclude: Filter | None = None
    any_of: tuple[Filter, ...] = ()

    @property
    def has_quality(self) -> bool:
        """True when the filter states a quality (701.23b); False for a bare quantity (701.23d)."""
        return bool(
            self.types
            or self.supertypes
            or self.subtypes
            or self.name
            or self.same_name_as
            or self.different_names
            or self.keywords
            or self.colors
            or self.mana_value is not None
            or self.mana_value_x
            or self.exclude
            or self.any_of
        )

    def refers_to(self) -> str | None:
        """The remembered object this filter needs ("target"/"chosen"), searching nested filters."""
        if self.same_name_as:
            return self.same_name_as
        for part in (self.exclude, *self.any_of):
            if part is not None and (ref := part.refers_to()):
                return ref
        return None

    def matches(self, card: Characteristics, names: Mapping[str, str | None]) -> bool:
        """Does `card` match? `names` maps "target"/"chosen" to the remembered name."""
        # Plain loops: this runs for every card of every searched zone.
        # Card types and subtypes: any one listed. Search text that names several names
        # alternatives ("an instant or sorcery card", "an Island or Swamp card"); a card that must
        # have two types at once takes a one-item any_of. See docs/engine.md, Filters.
        if self.types and not any(t in card.types for t in self.types):
            return False
        for wanted in self.supertypes:
            if wanted not in card.supertypes:
                return False
        if self.subtypes and not any(s in card.subtypes for s in self.subtypes):
            return False
        for wanted in self.keywords:
            if wanted not in card.keywords:
                return False
        for wanted in self.colors:
            if wanted not in card.colors:
                return False
        if self.mana_value is not None and not (
            self.mana_value[0] <= card.mana_value <= self.mana_value[1]
        ):
            return False
        for op, _ in self.mana_value_x:
            x = names.get("X")
            # X not fixed: some X lets this card qualify, so it isn't ruled out here. X one of
            # several (which creature a cost sacrifices isn't fixed): any of them will do.
            if isinstance(x, tuple):
                if not any(_compare(op, card.mana_value, option) for option in x):
                    return False
            elif x is not None and not _compare(op, card.mana_value, int(x)):
                return False
        if self.name is not None and card.name != self.name and self.name not in card.names:
            return False
        if self.same_name_as is not None and not shares_a_name(names.get(self.same_name_as), card):
            return False
        if self.exclude is not None and self.exclude.matches(card, names):
            return False
        return not self.any_of or any(part.matches(card, names) for part in self.any_of)

    def describe(self) -> str:
        """A short English description, e.g. "basic land card"."""
        # A filter never changes: describe it once and keep the text on the instance.
        text = self.__dict__.get("_description")
        if text is None:
            text = self.__dict__["_description"] = self._describe()
        return text

    def _describe(self) -> str:
        if not self.has_quality:
            return "card"
        words: list[str] = []
        if self.any_of:
            words.append(" or ".join(part.describe() for part in self.any_of))
        words += [COLOR_NAMES[c].lower() for c in self.colors]
        words += [s.lower() for s in self.supertypes]
        if self.subtypes:
            words.append(_or_list(self.subtypes))
        if self.types:
            words.append(_or_list([t.lower() for t in self.types]))
        text = " ".join(words) if words else ""
        if self.name:
            text = f"card named {self.name}"
        if self.same_name_as:
            same = f"card with the same name as the {self.same_name_as} card"
            text = f"{text} {same}" if text else same
        if self.mana_value is not None:
            low, high = self.mana_value
            text = f"{text or 'card'} with mana value {low}" + (
                f" to {high}" if high != low else ""
            )
        for op, bound in self.mana_value_x:
            if text and "card" not in text:
                text += " card"
            text = f"{text or 'card'} with mana value " + (
                f"{MANA_VALUE_OPS[op]} {bound}"
                if op in ("lt", "gt")
                else f"{bound} {MANA_VALUE_OPS[op]}"
                if op in MANA_VALUE_OPS
                else f"{bound}"
            )
        if self.keywords:
            text = f"{text or 'card'} with {' and '.join(self.keywords)}"
        if self.exclude:
            text = f"{text or 'card'} other than a {self.exclude.describe()}"
        if self.different_names:
            text = f"{text or 'card'}s with different names"
        if text and not text.endswith(("card", "cards", ")")) and "card" not in text:
            text += " card"
        return text.strip()


def strings(value: Any, path: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ScenarioError(path, "must be a list of strings")
    return tuple(value)


def parse_filter(raw: Any, path: str) -> Filter:
    """Parse a search filter; None or {} is "a card" with no stated quality (701.23d)."""
    if raw is None:
        return Filter()
    if not isinstance(raw, dict):
        raise ScenarioError(path, "a filter must be an object or null")
    unknown = set(raw) - FILTER_KEYS
    if unknown:
        raise ScenarioError(path, f"unknown filter key(s) {sorted(unknown)}")
    same = raw.get("same_name_as")
    if same not in (None, "target", "chosen"):
        raise ScenarioError(f"{path}.same_name_as", 'must be "target" or "chosen"')
    types = strings(raw.get("types"), f"{path}.types")
    bad = [t for t in types if t not in CARD_TYPES]
    if bad:
        raise ScenarioError(f"{path}.types", f"unknown card type(s) {bad}")
    exclude = parse_filter(raw["not"], f"{path}.not") if raw.get("not") is not None else None
    if raw.get("non_basic_land"):
        exclude = Filter(supertypes=("Basic",), types=("Land",))
    any_of = raw.get("any_of") or []
    if not isinstance(any_of, list):
        raise ScenarioError(f"{path}.any_of", "must be a list of filters")
    name = raw.get("name")
    if name is not None and not isinstance(name, str):
        raise ScenarioError(f"{path}.name", "must be a string")
    mana_value, mana_value_x = _parse_mana_value(raw.get("mana_value"), f"{path}.mana_value")
    return Filter(
        types=types,
        supertypes=strings(raw.get("supertypes"), f"{path}.supertypes"),
        subtypes=strings(raw.get("subtypes"), f"{path}.subtypes"),
        name=name,
        same_name_as=same,
        different_names=bool(raw.get("different_names", False)),
        keywords=tuple(k.lower() for k in strings(raw.get("keywords"), f"{path}.keywords")),
        exclude=exclude,
        colors=parse_colors(raw.get("colors"), f"{path}.colors"),
        mana_value=mana_value,
        mana_value_x=mana_value_x,
        any_of=tuple(parse_filter(p, f"{path}.any_of[{i}]") for i, p in enumerate(any_of)),
    )

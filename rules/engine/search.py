"""Searching (CR 701.23): the choice space of one search instruction, computed by counting.

A search never enumerates subsets. For every card in the named zones it decides whether the card
must, may or cannot be found, and it bounds how many cards can be found as [min, max].
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import MISSING, dataclass, field, replace
from dataclasses import fields as dataclass_fields
from operator import attrgetter
from typing import Any

from .cards import Description
from .effects import ActiveEffect
from .errors import ScenarioError
from .filters import Filter
from .reasons import Phrase, Reason, because
from .state import HIDDEN_ZONES, OUTSIDE, CardInstance
from .verdict import Verdict, merge_values

Names = Mapping[str, str | None]


@dataclass(frozen=True)
class SearchSpace:
    """Everything one search allows and requires for one searcher and one player's zones."""

    searcher: str
    whose: str
    zones: tuple[str, ...]
    searched_zones: tuple[str, ...]
    status: Verdict  # must / may / cannot search
    performed: str  # on this line of play: "yes", "no" or "if_searched"
    portion: Verdict  # "library", "top N", or "none" when no library is searched
    finds: Mapping[str, Verdict]
    found_count: Verdict  # [min, max]
    revealed: Verdict
    put: str
    description: Phrase  # what it searches for, with its count ("up to 2 basic land card")
    different_names: bool = False
    must_find: frozenset[str] = field(default_factory=frozenset)
    may_find: frozenset[str] = field(default_factory=frozenset)
    min_if_searching: int = 0  # the lower bound once the searcher does search
    optional: bool = False  # the instruction itself says "may" (or a cost could unlock it)
    # Cultivate: {"count": 1, "rest": "hand"} puts `count` found cards where `put` says and
    # the rest into `rest`.
    split: Mapping | None = None
    # The player who makes this search's decisions when another player controls the searcher
    # (Opposition Agent); None when the searcher decides.
    controlled_by: str | None = None
    # One search for several descriptions (701.23h: "a Forest card and a Plains card"): each
    # found card fills one description. `masks` maps a findable label to (the descriptions it
    # fits, the ones it must fill when able) as bit masks.
    descriptions: tuple[Description, ...] = ()
    masks: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    # "Search your library and/or graveyard": the searcher chose (or may choose) the zones.
    zone_choice: bool = False
    room_required: tuple[int, frozenset[str]] | None = None  # see _Branch
    rest: str | None = None  # where the cards not found go ("exile the rest")
    # "Library and/or graveyard": is the library among the zones searched ("yes", "no", or
    # "open" while the searcher's choice isn't fixed)? The shuffle follows it.
    library_chosen: str = "yes"
    may_look: str = "nobody"  # exile_face_down: who may look at the found cards (406.3)

    @classmethod
    def build(cls, **values: Any) -> SearchSpace:
        """Build without the frozen __init__'s per-field setattr (four searches per trigger on a
        big board add up); fields not given take their defaults. Still frozen afterwards."""
        space = object.__new__(cls)
        fields = space.__dict__
        fields.update(_SPACE_DEFAULTS)
        fields.update(values)
        return space

    @property
    def searched_own_library(self) -> bool:
        """Did (or may) the searcher search their own library? Portions count (701.23f)."""
        return self.whose == self.searcher and "library" in self.searched_zones

    @property
    def findable(self) -> frozenset[str]:
        """Labels that can be found at all."""
        return self.must_find | self.may_find


# Immutable defaults only (the one mutable default, `masks`, is always given by plan_search).
_SPACE_DEFAULTS = {
    f.name: f.default for f in dataclass_fields(SearchSpace) if f.default is not MISSING
}


@dataclass(frozen=True, init=False)
class _Branch:
    finds: dict[str, Verdict]
    min_found: int
    max_found: int
    rule: str
    reason: str
    masks: dict[str, tuple[int, int]] | None = None
    # 701.23b: with room left (fewer than `count` found), no public match may stay unfound.
    room_required: tuple[int, frozenset[str]] | None = None

    def __init__(
        self,
        finds: dict[str, Verdict],
        min_found: int,
        max_found: int,
        rule: str,
        reason: str,
        masks: dict[str, tuple[int, int]] | None = None,
        room_required: tuple[int, frozenset[str]] | None = None,
    ) -> None:
        # One per search line: writing the instance dict skips the frozen dataclass's seven
        # guarded object.__setattr__ calls (as Verdict does). Still frozen afterwards.
        fields = self.__dict__
        fields["finds"] = finds
        fields["min_found"] = min_found
        fields["max_found"] = max_found
        fields["rule"] = rule
        fields["reason"] = reason
        fields["masks"] = masks
        fields["room_required"] = room_required


_LABEL = attrgetter("label")


def _branch(
    spec: Mapping,
    whose: str,
    zone_cards: Mapping[str, Sequence[CardInstance]],
    searched_zones: tuple[str, ...],
    top: int | None,
    names: Names,
    outside: bool,
) -> tuple[_Branch, list[CardInstance]]:
    """One line of the search for one value of the remembered names (target / chosen card),
    and the cards it may find (every other card of the searched zones can't be found)."""
    wanted: Filter = spec["filter"]
    count = spec["count"]
    up_to = spec["up_to"]
    description = Phrase.of(wanted)
    finds: dict[str, Verdict] = {}
    reference = wanted.refers_to()
    undefined = reference is not None and names.get(reference) is None
    public: list[CardInstance] = []
    hidden: list[CardInstance] = []
    # Verdicts are shared between cards with the same reason: a 60-card library stays cheap.
    below_portion: Verdict | None = None
    undefined_quality: Verdict | None = None
    no_match: dict[str, Verdict] = {}
    # Whether a definition matches depends only on it and `names`, both fixed here: a 60-card
    # library of a handful of names asks the filter once per name (keyed by the definition's id,
    # alive for the whole call).
    matches: dict[int, bool] = {}
    for zone in spec["zones"]:
        if zone not in searched_zones:
            continue  # reported by the caller (prohibited zone)
        in_hidden_zone = zone in HIDDEN_ZONES
        cards = zone_cards.get(zone, ())
        below: Sequence[CardInstance] = ()
        if zone == "library" and top is not None:
            cards, below = cards[:top], cards[top:]
        for card in cards:
            if undefined:
                if undefined_quality is None:
                    reason = because(f"undefined_quality_{reference}")
                    undefined_quality = Verdict("cannot", "701.23c", reason)
                finds[card.label] = undefined_quality
                continue
            definition = card.definition
            match = matches.get(id(definition))
            if match is None:
                match = matches[id(definition)] = wanted.matches(definition, names)
            if not match:
                verdict = no_match.get(card.name)
                if verdict is None:
                    verdict = no_match[card.name] = Verdict(
                        "cannot",
                        "701.23a",
                        because("no_match", card=card.name, description=description),
                    )
                finds[card.label] = verdict
            else:
                (hidden if in_hidden_zone else public).append(card)
        if below:
            if below_portion is None:
                reason = because("below_portion", top=top, whose=whose)
                below_portion = Verdict("cannot", "701.23f", reason)
            finds.update(dict.fromkeys(map(_LABEL, below), below_portion))
    candidates = public + hidden
    if spec.get("descriptions"):
        branch = _several_branch(finds, public, hidden, spec["descriptions"], names)
    elif not wanted.has_quality:
        branch = _quantity_branch(finds, candidates, count, up_to)
    else:
        branch = _quality_branch(
            finds, public, hidden, count, up_to, wanted.different_names, description
        )
    if outside:
        return _outside_branch(branch, candidates, description), candidates
    return branch, candidates


def _outside_only(spec: Mapping) -> bool:
    """Does the instruction look only outside the game (a wish)?"""
    return bool(spec["zones"]) and all(zone == OUTSIDE for zone in spec["zones"])


def _outside_branch(
    branch: _Branch, candidates: list[CardInstance], description: Phrase
) -> _Branch:
    """A wish: outside the game is not a zone (400.11), so nothing is searched; the player may
    bring cards they own from outside the game into it (400.11b). The values are those of a
    hidden-zone search (each may be left unchosen); only the wording and the rule differ."""
    finds = dict(branch.finds)
    for card in candidates:
        verdict = finds[card.label]
        if verdict.value in ("may", "must"):
            key = "outside_may" if verdict.value == "may" else "outside_must"
            finds[card.label] = Verdict(
                verdict.value,
                "400.11b",
                because(key, card=card.name, description=description, owner=card.owner),
            )
    for label, verdict in finds.items():
        if verdict.rule.startswith("701.23"):
            finds[label] = Verdict(verdict.value, "400.11b", verdict.reason)
    low, high = branch.min_found, branch.max_found
    reason = because("bounds_outside", low=low, high=high) if low < high else branch.reason
    if high == 0:  # nothing to choose, in a wish's words: no card is "found" outside the game
        reason = because("bounds_outside_none")
    return replace(branch, finds=finds, rule="400.11b", reason=reason)


def _quantity_branch(
    finds: dict[str, Verdict], candidates: list[CardInstance], count: object, up_to: bool
) -> _Branch:
    """701.23d: a search simply for a quantity must find that many, or as many as possible."""
    total = len(candidates)
    if count == "any_number":
        low, high = 0, total
    elif count == "all":
        low = high = total
    else:
        high = min(int(count), total)
        low = 0 if up_to else high
    every_one = total > 0 and low == total
    for card in candidates:
        if every_one:
            finds[card.label] = Verdict(
                "must",
                "701.23d",
                because(
                    "quantity_every_one",
                    cards=because("cards", count=low),
                    total=total,
                    card=card.name,
                ),
            )
        else:
            finds[card.label] = Verdict("may", "701.23d", because("quantity_any", card=card.name))
    reason = (
        because("quantity_count", total=total)
        if not up_to and count not in ("any_number",)
        else because("quantity_up_to", high=high)
    )
    return _Branch(finds, low, high, "701.23d", reason)


def _quality_branch(
    finds: dict[str, Verdict],
    public: list[CardInstance],
    hidden: list[CardInstance],
    count: object,
    up_to: bool,
    different_names: bool,
    description: Phrase,
) -> _Branch:
    """701.23b: hidden-zone matches may be left unfound; public-zone matches can't be."""
    candidates = public + hidden
    if different_names:
        distinct_all = len({c.name for c in candidates})
        distinct_public = len({c.name for c in public})
    else:
        distinct_all, distinct_public = len(candidates), len(public)
    if count == "all":
        low, high = distinct_public, distinct_all
        shared = _shared_names(candidates) if different_names else set()
        for card in public:
            if card.name in shared:
                finds[card.label] = Verdict(
                    "may",
                    "701.23b",
                    because("another_could_be_found", card=card.name),
                )
                continue
            finds[card.label] = Verdict(
                "must",
                "701.23b",
                because(
                    "all_public",
                    card=card.name,
                    description=description,
                    zone=_zone_of(card),
                ),
            )
        for card in hidden:
            finds[card.label] = Verdict(
                "may",
                "701.23b",
                because("all_hidden", card=card.name, zone=_zone_of(card)),
            )
        return _Branch(finds, low, high, "701.23b", _bounds_reason(low, high, bool(hidden)))
    if count == "any_number":
        low, high = 0, distinct_all
    else:
        high = min(int(count), distinct_all)
        low = 0 if up_to else min(int(count), distinct_public)
    names_unique = len({c.name for c in candidates}) == len(candidates)
    every_one = candidates and low == len(candidates) and (names_unique or not different_names)
    # A public match must be found while there is room for it (701.23b): with no more
    # qualifying cards than the search asks for, each public one is needed.
    room = (
        (int(count), frozenset(c.label for c in public))
        if count != "any_number" and not up_to and not different_names and public
        else None
    )
    public_needed = room is not None and len(candidates) <= int(count)
    # The reason depends only on the card's name and zone: cards sharing both share a verdict.
    shared: dict[tuple[str, str], Verdict] = {}
    for card in candidates:
        key = (card.name, card.zone)
        verdict = shared.get(key)
        if verdict is None:
            if every_one or (public_needed and _zone_of(card) not in HIDDEN_ZONES):
                verdict = Verdict(
                    "must",
                    "701.23b",
                    because(
                        "public_every_one", card=card.name, cards=because("such_cards", count=low)
                    )
                    if every_one
                    else because(
                        "public_needed",
                        card=card.name,
                        description=description,
                        zone=_zone_of(card),
                        amount=count,
                    ),
                )
            elif _zone_of(card) in HIDDEN_ZONES:
                verdict = Verdict(
                    "may",
                    "701.23b",
                    because(
                        "hidden_may",
                        card=card.name,
                        description=description,
                        zone=_zone_of(card),
                    ),
                )
            else:
                verdict = Verdict(
                    "may",
                    "701.23b",
                    because("qualifies", card=card.name),
                )
            shared[key] = verdict
        finds[card.label] = verdict
    return _Branch(
        finds, low, high, "701.23b", _bounds_reason(low, high, bool(hidden)), room_required=room
    )


def max_fill(groups: Sequence[tuple[int, int]], caps: Sequence[int]) -> int:
    """Most cards that can each fill one description: a max flow from groups of `count`
    interchangeable cards (with a bit mask of the descriptions they fit) to descriptions with
    room for `caps[i]` cards. The graph is tiny (a few groups, at most a handful of
    descriptions), so plain augmenting paths are enough."""
    groups = [(n, mask) for n, mask in groups if n and mask]
    left = [n for n, _ in groups]
    room = list(caps)
    # flow[g][d]: cards of group g filling description d
    flow = [[0] * len(caps) for _ in groups]
    total = 0
    while True:
        path = _augmenting_path(groups, left, room, flow)
        if path is None:
            return total
        total += 1
        for kind, g, d in path:
            flow[g][d] += 1 if kind == "+" else -1
        left[path[0][1]] -= 1
        room[path[-1][2]] -= 1


def _augmenting_path(
    groups: Sequence[tuple[int, int]], left: list[int], room: list[int], flow: list[list[int]]
) -> list[tuple[str, int, int]] | None:
    """A breadth-first path source -> group -> description (-> group -> description ...)."""
    count = len(room)
    for start, spare in enumerate(left):
        if not spare:
            continue
        # BFS over groups; parent[d] = (group, previous description or None)
        parent: dict[int, tuple[int, int | None]] = {}
        queue = [(start, None)]
        seen_groups = {start}
        while queue:
            g, came = queue.pop(0)
            for d in range(count):
                if not groups[g][1] >> d & 1 or d in parent:
                    continue
                parent[d] = (g, came)
                if room[d]:
                    path: list[tuple[str, int, int]] = []
                    while True:
                        group, previous = parent[d]
                        path.append(("+", group, d))
                        if previous is None:
                            break
                        path.append(("-", group, previous))
                        d = previous
                    path.reverse()
                    return path
                for other, row in enumerate(flow):
                    if row[d] and other not in seen_groups:
                        seen_groups.add(other)
                        queue.append((other, d))
    return None


def _required_mask(descriptions: Sequence[Description], card: CardInstance) -> int:
    """Descriptions a card must fill when able: not "up to", and either no stated quality
    (701.23d) or the card is in a public zone (701.23b)."""
    mask = 0
    for i, description in enumerate(descriptions):
        if description.up_to:
            continue
        if not description.filter.has_quality or card.zone not in HIDDEN_ZONES:
            mask |= 1 << i
    return mask


def _several_branch(
    finds: dict[str, Verdict],
    public: list[CardInstance],
    hidden: list[CardInstance],
    descriptions: Sequence[Description],
    names: Names,
) -> _Branch:
    """701.23h: one search for several descriptions; each found card fills one of them.

    The bounds are flows: at most as many cards as can each fill a different slot; at least as
    many as the cards that must be found when able (public matches, 701.23b; any card for a
    bare quantity, 701.23d) can fill. A card must be found when leaving it out always leaves a
    slot it could fill open.
    """
    caps = [d.count for d in descriptions]
    masks: dict[str, tuple[int, int]] = {}
    groups: dict[tuple[int, int], list[CardInstance]] = {}
    for card in public + hidden:
        fits = 0
        for i, description in enumerate(descriptions):
            if description.zones and card.zone not in description.zones:
                continue  # "... and your graveyard for a Plains card": not from the library
            if description.filter.matches(card.definition, names):
                fits |= 1 << i
        required = fits & _required_mask(descriptions, card)
        masks[card.label] = (fits, required)
        groups.setdefault((fits, required), []).append(card)
    high = max_fill([(len(cards), fits) for (fits, _), cards in groups.items()], caps)
    low = max_fill([(len(cards), req) for (_, req), cards in groups.items()], caps)
    every = tuple(Phrase.of(d.filter) for d in descriptions)
    for (fits, required), cards in groups.items():
        if not fits:
            for card in cards:
                finds[card.label] = Verdict(
                    "cannot",
                    "701.23a",
                    because("fits_no_description", card=card.name, zone=card.zone),
                )
            continue
        must = False
        if required:
            others = [
                (len(group) - (key == (fits, required)), key[0]) for key, group in groups.items()
            ]
            base = max_fill(others, caps)
            must = max_fill([*others, (1, required)], caps) > base
        fitting = tuple(every[i] for i in range(len(descriptions)) if fits >> i & 1)
        for card in cards:
            if must:
                verdict = Verdict(
                    "must",
                    "701.23b",
                    because("fills_needed", card=card.name, description=fitting[0]),
                )
            else:
                verdict = Verdict(
                    "may",
                    "701.23h",
                    because(
                        "fills_any",
                        card=card.name,
                        descriptions_or=fitting,
                        descriptions_and=every,
                    ),
                )
            finds[card.label] = verdict
    reason = because("several_bounds", descriptions_and=every, low=low, high=high)
    return _Branch(finds, low, high, "701.23h", reason, masks)


def fits_descriptions(space: SearchSpace, labels: Sequence[str]) -> bool:
    """Can these found cards each fill a different description of the search?"""
    caps = [d.count for d in space.descriptions]
    groups = [(1, space.masks[label][0]) for label in labels]
    return max_fill(groups, caps) == len(labels)


def _shared_names(cards: list[CardInstance]) -> set[str]:
    seen: set[str] = set()
    shared: set[str] = set()
    for card in cards:
        (shared if card.name in seen else seen).add(card.name)
    return shared


def _zone_of(card: CardInstance) -> str:
    return card.zone


def _bounds_reason(low: int, high: int, any_hidden: bool) -> Reason:
    if any_hidden and low < high:
        return because("bounds_hidden", low=low, high=high)
    if low == high:  # not "between 0 and 0"
        return because("bounds_exact", count=low) if low else because("bounds_none")
    return because("bounds", low=low, high=high)


def _status(
    searcher: str,
    spec: Mapping,
    searched_zones: tuple[str, ...],
    prohibited: tuple[ActiveEffect, ...],
    escape_unpaid: bool,
    outside: bool,
) -> Verdict:
    """Must, may or can't the searcher search (`outside`: a wish, `_outside_only`)?"""
    if not searched_zones:
        names = tuple(sorted({e.source_name for e in prohibited}))
        escapes = [e for e in prohibited if e.spec.get("escape")]
        if not escapes or len(escapes) != len(prohibited):
            return Verdict("cannot", "101.2", because("prohibited", sources=names, player=searcher))
        return Verdict(
            "cannot",
            "101.2",
            because(
                "prohibited_escapes" if len(escapes) > 1 else "prohibited_escape",
                sources=names,
                player=searcher,
                cost=escapes[0].spec["escape"],
                count=len(escapes),
            ),
        )
    if escape_unpaid:
        escape = prohibited[0]
        return Verdict(
            "may",
            "116.2d",
            because(
                "escape_unpaid",
                source=escape.source_name,
                cost=escape.spec["escape"],
                player=searcher,
            ),
        )
    if spec["may"] and outside:
        return Verdict("may", "400.11b", because("may_choose_outside", player=searcher))
    if spec["may"]:
        return Verdict("may", "608.2d", because("may_search", player=searcher))
    if outside:
        return Verdict("must", "400.11b", because("told_to_choose_outside", player=searcher))
    return Verdict("must", "701.23a", because("must_search", player=searcher))


def plan_search(
    *,
    searcher: str,
    whose: str,
    spec: Mapping,
    zone_cards: Mapping[str, Sequence[CardInstance]],
    name_options: Sequence[Names],
    prohibited: tuple[ActiveEffect, ...],
    escape_unpaid: bool,
    portion: tuple[int, ActiveEffect] | None,
    decision: Mapping | None,
) -> SearchSpace:
    """The choice space of one search by `searcher` through `whose`'s zones.

    `prohibited` lists effects stopping the library part (an escape, if any, is unpaid when
    `escape_unpaid`); `portion` is a "top N instead" replacement; `name_options` lists the possible
    values of remembered names (several when a choice earlier in the effect is still open).
    """
    library_blocked = bool(prohibited) and not escape_unpaid
    outside = _outside_only(spec)
    searched_zones = tuple(z for z in spec["zones"] if not (z == "library" and library_blocked))
    status = _status(searcher, spec, searched_zones, prohibited, escape_unpaid, outside)
    top = portion[0] if portion and "library" in searched_zones else None
    finds: dict[str, Verdict] = {}
    if library_blocked and "library" in spec["zones"]:
        for card in zone_cards.get("library", ()):
            finds[card.label] = Verdict(
                "cannot",
                status.rule if status.value == "cannot" else "101.2",
                because(
                    "library_prohibited",
                    player=searcher,
                    whose=whose,
                    sources=tuple(e.source_name for e in prohibited),
                ),
            )
    lines = (
        [
            _branch(spec, whose, zone_cards, searched_zones, top, names, outside)
            for names in name_options
        ]
        if status.value != "cannot"
        else []
    )
    branches = [branch for branch, _ in lines]
    masks: dict[str, tuple[int, int]] = {}
    for branch in branches:
        for label, (fits, required) in (branch.masks or {}).items():
            known = masks.get(label, (0, required))
            masks[label] = (known[0] | fits, known[1] & required)
    if len(branches) == 1:
        finds.update(branches[0].finds)
    elif branches:
        # First-seen order, not a set's: outcomes stay the same from one process to the next.
        labels = dict.fromkeys(label for branch in branches for label in branch.finds)
        for label in labels:
            verdicts = [b.finds[label] for b in branches if label in b.finds]
            value = merge_values([v.value for v in verdicts])
            first = next((v for v in verdicts if v.value == value), verdicts[0])
            if value != first.value or len(verdicts) < len(branches):
                first = Verdict(
                    "may",
                    first.rule,
                    because("depends_on_earlier_choice"),
                )
                value = "may"
            finds[label] = first
    if branches:
        low = min(b.min_found for b in branches)
        high = max(b.max_found for b in branches)
        count_rule, count_reason = branches[0].rule, branches[0].reason
    else:
        low = high = 0
        count_rule, count_reason = status.rule, status.reason
    # The labels that may or must be found (once searching), then those that must. With one
    # line of play only its candidates can be (every other card it looked at "cannot"): a
    # 60-card library of a few matches reads a few verdicts, not sixty.
    findable: list[str] = []
    must: list[str] = []
    for label in [card.label for card in lines[0][1]] if len(lines) == 1 else finds:
        value = finds[label].value
        if value != "cannot":
            findable.append(label)
            if value == "must":
                must.append(label)
    must_if_searching = frozenset(must)
    low_if_searching = low
    optional = status.value == "may"
    if optional:
        for label in must:
            verdict = finds[label]
            finds[label] = Verdict(
                "may",
                verdict.rule,
                because(
                    "if_choosing" if outside else "if_searching",
                    clause=verdict.reason,
                    player=searcher,
                ),
            )
        low = 0
        if outside and low < high:  # a wish's count in its own words, not a find's
            count_reason = because("bounds_outside", low=low, high=high)
    if top is not None:
        portion_verdict = Verdict(
            f"top {top}",
            "701.23f",
            because(
                "portion_top", source=portion[1].source_name, player=searcher, top=top, whose=whose
            ),
        )
    elif "library" in searched_zones:
        portion_verdict = Verdict(
            "library", "701.23a", because("portion_library", player=searcher, whose=whose)
        )
    else:
        portion_verdict = Verdict(
            "none", status.rule, because("searches_no_library", player=searcher)
        )
    performed = {"must": "yes", "cannot": "no"}.get(status.value, "if_searched")
    decision = decision or {}
    if "search" in decision:
        if decision["search"] and status.value == "cannot":
            raise ScenarioError(
                f"choices.{searcher}.search",
                f"{searcher} can't search: {status.reason} ({status.rule})",
            )
        if not decision["search"] and status.value == "must":
            raise ScenarioError(
                f"choices.{searcher}.search", f"{searcher} must search ({status.rule})"
            )
        performed = "yes" if decision["search"] else "no"
    elif "find" in decision:
        # Finding, even finding nothing, is searching: `find: []` is "searched, found nothing"
        # (701.23b; Archive Trap's ruling: whether a card was found doesn't matter), while
        # declining a "may" is `search: false`.
        performed = "yes" if status.value != "cannot" else "no"
    if escape_unpaid and "ignore_prohibition" in decision:
        performed = "yes" if decision["ignore_prohibition"] and performed != "no" else "no"
    reveal = spec["reveal"]
    if outside:  # a wish's own instruction, not a search's (608.2c)
        revealed = Verdict(
            reveal, "608.2c", because("reveal_outside") if reveal else because("no_reveal_outside")
        )
    else:
        revealed = Verdict(
            reveal,
            "701.23e",
            because("reveal") if reveal else because("no_reveal"),
        )
    return SearchSpace.build(
        searcher=searcher,
        whose=whose,
        zones=tuple(spec["zones"]),
        searched_zones=searched_zones,
        status=status,
        performed=performed,
        portion=portion_verdict,
        finds=finds,
        found_count=Verdict([low, high], count_rule, count_reason),
        revealed=revealed,
        put=spec["put"],
        description=Phrase.counted(spec["filter"], spec["count"], spec["up_to"]),
        different_names=spec["filter"].different_names,
        must_find=must_if_searching,
        may_find=frozenset(findable) - must_if_searching,
        min_if_searching=low_if_searching,
        optional=bool(spec["may"]) or escape_unpaid,
        split=spec.get("split"),
        descriptions=tuple(spec.get("descriptions") or ()),
        masks=masks,
        rest=spec.get("rest"),
        may_look=spec.get("may_look", "nobody"),
        room_required=branches[0].room_required if len(branches) == 1 else None,
    )


def check_found_set(
    spaces: Sequence[SearchSpace], labels: Sequence[str], names: Mapping[str, str]
) -> Verdict:
    """Is finding exactly `labels` legal across one searcher's `spaces`? Value True/False."""
    chosen = set(labels)
    for label in labels:
        space = next((s for s in spaces if label in s.finds), None)
        if space is None:
            return Verdict(False, "701.23a", because("not_in_searched_zone", label=label))
        verdict = space.finds[label]
        if verdict.value == "cannot":
            return Verdict(
                False, verdict.rule, because("cannot_be_found", label=label, reason=verdict.reason)
            )
    for space in spaces:
        in_space = [x for x in labels if x in space.finds]
        if space.performed == "no" and in_space:
            return Verdict(
                False,
                space.status.rule,
                because("does_not_search", player=space.searcher, reason=space.status.reason),
            )
        missing = [x for x in space.must_find if x not in chosen]
        if missing and (space.performed == "yes" or in_space):
            verdict = space.finds[missing[0]]
            return Verdict(
                False,
                verdict.rule,
                because("must_be_found", label=missing[0], reason=verdict.reason),
            )
        high = space.found_count.value[1]
        if len(in_space) > high:
            return Verdict(
                False,
                space.found_count.rule,
                because("too_many", cards=because("cards", count=high), chosen=len(in_space)),
            )
        searching = space.status.value == "must" or bool(in_space) or space.performed == "yes"
        floor = space.min_if_searching if searching else 0
        if len(in_space) < floor:
            return Verdict(
                False,
                space.found_count.rule,
                because(
                    "too_few", cards=because("cards", count=floor), reason=space.found_count.reason
                ),
            )
        if space.room_required is not None and searching:
            room, publics = space.room_required
            left = sorted(x for x in publics if x not in chosen)
            if len(in_space) < room and left:
                return Verdict(
                    False,
                    "701.23b",
                    because("room_left", label=left[0], chosen=len(in_space), room=room),
                )
        if space.descriptions:
            verdict = _check_descriptions(space, in_space)
            if verdict is not None:
                return verdict
        if space.different_names:
            found_names = [names[x] for x in in_space]
            if len(set(found_names)) != len(found_names):
                return Verdict(False, "701.23b", because("names_not_different"))
    return Verdict(True, "701.23b", because("legal_set"))


def _check_descriptions(space: SearchSpace, chosen: Sequence[str]) -> Verdict | None:
    """701.23h: the found cards must each fill a different description, and no card that must
    be found when able (701.23b, 701.23d) may be left out while a slot it fits is open."""
    if not fits_descriptions(space, chosen):
        return Verdict(
            False,
            "701.23h",
            because("descriptions_unfilled", description=space.description),
        )
    caps = [d.count for d in space.descriptions]
    groups = [(1, space.masks[label][0]) for label in chosen]
    for label, (_, required) in space.masks.items():
        if label in chosen or not required:
            continue
        if max_fill([*groups, (1, required)], caps) > len(chosen):
            return Verdict(
                False,
                "701.23b",
                because("description_open", label=label),
            )
    return None


def merge_zone_choices(spaces: Sequence[SearchSpace], searcher: str) -> SearchSpace:
    """The space of a search whose zones the searcher chooses, not yet chosen: the union of
    the spaces for each choice of zones (the first is the one through every zone)."""
    full = spaces[0]
    why = because("depends_on_zone_choice", zones=full.zones, player=searcher)
    merged = merge_spaces(spaces, why)
    return replace(
        merged,
        found_count=Verdict(
            merged.found_count.value,
            full.found_count.rule,
            because(
                "zone_choice",
                player=searcher,
                low=merged.found_count.value[0],
                high=merged.found_count.value[1],
            ),
        ),
        # The library may be left out: searching it (and what rests on that) is then open.
        performed=(
            "if_searched"
            if full.performed == "yes" and merged.library_chosen == "open"
            else merged.performed
        ),
        zone_choice=True,
    )


def merge_spaces(spaces: Sequence[SearchSpace], why: str) -> SearchSpace:
    """One search on several lines of play (an open choice): what they agree on stays, the
    rest is "may"; the bounds span every line."""
    full = spaces[0]
    labels = dict.fromkeys(label for space in spaces for label in space.finds)  # ordered
    finds: dict[str, Verdict] = {}
    unsearched = Verdict("cannot", "701.23a", "")
    for label in labels:
        verdicts = [space.finds.get(label, unsearched) for space in spaces]
        values = {v.value for v in verdicts}
        if len(values) == 1:
            finds[label] = next(v for v in verdicts if v.reason)
        else:
            finds[label] = Verdict("may", "701.23a", why)
    must = frozenset(x for x, v in finds.items() if v.value == "must")
    findable = frozenset(x for x, v in finds.items() if v.value != "cannot")
    low = min(s.found_count.value[0] for s in spaces)
    high = max(s.found_count.value[1] for s in spaces)
    statuses = {s.status.value for s in spaces}
    performed = {s.performed for s in spaces}
    masks: dict[str, tuple[int, int]] = {}
    for space in spaces:
        for label, (fits, required) in space.masks.items():
            known = masks.get(label, (0, required))
            masks[label] = (known[0] | fits, known[1] & required)
    return replace(
        full,
        finds=finds,
        must_find=must,
        may_find=findable - must,
        found_count=Verdict([low, high], full.found_count.rule, full.found_count.reason),
        min_if_searching=min(s.min_if_searching for s in spaces),
        status=full.status if len(statuses) == 1 else Verdict("may", full.status.rule, why),
        performed=performed.pop() if len(performed) == 1 else "if_searched",
        searched_zones=tuple(z for z in full.zones if any(z in s.searched_zones for s in spaces)),
        masks=masks,
        # A public card must be found only on lines of play where every line requires it: with
        # "library and/or graveyard" the searcher may leave the graveyard out (and fail to find).
        room_required=(
            full.room_required
            if all(s.room_required == full.room_required for s in spaces)
            else None
        ),
        library_chosen=_library_chosen(spaces),
    )


def _library_chosen(spaces: Sequence[SearchSpace]) -> str:
    """ "yes", "no" or "open": is the library among the zones searched on every line?"""
    chosen = {s.library_chosen for s in spaces}
    return chosen.pop() if len(chosen) == 1 else "open"

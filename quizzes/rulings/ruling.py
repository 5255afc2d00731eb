"""A `Ruling`: one question as one learner sees it, ruled by the engine once.

Made once per request from a question and a variant seed (or from the variant stored when the
question was shown): it parses the scenario once, resolves it once per line of play, and answers
every claim of the question from that. The board, the wording of claims, the line of play the
question assumes, and the order statements are shown in all come from here.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from quizzes.rulings import variants
from quizzes.rulings.board import Board, build_board
from quizzes.rulings.claims import (
    LEGAL_FIND_SET,
    LEGAL_SET_OUTSIDE_QUESTION,
    LEGAL_SET_QUESTION,
    WISH_ROLES,
    ClaimText,
    Context,
    Subject,
    claim_text,
)
from quizzes.rulings.frozen import FrozenSession, NotStored, StoredChoice, StoredResult
from quizzes.rulings.sessions import session_for
from rules.engine import (
    Catalog,
    ChoiceVerdict,
    ClaimResult,
    Mismatch,
    Outcome,
    Session,
    TimingFinding,
    check_expectations,
    timing_findings,
)

CARD_KEYS = ("card",)
STATEMENT_KINDS = frozenset({"yes_no", "multiple_choice"})


# A choice that puts cards somewhere, said of the player who does it.
PUT_WORDS = {
    "library": gettext_lazy("%(player)s puts %(cards)s in their library."),
    "hand": gettext_lazy("%(player)s puts %(cards)s in their hand."),
    "graveyard": gettext_lazy("%(player)s puts %(cards)s in their graveyard."),
    "battlefield": gettext_lazy("%(player)s puts %(cards)s on the battlefield."),
    "exile": gettext_lazy("%(player)s puts %(cards)s in exile."),
    "outside": gettext_lazy("%(player)s puts %(cards)s outside the game."),
    "stack": gettext_lazy("%(player)s puts %(cards)s on the stack."),
}


def asked_claim(claim: Mapping[str, Any]) -> dict[str, Any]:
    """The claim as the engine takes it: without the statement shown or a stored value."""
    return {key: value for key, value in claim.items() if key not in ("proposed", "value")}


def shown_order(count: int, kind: str, *parts: Any) -> list[int]:
    """The order statements are shown in: a shuffle fixed per (question, variant, learner)."""
    order = list(range(count))
    if kind in STATEMENT_KINDS:
        random.Random(":".join(str(part) for part in parts)).shuffle(order)
    return order


@dataclass(frozen=True)
class Shown:
    """What a learner was shown, stored so an answer and its feedback use exactly that."""

    spec: dict[str, Any]
    claims: list[dict[str, Any]]
    players: dict[str, str]
    cards: dict[str, str]
    seed: int

    def to_json(self) -> dict[str, Any]:
        return {
            "spec": self.spec,
            "claims": self.claims,
            "players": self.players,
            "cards": self.cards,
            "seed": self.seed,
        }

    @property
    def names(self) -> dict[str, str]:
        """This variant's renames: English card or player name -> the one shown."""
        return {**self.cards, **self.players}

    def rename(self, text: str) -> str:
        """Authored prose (prompt, title, the source's ruling) in this variant's names."""
        variant = variants.Variant(self.spec, self.claims, self.seed, self.players, self.cards)
        return variant.rename_text(text)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Shown:
        return cls(
            dict(data["spec"]),
            list(data["claims"]),
            dict(data.get("players", {})),
            dict(data.get("cards", {})),
            int(data.get("seed", 0)),
        )


class Ruling:
    """The engine's view of one question as shown: board, claims in shown order, answers."""

    def __init__(self, kind: str, shown: Shown, session: Session | FrozenSession) -> None:
        self.kind = kind
        self.shown = shown
        self.session = session
        self.claims = shown.claims
        asked = frozenset(
            str(claim[key]) for claim in self.claims for key in CARD_KEYS if key in claim
        )
        self.board: Board = build_board(session.scenario, asked, str(shown.seed))

    @classmethod
    def build(
        cls,
        kind: str,
        spec: Mapping[str, Any],
        claims: Sequence[Mapping[str, Any]],
        seed: int,
        *,
        order_key: Sequence[Any] = (),
        catalog: Catalog | None = None,
        shuffle: bool = True,
    ) -> Ruling:
        """The question's variant `seed`, its statements shuffled by `order_key` (as written
        without `shuffle`; raises ScenarioError for a scenario the engine rejects)."""
        variant, session = variants.build(spec, [dict(c) for c in claims], seed, catalog)
        order = list(range(len(variant.claims)))
        if shuffle:
            order = shown_order(len(variant.claims), kind, *order_key, seed)
        shown = Shown(
            dict(variant.spec),
            [variant.claims[index] for index in order],
            dict(variant.players),
            dict(variant.cards),
            seed,
        )
        return cls(kind, shown, session)

    @classmethod
    def stored(cls, kind: str, shown: Shown, ruled: Mapping[str, Any]) -> Ruling:
        """A stored variant (`frozen.freeze`), shown as `shown`: no engine run."""
        return cls(kind, shown, FrozenSession(ruled, shown.spec))

    @classmethod
    def from_shown(cls, kind: str, shown: Shown, catalog: Catalog | None = None) -> Ruling:
        """Exactly what was shown (no variant search): one parse, one resolution (none when
        this process served it)."""
        return cls(kind, shown, session_for(shown.spec, catalog))

    # The engine, asked once per line of play.

    def evaluate(self, claim: Mapping[str, Any]) -> ClaimResult | StoredResult:
        return self.session.evaluate(asked_claim(claim))

    def check_find_choice(
        self, searcher: str, labels: Sequence[str]
    ) -> ChoiceVerdict | StoredChoice:
        return self.session.check_find_choice(searcher, labels)

    def outcome(self) -> Outcome:
        """Every claim the engine computes for the scenario as shown."""
        return self.session.resolve()

    def casting_timing(self) -> tuple[TimingFinding, ...]:
        """Each spell the scenario casts when the rules don't allow (CR 307.1 and its kin)."""
        return timing_findings(self.engine_session().scenario)

    def mismatches(self) -> list[Mismatch]:
        """The stored `expect` claims the engine computes differently."""
        return check_expectations(self.engine_session().scenario)

    # Words.

    def rename(self, text: str) -> str:
        """Authored prose (prompt, title, the source's ruling) in this variant's names."""
        return self.shown.rename(text)

    def subject(self, claim: Mapping[str, Any]) -> Subject:
        return Subject(
            card=self.board.name(str(claim.get("card", ""))),
            player=str(claim.get("player", "")),
            searcher=str(claim.get("searcher", "")),
            whose=str(claim.get("whose", "")),
            kind=str(claim.get("kind", "")),
            other=str(claim.get("other", "")),
            source=self.board.name(str(claim["source"])) if claim.get("source") else "",
            dying=tuple(self.board.name(str(label)) for label in claim.get("dies", ())),
            active=next((p.name for p in self.board.players if p.is_active), ""),
            step=str(claim.get("step", "")),
            after=str(claim.get("after", "")),
            stack=int(claim.get("stack", 0) or 0),
            waiting=bool(claim.get("waiting", False)),
            first_turn=bool(claim.get("first_turn", False)),
            steps=tuple(str(step) for step in claim.get("steps", ())),
        )

    def text_of(self, claim: Mapping[str, Any]) -> ClaimText:
        """The claim's wording on this board: a wish's as a choice from outside the game."""
        return text_for(self, claim)

    def engine_session(self) -> Session:
        """The engine session, for what a stored variant does not hold (the whole outcome,
        timing, `expect`): a ruling built by `for_variant` or `from_shown`."""
        if isinstance(self.session, FrozenSession):
            raise NotStored("a stored variant holds the claims asked, not the engine's session")
        return self.session

    def searchers(self) -> tuple[str, ...]:
        """The players who search (or wish) on the question's line of play."""
        if isinstance(self.session, FrozenSession):
            return self.session.searchers
        searches = self.session.evaluation().resolution.searches
        return tuple(sorted({space.searcher for space in searches}))

    def context(self, claim: Mapping[str, Any]) -> Context:
        return Context(
            players=tuple(self.session.scenario.state.players),
            library_sizes=self.board.library_sizes(),
            card_costs=self.board.card_mana_costs(str(claim.get("card", ""))),
            mana=self.board.mana_symbols,
        )

    def chooses_outside_only(self, searcher: str) -> bool:
        """Does `searcher` only choose cards from outside the game (a wish), searching no zone?
        The engine cites 400.11b for such an instruction."""
        return self.evaluate({"claim": "searches", "player": searcher}).rule == "400.11b"

    def ask(self, claim: Mapping[str, Any]) -> str:
        """The claim as a question, without its value."""
        if claim["claim"] == LEGAL_FIND_SET:
            subject = self.subject(claim)
            question = (
                LEGAL_SET_OUTSIDE_QUESTION
                if self.chooses_outside_only(claim["searcher"])
                else LEGAL_SET_QUESTION
            )
            text = str(question).format(searcher=subject.searcher, in_whose=subject.in_whose)
            return text[:1].upper() + text[1:]
        return self.text_of(claim).ask(self.subject(claim))

    def state(self, claim: Mapping[str, Any], value: Any) -> str:
        """The claim with `value` as a statement."""
        return self.text_of(claim).state(value, self.subject(claim))

    def words(self, claim: Mapping[str, Any], value: Any) -> str:
        return self.text_of(claim).words(value)

    def premises(self) -> list[str]:
        """The line of play the question assumes, as sentences: the resolving step's fixed
        choices, then each claim's "given" choices."""
        sentences: list[str] = []
        resolve = self.session.scenario.resolve
        if resolve is not None:
            sentences += self._choice_sentences(resolve.choices)
            if resolve.x is not None:
                sentences.append(_("X is %(value)s.") % {"value": resolve.x})
        for claim in self.claims:
            for sentence in self._choice_sentences(claim.get("given") or {}):
                if sentence not in sentences:
                    sentences.append(sentence)
        return sentences

    def history(self) -> list[str]:
        """What happened earlier this turn, each step with the choices made in it."""
        lines = []
        for step, text in zip(self.session.scenario.history, self.board.history, strict=True):
            choices = self._choice_sentences(getattr(step, "choices", None) or {})
            lines.append(" ".join([text.rstrip(".") + ".", *choices]))
        return lines

    def _names(self, labels: Sequence[str]) -> str:
        names = [self.board.name(str(label)) for label in labels]
        if not names:
            return _("nothing")
        if len(names) == 1:
            return names[0]
        return _("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}

    def _choice_sentences(self, choices: Mapping[str, Mapping[str, Any]]) -> list[str]:
        sentences = []
        for player, decisions in choices.items():
            for key, value in decisions.items():
                sentence = self._choice_sentence(player, key, value)
                if sentence:
                    sentences.append(sentence[:1].upper() + sentence[1:])
        return sentences

    def _choice_sentence(self, player: str, key: str, value: Any) -> str:
        said = {"player": player}
        if key == "find":
            return _("%(player)s finds %(cards)s.") % {**said, "cards": self._names(value)}
        if key == "search":
            if value:
                return _("%(player)s chooses to search.") % said
            return _("%(player)s chooses not to search.") % said
        if key == "choose":
            return _("%(player)s chooses %(card)s.") % {**said, "card": self.board.name(str(value))}
        if key == "name":
            return _("%(player)s names %(name)s.") % {**said, "name": value}
        if key == "ignore_prohibition":
            if value:
                return _("%(player)s ignores the search prohibition.") % said
            return _("%(player)s does not ignore the search prohibition.") % said
        if key == "mana":
            return _("%(player)s chooses %(mana)s as the mana produced.") % {**said, "mana": value}
        if key == "opponent_chooses":
            return _("%(player)s chooses %(cards)s from the cards found.") % {
                **said,
                "cards": self._names(value),
            }
        if key == "alt_cost":
            if value:
                return _("%(player)s casts it by paying its alternative cost.") % said
            return _("%(player)s casts it by paying its mana cost.") % said
        if key == "dredge":
            if value is False:
                return _("%(player)s draws instead of dredging.") % said
            labels = value if isinstance(value, list | tuple) else [value]  # the card, by name
            return _("%(player)s replaces the draw with the dredge of %(card)s.") % {
                **said,
                "card": self._names(labels),
            }
        if key == "x":
            return _("X is %(value)s.") % {"value": value}
        if key in PUT_WORDS:
            return str(PUT_WORDS[key]) % {**said, "cards": self._names(value)}
        return ""


def chooses_outside(ruling: Ruling, claim: Mapping[str, Any]) -> bool:
    """Is `claim` about a wish, the only "search" a choice from outside the game (not a zone, CR
    400.11): its searcher's (`WISH_ROLES`), or for a card, every searcher's of the line?"""
    if claim["claim"] == "finds":
        searchers = ruling.searchers()
        return bool(searchers) and all(ruling.chooses_outside_only(p) for p in searchers)
    role = WISH_ROLES.get(claim["claim"])
    searcher = claim.get(role) if role else None
    return bool(searcher) and ruling.chooses_outside_only(str(searcher))


def text_for(ruling: Ruling, claim: Mapping[str, Any]) -> ClaimText:
    """How `claim` is worded on `ruling`'s board: a wish's as a choice from outside the game."""
    return claim_text(claim["claim"], outside=chooses_outside(ruling, claim))

"""Question kinds, one class each: which claims it asks, its form fields, the shape of an answer,
how it is graded against the engine, and how it is exported to Moodle XML.

Every kind reads a `Ruling` (the question as shown, ruled once) and the claim table; values are
compared with `values.same` only.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from html import escape
from typing import Any, ClassVar

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from quizzes.rulings import certification
from quizzes.rulings.claims import CHOICE, MAX_NUMBER, NUMBER, ORDER, PLAYERS, RANGE, claim_text
from quizzes.rulings.reasons import say
from quizzes.rulings.ruling import Ruling
from quizzes.rulings.values import plain, same
from quizzes.rulings.verdict import Part

FIND_CHOICES = [
    ("must", pgettext_lazy("found", "must")),
    ("may", pgettext_lazy("found", "may")),
    ("cannot", pgettext_lazy("found", "can't")),
]
TRUE_FALSE = [("yes", gettext_lazy("True")), ("no", gettext_lazy("False"))]


# What each player's place in an order answer is (the order they decide in, or the order their
# triggered abilities resolve in: 603.3b).
ORDER_LABELS = {
    "": gettext_lazy("%(player)s decides"),
    "trigger_order": gettext_lazy("Place of %(player)s's triggered abilities"),
}


class AnswerError(ValueError):
    """The answer does not fit the question (wrong shape, unknown card)."""


# Moodle's grade list (`question_bank::fraction_options_full`, lib/questionlib.php): its XML
# importer refuses an answer whose fraction is not within 0.00001 of one of these or of their
# negatives (`match_grade_options`, question/format.php), so a question with one is lost.
MOODLE_GRADES = (
    1.0, 0.9, 0.8333333, 0.8, 0.75, 0.7, 0.6666667, 0.6, 0.5, 0.4, 0.3333333, 0.3, 0.25, 0.2,
    0.1666667, 0.1428571, 0.125, 0.1111111, 0.1, 0.05, 0.0,
)  # fmt: skip


def moodle_grade(percent: float) -> str | None:
    """`percent` as Moodle XML writes a fraction ("33.33333"), or None when its importer would
    refuse it (1/11 = 9.09091 is on no list)."""
    for grade in MOODLE_GRADES:
        for signed in (grade, -grade):
            if abs(percent / 100 - signed) < 0.00001:
                return _fraction(signed * 100)
    return None


@dataclass
class MoodleQuestion:
    kind: str  # multichoice, truefalse, numerical
    name: str
    html: str
    feedback: str
    answers: list[tuple[str, str]]  # (fraction, answer text)
    single: bool = True


def encode(value: Any) -> str:
    """A value as the string a form field carries: JSON, so true, 3 and "3" stay distinct."""
    return json.dumps(plain(value), separators=(",", ":"))


def _why(ruling: Ruling, claim: Mapping[str, Any], result) -> str:
    rule = f" (rule {result.rule})" if result.rule else ""
    words = ruling.words(claim, result.value)
    return f"<p>{escape(words)}{escape(rule)}: {escape(say(result.reason))}</p>"


def _part(ruling: Ruling, claim, result, given: Any, right: bool) -> Part:
    return Part(
        question=ruling.ask(claim),
        given=ruling.words(claim, given),
        expected=ruling.words(claim, result.value),
        right=right,
        rule=str(result.rule or ""),
        reason=say(result.reason),
    )


def answer_key(ruling: Ruling) -> list[Part]:
    """What each claim the question asks comes to, with its rule and reason: an answer key
    (for a paper quiz's key pages; never shown to a learner before their answer)."""
    key = []
    for claim in ruling.claims:
        result = ruling.evaluate(claim)
        key.append(_part(ruling, claim, result, result.value, True))
    return key


class QuestionKind:
    """One way of asking: subclasses fill in the claims they take, fields, answer and grade."""

    name: ClassVar[str]  # Question.Kind's value; its label is the kind's display name
    claims: ClassVar[frozenset[str] | None] = None  # None: any claim the table knows
    proposes: ClassVar[bool] = False  # claims carry the "proposed" value a statement shows
    single: ClassVar[bool] = False  # asks exactly one claim

    def problem(self, claims: list[dict]) -> str:
        """Why `claims` do not fit this kind, or "" when they do."""
        for index, claim in enumerate(claims):
            name = claim["claim"]
            if self.claims is not None and name not in self.claims:
                asks = sorted(self.claims)
                return f"claims[{index}]: a {self.name} question asks {asks}, not {name!r}."
            if self.proposes and "proposed" not in claim:
                return (
                    f'claims[{index}]: a {self.name} question states a "proposed" value per claim.'
                )
            if not self.proposes and "proposed" in claim:
                return f'claims[{index}]: only yes_no and multiple_choice claims carry "proposed".'
        if self.single and len(claims) != 1:
            return f"A {self.name} question asks exactly one claim."
        return ""

    def fields(self, ruling: Ruling) -> dict[str, forms.Field]:
        raise NotImplementedError

    def answer(self, ruling: Ruling, cleaned: Mapping[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def grade(self, ruling: Ruling, answer: Mapping[str, Any]) -> list[Part]:
        raise NotImplementedError

    def moodle(self, ruling: Ruling, name: str, html: str) -> list[MoodleQuestion]:
        return []

    def card_fields(self, ruling: Ruling) -> dict[str, str]:
        """Card reference -> the field that marks that card on the board."""
        return {}

    picks_cards: ClassVar[bool] = False


class Cards(QuestionKind):
    name = "cards"
    claims = frozenset({"finds"})

    def fields(self, ruling):
        return {
            f"claim_{i}": forms.ChoiceField(
                label=ruling.board.name(str(claim["card"])),
                choices=FIND_CHOICES,
                widget=forms.RadioSelect,
            )
            for i, claim in enumerate(ruling.claims)
        }

    def card_fields(self, ruling):
        return {ruling.board.ref(str(c["card"])): f"claim_{i}" for i, c in enumerate(ruling.claims)}

    def answer(self, ruling, cleaned):
        return {"parts": [cleaned[f"claim_{i}"] for i in range(len(ruling.claims))]}

    def grade(self, ruling, answer):
        said = answer.get("parts")
        if not isinstance(said, list) or len(said) != len(ruling.claims):
            raise AnswerError(_("Mark every highlighted card."))
        parts = []
        for claim, given in zip(ruling.claims, said, strict=True):
            result = ruling.evaluate(claim)
            parts.append(_part(ruling, claim, result, given, same(result.value, given)))
        return parts

    def moodle(self, ruling, name, html):
        made = []
        for claim in ruling.claims:
            result = ruling.evaluate(claim)
            asked = escape(ruling.ask(claim))
            made.append(
                MoodleQuestion(
                    "multichoice",
                    f"{name}: {ruling.board.name(str(claim['card']))}",
                    html + f"<p><strong>{asked}</strong></p>",
                    _why(ruling, claim, result),
                    _choice_answers(ruling, claim, result.value),
                )
            )
        return made


def _number_field(label: str) -> forms.IntegerField:
    return forms.IntegerField(label=label, min_value=0, max_value=MAX_NUMBER)


def _range_fields() -> dict[str, forms.Field]:
    return {
        "low": _number_field(_("At least")),
        "high": _number_field(_("At most")),
    }


def _range_answer(given: Any) -> list[int]:
    if (
        not isinstance(given, list)
        or len(given) != 2
        or not all(isinstance(n, int) and not isinstance(n, bool) for n in given)
    ):
        raise AnswerError(_("Give the fewest and the most as two numbers."))
    return given


class CountRange(QuestionKind):
    name = "count_range"
    claims = frozenset({"found_count"})
    single = True

    def fields(self, ruling):
        return _range_fields()

    def answer(self, ruling, cleaned):
        return {"range": [cleaned["low"], cleaned["high"]]}

    def grade(self, ruling, answer):
        claim = ruling.claims[0]
        given = _range_answer(answer.get("range"))
        result = ruling.evaluate(claim)
        return [_part(ruling, claim, result, given, same(result.value, given))]

    def moodle(self, ruling, name, html):
        claim = ruling.claims[0]
        result = ruling.evaluate(claim)
        low, high = result.value
        return [
            MoodleQuestion(
                "numerical",
                f"{name}: the {word}",
                html + f"<p><strong>Give the {word} cards.</strong></p>",
                _why(ruling, claim, result),
                [("100", str(number))],
            )
            for word, number in (("fewest", low), ("most", high))
        ]


def value_choices(ruling: Ruling, claim: Mapping[str, Any]) -> list[Any]:
    """The values offered for a choice: the claim's domain, and the computed value where the
    domain lacks it (placed by the variant's seed, so its place says nothing)."""
    text = claim_text(claim["claim"])
    options = text.choices(ruling.subject(claim), ruling.context(claim))
    value = ruling.evaluate(claim).value
    if not any(same(value, option) for option in options):
        rng = random.Random(f"{ruling.shown.seed}:{claim['claim']}")
        options.insert(rng.randrange(len(options) + 1), plain(value))
    return options


def _choice_answers(ruling, claim, value) -> list[tuple[str, str]]:
    return [
        ("100" if same(value, option) else "0", ruling.words(claim, option))
        for option in value_choices(ruling, claim)
    ]


class Value(QuestionKind):
    name = "value"
    single = True

    def fields(self, ruling):
        claim = ruling.claims[0]
        text = claim_text(claim["claim"])
        asked = ruling.ask(claim)
        if text.answer == RANGE:
            return _range_fields()
        if text.answer == NUMBER:
            return {"number": _number_field(asked)}
        if text.answer == PLAYERS:
            seats = ruling.context(claim).players
            return {
                "players": forms.MultipleChoiceField(
                    label=asked,
                    choices=[(name, name) for name in seats],
                    widget=forms.CheckboxSelectMultiple,
                    required=False,
                )
            }
        if text.answer == ORDER:
            players = [player.name for player in ruling.board.players]
            positions = [(str(n), str(n)) for n in range(1, len(players) + 1)]
            label = ORDER_LABELS.get(claim["claim"], ORDER_LABELS[""])
            return {
                f"order_{i}": forms.TypedChoiceField(
                    label=str(label) % {"player": name},
                    choices=positions,
                    coerce=int,
                )
                for i, name in enumerate(players)
            }
        return {
            "claim_0": forms.ChoiceField(
                label=asked,
                choices=[
                    (encode(option), ruling.words(claim, option))
                    for option in value_choices(ruling, claim)
                ],
                widget=forms.RadioSelect,
            )
        }

    def answer(self, ruling, cleaned):
        text = claim_text(ruling.claims[0]["claim"])
        if text.answer == RANGE:
            return {"value": [cleaned["low"], cleaned["high"]]}
        if text.answer == NUMBER:
            return {"value": cleaned["number"]}
        if text.answer == PLAYERS:
            chosen = set(cleaned["players"])
            return {"value": [name for name in ruling.context({}).players if name in chosen]}
        if text.answer == ORDER:
            players = [player.name for player in ruling.board.players]
            ranked = sorted(range(len(players)), key=lambda i: cleaned[f"order_{i}"])
            return {"value": [players[i] for i in ranked]}
        return {"value": json.loads(cleaned["claim_0"])}

    def grade(self, ruling, answer):
        claim = ruling.claims[0]
        if "value" not in answer:
            raise AnswerError(_("Give an answer."))
        given = answer["value"]
        if claim_text(claim["claim"]).answer == RANGE:
            given = _range_answer(given)
        result = ruling.evaluate(claim)
        return [_part(ruling, claim, result, given, same(result.value, given))]

    def moodle(self, ruling, name, html):
        claim = ruling.claims[0]
        result = ruling.evaluate(claim)
        answer = claim_text(claim["claim"]).answer
        if answer == NUMBER:
            return [
                MoodleQuestion(
                    "numerical",
                    name,
                    html,
                    _why(ruling, claim, result),
                    [("100", str(result.value))],
                )
            ]
        if answer != CHOICE:
            return []  # a range or an order has no single Moodle answer
        return [
            MoodleQuestion(
                "multichoice",
                name,
                html,
                _why(ruling, claim, result),
                _choice_answers(ruling, claim, result.value),
            )
        ]


def _statement(ruling: Ruling, claim) -> tuple[str, bool, Any]:
    """A shown statement, whether the engine makes it true, and the engine's result."""
    result = ruling.evaluate(claim)
    return (
        ruling.state(claim, claim.get("proposed")),
        same(result.value, claim.get("proposed")),
        result,
    )


def _statement_part(ruling: Ruling, claim, says_true: bool) -> Part:
    text, truth, result = _statement(ruling, claim)
    return Part(
        question=text,
        given=_("true") if says_true else _("false"),
        expected=_("true") if truth else _("false"),
        right=says_true == truth,
        rule=str(result.rule or ""),
        reason=say(result.reason),
        fact="" if truth else ruling.state(claim, result.value),
    )


class YesNo(QuestionKind):
    name = "yes_no"
    proposes = True

    def fields(self, ruling):
        return {
            f"claim_{i}": forms.ChoiceField(
                label=ruling.state(claim, claim.get("proposed")),
                choices=TRUE_FALSE,
                widget=forms.RadioSelect,
            )
            for i, claim in enumerate(ruling.claims)
        }

    def answer(self, ruling, cleaned):
        return {"parts": [cleaned[f"claim_{i}"] for i in range(len(ruling.claims))]}

    def grade(self, ruling, answer):
        said = answer.get("parts")
        if (
            not isinstance(said, list)
            or len(said) != len(ruling.claims)
            or not set(said)
            <= {
                "yes",
                "no",
            }
        ):
            raise AnswerError(_("Answer true or false for every statement."))
        return [
            _statement_part(ruling, claim, word == "yes")
            for claim, word in zip(ruling.claims, said, strict=True)
        ]

    def moodle(self, ruling, name, html):
        made = []
        for number, claim in enumerate(ruling.claims, start=1):
            text, truth, result = _statement(ruling, claim)
            made.append(
                MoodleQuestion(
                    "truefalse",
                    f"{name}: statement {number}",
                    html + f"<p>True or false? <strong>{escape(text)}</strong></p>",
                    _why(ruling, claim, result),
                    [("100" if truth else "0", "true"), ("0" if truth else "100", "false")],
                )
            )
        return made


class MultipleChoice(QuestionKind):
    name = "multiple_choice"
    proposes = True

    def fields(self, ruling):
        return {
            "statements": forms.MultipleChoiceField(
                label=_("Tick every true statement"),
                choices=[
                    (str(i), ruling.state(claim, claim.get("proposed")))
                    for i, claim in enumerate(ruling.claims)
                ],
                widget=forms.CheckboxSelectMultiple,
                required=False,
            )
        }

    def answer(self, ruling, cleaned):
        return {"true": sorted(int(i) for i in cleaned["statements"])}

    def grade(self, ruling, answer):
        ticked = answer.get("true", [])
        if not isinstance(ticked, list) or not all(
            isinstance(i, int) and not isinstance(i, bool) for i in ticked
        ):
            raise AnswerError(_("Tick the true statements."))
        chosen = set(ticked)
        return [
            _statement_part(ruling, claim, index in chosen)
            for index, claim in enumerate(ruling.claims)
        ]

    def moodle(self, ruling, name, html):
        statements = [_statement(ruling, claim) for claim in ruling.claims]
        feedback = "".join(
            _why(ruling, claim, result)
            for claim, (_text, _truth, result) in zip(ruling.claims, statements, strict=True)
        )
        true_count = sum(truth for _text, truth, _result in statements)
        false_count = len(statements) - true_count
        if not true_count:
            return YesNo().moodle(ruling, name, html)
        right, wrong = moodle_grade(100 / true_count), moodle_grade(-100 / max(false_count, 1))
        if right is not None and wrong is not None:
            answers = [(right if truth else wrong, text) for text, truth, _result in statements]
            return [MoodleQuestion("multichoice", name, html, feedback, answers, single=False)]
        # Shares off Moodle's grade list, which stock Moodle's importer refuses: one true/false
        # question per statement instead (an all-or-nothing type needs a plugin, and a file with
        # one unknown type imports nothing).
        return YesNo().moodle(ruling, name, html)


def _fraction(value: float) -> str:
    return f"{value:.5f}".rstrip("0").rstrip(".")


class LegalSet(QuestionKind):
    name = "legal_set"
    claims = frozenset({"legal_find_set"})
    single = True
    picks_cards = True

    def fields(self, ruling):
        return {
            "cards": forms.MultipleChoiceField(
                label=_("Cards to find"),
                choices=[(card.ref, card.phrase) for card in ruling.board.cards.values()],
                widget=forms.CheckboxSelectMultiple,
                required=False,
            )
        }

    def answer(self, ruling, cleaned):
        return {"cards": [ruling.board.label_of(ref) for ref in cleaned["cards"]]}

    def grade(self, ruling, answer):
        picked = answer.get("cards")
        if not isinstance(picked, list) or not all(
            isinstance(label, str) and label in ruling.board.cards for label in picked
        ):
            raise AnswerError(_("Pick cards that are on the board."))
        claim = ruling.claims[0]
        choice = ruling.check_find_choice(claim.get("searcher"), list(picked))
        names = [ruling.board.name(label) for label in picked]
        return [
            Part(
                question=ruling.ask(claim),
                given=", ".join(names) if names else _("no cards"),
                expected=_("a legal choice") if choice.legal else _("not a legal choice"),
                right=bool(choice.legal),
                rule=str(choice.rule or ""),
                reason=say(choice.reason),
            )
        ]


class OutcomeReason(QuestionKind):
    """The certification style (certification.py): one option to choose, right only when both
    its outcome and its reason are the engine's."""

    name = certification.KIND
    proposes = True

    def problem(self, claims):
        if not claims:
            return f"A {self.name} question asks at least one claim."
        focus = claims[0]
        if focus["claim"] not in certification.REASONS:
            about = sorted(certification.REASONS)
            return f"claims[0]: a {self.name} question's reasons are about {about}."
        options = focus.get("proposed")
        if not isinstance(options, list) or not 3 <= len(options) <= 5:
            return f'claims[0]: a {self.name} question states 3 to 5 options in "proposed".'
        for option in options:
            values = option.get("values") if isinstance(option, dict) else None
            if not isinstance(values, list) or len(values) != len(claims):
                return f"claims[0]: each option names a value for each of the {len(claims)} claims."
            if option.get("reason") not in certification.REASONS[focus["claim"]]:
                return f"claims[0]: the reason {option.get('reason')!r} is not in the table."
        for index, claim in enumerate(claims[1:], start=1):
            if "proposed" in claim:
                return f'claims[{index}]: only the focus claim carries "proposed".'
        return ""

    def fields(self, ruling):
        options = certification.options_of(ruling)
        return {
            "option": forms.ChoiceField(
                label=_("Choose the option whose outcome and reason are both right"),
                choices=[
                    (str(place), certification.option_text(ruling, options[index]))
                    for place, index in enumerate(certification.shown_positions(ruling))
                ],
                widget=forms.RadioSelect,
            )
        }

    def answer(self, ruling, cleaned):
        positions = certification.shown_positions(ruling)
        return {"option": positions[int(cleaned["option"])]}

    def grade(self, ruling, answer):
        options = certification.options_of(ruling)
        chosen = answer.get("option")
        if (
            not isinstance(chosen, int)
            or isinstance(chosen, bool)
            or not 0 <= chosen < len(options)
        ):
            raise AnswerError(_("Choose one of the options."))
        focus = ruling.claims[0]
        result = ruling.evaluate(focus)
        right = [option for option in options if certification.is_right(ruling, option)]
        return [
            Part(
                question=ruling.ask(focus),
                given=certification.option_text(ruling, options[chosen], rule=False),
                expected=certification.option_text(ruling, right[0], rule=False) if right else "",
                right=certification.is_right(ruling, options[chosen]),
                rule=str(result.rule or ""),
                reason=say(result.reason),
            )
        ]

    def moodle(self, ruling, name, html):
        options = certification.options_of(ruling)
        focus = ruling.claims[0]
        return [
            MoodleQuestion(
                "multichoice",
                name,
                html,
                _why(ruling, focus, ruling.evaluate(focus)),
                [
                    (
                        "100" if certification.is_right(ruling, options[index]) else "0",
                        certification.option_text(ruling, options[index]),
                    )
                    for index in certification.shown_positions(ruling)
                ],
            )
        ]


KINDS: dict[str, QuestionKind] = {
    kind.name: kind()
    for kind in (Cards, CountRange, YesNo, MultipleChoice, LegalSet, Value, OutcomeReason)
}


def kind_of(name: str) -> QuestionKind:
    return KINDS[name]

"""Moodle XML into a bank: multichoice (one or several answers), truefalse, numerical and
shortanswer questions become `ImportedQuestion`s, stored with their key and no board.

The file is parsed by defusedxml with DTDs refused, so entities (billion laughs) and external
references (XXE) never expand. Every question is checked before anything is saved; each
problem names the question and the reason ("Tau Question: essay questions are not imported
..."); one problem and nothing is saved. Text is sanitised (`quizzes.authored.clean`) as it
comes in; sizes are bounded (`limits.MAX_MOODLE_*` and the bank file's byte limit).
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field
from xml.etree.ElementTree import Element, ParseError

import defusedxml.ElementTree as safe_xml
from defusedxml import DefusedXmlException
from django.db import transaction
from django.utils.html import strip_tags
from django.utils.translation import gettext as _

from quizzes import authored, limits
from quizzes.instructors import banks
from quizzes.instructors.interchange import InterchangeError, size_problem
from quizzes.models import Bank, ImportedQuestion
from quizzes.rulings.kinds import moodle_grade

KINDS = {kind.value for kind in ImportedQuestion.Kind}
NAME_LENGTH = 255


@dataclass
class MoodlePlan:
    questions: list[ImportedQuestion] = field(default_factory=list)
    categories: int = 0  # category entries read (Tutor keeps no categories: one bank)


def _text(element: Element | None, path: str = "text") -> str:
    found = element.find(path) if element is not None else None
    return (found.text or "") if found is not None else ""


def _fraction(raw: str | None) -> float | None:
    try:
        value = float(raw if raw is not None else "")
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _is_number(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


class _Checker:
    """Reads one <question>, adding each problem with the question's name."""

    def __init__(self, element: Element, index: int, problems: list[str]) -> None:
        self.element = element
        self.kind = element.get("type", "")
        raw_name = " ".join(strip_tags(_text(element.find("name"))).split())
        self.name = raw_name or _("question %(number)d (no name)") % {"number": index}
        self.problems = problems

    def problem(self, reason: str) -> None:
        self.problems.append(f"{self.name[:120]}: {reason}")

    def bounded(self, text: str, limit: int, what: str) -> str:
        if len(text) > limit:
            self.problem(
                _("%(what)s has %(count)s characters, over the limit of %(limit)s")
                % {"what": what, "count": f"{len(text):,}", "limit": f"{limit:,}"}
            )
        return text

    def read(self, position: int) -> ImportedQuestion | None:
        if self.kind not in KINDS:
            self.problem(
                _(
                    "%(kind)s questions are not imported (Tutor takes multichoice, truefalse, "
                    "numerical and shortanswer)"
                )
                % {"kind": self.kind or _("untyped")}
            )
            return None
        before = len(self.problems)
        if len(self.name) > NAME_LENGTH:
            self.problem(_("the name is over %(limit)s characters") % {"limit": NAME_LENGTH})
        text = self.bounded(
            _text(self.element.find("questiontext")), limits.MAX_MOODLE_TEXT, _("the text")
        )
        if not strip_tags(text).strip():
            self.problem(_("the question has no text"))
        feedback = self.bounded(
            _text(self.element.find("generalfeedback")), limits.MAX_MOODLE_TEXT, _("the feedback")
        )
        answers = self.answers()
        tags = self.tags()
        single = _text(self.element, "single").strip().lower() not in ("false", "0")
        if self.kind == ImportedQuestion.Kind.MULTICHOICE:
            self.check_choices(answers, single)
        elif self.kind == ImportedQuestion.Kind.TRUEFALSE:
            self.check_truefalse(answers)
        else:
            self.check_best(answers)
        if len(self.problems) > before:
            return None
        return ImportedQuestion(
            source="moodle",
            name=self.name,
            kind=self.kind,
            text=authored.clean(text),
            feedback=authored.clean(feedback),
            single=single,
            case_sensitive=_text(self.element, "usecase").strip() == "1",
            answers=answers,
            tags=tags,
            position=position,
        )

    def answers(self) -> list[dict]:
        elements = self.element.findall("answer")
        if len(elements) > limits.MAX_MOODLE_ANSWERS:
            self.problem(
                _("%(count)s answers, over the limit of %(limit)s")
                % {"count": len(elements), "limit": limits.MAX_MOODLE_ANSWERS}
            )
            return []
        answers = []
        for number, element in enumerate(elements, start=1):
            fraction = _fraction(element.get("fraction"))
            if fraction is None or moodle_grade(fraction) is None:
                self.problem(
                    _("answer %(number)s: the grade %(grade)s is not one Moodle allows")
                    % {"number": number, "grade": element.get("fraction")}
                )
                continue
            text = self.bounded(
                _text(element).strip(), limits.MAX_MOODLE_ANSWER_TEXT, _("an answer")
            )
            feedback = self.bounded(
                _text(element.find("feedback")), limits.MAX_MOODLE_ANSWER_TEXT, _("a feedback")
            )
            answer = {"text": text, "fraction": fraction, "feedback": authored.clean(feedback)}
            if self.kind == ImportedQuestion.Kind.MULTICHOICE:
                answer["text"] = authored.clean(text)
            elif self.kind == ImportedQuestion.Kind.NUMERICAL:
                tolerance = _fraction(_text(element, "tolerance").strip() or "0")
                if text != "*" and not _is_number(text):
                    self.problem(
                        _("answer %(number)s: %(text)s is not a number")
                        % {"number": number, "text": repr(text[:40])}
                    )
                if tolerance is None or tolerance < 0:
                    self.problem(
                        _("answer %(number)s: the tolerance is not a number of 0 or more")
                        % {"number": number}
                    )
                answer["tolerance"] = tolerance or 0.0
            else:
                answer["text"] = " ".join(strip_tags(text).split())
            if not answer["text"]:
                self.problem(_("answer %(number)s is empty") % {"number": number})
            answers.append(answer)
        return answers

    def tags(self) -> list[str]:
        tags = [" ".join(_text(tag).split())[:100] for tag in self.element.findall("tags/tag")]
        if len(tags) > limits.MAX_MOODLE_TAGS:
            self.problem(
                _("%(count)s tags, over the limit of %(limit)s")
                % {"count": len(tags), "limit": limits.MAX_MOODLE_TAGS}
            )
        return [tag for tag in tags if tag]

    def check_choices(self, answers: list[dict], single: bool) -> None:
        if len(answers) < 2:
            self.problem(_("a multiple choice question needs at least two answers"))
            return
        if single and max(a["fraction"] for a in answers) < 99.99:
            self.problem(_("no answer is fully correct (one must have the grade 100%)"))
        if not single:
            total = sum(a["fraction"] for a in answers if a["fraction"] > 0)
            if abs(total - 100) > 0.1:
                self.problem(
                    _("the correct answers' grades add up to %(total)s%%, not 100%%")
                    % {"total": f"{total:g}"}
                )

    def check_truefalse(self, answers: list[dict]) -> None:
        texts = sorted(a["text"].lower() for a in answers)
        if texts != ["false", "true"]:
            self.problem(_("a true or false question needs the answers true and false"))
        elif max(a["fraction"] for a in answers) < 99.99:
            self.problem(_("neither true nor false is marked correct"))

    def check_best(self, answers: list[dict]) -> None:
        if not answers:
            self.problem(_("the question has no answers"))
        elif max(a["fraction"] for a in answers) < 99.99:
            self.problem(_("no answer is fully correct (one must have the grade 100%)"))


def check_moodle(user, bank: Bank, content: bytes, filename: str) -> MoodlePlan:
    """Every question of the file read and checked; nothing is saved. Raises InterchangeError
    with every problem (each naming the question) when there is any."""
    if not banks.banks_of(user).filter(pk=bank.pk).exists():
        raise InterchangeError(_("You can only import into your own banks."))
    if too_large := size_problem(content, filename):
        raise InterchangeError(too_large)
    try:
        root = safe_xml.fromstring(content, forbid_dtd=True)
    except DefusedXmlException as error:
        raise InterchangeError(
            _("%(file)s: refused: the file declares a DTD or entities (%(why)s)")
            % {"file": filename, "why": type(error).__name__}
        ) from error
    except (ParseError, ValueError) as error:
        raise InterchangeError(
            _("%(file)s: not well-formed XML (%(why)s)") % {"file": filename, "why": error}
        ) from error
    if root.tag != "quiz":
        raise InterchangeError(
            _("%(file)s: not Moodle XML (it must start with <quiz>)") % {"file": filename}
        )
    elements = root.findall("question")
    plan, problems = MoodlePlan(), []
    questions = [e for e in elements if e.get("type") != "category"]
    plan.categories = len(elements) - len(questions)
    if len(questions) > limits.MAX_MOODLE_QUESTIONS:
        raise InterchangeError(
            _("%(file)s: %(count)s questions, over the limit of %(limit)s per file")
            % {"file": filename, "count": len(questions), "limit": limits.MAX_MOODLE_QUESTIONS}
        )
    if not questions:
        raise InterchangeError(_("%(file)s: the file has no questions") % {"file": filename})
    start = bank.imported_questions.count()
    for index, element in enumerate(questions, start=1):
        read = _Checker(element, index, problems).read(start + index)
        if read is not None:
            plan.questions.append(read)
    if problems:
        raise InterchangeError(problems)
    return plan


def do_import_moodle(user, bank: Bank, plan: MoodlePlan) -> list[ImportedQuestion]:
    """Save a checked plan's questions in one transaction."""
    for question in plan.questions:
        question.bank = bank
    with transaction.atomic():
        saved = ImportedQuestion.objects.bulk_create(plan.questions)
    logging.getLogger("tutor.content").info(
        "bank %s: %d Moodle questions imported", bank.slug, len(saved),
        extra={"bank": bank.slug, "user": getattr(user, "pk", None)},
    )  # fmt: skip
    return saved


def imported_in(bank: Bank):
    return ImportedQuestion.objects.filter(bank=bank)

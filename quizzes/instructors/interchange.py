"""Banks in and out: Tutor's JSON (a list of scenario/1 documents with their questions), and
Moodle XML for a quiz elsewhere (the engine's computed answers baked in).

JSON import is checked first (every problem of the file, each with its place:
`week-3.json: scenarios[2].zones.Nadia.library[0]: unknown card 'Islnd'`), engine work included,
then written all-or-nothing: new scenarios in bulk, so 500 take seconds (`python -m bench.imports`).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Generator
from dataclasses import dataclass, field, replace
from typing import Any
from xml.sax.saxutils import escape

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Prefetch
from django.utils.html import escape as html_escape
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.inputs import plain_name
from quizzes import limits, rulings
from quizzes.instructors import bank_cards, banks
from quizzes.instructors.saving import do_create_scenarios, do_save_scenario
from quizzes.models import Bank, ImportedQuestion, Question, Scenario
from quizzes.rulings import Catalog, ScenarioError, checks, documents, preview
from quizzes.rulings.checks import EngineCheck
from quizzes.rulings.kinds import MoodleQuestion, moodle_grade
from rules.cards import catalog_for
from rules.models import Rule

FORMAT = "tutor-bank/1"


MAX_PROBLEMS = 50  # problems listed from one file; the rest are counted
REPLACE, NEW_ID = "replace", "new_id"  # what an id the bank already has means
ON_EXISTING = {
    REPLACE: gettext_lazy(
        "Replace that scenario: it gets a new version (answers given keep the old one)"
    ),
    NEW_ID: gettext_lazy(
        "Keep both: import it under a new id (each new id is listed in the report)"
    ),
}


class InterchangeError(ValueError):
    """A bad import file: each problem names the file, the entry and the field, e.g.
    `week-3.json: scenarios[2].zones.Nadia.library[0]: unknown card 'Islnd'`. At most
    `MAX_PROBLEMS` are kept; `more` counts the others."""

    def __init__(self, problems: str | list[str], more: int = 0) -> None:
        problems = [problems] if isinstance(problems, str) else list(problems)
        self.problems = problems[:MAX_PROBLEMS]
        self.more = more + max(0, len(problems) - MAX_PROBLEMS)
        lines = list(self.problems)
        if self.more:
            lines.append(f"... and {self.more} more problem{'s' if self.more != 1 else ''}")
        super().__init__("\n".join(lines))


# Tutor's JSON.


def _scenarios_with_questions(bank: Bank):
    active = Question.objects.filter(bank=bank, is_active=True).order_by("position", "id")
    return (
        Scenario.objects.in_bank(bank)
        .prefetch_related(Prefetch("questions", queryset=active, to_attr="bank_questions"))
        .order_by("slug")
    )


def export_json(bank: Bank) -> dict[str, Any]:
    """The bank as `{"format", "bank", "scenarios": [scenario/1 document + questions, ...]}`;
    it imports again as it is (`check_import`)."""
    scenarios = []
    for scenario in _scenarios_with_questions(bank):
        document = documents.document_of(scenario).to_json()
        document["questions"] = [
            {"key": q.key, "kind": q.kind, "prompt": q.prompt, "claims": q.claims}
            for q in scenario.bank_questions
        ]
        scenarios.append(document)
    return {
        "format": FORMAT,
        "bank": {"title": bank.title, "description": bank.description},
        "cards": bank_cards.cards_of(bank),  # instructors' own cards: imported with the bank
        "scenarios": scenarios,
    }


Step = tuple[str, int, int]  # ("checked" or "saved", done, total): what a generator yields


def _run(steps: Generator[Step, None, Any]) -> Any:
    """Run a generator of steps to its end; its return value."""
    while True:
        try:
            next(steps)
        except StopIteration as finished:
            return finished.value


@dataclass
class Planned:
    """One document of a checked file, with all the engine said about it (so saving runs no
    engine): its check, its questions with the rules they cite, the scenario it replaces."""

    document: documents.ScenarioDocument
    check: EngineCheck
    questions: list[tuple[str, str, str, list, set[str]]]  # key, kind, prompt, claims, cited
    replaces: Scenario | None = None
    renamed_from: str = ""  # the file's id, when imported under a new one


@dataclass
class ImportPlan:
    entries: list[Planned]
    bank_title: str | None = None  # from the file's "bank" object, when it has one
    bank_description: str | None = None
    cards: list[dict[str, Any]] = field(default_factory=list)  # the file's cards to make

    def __iter__(self):
        return iter(entry.document for entry in self.entries)

    def __len__(self) -> int:
        return len(self.entries)


def size_problem(content: bytes, filename: str) -> str:
    """Why a file is too large to read, or ""."""
    if len(content) <= limits.MAX_IMPORT_BYTES:
        return ""
    megabytes = limits.MAX_IMPORT_BYTES / 1024 / 1024
    return _("%(file)s: larger than the limit of %(megabytes)s MB per file") % {
        "file": filename,
        "megabytes": f"{megabytes:g}",
    }


def _entries_of(raw: Any, filename: str) -> list:
    if isinstance(raw, dict):
        if raw.get("format") != FORMAT:
            raise InterchangeError(f'{filename}: format: expected "{FORMAT}"')
        entries = raw.get("scenarios")
    else:
        entries = raw  # a bare list of documents
    if not isinstance(entries, list) or not entries:
        raise InterchangeError(f"{filename}: scenarios: give a non-empty list of documents")
    if len(entries) > limits.MAX_IMPORT_SCENARIOS:
        raise InterchangeError(
            f"{filename}: scenarios: {len(entries):,} documents, over the limit of "
            f"{limits.MAX_IMPORT_SCENARIOS} per file (split the file)"
        )
    return entries


def _name_problem(title: str) -> str:
    """Why a bank title from a file can't be shown as it is (`plain_name`), or ""."""
    try:
        plain_name(title, "the title")
    except ValidationError as error:
        return error.messages[0]
    return ""


def _bank_details(raw: Any, filename: str, problems: list[str]) -> tuple[str | None, str | None]:
    """The file's bank title and description (None when it has none), checked."""
    details = raw.get("bank") if isinstance(raw, dict) else None
    if details is None:
        return None, None
    if not isinstance(details, dict):
        problems.append(f"{filename}: bank: give an object with a title and a description")
        return None, None
    title, description = details.get("title"), details.get("description", "")
    if not isinstance(title, str) or not title.strip():
        problems.append(f"{filename}: bank.title: give the bank a title")
        title = None
    elif _name_problem(title):
        problems.append(f"{filename}: bank.title: {_name_problem(title)}")
        title = None
    elif len(title) > limits.MAX_BANK_TITLE:
        problems.append(f"{filename}: bank.title: over {limits.MAX_BANK_TITLE} characters")
        title = None
    if not isinstance(description, str):
        problems.append(f"{filename}: bank.description: must be text")
        description = None
    elif len(description) > limits.MAX_BANK_DESCRIPTION:
        problems.append(
            f"{filename}: bank.description: over {limits.MAX_BANK_DESCRIPTION:,} characters"
        )
        description = None
    return (title.strip() if title else None), description


def _free_id(scenario_id: str, taken: set[str]) -> str:
    number = 2
    while f"{scenario_id}-{number}" in taken:
        number += 1
    return f"{scenario_id}-{number}"


def _planned(
    document: documents.ScenarioDocument, catalog: Catalog
) -> tuple[EngineCheck, list[tuple[str, str, str, list, set[str]]]]:
    """The engine's check of a document and its questions (given, or generated)."""
    probe = Scenario(spec=document.spec, stored_expect=document.stored_expect)
    check = checks.check_with_engine(probe, catalog)
    if document.questions is None:
        generated = []
        if check.status != Scenario.EngineStatus.INVALID:
            generated = documents.generate_questions(document.spec, catalog)
        return check, [(q.key, q.kind, q.prompt, q.claims, set(q.cited_rules)) for q in generated]
    cited = document.cited
    if cited is None:
        cited = documents.cited_by_questions(document.spec, document.questions, catalog)
    return check, [
        (q["key"], q["kind"], q["prompt"], q["claims"], rules)
        for q, rules in zip(document.questions, cited, strict=True)
    ]


def _every_problem(entry: Any, catalog: Catalog, where: str, filename: str) -> list[str]:
    """Every problem of one document (not only the first), as the builder's preview finds them,
    each with its place in the file: a misspelt claim (`findz`) too, which would otherwise be
    saved as a scenario the engine "disagrees" with."""
    found = preview.preview(json.dumps(entry, ensure_ascii=False), catalog)
    return [
        documents.AuthoringError(
            f"{where}.{error.path}" if error.path else where, error.message
        ).told(filename)
        for error in found.errors
    ]


def check_import(
    user,
    bank: Bank,
    content: bytes,
    filename: str,
    catalog: Catalog | None = None,
    on_existing: str = REPLACE,
) -> ImportPlan:
    """Every document of the file, validated and engine-checked; nothing is saved.

    Every problem is collected (up to `MAX_PROBLEMS`) and raised together as InterchangeError.
    A scenario whose id the bank already has replaces it (`REPLACE`: a new version) or is
    imported under a new id (`NEW_ID`), as the instructor chose.
    """
    return _run(checking(user, bank, content, filename, catalog, on_existing))


def checking(
    user,
    bank: Bank,
    content: bytes,
    filename: str,
    catalog: Catalog | None = None,
    on_existing: str = REPLACE,
) -> Generator[Step, None, ImportPlan]:
    """`check_import`, yielding ("checked", done, total) after each document (a page shows
    the progress); returns the plan."""
    if not banks.banks_of(user).filter(pk=bank.pk).exists():
        raise InterchangeError("You can only import into your own banks.")
    if on_existing not in ON_EXISTING:
        raise InterchangeError(f"Choose what an id already in the bank means: {REPLACE}/{NEW_ID}")
    if too_large := size_problem(content, filename):
        raise InterchangeError(too_large)
    if content.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):  # Moodle XML, HTML: not JSON
        raise InterchangeError(
            f"{filename}: an XML file, not Tutor's JSON: import a file made with a bank's "
            '"Export JSON" (tutor-bank/1); Moodle XML is for importing into Moodle'
        )
    try:
        raw = documents.parse_text(content.decode("utf-8"), limits.MAX_IMPORT_BYTES, "file")
    except UnicodeDecodeError as error:
        raise InterchangeError(f"{filename}: not UTF-8 text") from error
    except documents.AuthoringError as error:
        raise InterchangeError(error.told(filename)) from error
    entries = _entries_of(raw, filename)
    problems: list[str] = []
    title, description = _bank_details(raw, filename, problems)
    catalog = catalog if catalog is not None else catalog_for(user.pk)
    new_cards = bank_cards.check_cards(user, raw, filename, catalog, problems)
    catalog = bank_cards.with_cards(catalog, new_cards)
    in_bank = {s.spec.get("id"): s for s in banks.scenarios_in(bank) if isinstance(s.spec, dict)}
    file_ids = {e.get("id") for e in entries if isinstance(e, dict)}
    taken = {*in_bank, *file_ids}
    planned, seen = [], set()
    for index, entry in enumerate(entries):
        where = f"scenarios[{index}]"
        if index:
            yield ("checked", index, len(entries))
        try:
            document = documents.read_document(entry, catalog, where)
        except documents.AuthoringError as error:  # an unknown card in the reader's language
            found = _every_problem(entry, catalog, where, filename)
            first = error.told(filename)  # a question's problem: the preview doesn't read those
            problems.extend(found if any(str(p) == str(first) for p in found) else [first, *found])
            continue
        scenario_id = document.spec.get("id")
        if not isinstance(scenario_id, str) or not scenario_id:
            problems.append(f"{filename}: {where}.id: give each scenario an id")
            continue
        if scenario_id in seen:
            problems.append(f"{filename}: {where}.id: {scenario_id!r} is used twice")
            continue
        seen.add(scenario_id)
        replaces, renamed_from = in_bank.get(scenario_id), ""
        if replaces is not None and on_existing == NEW_ID:
            new_id = _free_id(scenario_id, taken)
            taken.add(new_id)
            document = replace(document, spec={**document.spec, "id": new_id})
            replaces, renamed_from = None, scenario_id
        if problems:
            continue  # nothing will be saved: spare the engine, keep looking for problems
        check, questions = _planned(document, catalog)
        disagrees = check.status == Scenario.EngineStatus.DISAGREES  # or can't read a claim
        if disagrees and (found := _every_problem(entry, catalog, where, filename)):
            problems.extend(found)
            continue
        planned.append(Planned(document, check, questions, replaces, renamed_from))
    yield ("checked", len(entries), len(entries))
    if problems:
        raise InterchangeError(problems)
    return ImportPlan(planned, title, description, new_cards)


@dataclass
class ImportReport:
    created: list[Scenario] = field(default_factory=list)
    updated: list[Scenario] = field(default_factory=list)
    renamed: list[tuple[str, str]] = field(default_factory=list)  # (the file's id, the new id)
    cards: list = field(default_factory=list)  # the file's cards made the importer's own
    bank_details: bool = False  # the bank took the file's title and description


def do_import(
    user,
    bank: Bank,
    plan: ImportPlan,
    take_bank_details: bool = False,
) -> ImportReport:
    """Write a checked plan in one transaction: new scenarios in bulk (each with version 1 and
    its questions), replaced ones as a new version; the bank keeps its title and description
    unless `take_bank_details`, then it takes the file's. No engine runs here: `check_import`
    ran it."""
    return _run(saving(user, bank, plan, take_bank_details))


def saving(
    user, bank: Bank, plan: ImportPlan, take_bank_details: bool = False
) -> Generator[Step, None, ImportReport]:
    """`do_import`, yielding ("saved", done, total) as it goes; returns the report. The
    transaction is open between steps: run it to the end (or close it: nothing is saved)."""
    report = ImportReport()
    new = [entry for entry in plan.entries if entry.replaces is None]
    replaced = [entry for entry in plan.entries if entry.replaces is not None]
    cited = set().union(
        *(entry.check.cited_rules for entry in plan.entries),
        *(rules for entry in plan.entries for *_, rules in entry.questions),
    )
    with transaction.atomic():
        if take_bank_details and plan.bank_title is not None:
            bank.title = plan.bank_title
            if plan.bank_description is not None:
                bank.description = plan.bank_description
            bank.save(update_fields=["title", "description", "updated_at"])
            report.bank_details = True
        report.cards = bank_cards.do_create_cards(user, plan.cards)
        rules = Rule.objects.resolve_numbers(cited)
        report.created = do_create_scenarios(
            user, bank, [(e.document, e.check, e.questions) for e in new], rules
        )
        yield ("saved", len(new), len(plan.entries))
        for done, entry in enumerate(replaced, start=len(new) + 1):
            saved = do_save_scenario(
                user,
                bank,
                entry.document,
                entry.replaces,
                rules=rules,
                checked=(entry.check, entry.questions),
            )
            report.updated.append(saved)
            yield ("saved", done, len(plan.entries))
        report.renamed = [
            (entry.renamed_from, entry.document.spec["id"]) for entry in new if entry.renamed_from
        ]
    logging.getLogger("tutor.content").info(
        "bank %s: %d scenarios imported, %d replaced", bank.slug, len(new), len(replaced),
        extra={"bank": bank.slug, "user": getattr(user, "pk", None)},
    )  # fmt: skip
    return report


# Moodle XML.


def _xml_text(text: str) -> str:
    """Text for an XML element: escaped, without characters XML 1.0 forbids."""
    cleaned = "".join(ch for ch in str(text) if ch in "\t\n\r" or ord(ch) >= 0x20)
    return escape(cleaned)


def _cdata(html: str) -> str:
    cleaned = "".join(ch for ch in html if ch in "\t\n\r" or ord(ch) >= 0x20)
    return "<![CDATA[" + cleaned.replace("]]>", "]]]]><![CDATA[>") + "]]>"


def _board_html(ruling: rulings.Ruling) -> str:
    """The board and the line of play as HTML, cards by name and place."""
    board = ruling.board
    parts = []
    if board.resolving:
        targets = board.resolving.targets
        targeting = f", targeting {', '.join(targets)}" if targets else ""
        parts.append(f"<p><strong>Resolving:</strong> {html_escape(board.resolving.text)}"
                     f"{html_escape(targeting)}.</p>")  # fmt: skip
    premises = ruling.premises()
    if premises:
        items = "".join(f"<li>{html_escape(sentence)}</li>" for sentence in premises)
        parts.append(f"<p>The line of play:</p><ul>{items}</ul>")
    if board.history:
        events = "".join(f"<li>{html_escape(event)}</li>" for event in board.history)
        parts.append(f"<p>Earlier this turn:</p><ol>{events}</ol>")
    players = []
    for player in board.players:
        zones = "".join(
            f"<li>{html_escape(zone.title)}: "
            + html_escape(", ".join(card.name for card in zone.cards) or "empty")
            + "</li>"
            for zone in player.zones
        )
        active = " (active player)" if player.is_active else ""
        players.append(
            f"<li><strong>{html_escape(player.name)}</strong>{active}<ul>{zones}</ul></li>"
        )
    if players:
        parts.append(f"<ul>{''.join(players)}</ul>")
    parts.append(_card_texts_html(board))
    return "".join(parts)


def _card_texts_html(board) -> str:
    """Each card on the board (and the one resolving) once, with its cost, type and text: a
    custom card is answerable in Moodle too."""
    cards = list(board.cards.values())
    if board.resolving and board.resolving.card:
        cards.insert(0, board.resolving.card)
    seen, items = set(), []
    for card in cards:
        if card.name in seen:
            continue
        seen.add(card.name)
        cost = f" {card.mana_cost}" if card.mana_cost else ""
        line = f"<strong>{html_escape(card.name)}</strong>{html_escape(cost)}"
        if card.type_line:
            line += f" ({html_escape(card.type_line)})"
        if card.oracle:
            line += ": " + html_escape(card.oracle).replace("\n", "<br>")
        items.append(f"<li>{line}</li>")
    return f"<p>Card text:</p><ul>{''.join(items)}</ul>" if items else ""


def moodle_questions(question: Question, catalog: Catalog) -> list[MoodleQuestion]:
    """Moodle questions for one Tutor question, made by its kind ([] for a kind with no single
    key: legal_set)."""
    ruling = rulings.Ruling.from_shown(
        question.kind, rulings.Shown(question.scenario.spec, question.claims, {}, {}, 0), catalog
    )
    html = f"<p>{html_escape(question.prompt)}</p>{_board_html(ruling)}"
    return rulings.kind_of(question.kind).moodle(ruling, question.scenario.title, html)


def _tags_xml(tags: list[str]) -> list[str]:
    if not tags:
        return []
    items = [f"      <tag><text>{_xml_text(tag)}</text></tag>" for tag in tags]
    return ["    <tags>", *items, "    </tags>"]


def question_tags(question: Question) -> list[str]:
    """Moodle tags for a Tutor question: each rule it cites (`rule:701.23a`) and its judge
    level (`level:L1`), so a Moodle quiz can draw questions by rule or by level."""
    numbers = sorted({rule.number for rule in question.rules.all()})
    return [*(f"rule:{number}" for number in numbers), f"level:{question.level}"]


def _question_xml(item: MoodleQuestion, tags: list[str] | None = None) -> str:
    lines = [
        f'  <question type="{item.kind}">',
        f"    <name><text>{_xml_text(item.name)}</text></name>",
        f'    <questiontext format="html"><text>{_cdata(item.html)}</text></questiontext>',
        f'    <generalfeedback format="html"><text>{_cdata(item.feedback)}</text>'
        "</generalfeedback>",
        "    <defaultgrade>1</defaultgrade>",
        "    <penalty>0.3333333</penalty>",
        "    <hidden>0</hidden>",
    ]
    choices = item.kind == "multichoice"
    if item.kind == "multichoice":
        lines.append(f"    <single>{'true' if item.single else 'false'}</single>")
    if choices:
        lines += [
            "    <shuffleanswers>true</shuffleanswers>",
            "    <answernumbering>abc</answernumbering>",
        ]
    text_format = ' format="html"' if choices else ' format="moodle_auto_format"'
    for fraction, text in item.answers:
        body = _cdata(f"<p>{html_escape(text)}</p>") if choices else _xml_text(text)
        lines.append(f'    <answer fraction="{fraction}"{text_format}><text>{body}</text>')
        if item.kind == "numerical":
            lines.append("      <tolerance>0</tolerance>")
        lines.append("    </answer>")
    lines += _tags_xml(tags or [])
    lines.append("  </question>")
    return "\n".join(lines)


def _imported_xml(question: ImportedQuestion, name: str) -> str:
    """An imported question as Moodle XML again (its text and answers as they were stored)."""
    lines = [
        f'  <question type="{question.kind}">',
        f"    <name><text>{_xml_text(name)}</text></name>",
        f'    <questiontext format="html"><text>{_cdata(question.text)}</text></questiontext>',
        f'    <generalfeedback format="html"><text>{_cdata(question.feedback)}</text>'
        "</generalfeedback>",
        "    <defaultgrade>1</defaultgrade>",
        "    <penalty>0.3333333</penalty>",
        "    <hidden>0</hidden>",
    ]
    choices = question.kind == ImportedQuestion.Kind.MULTICHOICE
    if choices:
        lines += [
            f"    <single>{'true' if question.single else 'false'}</single>",
            "    <shuffleanswers>true</shuffleanswers>",
            "    <answernumbering>abc</answernumbering>",
        ]
    if question.kind == ImportedQuestion.Kind.SHORTANSWER:
        lines.append(f"    <usecase>{1 if question.case_sensitive else 0}</usecase>")
    for answer in question.answers:
        fraction = moodle_grade(float(answer["fraction"])) or "0"
        body = _cdata(answer["text"]) if choices else _xml_text(answer["text"])
        text_format = "html" if choices else "moodle_auto_format"
        lines.append(f'    <answer fraction="{fraction}" format="{text_format}">')
        lines.append(f"      <text>{body}</text>")
        if question.kind == ImportedQuestion.Kind.NUMERICAL:
            lines.append(f"      <tolerance>{answer.get('tolerance') or 0:g}</tolerance>")
        if answer.get("feedback"):
            feedback = _cdata(answer["feedback"])
            lines.append(f'      <feedback format="html"><text>{feedback}</text></feedback>')
        lines.append("    </answer>")
    lines += _tags_xml(list(question.tags))
    lines.append("  </question>")
    return "\n".join(lines)


MOODLE_NAME_LENGTH = 255  # the question table's name column


def _named_uniquely(made_by_question) -> list[tuple[MoodleQuestion, list[str]]]:
    """Every Moodle question with a name of its own in the bank, with its question's tags: a
    repeated name takes its Tutor question's key, then a number if even that repeats (a quiz
    lists questions by name)."""
    counts: dict[str, int] = {}
    for _question, made in made_by_question:
        for item in made:
            counts[item.name] = counts.get(item.name, 0) + 1
    named, taken = [], set()
    for question, made in made_by_question:
        tags = question_tags(question) if made else []
        for item in made:
            name = item.name
            if counts[name] > 1:
                name = f"{name} [{question.key or question.pk}]"
            base, number = name[: MOODLE_NAME_LENGTH - 6], 2
            name = base
            while name in taken:
                name, number = f"{base} ({number})", number + 1
            taken.add(name)
            named.append((replace(item, name=name), tags))
    return named


@dataclass
class MoodleExport:
    xml: str
    exported: int  # Moodle questions written (a Tutor question may make several)
    skipped: list[tuple[str, str]]  # (the question's key, why it was left out), in words


def _skip_reason(question: Question, error: ScenarioError | None) -> str:
    if error is not None:
        return _("the engine can't rule its scenario (%(error)s)") % {"error": error}
    if question.kind == Question.Kind.LEGAL_SET:
        return _(
            "a legal-set question has no single key: Moodle's question types can't mark a "
            "set of cards that is one of several right ones"
        )
    return _("Moodle has no question type for its answer")


def moodle_export(bank: Bank, catalog: Catalog | None = None) -> MoodleExport:
    """The bank as Moodle XML (one category named after the bank), each question tagged with its
    rules and level, and the questions left out with the reason in words (also in a comment).
    Each question with its scenario's catalog (`rulings.catalog_of`) unless `catalog` is given.
    The bank's imported questions follow as they were imported."""
    blocks = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        "<quiz>",
        '  <question type="category">',
        f"    <category><text>$course$/top/Tutor/{_xml_text(bank.title)}</text></category>",
        "  </question>",
    ]
    skipped, made_by_question = [], []
    questions = (
        Question.objects.filter(bank=bank, is_active=True)
        .select_related("scenario")
        .prefetch_related("rules")
    )
    for question in questions.order_by("scenario__title", "position", "id"):
        error = None
        try:
            made = moodle_questions(question, catalog or rulings.catalog_of(question.scenario))
        except ScenarioError as failed:
            made, error = [], failed
        if not made:
            skipped.append((question.key or str(question.pk), _skip_reason(question, error)))
        made_by_question.append((question, made))
    named = _named_uniquely(made_by_question)
    blocks.extend(_question_xml(item, tags) for item, tags in named)
    taken = {item.name for item, _tags in named}
    imported = list(ImportedQuestion.objects.filter(bank=bank).order_by("position", "id"))
    for question in imported:
        name, number = question.name, 2
        while name in taken:
            name, number = f"{question.name[: MOODLE_NAME_LENGTH - 6]} ({number})", number + 1
        taken.add(name)
        blocks.append(_imported_xml(question, name))
    for key, reason in skipped:
        said = "".join(ch for ch in f"{key}: {reason}" if ch in "\t\n\r" or ord(ch) >= 0x20)
        blocks.append(f"  <!-- not exported: {said.replace('--', '- -')} -->")
    blocks.append("</quiz>")
    return MoodleExport("\n".join(blocks) + "\n", len(named) + len(imported), skipped)


def export_moodle(bank: Bank, catalog: Catalog | None = None) -> str:
    """`moodle_export`'s XML."""
    return moodle_export(bank, catalog).xml

"""Banks in and out: Tutor's JSON (a list of scenario/1 documents with their questions), and
Moodle XML for a quiz elsewhere (the engine's computed answers baked in).

JSON import is validated first and written all-or-nothing; an error names the file, the entry and
the field: `week-3.json: scenarios[2].zones.Nadia.library[0]: unknown card 'Islnd'`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any
from xml.sax.saxutils import escape

from django.db import transaction
from django.db.models import Prefetch
from django.utils.html import escape as html_escape

from quizzes import authoring, limits, rulings
from quizzes.models import Bank, Question, Scenario
from quizzes.rulings import Catalog, ScenarioError
from quizzes.rulings.kinds import MoodleQuestion
from rules.cards import catalog_for

FORMAT = "tutor-bank/1"


class InterchangeError(ValueError):
    """A bad import file: names the file, the entry and the field."""


# Tutor's JSON.


def _scenarios_with_questions(bank: Bank):
    active = Question.objects.filter(bank=bank, is_active=True).order_by("position", "id")
    return (
        Scenario.objects.in_bank(bank)
        .prefetch_related(Prefetch("questions", queryset=active, to_attr="bank_questions"))
        .order_by("slug")
    )


def export_json(bank: Bank) -> dict[str, Any]:
    """The bank as `{"format", "bank", "scenarios": [scenario/1 document + questions, ...]}`."""
    scenarios = []
    for scenario in _scenarios_with_questions(bank):
        document = authoring.document_of(scenario).to_json()
        document["questions"] = [
            {"key": q.key, "kind": q.kind, "prompt": q.prompt, "claims": q.claims}
            for q in scenario.bank_questions
        ]
        scenarios.append(document)
    return {
        "format": FORMAT,
        "bank": {"title": bank.title, "description": bank.description},
        "scenarios": scenarios,
    }


def check_import(
    user, bank: Bank, content: bytes, filename: str, catalog: Catalog | None = None
) -> list[authoring.ScenarioDocument]:
    """Every document of the file, validated; the first problem raises InterchangeError."""
    if not authoring.banks_of(user).filter(pk=bank.pk).exists():
        raise InterchangeError("You can only import into your own banks.")
    if len(content) > limits.MAX_IMPORT_BYTES:
        megabytes = limits.MAX_IMPORT_BYTES / 1024 / 1024
        raise InterchangeError(f"{filename}: larger than the limit of {megabytes:g} MB per file")
    try:
        raw = authoring.parse_text(content.decode("utf-8"), limits.MAX_IMPORT_BYTES, "file")
    except UnicodeDecodeError as error:
        raise InterchangeError(f"{filename}: not UTF-8 text") from error
    except authoring.AuthoringError as error:
        raise InterchangeError(f"{filename}: {error}") from error
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
    catalog = catalog if catalog is not None else catalog_for(user.pk)
    documents, ids = [], set()
    for index, entry in enumerate(entries):
        where = f"scenarios[{index}]"
        try:
            document = authoring.read_document(entry, catalog, where)
        except authoring.AuthoringError as error:
            raise InterchangeError(f"{filename}: {error}") from error
        scenario_id = document.spec.get("id")
        if not isinstance(scenario_id, str) or not scenario_id:
            raise InterchangeError(f"{filename}: {where}.id: give each scenario an id")
        if scenario_id in ids:
            raise InterchangeError(f"{filename}: {where}.id: {scenario_id!r} is used twice")
        ids.add(scenario_id)
        documents.append(document)
    return documents


@dataclass
class ImportReport:
    created: list[Scenario] = field(default_factory=list)
    updated: list[Scenario] = field(default_factory=list)


def do_import(
    user, bank: Bank, documents: list[authoring.ScenarioDocument], catalog: Catalog | None = None
) -> ImportReport:
    """Write every document in one transaction: a scenario of this bank with the same id is
    updated, any other is created (with a fresh slug if the id is taken elsewhere)."""
    catalog = catalog if catalog is not None else catalog_for(user.pk)
    report = ImportReport()
    with transaction.atomic():
        for document in documents:
            existing = authoring.scenarios_in(bank).filter(spec__id=document.spec["id"]).first()
            saved = authoring.do_save_scenario(user, bank, document, existing, catalog)
            (report.updated if existing else report.created).append(saved)
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


def _question_xml(item: MoodleQuestion) -> str:
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
    lines.append("  </question>")
    return "\n".join(lines)


MOODLE_NAME_LENGTH = 255  # the question table's name column


def _named_uniquely(made_by_question) -> list[MoodleQuestion]:
    """Every Moodle question with a name of its own in the bank: a repeated name takes its Tutor
    question's key, then a number if even that repeats (a quiz lists questions by name)."""
    counts: dict[str, int] = {}
    for _, made in made_by_question:
        for item in made:
            counts[item.name] = counts.get(item.name, 0) + 1
    named, taken = [], set()
    for question, made in made_by_question:
        for item in made:
            name = item.name
            if counts[name] > 1:
                name = f"{name} [{question.key or question.pk}]"
            base, number = name[: MOODLE_NAME_LENGTH - 6], 2
            name = base
            while name in taken:
                name, number = f"{base} ({number})", number + 1
            taken.add(name)
            named.append(replace(item, name=name))
    return named


def export_moodle(bank: Bank, catalog: Catalog | None = None) -> str:
    """The bank as Moodle XML (one category named after the bank); each question with its
    scenario's catalog (`rulings.catalog_of`) unless `catalog` is given."""
    blocks = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        "<quiz>",
        '  <question type="category">',
        f"    <category><text>$course$/top/Tutor/{_xml_text(bank.title)}</text></category>",
        "  </question>",
    ]
    skipped, made_by_question = [], []
    questions = Question.objects.filter(bank=bank, is_active=True).select_related("scenario")
    for question in questions.order_by("scenario__title", "position", "id"):
        try:
            made = moodle_questions(question, catalog or rulings.catalog_of(question.scenario))
        except ScenarioError:
            made = []
        if not made:
            skipped.append(question.key or str(question.pk))
        made_by_question.append((question, made))
    blocks.extend(_question_xml(item) for item in _named_uniquely(made_by_question))
    if skipped:
        names = ", ".join(skipped).replace("--", "- -")
        blocks.append(f"  <!-- not exported (no single key, e.g. pick a legal set): {names} -->")
    blocks.append("</quiz>")
    return "\n".join(blocks) + "\n"

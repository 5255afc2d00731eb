"""Import and export of banks: Tutor's JSON (round trip, all-or-nothing import) and Moodle XML."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from quizzes.instructors import interchange, saving
from quizzes.models import Bank, Question, Scenario
from quizzes.rulings import documents
from quizzes.rulings.claims import claim_text
from rules.engine import default_catalog, evaluate_claim
from tests.factories import BankFactory
from tests.quizzes.conftest import INSTRUCTOR_KINDS, land_tutor_spec, make_question
from tests.quizzes.instructor_fixtures import document, text

pytestmark = pytest.mark.django_db


def save(user, bank, scenario_id, **changes) -> Scenario:
    doc = saving.check_save_scenario(user, bank, text(scenario_id, **changes))
    return saving.do_save_scenario(user, bank, doc)


def as_bytes(data) -> bytes:
    return json.dumps(data).encode()


# JSON.


def test_round_trip(instructor, own_bank):
    save(instructor, own_bank, "tutor-one")
    save(instructor, own_bank, "tutor-two", stored_expect=[{"claim": "mana_value", "value": 4}])
    exported = interchange.export_json(own_bank)
    assert exported["format"] == "tutor-bank/1" and len(exported["scenarios"]) == 2
    assert exported["scenarios"][0]["questions"][0]["key"] == "value-shuffles-alice"

    copy = BankFactory(owner=instructor, slug="copy")
    checked = interchange.check_import(instructor, copy, as_bytes(exported), "week-1.json")
    report = interchange.do_import(instructor, copy, checked)
    assert len(report.created) == 2 and not report.updated
    assert interchange.export_json(copy)["scenarios"] == exported["scenarios"]
    assert Scenario.objects.filter(bank=copy).count() == 2  # new rows, fresh slugs
    assert set(Scenario.objects.filter(bank=copy).values_list("slug", flat=True)) == {
        "tutor-one-2",
        "tutor-two-2",
    }


def test_importing_again_updates_by_id(instructor, own_bank):
    save(instructor, own_bank, "tutor-one")
    exported = interchange.export_json(own_bank)
    exported["scenarios"][0]["title"] = "Renamed"
    checked = interchange.check_import(instructor, own_bank, as_bytes(exported), "again.json")
    report = interchange.do_import(instructor, own_bank, checked)
    assert not report.created and len(report.updated) == 1
    scenario = Scenario.objects.get()
    assert scenario.title == "Renamed" and scenario.version == 2


def test_a_bare_list_of_documents_imports(instructor, own_bank):
    checked = interchange.check_import(
        instructor, own_bank, as_bytes([document("a"), document("b")]), "list.json"
    )
    assert [d.spec["id"] for d in checked] == ["a", "b"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"format": "tutor-bank/1", "scenarios": [', "bad.json: line 1 column 42: malformed"),
        (as_bytes({"format": "other", "scenarios": []}), 'bad.json: format: expected "tutor-'),
        (as_bytes({"format": "tutor-bank/1", "scenarios": []}), "bad.json: scenarios: give a non"),
        (
            as_bytes([document("a"), document("b", zones={"Alice": {"library": ["Islnd"]}})]),
            "bad.json: scenarios[1].zones.Alice.library[0]: unknown card 'Islnd'",
        ),
        (as_bytes([document("a"), document("a")]), "bad.json: scenarios[1].id: 'a' is used twice"),
        (as_bytes([document("a", title="")]), "bad.json: scenarios[0].title: give the scenario"),
        (
            as_bytes([document("a", questions=[{"key": "q", "kind": "essay", "prompt": "?"}])]),
            "bad.json: scenarios[0].questions[0].kind: unknown kind 'essay'",
        ),
        (
            as_bytes([document("a", questions=[
                {"key": "q", "kind": "value", "prompt": "?", "claims": [
                    {"claim": "finds", "card": "nope"}]}])]),
            "bad.json: scenarios[0].questions[0].claims[0]:",
        ),
        ("é".encode("latin-1"), "bad.json: not UTF-8 text"),
    ],
)  # fmt: skip
def test_import_errors_name_the_file_entry_and_field(instructor, own_bank, content, message):
    with pytest.raises(interchange.InterchangeError) as caught:
        interchange.check_import(instructor, own_bank, content, "bad.json")
    assert str(caught.value).startswith(message)


def test_import_into_someone_elses_bank_is_refused(instructor, other_instructor, own_bank):
    with pytest.raises(interchange.InterchangeError):
        interchange.check_import(other_instructor, own_bank, as_bytes([document()]), "x.json")


def streamed(response) -> str:
    """The import page, streamed as the import runs."""
    assert response.streaming
    return b"".join(response.streaming_content).decode()


def test_the_import_view_is_all_or_nothing(teacher_client, own_bank):
    bad = [document("a"), document("b", zones={"Alice": {"library": ["Islnd"]}})]
    upload = SimpleUploadedFile("week-2.json", as_bytes(bad), "application/json")
    url = reverse("bank_import", args=[own_bank.slug])
    page = streamed(teacher_client.post(url, {"file": upload}))
    assert "Nothing was imported" in page
    assert "week-2.json: scenarios[1].zones.Alice.library[0]" in page
    assert not Scenario.objects.exists() and not Question.objects.exists()

    good = SimpleUploadedFile("week-2.json", as_bytes(bad[:1]), "application/json")
    page = streamed(teacher_client.post(url, {"file": good}))
    assert "1 new scenario" in page and "Nothing was imported" not in page
    assert Scenario.objects.get().bank == own_bank


def test_the_import_page_streams_in_the_language_it_was_asked_in(teacher_client, own_bank):
    upload = SimpleUploadedFile("week-2.json", as_bytes([document("a")]), "application/json")
    url = reverse("bank_import", args=[own_bank.slug])
    response = teacher_client.post(url, {"file": upload}, headers={"accept-language": "de"})
    # The steps run after the view returned, perhaps in another thread (ASGI) where another
    # language is active: they are still German.
    with translation.override("en"):
        page = streamed(response)
    assert "1 von 1 geprüft" in page and "1 von 1 gespeichert" in page
    assert "Übernommen: 1 neues Szenario, 0 ersetzt" in page and "checked" not in page


def test_an_unknown_card_in_a_file_is_said_in_the_importers_language(teacher_client, own_bank):
    bad = [document("b", zones={"Alice": {"library": ["Islnd"]}}), document("c", title="")]
    upload = SimpleUploadedFile("week-2.json", as_bytes(bad), "application/json")
    url = reverse("bank_import", args=[own_bank.slug])
    response = teacher_client.post(url, {"file": upload}, headers={"accept-language": "it"})
    page = streamed(response)
    assert (
        "<li><code>week-2.json: scenarios[0].zones.Alice.library[0]: carta sconosciuta «Islnd»: "
        "il catalogo delle carte non ha nessuna carta con questo nome"
    ) in page
    # the format's own words stay English, and say so
    assert '<li><code><span lang="en">week-2.json: scenarios[1].title: give' in page


def test_the_json_export_view_downloads(teacher_client, instructor, own_bank):
    save(instructor, own_bank, "tutor-one")
    response = teacher_client.get(reverse("bank_export_json", args=[own_bank.slug]))
    assert response["Content-Disposition"] == 'attachment; filename="week-1.json"'
    assert json.loads(response.content)["scenarios"][0]["id"] == "tutor-one"


# Moodle XML.


@pytest.fixture
def every_kind(instructor, own_bank):
    """One question of each kind about Land Tutor, in a bank with a title that needs escaping."""
    own_bank.title = 'Search <basics> & "traps"'
    own_bank.save()
    scenario = Scenario.objects.create(
        slug="land-tutor", title="Land Tutor ]]> & <friends>", source="tests",
        spec=land_tutor_spec(), bank=own_bank,
    )  # fmt: skip
    for kind in INSTRUCTOR_KINDS:
        make_question(scenario, own_bank, kind=kind, key=kind.replace("_", "-"))
    return own_bank


def moodle(bank) -> ET.Element:
    return ET.fromstring(interchange.export_moodle(bank).encode())


def correct_answers(question: ET.Element) -> list[str]:
    return [
        ET.fromstring(f"<r>{a.findtext('text')}</r>").findtext("p") or a.findtext("text")
        for a in question.findall("answer")
        if float(a.get("fraction")) > 0
    ]


def named(root: ET.Element, suffix: str) -> list[ET.Element]:
    return [q for q in root.findall("question") if q.findtext("name/text", "").endswith(suffix)]


def test_moodle_xml_parses_and_escapes(every_kind):
    root = moodle(every_kind)
    assert root.tag == "quiz"
    category = root.find("question[@type='category']/category/text").text
    assert category == '$course$/top/Tutor/Search <basics> & "traps"'
    kinds = [q.get("type") for q in root.findall("question")][1:]
    assert set(kinds) == {"multichoice", "numerical", "truefalse"}
    assert all(q.findtext("name/text").startswith("Land Tutor ]]> & <friends>")
               for q in root.findall("question")[1:])  # fmt: skip
    html = root.find("question[@type='numerical']/questiontext/text").text
    assert "Land Tutor" in html and "Forest, Shock, Island" in html  # the board, in CDATA
    assert "f1" not in html  # no author's labels


def test_cards_become_one_multichoice_per_card(every_kind):
    root = moodle(every_kind)
    forest = named(root, "the Forest on top of Alice's library")[0]
    assert correct_answers(forest) == ["may be found"]
    assert correct_answers(named(root, "the Shock second from the top of Alice's library")[0]) == [
        "can't be found"
    ]


def test_counts_become_numerical(every_kind):
    root = moodle(every_kind)
    fewest, most = named(root, "the fewest")[0], named(root, "the most")[0]
    assert fewest.get("type") == most.get("type") == "numerical"
    # a stated quality (basic land): need not find one (701.23b)
    assert (fewest.findtext("answer/text"), most.findtext("answer/text")) == ("0", "1")
    assert fewest.findtext("answer/tolerance") == "0"


def test_value_and_statements_carry_the_engines_answers(every_kind):
    root = moodle(every_kind)
    # both named after the scenario alone, so each takes its question's key
    single, multiple = named(root, "<friends> [value]")[0], named(root, "[multiple-choice]")[0]
    assert correct_answers(single) == ["yes"]  # Alice shuffles
    assert single.findtext("single") == "true" and multiple.findtext("single") == "false"
    fractions = [a.get("fraction") for a in multiple.findall("answer")]
    assert fractions == ["100", "-100"]  # Island may be found: true; Alice doesn't shuffle: false
    statements = root.findall("question[@type='truefalse']")
    assert [correct_answers(q) for q in statements] == [["true"], ["false"]]


def test_the_key_is_the_engines(every_kind):
    spec = land_tutor_spec()
    computed = evaluate_claim(spec, {"claim": "shuffles", "player": "Alice"}, default_catalog())
    assert claim_text("shuffles").words(computed.value) == "yes"


def test_legal_set_questions_are_listed_as_not_exported(every_kind):
    xml = interchange.export_moodle(every_kind)
    assert (
        "<!-- not exported: legal-set: a legal-set question has no single key: Moodle's "
        "question types can't mark a set of cards that is one of several right ones -->"
    ) in xml


def test_the_moodle_view_downloads(teacher_client, every_kind):
    response = teacher_client.get(reverse("bank_export_moodle", args=[every_kind.slug]))
    assert response.status_code == 200 and response["Content-Type"] == "application/xml"
    ET.fromstring(response.content)


# Moodle's importer: the grade list it checks every answer's fraction against.


def moodle_grade_list() -> set[float]:
    """The list as Moodle's source describes it (lib/questionlib.php, above
    `fraction_options_full`): p/q for q <= 6, p/10, 1/q for q <= 10, and 1/20, to 7 places."""
    grades = {p / q for q in range(1, 7) for p in range(q + 1)}
    grades |= {p / 10 for p in range(11)} | {1 / q for q in range(1, 11)} | {1 / 20}
    return {round(grade, 7) for grade in grades}


def importer_accepts(fraction: str) -> bool:
    """`match_grade_options(..., 'error')` on the fraction the XML format reads (percent / 100)."""
    value = float(fraction) / 100
    return any(abs(value - s * g) < 0.00001 for g in moodle_grade_list() for s in (1, -1))


def test_the_grade_list_is_moodles():
    from quizzes.rulings.kinds import MOODLE_GRADES

    assert set(MOODLE_GRADES) == moodle_grade_list() and len(MOODLE_GRADES) == 21


TRUE_STATEMENTS = [  # what the engine concludes on Land Tutor's board
    {"claim": "finds", "card": "f1", "proposed": "may"},
    {"claim": "finds", "card": "s1", "proposed": "cannot"},
    {"claim": "finds", "card": "i1", "proposed": "may"},
    {"claim": "shuffles", "player": "Alice", "proposed": "yes"},
]
FALSE_STATEMENTS = [
    {"claim": "finds", "card": "f1", "proposed": "must"},
    {"claim": "finds", "card": "s1", "proposed": "may"},
    {"claim": "finds", "card": "i1", "proposed": "cannot"},
    {"claim": "shuffles", "player": "Alice", "proposed": "no"},
]


def statements_bank(bank, true_count: int, false_count: int):
    claims = [TRUE_STATEMENTS[i % 4] for i in range(true_count)]
    claims += [FALSE_STATEMENTS[i % 4] for i in range(false_count)]
    scenario = Scenario.objects.create(
        slug="statements", title="Statements", source="tests", spec=land_tutor_spec(), bank=bank
    )
    question = make_question(scenario, bank, kind=Question.Kind.MULTIPLE_CHOICE, key="many")
    question.claims = claims
    question.save()
    return moodle(bank).findall("question")[1:]


@pytest.mark.parametrize(
    ("true_count", "false_count", "kind"),
    [
        (1, 1, "multichoice"),
        (3, 6, "multichoice"),
        (7, 20, "multichoice"),
        (11, 11, "truefalse"),  # the 22 statements: 1/11 = 9.09091 is off the list
        (2, 11, "truefalse"),  # the penalty share -1/11 is off the list too
        (13, 1, "truefalse"),
    ],
)
def test_multiple_answers_keep_to_moodles_grade_list(
    instructor, own_bank, true_count, false_count, kind
):
    questions = statements_bank(own_bank, true_count, false_count)
    assert {question.get("type") for question in questions} == {kind}
    fractions = [a.get("fraction") for question in questions for a in question.findall("answer")]
    assert all(importer_accepts(fraction) for fraction in fractions), fractions
    if kind == "multichoice":
        (question,) = questions
        assert len(fractions) == true_count + false_count
        positive = [float(f) for f in fractions if float(f) > 0]
        assert len(positive) == true_count  # the true statements, and only they, earn marks
        assert question.findtext("single") == "false"
        assert round(sum(positive) / 100, 2) == 1  # qtype_multichoice's "fractions add up" check
    else:  # one true/false question per statement, which stock Moodle imports
        assert len(questions) == true_count + false_count
        keys = [
            next(
                a.findtext("text") for a in question.findall("answer") if a.get("fraction") == "100"
            )
            for question in questions
        ]
        assert keys.count("true") == true_count and keys.count("false") == false_count


def test_every_exported_fraction_is_on_the_grade_list(every_kind):
    answers = moodle(every_kind).findall("question/answer")
    assert answers and all(importer_accepts(answer.get("fraction")) for answer in answers)


# What qformat_xml (question/format/xml/format.php) reads for each type: a name, the question
# text with its format, and per type the elements its import_<type>() takes.
MOODLE_ELEMENTS = {
    "multichoice": ("single", "shuffleanswers", "answernumbering"),
    "truefalse": (),
    "numerical": (),
}


def test_every_question_has_what_moodles_xml_importer_reads(every_kind):
    questions = moodle(every_kind).findall("question")
    assert questions[0].get("type") == "category"
    for question in questions[1:]:
        kind = question.get("type")
        assert kind in MOODLE_ELEMENTS
        assert question.findtext("name/text").strip()
        assert question.find("questiontext").get("format") == "html"
        assert question.findtext("questiontext/text").strip()
        for element in ("defaultgrade", "penalty", "hidden", *MOODLE_ELEMENTS[kind]):
            assert question.findtext(element) is not None, (kind, element)
        answers = question.findall("answer")
        assert answers and all(a.findtext("text") is not None for a in answers)
        if kind == "truefalse":  # import_truefalse() knows only these two texts
            assert sorted(a.findtext("text") for a in answers) == ["false", "true"]
            assert sorted(a.get("fraction") for a in answers) == ["0", "100"]
        if kind == "numerical":
            assert all(a.findtext("tolerance") == "0" for a in answers)
        if kind == "multichoice" and question.findtext("single") == "true":
            assert [a.get("fraction") for a in answers].count("100") == 1


def test_names_are_unique_in_the_bank(instructor, every_kind):
    alone = len(moodle(every_kind).findall("question")) - 1
    twin = Scenario.objects.create(
        slug="land-tutor-again", title="Land Tutor ]]> & <friends>", source="tests",
        spec=land_tutor_spec("land-tutor-again"), bank=every_kind,
    )  # fmt: skip
    for kind in INSTRUCTOR_KINDS:
        make_question(twin, every_kind, kind=kind, key=kind.replace("_", "-"))
    names = [q.findtext("name/text") for q in moodle(every_kind).findall("question")[1:]]
    assert len(names) == 2 * alone  # a second scenario of the same title, the same questions
    assert len(set(names)) == len(names) and all(0 < len(name) <= 255 for name in names)


def test_the_question_text_carries_the_cards_text(every_kind):
    for question in moodle(every_kind).findall("question")[1:]:
        html = question.findtext("questiontext/text")
        # Land Tutor is the scenario's own card: its text is nowhere else in Moodle
        assert "<strong>Land Tutor</strong> {1}{G} (Sorcery): Search your library" in html
        assert "<strong>Opt</strong> {U} (Instant): Scry 1.<br>Draw a card." in html
        assert html.count("<strong>Island</strong>") == 1  # two Islands, one text


# Every problem, the choice for an id already there, the bank's details, progress.

FIVE_PROBLEMS = [
    document("ok"),
    document("bad-card", zones={"Alice": {"library": ["Islnd"]}}),
    document("no-title", title=""),
    document("ok"),  # the id again
    document("bad-kind", questions=[{"key": "q", "kind": "essay", "prompt": "?"}]),
    {"id": "not-a-scenario"} | {"format": "scenario/1"},
]


def test_every_problem_of_a_file_is_reported_with_its_place(instructor, own_bank):
    with pytest.raises(interchange.InterchangeError) as caught:
        interchange.check_import(instructor, own_bank, as_bytes(FIVE_PROBLEMS), "week-5.json")
    problems = caught.value.problems
    assert [problem.split(": ")[1] for problem in problems] == [
        "scenarios[1].zones.Alice.library[0]",
        "scenarios[2].title",
        "scenarios[3].id",
        "scenarios[4].questions[0].kind",
        "scenarios[5].title",  # every problem of one scenario, not only its first
        "scenarios[5].source",
        "scenarios[5].players",
    ]
    assert all(problem.startswith("week-5.json: ") for problem in problems)
    assert caught.value.more == 0 and not Scenario.objects.exists()


def test_problems_past_the_cap_are_counted(instructor, own_bank):
    bad = [document(f"s{n}", title="") for n in range(interchange.MAX_PROBLEMS + 7)]
    with pytest.raises(interchange.InterchangeError) as caught:
        interchange.check_import(instructor, own_bank, as_bytes(bad), "big.json")
    assert len(caught.value.problems) == interchange.MAX_PROBLEMS and caught.value.more == 7
    assert str(caught.value).endswith("... and 7 more problems")


def test_the_page_lists_every_problem_and_saves_nothing(teacher_client, own_bank):
    upload = SimpleUploadedFile("week-5.json", as_bytes(FIVE_PROBLEMS), "application/json")
    page = streamed(
        teacher_client.post(reverse("bank_import", args=[own_bank.slug]), {"file": upload})
    )
    assert "Nothing was imported.</strong> 7 problems" in page
    assert page.count("<li><code>week-5.json: scenarios[") == 7
    assert not Scenario.objects.exists() and not Question.objects.exists()


def test_an_id_already_in_the_bank_is_replaced_as_a_new_version(instructor, own_bank):
    first = save(instructor, own_bank, "tutor-one")
    old_spec = dict(first.spec)
    exported = interchange.export_json(own_bank)
    exported["scenarios"][0]["title"] = "Renamed"
    plan = interchange.check_import(
        instructor, own_bank, as_bytes(exported), "again.json", on_existing=interchange.REPLACE
    )
    report = interchange.do_import(instructor, own_bank, plan)
    assert report.updated == [first] and not report.created and not report.renamed
    first.refresh_from_db()
    assert first.title == "Renamed" and first.version == 2
    assert first.versions.get(number=1).spec == old_spec


def test_an_id_already_in_the_bank_can_be_imported_under_a_new_id(instructor, own_bank):
    save(instructor, own_bank, "tutor-one")
    file = as_bytes([document("tutor-one", title="Another one")])
    plan = interchange.check_import(
        instructor, own_bank, file, "paste.json", on_existing=interchange.NEW_ID
    )
    report = interchange.do_import(instructor, own_bank, plan)
    assert report.renamed == [("tutor-one", "tutor-one-2")]
    ids = sorted(s.spec["id"] for s in Scenario.objects.filter(bank=own_bank))
    assert ids == ["tutor-one", "tutor-one-2"]
    # and the bank's own export imports again: no id is used twice
    again = interchange.check_import(
        instructor, own_bank, as_bytes(interchange.export_json(own_bank)), "export.json"
    )
    assert len(again) == 2 and all(entry.replaces for entry in again.entries)


def test_a_new_scenario_with_an_id_the_bank_has_is_refused_not_renamed(instructor, own_bank):
    save(instructor, own_bank, "tutor-one")
    with pytest.raises(documents.AuthoringError) as caught:
        saving.check_save_scenario(instructor, own_bank, text("tutor-one"))
    assert caught.value.path == "id" and "another scenario in this bank" in caught.value.message


def test_the_bank_title_and_description_are_imported(instructor, own_bank):
    file = {
        "format": interchange.FORMAT,
        "bank": {"title": "Week 3: searching", "description": "Tutors and <em>fetches</em>."},
        "scenarios": [document("a")],
    }
    plan = interchange.check_import(instructor, own_bank, as_bytes(file), "week-3.json")
    kept = BankFactory(owner=instructor, slug="kept", title="Kept")
    report = interchange.do_import(instructor, kept, plan)  # unless asked, the bank keeps its own
    assert Bank.objects.get(pk=kept.pk).title == "Kept" and not report.bank_details
    report = interchange.do_import(instructor, own_bank, plan, take_bank_details=True)
    own_bank.refresh_from_db()
    assert report.bank_details and own_bank.title == "Week 3: searching"
    assert own_bank.description == "Tutors and <em>fetches</em>."


def test_a_bad_bank_title_is_a_problem_too(instructor, own_bank):
    file = {"format": interchange.FORMAT, "bank": {"title": "x" * 201}, "scenarios": [document()]}
    with pytest.raises(interchange.InterchangeError) as caught:
        interchange.check_import(instructor, own_bank, as_bytes(file), "t.json")
    assert caught.value.problems == ["t.json: bank.title: over 200 characters"]


def test_the_banks_own_export_always_imports_again(instructor, own_bank, settings):
    save(instructor, own_bank, "tutor-one")
    save(instructor, own_bank, "tutor-two", stored_expect=[{"claim": "mana_value", "value": 4}])
    own_bank.description = "Two <strong>tutors</strong>."
    own_bank.save()
    exported = interchange.export_json(own_bank)
    # into the same bank: every scenario replaced by itself, nothing new, no new version
    plan = interchange.check_import(instructor, own_bank, as_bytes(exported), "self.json")
    report = interchange.do_import(instructor, own_bank, plan)
    assert len(report.updated) == 2 and not report.created
    assert set(Scenario.objects.values_list("version", flat=True)) == {1}
    assert interchange.export_json(own_bank) == exported
    # into a new bank taking the file's title and description: the same bank again
    copy = BankFactory(owner=instructor, slug="copy")
    plan = interchange.check_import(instructor, copy, as_bytes(exported), "self.json")
    interchange.do_import(instructor, copy, plan, take_bank_details=True)
    assert interchange.export_json(copy) == exported


def test_the_import_page_streams_its_progress(teacher_client, own_bank):
    file = as_bytes([document(f"s{n}") for n in range(3)])
    upload = SimpleUploadedFile("three.json", file, "application/json")
    page = streamed(
        teacher_client.post(reverse("bank_import", args=[own_bank.slug]), {"file": upload})
    )
    assert '<progress max="3" value="3">3 of 3</progress> 3 of 3 checked' in page
    assert "3 of 3 saved" in page and "3 new scenarios" in page
    assert page.index("checked") < page.index("saved") < page.index("3 new scenarios")
    assert page.rstrip().endswith("</html>")


def test_an_import_keeps_the_banks_title_unless_the_instructor_asks_for_the_files(
    teacher_client, own_bank
):
    url = reverse("bank_import", args=[own_bank.slug])
    form = teacher_client.get(url).content.decode()
    assert '<input type="checkbox" name="bank_details" id="id_bank_details">' in form  # unticked
    file = {
        "format": interchange.FORMAT,
        "bank": {"title": "Someone's week"},
        "scenarios": [document("a")],
    }
    upload = SimpleUploadedFile("theirs.json", as_bytes(file), "application/json")
    page = streamed(teacher_client.post(url, {"file": upload}))  # the form as it comes
    assert "1 new scenario" in page and "now the file's" not in page
    assert Bank.objects.get(pk=own_bank.pk).title == own_bank.title

    upload = SimpleUploadedFile("theirs.json", as_bytes(file), "application/json")
    streamed(teacher_client.post(url, {"file": upload, "bank_details": "on"}))
    assert Bank.objects.get(pk=own_bank.pk).title == "Someone's week"


def test_the_import_page_ends_with_the_title_the_bank_took(teacher_client, own_bank):
    """The page's header went out before the import ran, with the bank's old title: after an
    import that gave it the file's, the page's end names it, shown in the header's place."""
    file = {"format": interchange.FORMAT, "bank": {"title": "Week 3"}, "scenarios": [document()]}
    upload = SimpleUploadedFile("week-3.json", as_bytes(file), "application/json")
    url = reverse("bank_import", args=[own_bank.slug])
    page = streamed(teacher_client.post(url, {"file": upload, "bank_details": "on"}))
    bank_url = reverse("bank_detail", args=[own_bank.slug])
    retitled = f'<div class="import-retitled"><p class="eyebrow"><a href="{bank_url}">Week 3</a>'
    assert page.index('role="status"') < page.index(retitled)

    upload = SimpleUploadedFile("week-3.json", as_bytes(file), "application/json")
    page = streamed(teacher_client.post(url, {"file": upload}))  # the bank kept its title
    assert "import-retitled" not in page


def test_the_import_form_offers_the_choice_for_an_existing_id(teacher_client, own_bank):
    page = teacher_client.get(reverse("bank_import", args=[own_bank.slug])).content.decode()
    assert "<legend>A scenario whose id this bank already has</legend>" in page
    assert 'value="replace"' in page and 'value="new_id"' in page and "checked" in page


def test_an_imported_bank_title_with_a_right_to_left_override_is_refused(instructor, own_bank):
    data = {"format": interchange.FORMAT, "bank": {"title": "\u202eWeek", "description": ""}}
    data["scenarios"] = [document("a")]
    with pytest.raises(interchange.InterchangeError) as refused:
        interchange.check_import(instructor, own_bank, as_bytes(data), "rtl.json")
    assert "bank.title" in str(refused.value.problems)

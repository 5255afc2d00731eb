"""Moodle XML into a bank (issue 25): Moodle's own fixtures, each kind graded, every problem
named, nothing saved on error, attacks refused, and an exported bank imported again."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from quizzes import limits
from quizzes.instructors import interchange, lint, moodle
from quizzes.instructors.banks import scenarios_in
from quizzes.instructors.interchange import InterchangeError
from quizzes.models import Bank, ImportedQuestion, Question, Scenario
from quizzes.models.imported import wildcard_match
from tests.factories import BankFactory, UserFactory
from tests.quizzes.conftest import INSTRUCTOR_KINDS, land_tutor_spec, make_question

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).parent / "moodle_fixtures"
REASON = (
    "questions are not imported (Tutor takes multichoice, truefalse, numerical and shortanswer)"
)

# What each of Moodle's fixtures gives: the questions imported, or every problem (name: reason).
IMPORTED = {
    "category_with_description.xml": ["Alpha Question"],
    "deprecated_category.xml": ["Alpha Question"],
    "export_category.xml": ["Alpha Question"],
    "html_chars_in_idnumbers.xml": ["Alpha Question"],
    "nested_categories.xml": ["Zeta Question"],
    "old_format_file.xml": ["Pi Question", "Rho Question"],
}
REFUSED = {
    "broken_cloze_questions.xml": [
        f"Multianswer question without subquestions: cloze {REASON}",
        f"Multichoice subquestion without choices: cloze {REASON}",
        f"Multichoice subquestion with only one choice: cloze {REASON}",
        f"Multichoice subquestion with no completely correct answer: cloze {REASON}",
        f"Numerical subquestion with buggy answer: cloze {REASON}",
    ],
    "categories_reverse_order.xml": [f"Tau Question: essay {REASON}"],
    "error_invalid_grades.xml": [
        "Question with invalid grades : x > 1 & x < 2: answer 2: the grade 33 is not one "
        "Moodle allows",
        "Question with invalid grades : x > 1 & x < 2: the correct answers' grades add up to "
        "66.6667%, not 100%",
    ],
    "nested_categories_with_questions.xml": [f"Kappa Essay Question: essay {REASON}"],
}


def test_every_stored_fixture_is_accounted_for():
    assert {p.name for p in FIXTURES.glob("*.xml")} == IMPORTED.keys() | REFUSED.keys()


def upload(client, bank, content: bytes, name: str = "quiz.xml"):
    file = SimpleUploadedFile(name, content, content_type="application/xml")
    return client.post(reverse("bank_moodle", args=[bank.slug]), {"file": file})


@pytest.mark.parametrize("name", sorted(IMPORTED))
def test_moodles_fixture_imports(teacher_client, own_bank, name):
    response = upload(teacher_client, own_bank, (FIXTURES / name).read_bytes(), name)
    assert response.status_code == 302
    saved = ImportedQuestion.objects.filter(bank=own_bank).order_by("position")
    assert [q.name for q in saved] == IMPORTED[name]
    assert all(q.kind == "truefalse" and q.source == "moodle" for q in saved)
    # the key as the file gives it: true is right in each of them
    assert all(q.grade("true") == (1.0, [0]) and q.grade("false")[0] == 0 for q in saved)


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_moodles_fixture_is_refused_naming_the_question(teacher_client, own_bank, name):
    response = upload(teacher_client, own_bank, (FIXTURES / name).read_bytes(), name)
    assert response.status_code == 400
    page = response.content.decode()
    with pytest.raises(InterchangeError) as refused:
        moodle.check_moodle(own_bank.owner, own_bank, (FIXTURES / name).read_bytes(), name)
    assert refused.value.problems == REFUSED[name]
    for problem in REFUSED[name]:
        escaped = problem.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        assert escaped.replace("'", "&#x27;") in page
    assert not ImportedQuestion.objects.exists()


# Each kind, read and graded.

EVERY_KIND = b"""<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="multichoice">
    <name><text>Who shuffles</text></name>
    <questiontext format="html"><text><![CDATA[<p>Alice casts <em>Demonic Tutor</em>.
      Who shuffles?</p>]]></text></questiontext>
    <generalfeedback format="html"><text>Rule 701.23</text></generalfeedback>
    <single>true</single>
    <answer fraction="100"><text>Alice</text><feedback><text>Yes.</text></feedback></answer>
    <answer fraction="0"><text>Bob</text></answer>
    <answer fraction="-50"><text>Nobody</text></answer>
    <tags><tag><text>rule:701.23</text></tag><tag><text>level:L1</text></tag></tags>
  </question>
  <question type="multichoice">
    <name><text>Which are lands</text></name>
    <questiontext format="html"><text>Pick the lands.</text></questiontext>
    <single>false</single>
    <answer fraction="50"><text>Forest</text></answer>
    <answer fraction="50"><text>Island</text></answer>
    <answer fraction="-100"><text>Shock</text></answer>
  </question>
  <question type="truefalse">
    <name><text>Shuffle after</text></name>
    <questiontext format="html"><text>Alice shuffles.</text></questiontext>
    <answer fraction="0"><text>true</text></answer>
    <answer fraction="100"><text>false</text></answer>
  </question>
  <question type="numerical">
    <name><text>How many</text></name>
    <questiontext format="html"><text>How many cards may she find?</text></questiontext>
    <answer fraction="100"><text>3</text><tolerance>0.5</tolerance></answer>
    <answer fraction="50"><text>*</text></answer>
  </question>
  <question type="shortanswer">
    <name><text>Which zone</text></name>
    <questiontext format="html"><text>Where does the card go?</text></questiontext>
    <answer fraction="100"><text>hand</text></answer>
    <answer fraction="50"><text>*hand*</text></answer>
  </question>
</quiz>
"""


@pytest.fixture
def imported(instructor, own_bank) -> dict[str, ImportedQuestion]:
    plan = moodle.check_moodle(instructor, own_bank, EVERY_KIND, "every-kind.xml")
    moodle.do_import_moodle(instructor, own_bank, plan)
    return {q.name: q for q in ImportedQuestion.objects.filter(bank=own_bank)}


def test_every_kind_is_read_with_its_key(imported):
    single = imported["Who shuffles"]
    assert single.kind == "multichoice" and single.single
    assert [a["fraction"] for a in single.answers] == [100, 0, -50]
    assert single.answers[0]["feedback"] == "Yes."
    assert single.tags == ["rule:701.23", "level:L1"]
    assert single.text.startswith("<p>Alice casts <em>Demonic Tutor</em>.")
    assert not imported["Which are lands"].single
    assert imported["How many"].answers[0]["tolerance"] == 0.5


def test_each_kind_is_graded_as_moodle_would(imported):
    single, several = imported["Who shuffles"], imported["Which are lands"]
    assert single.grade(0) == (1.0, [0]) and single.grade(2) == (0.0, [2])
    assert several.grade([0, 1]) == (1.0, [0, 1])
    assert several.grade([0]) == (0.5, [0])
    assert several.grade([0, 2])[0] == 0.0  # never below nothing
    assert imported["Shuffle after"].grade("false")[0] == 1.0
    assert imported["Shuffle after"].grade("true")[0] == 0.0
    count = imported["How many"]
    assert count.grade("3.4") == (1.0, [0]) and count.grade("2,9")[0] == 1.0
    assert count.grade("7") == (0.5, [1]) and count.grade("")[0] == 0.0
    zone = imported["Which zone"]
    assert zone.grade("Hand") == (1.0, [0]) and zone.grade("her hand")[0] == 0.5
    assert zone.grade("library") == (0.0, [])


def test_imported_questions_stay_out_of_the_engine(imported, own_bank):
    """No scenario, no Question: the lint and the audit read those only."""
    assert not scenarios_in(own_bank).exists() and not Question.objects.exists()
    assert lint.lint(Scenario.objects.all()) == []


def test_a_bad_question_saves_nothing_and_every_problem_is_listed(instructor, own_bank):
    content = EVERY_KIND.replace(
        b'<answer fraction="100"><text>3</text>', b'<answer fraction="100"><text>three</text>'
    )
    content = content.replace(b"<text>Pick the lands.</text>", b"<text></text>")
    with pytest.raises(InterchangeError) as refused:
        moodle.check_moodle(instructor, own_bank, content, "bad.xml")
    assert refused.value.problems == [
        "Which are lands: the question has no text",
        "How many: answer 1: 'three' is not a number",
    ]
    assert not ImportedQuestion.objects.exists()


@pytest.mark.parametrize(
    ("question", "problem"),
    [
        ('<question type="truefalse"><name><text>TF</text></name><questiontext><text>x</text>'
         '</questiontext><answer fraction="100"><text>yes</text></answer></question>',
         "TF: a true or false question needs the answers true and false"),
        ('<question type="multichoice"><name><text>MC</text></name><questiontext><text>x</text>'
         '</questiontext><answer fraction="50"><text>a</text></answer>'
         '<answer fraction="0"><text>b</text></answer></question>',
         "MC: no answer is fully correct (one must have the grade 100%)"),
        ('<question type="shortanswer"><name><text>SA</text></name><questiontext><text>x'
         "</text></questiontext></question>", "SA: the question has no answers"),
        ('<question type="numerical"><questiontext><text>x</text></questiontext>'
         '<answer fraction="100"><text>1</text><tolerance>-1</tolerance></answer></question>',
         "question 1 (no name): answer 1: the tolerance is not a number of 0 or more"),
    ],
)  # fmt: skip
def test_a_malformed_question_is_named_with_its_reason(instructor, own_bank, question, problem):
    content = f"<quiz>{question}</quiz>".encode()
    with pytest.raises(InterchangeError) as refused:
        moodle.check_moodle(instructor, own_bank, content, "q.xml")
    assert refused.value.problems == [problem]


# Attacks.

BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<quiz><question type="shortanswer"><name><text>&lol9;</text></name></question></quiz>
"""
XXE = b"""<?xml version="1.0"?>
<!DOCTYPE quiz [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<quiz><question type="shortanswer"><name><text>leak</text></name>
<questiontext><text>&secret;</text></questiontext>
<answer fraction="100"><text>x</text></answer></question></quiz>
"""


@pytest.mark.parametrize("content", [BILLION_LAUGHS, XXE], ids=["billion-laughs", "xxe"])
def test_entities_and_dtds_are_refused(teacher_client, own_bank, content):
    response = upload(teacher_client, own_bank, content, "attack.xml")
    assert response.status_code == 400
    assert "attack.xml: refused: the file declares a DTD or entities" in response.content.decode()
    assert "root:" not in response.content.decode()
    assert not ImportedQuestion.objects.exists()


def test_an_oversize_file_is_refused_before_it_is_parsed(teacher_client, own_bank):
    content = b"<quiz>" + b" " * limits.MAX_IMPORT_BYTES + b"</quiz>"
    response = upload(teacher_client, own_bank, content, "big.xml")
    assert response.status_code == 400
    assert "big.xml: larger than the limit of 2 MB per file" in response.content.decode()


def test_too_many_questions_are_refused(instructor, own_bank):
    one = '<question type="truefalse"><name><text>q</text></name></question>'
    content = f"<quiz>{one * (limits.MAX_MOODLE_QUESTIONS + 1)}</quiz>".encode()
    with pytest.raises(InterchangeError, match="501 questions, over the limit of 500"):
        moodle.check_moodle(instructor, own_bank, content, "many.xml")


def test_an_overlong_text_is_refused(instructor, own_bank):
    long_text = "x" * (limits.MAX_MOODLE_TEXT + 1)
    content = EVERY_KIND.replace(b"Alice shuffles.", long_text.encode())
    with pytest.raises(InterchangeError) as refused:
        moodle.check_moodle(instructor, own_bank, content, "long.xml")
    assert refused.value.problems == [
        "Shuffle after: the text has 20,001 characters, over the limit of 20,000"
    ]


def test_not_xml_and_not_moodle_are_refused(instructor, own_bank):
    with pytest.raises(InterchangeError, match="q.xml: not well-formed XML"):
        moodle.check_moodle(instructor, own_bank, b"<quiz><question>", "q.xml")
    with pytest.raises(InterchangeError, match=r"not Moodle XML \(it must start with <quiz>\)"):
        moodle.check_moodle(instructor, own_bank, b"<html></html>", "q.xml")


def test_script_in_text_is_sanitised(teacher_client, own_bank, instructor):
    content = EVERY_KIND.replace(
        b"<p>Alice casts",
        b'<script>alert(1)</script><img src=x onerror="alert(2)"><a href="javascript:alert(3)">'
        b"l</a><p onclick='alert(4)'>Alice casts",
    ).replace(b"<text>Bob</text>", b"<text><![CDATA[<b onmouseover=alert(5)>Bob</b>]]></text>")
    assert upload(teacher_client, own_bank, content).status_code == 302
    question = ImportedQuestion.objects.get(name="Who shuffles")
    stored = question.text + "".join(a["text"] for a in question.answers)
    for attack in ("<script", "alert(1)", "onerror", "javascript:", "onclick", "onmouseover"):
        assert attack not in stored
    page = teacher_client.get(reverse("imported_question", args=[own_bank.slug, question.pk]))
    assert "alert(" not in page.content.decode()


def test_another_instructors_bank_is_not_reachable(client, instructor, other_instructor):
    theirs = BankFactory(owner=other_instructor, slug="theirs", visibility=Bank.Visibility.PRIVATE)
    with pytest.raises(InterchangeError, match="only import into your own banks"):
        moodle.check_moodle(instructor, theirs, EVERY_KIND, "q.xml")
    plan = moodle.check_moodle(other_instructor, theirs, EVERY_KIND, "q.xml")
    question = moodle.do_import_moodle(other_instructor, theirs, plan)[0]
    client.force_login(instructor)
    assert upload(client, theirs, EVERY_KIND).status_code == 404
    assert client.get(reverse("bank_moodle", args=[theirs.slug])).status_code == 404
    assert client.get(reverse("imported_questions", args=[theirs.slug])).status_code == 404
    url = reverse("imported_question", args=[theirs.slug, question.pk])
    assert client.get(url).status_code == 404 and client.post(url).status_code == 404
    assert ImportedQuestion.objects.filter(bank=theirs).count() == 5


# Practising imported questions.


def test_the_key_is_not_on_the_page_before_the_answer(client, imported, own_bank):
    learner = UserFactory(username="learner")
    client.force_login(learner)  # a shared bank: its owner's cohorts; make it public for all
    own_bank.visibility = Bank.Visibility.PUBLIC
    own_bank.save()
    listing = client.get(reverse("imported_questions", args=[own_bank.slug])).content.decode()
    assert "Which zone" in listing
    zone = imported["Which zone"]
    url = reverse("imported_question", args=[own_bank.slug, zone.pk])
    before = client.get(url).content.decode()
    assert "Where does the card go?" in before and "hand" not in before
    after = client.post(url, {"answer": "her hand"}).content.decode()
    assert "Your mark: 50%" in after and "hand" in after
    single = imported["Who shuffles"]
    url = reverse("imported_question", args=[own_bank.slug, single.pk])
    assert "Yes." not in client.get(url).content.decode()
    answered = client.post(url, {"choice": "0"}).content.decode()
    assert "Your mark: 100%" in answered and "Yes." in answered


# Export: tags, what is left out, and the round trip.


@pytest.fixture
def every_kind(instructor, own_bank, search_rule):
    scenario = Scenario.objects.create(
        slug="land-tutor", title="Land Tutor", source="tests", spec=land_tutor_spec(),
        bank=own_bank,
    )  # fmt: skip
    for kind in INSTRUCTOR_KINDS:
        make_question(
            scenario, own_bank, kind=kind, key=kind.replace("_", "-"), rules=[search_rule]
        )
    return own_bank


def test_export_tags_rules_and_levels_and_says_what_it_leaves_out(every_kind):
    export = interchange.moodle_export(every_kind)
    root = ET.fromstring(export.xml.encode())
    for question in root.findall("question")[1:]:
        tags = [t.findtext("text") for t in question.findall("tags/tag")]
        assert tags == ["rule:701.23b", "level:L1"]
    assert [key for key, _reason in export.skipped] == ["legal-set"]
    assert "legal-set: a legal-set question has no single key" in export.xml


def test_the_moodle_page_lists_what_the_export_leaves_out(teacher_client, every_kind):
    page = teacher_client.get(reverse("bank_moodle", args=[every_kind.slug])).content.decode()
    assert "1 question is left out" in page and "a legal-set question has no single key" in page
    assert f"/banks/{every_kind.slug}/moodle.xml" in page
    detail = teacher_client.get(reverse("bank_detail", args=[every_kind.slug])).content.decode()
    assert reverse("bank_moodle", args=[every_kind.slug]) in detail
    assert f"/banks/{every_kind.slug}/moodle.xml" in detail  # the download stays on the bank page


def test_an_exported_bank_imported_again_keeps_every_question(instructor, every_kind):
    """Every question the export could express comes back: same name, type, answers and
    grades, tags; and marking it with its key gives full marks."""
    exported = ET.fromstring(interchange.export_moodle(every_kind).encode())
    written = exported.findall("question")[1:]
    assert len(written) >= len(Question.Kind.values) - 1
    copy = BankFactory(owner=instructor, slug="copy")
    plan = moodle.check_moodle(
        instructor, copy, interchange.export_moodle(every_kind).encode(), "x"
    )
    moodle.do_import_moodle(instructor, copy, plan)
    back = list(ImportedQuestion.objects.filter(bank=copy).order_by("position"))
    assert [(q.name, q.kind) for q in back] == [
        (q.findtext("name/text"), q.get("type")) for q in written
    ]
    for element, question in zip(written, back, strict=True):
        fractions = [float(a.get("fraction")) for a in element.findall("answer")]
        assert [a["fraction"] for a in question.answers] == fractions
        assert question.tags == [t.findtext("text") for t in element.findall("tags/tag")]
        right = [i for i, f in enumerate(fractions) if f > 0]
        if question.kind == "multichoice":
            response = right if not question.single else right[0]
        else:
            response = question.answers[right[0]]["text"]
        assert question.grade(response)[0] == 1.0, question.name
    # and once more: the imported questions export as they came, and import again alike
    again = interchange.export_moodle(copy).encode()
    third = BankFactory(owner=instructor, slug="third")
    moodle.do_import_moodle(instructor, third, moodle.check_moodle(instructor, third, again, "y"))
    fields = ("name", "kind", "text", "single", "answers", "tags")
    assert [
        [getattr(q, f) for f in fields] for q in third.imported_questions.order_by("position")
    ] == [[getattr(q, f) for f in fields] for q in back]


def test_learners_find_a_banks_imported_questions(client, imported, own_bank):
    """A bank with imported questions only is listed to practise, with a link to them."""
    own_bank.visibility = Bank.Visibility.PUBLIC
    own_bank.save()
    client.force_login(UserFactory(username="learner"))
    page = client.get(reverse("practice_banks")).content.decode()
    assert "5 imported questions" in page
    assert reverse("imported_questions", args=[own_bank.slug]) in page
    assert f"?bank={own_bank.slug}" not in page  # no engine questions to practise there


@pytest.mark.parametrize(
    ("pattern", "text", "matches"),
    [
        ("hand", "hand", True), ("*hand*", "her hand", True), ("h*d", "hd", True),
        ("h*d", "hand!", False), ("*", "x", True), ("a*b*c", "abxc", True), ("a*b*c", "acb", False),
    ],
)  # fmt: skip
def test_short_answers_match_with_wildcards(pattern, text, matches):
    assert wildcard_match(pattern, text) is matches


def test_many_wildcards_take_no_exponential_time():
    """A key of 1,000 stars and letters against 200 characters that never match: at most
    pattern x text steps (a regular expression would backtrack for ages)."""
    assert not wildcard_match("*a" * 1000 + "b", "a" * 200)

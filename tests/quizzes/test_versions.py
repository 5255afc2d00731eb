"""Versions keep history true: an edit makes a new version, and what learners were given stays
as it was: their answers, their feedback, exam reviews and item analysis read that version."""

from __future__ import annotations

import copy
import json

import pytest
from django.urls import reverse

from quizzes.exams import proctor
from quizzes.instructors import analysis, saving
from quizzes.models import ExamItem, Presentation, Response, Scenario, ScenarioVersion
from quizzes.rulings import checks, documents
from rules.cards import catalog_for
from tests.factories import BankFactory, ScenarioFactory, UserFactory, simple_spec
from tests.quizzes.conftest import land_tutor_spec, make_question
from tests.quizzes.exams.test_exams import blueprint_of
from tests.quizzes.instructor_fixtures import text
from tests.quizzes.pages import token_of

pytestmark = pytest.mark.django_db

RIGHT = {"claim_0": "may", "claim_1": "cannot"}  # Forest: may fail to find it; Shock: cannot
WRONG = {"claim_0": "must", "claim_1": "may"}
NEW_CARD = "Tutorial Mountain"


def edited_spec() -> dict:
    """The same question, a new board: a card the old one never had, on top of the library."""
    spec = copy.deepcopy(land_tutor_spec())
    spec["cards"].append(
        {"name": NEW_CARD, "types": ["Land"], "supertypes": ["Basic"],
         "subtypes": ["Mountain"], "oracle": "({T}: Add {R}.)"}
    )  # fmt: skip
    spec["zones"]["Alice"]["library"].insert(0, "Tutorial Mountain#m1")
    spec["title"] = "Land Tutor with a mountain on top"
    return spec


OLD_TITLE = "Land Tutor with a mixed library"


def edit(scenario: Scenario) -> Scenario:
    scenario.refresh_from_db()
    spec = edited_spec()
    scenario.spec, scenario.title = spec, spec["title"]
    scenario.save()
    return scenario


@pytest.fixture
def question(bank, search_rule):
    """A cards question on Land Tutor, its scenario titled as its spec."""
    scenario = ScenarioFactory(spec=land_tutor_spec(), title=OLD_TITLE)
    return make_question(scenario, bank, rules=[search_rule])


def answer_in_practice(client, user, data) -> Response:
    client.force_login(user)
    token = token_of(client.get(reverse("practice")))
    client.post(reverse("answer"), {"token": token, **data})
    return Response.objects.filter(user=user).latest("id")


# The model.


def test_a_new_scenario_is_version_1_with_its_content():
    scenario = ScenarioFactory(spec=simple_spec("first"))
    version = scenario.current_version
    assert (version.number, scenario.version) == (1, 1)
    assert version.spec == scenario.spec and version.title == scenario.title


def test_changed_content_starts_a_new_version_and_the_old_one_stays(question):
    scenario = question.scenario
    old_spec, old_title = copy.deepcopy(scenario.spec), scenario.title
    first = scenario.current_version
    edit(scenario)
    assert scenario.version == 2 and scenario.current_version.spec == edited_spec()
    first.refresh_from_db()
    assert first.spec == old_spec and first.title == old_title
    assert first.questions[str(question.pk)]["claims"] == question.claims  # frozen with it
    assert list(scenario.versions.values_list("number", flat=True)) == [1, 2]


def test_saving_without_a_content_change_keeps_the_version(scenario):
    checks.record_engine_check(scenario)
    scenario.save()
    scenario.spec = dict(scenario.spec)  # equal content, another object
    scenario.save(update_fields=["spec"])
    assert ScenarioVersion.objects.filter(scenario=scenario).count() == 1


def test_a_change_made_in_place_in_the_spec_is_seen(scenario):
    scenario.spec["title"] = "Changed in place"
    scenario.save()
    assert scenario.version == 2


def test_bulk_create_makes_version_1_of_each_in_three_queries(django_assert_num_queries):
    scenarios = [
        Scenario(slug=f"bulk-{n}", title=f"Bulk {n}", source="bench", spec=simple_spec(f"b{n}"))
        for n in range(40)
    ]
    with django_assert_num_queries(3):  # the scenarios, their versions, current_version
        Scenario.objects.bulk_create(scenarios)
    stored = Scenario.objects.filter(slug__startswith="bulk-").select_related("current_version")
    assert all(s.current_version.number == 1 and s.current_version.spec == s.spec for s in stored)


def test_bulk_create_ignoring_conflicts_leaves_existing_rows_their_version():
    existing = ScenarioFactory(slug="bulk-0", spec=simple_spec("b0"))
    scenarios = [
        Scenario(slug=f"bulk-{n}", title=f"Bulk {n}", source="bench", spec=simple_spec(f"b{n}"))
        for n in range(3)
    ]
    Scenario.objects.bulk_create(scenarios, ignore_conflicts=True)
    assert ScenarioVersion.objects.filter(scenario=existing).count() == 1
    assert Scenario.objects.filter(current_version=None).count() == 0
    assert ScenarioVersion.objects.count() == 3


def test_a_question_change_alone_starts_a_new_version_with_the_old_prompt_frozen(
    instructor, own_bank
):
    document = documents.read_document(
        simple_spec("asked") | {"questions": [_question("Does Alice shuffle?")]},
        catalog_for(None),
    )
    scenario = saving.do_save_scenario(instructor, own_bank, document)
    question = scenario.questions.get()
    changed = documents.read_document(
        simple_spec("asked") | {"questions": [_question("Must Alice shuffle?")]},
        catalog_for(None),
    )
    saving.do_save_scenario(instructor, own_bank, changed, scenario)
    scenario.refresh_from_db()
    first = scenario.versions.get(number=1)
    question.refresh_from_db()
    assert scenario.version == 2
    assert first.question_as_given(question).prompt == "Does Alice shuffle?"
    assert scenario.current_version.question_as_given(question).prompt == "Must Alice shuffle?"


def _question(prompt: str) -> dict:
    claims = [{"claim": "shuffles", "player": "Alice"}]
    return {"key": "shuffles", "kind": "value", "prompt": prompt, "claims": claims}


# Answers and feedback.


def test_an_answer_points_at_the_version_it_was_given_on(client, learner, question, no_variants):
    response = answer_in_practice(client, learner, RIGHT)
    first = question.scenario.current_version
    assert response.scenario_version == first
    assert Presentation.objects.get().scenario_version == first
    edit(question.scenario)
    response.refresh_from_db()
    assert response.scenario_version == first


def test_old_feedback_shows_the_board_and_title_answered(client, learner, question, no_variants):
    response = answer_in_practice(client, learner, RIGHT)
    edit(question.scenario)
    page = client.get(reverse("feedback", args=[response.pk])).content.decode()
    assert OLD_TITLE in page
    assert NEW_CARD not in page and "mountain on top" not in page
    # the question served now is on the new board
    client.force_login(UserFactory(username="newcomer"))
    assert NEW_CARD in client.get(reverse("practice")).content.decode()


def test_an_exam_is_graded_and_reviewed_on_the_version_drawn(
    client, learner, question, search_rule, no_variants
):
    sitting = proctor.start(learner, blueprint_of(("701.23", 1)))
    client.force_login(learner)
    client.post(reverse("exam_question", args=[sitting.pk, 1]), RIGHT)
    assert ExamItem.objects.get().scenario_version == question.scenario.current_version
    edit(question.scenario)  # mid-exam: the sitting keeps what it drew
    client.post(reverse("exam_finish", args=[sitting.pk]))
    response = Response.objects.get(attempt_id=sitting.pk)
    assert response.correct and response.scenario_version.number == 1
    review = client.get(reverse("exam_review", args=[sitting.pk, 1])).content.decode()
    assert OLD_TITLE in review and NEW_CARD not in review


# Statistics.


def test_item_analysis_is_per_version_with_its_date(client, question, no_variants):
    for name in ("ann", "ben"):
        answer_in_practice(client, UserFactory(username=name), WRONG)
    edit(question.scenario)
    answer_in_practice(client, UserFactory(username="cat"), RIGHT)
    rows = [item for item in analysis.item_analysis(question.bank) if item.question == question]
    assert [(row.version.number, row.answers, row.facility) for row in rows] == [
        (2, 1, 1.0),
        (1, 2, 0.0),
    ]
    assert rows[0].is_current and not rows[1].is_current
    assert rows[1].version.created_at < rows[0].version.created_at


def test_the_bank_page_shows_each_version(
    client, teacher_client, instructor, no_variants, search_rule
):
    bank = BankFactory(owner=instructor, visibility="public")
    scenario = ScenarioFactory(spec=land_tutor_spec(), bank=bank)
    make_question(scenario, bank, rules=[search_rule])
    learner = UserFactory(username="dee")
    answer_in_practice(client, learner, WRONG)
    answered_title = scenario.title
    edit(scenario)
    teacher_client.force_login(instructor)
    page = teacher_client.get(reverse("bank_detail", args=[bank.slug])).content.decode()
    assert "(earlier)" in page and page.count("<time datetime=") == 2
    # found walking: the earlier version's row was titled with the edit's new title
    rows = page.split('class="instructor-table item-analysis"')[1].split("<tr>")[2:]
    titles = [row.split('class="muted">', 1)[1].split("<", 1)[0] for row in rows]
    assert titles == ["Land Tutor with a mountain on top", answered_title]


def test_an_admin_edit_of_a_question_starts_a_new_version(admin_client, question):
    data = {
        "scenario": question.scenario_id,
        "bank": question.bank_id,
        "key": question.key,
        "kind": question.kind,
        "prompt": "Reworded in the admin.",
        "claims": json.dumps(question.claims),
        "rules": [rule.pk for rule in question.rules.all()],
        "difficulty": question.difficulty,
        "level": question.level,
        "answer_count": question.answer_count,
        "position": question.position,
        "is_active": "on",
    }
    url = reverse("admin:quizzes_question_change", args=[question.pk])
    response = admin_client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    scenario = Scenario.objects.get(pk=question.scenario_id)
    question.refresh_from_db()
    assert scenario.version == 2 and question.prompt == "Reworded in the admin."
    frozen = scenario.versions.get(number=1).question_as_given(question)
    assert frozen.prompt == "A cards question about Land Tutor."


def test_a_second_copy_of_a_scenario_gets_an_id_of_its_own(instructor, own_bank):
    scenario = saving.do_save_scenario(
        instructor, own_bank, saving.check_save_scenario(instructor, own_bank, text("orig"))
    )
    ids = []
    for _ in range(2):
        copy = saving.check_save_scenario(instructor, own_bank, documents.copy_text(scenario), None)
        ids.append(saving.do_save_scenario(instructor, own_bank, copy).spec["id"])
    assert ids == ["orig-copy", "orig-copy-2"]

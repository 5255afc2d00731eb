"""LTI 1.3 end to end against a test platform that signs as the specification says (platform.py):
OIDC login, launch, deep linking, a score through Assignment and Grade Services; and each of a
wrong signature, a replayed nonce, an unknown deployment and an expired token refused."""

from __future__ import annotations

import io
import time

import pytest
from django.conf import settings
from django.contrib.auth import SESSION_KEY, get_user_model
from django.core.management import call_command
from django.urls import reverse
from lti_tool.models import Key, LtiUser

from quizzes.models import (
    Attempt,
    Bank,
    CohortMembership,
    ExamSitting,
    LtiCohort,
    LtiGradeTarget,
    Response,
)
from tests.factories import BankFactory, QuestionFactory
from tests.quizzes.exams.test_exams import RIGHT, WRONG, blueprint_of, fill
from tests.quizzes.lti.platform import CONTENT_ITEMS, INSTRUCTOR, LEARNER, LTI, Platform, new_key

pytestmark = pytest.mark.django_db


@pytest.fixture
def platform(client):
    Key.objects.generate()  # the tool's key pair (manage.py rotate_keys)
    with Platform(client).online() as online:
        yield online


@pytest.fixture
def exam(bank, search_rule, no_variants):
    fill(bank, search_rule, 3)
    return blueprint_of(("701.23", 3), slug="l1-mock")


def logged_in_as(client):
    return client.session.get(SESSION_KEY)


def test_a_full_exchange_deep_link_launch_and_score(
    platform, client, exam, django_capture_on_commit_callbacks
):
    # the instructor adds an exam to the course: deep linking
    answer = platform.deep_linking_request(sub="teacher-1")
    assert answer.status_code == 200
    assert exam.title in answer.content.decode()
    picked = client.post(reverse("lti_deep_link"), {"choice": f"exam:{exam.slug}"}, secure=True)
    assert picked.status_code == 200
    claims = platform.read_deep_link_response(picked.content.decode())
    [item] = claims[CONTENT_ITEMS]
    assert item["type"] == "ltiResourceLink" and item["url"] == "https://testserver/lti/launch/"
    assert item["custom"] == {"tutor_exam": exam.slug}
    assert item["lineItem"]["scoreMaximum"] == 3 and item["lineItem"]["label"] == exam.title
    # the response form may post to the platform, and no other page may
    assert "form-action 'self' https://lms.example.org" in picked["Content-Security-Policy"]
    teacher = LtiUser.objects.get(sub="teacher-1").auth_user
    cohort = LtiCohort.objects.get(context__id_on_platform="course-7").cohort
    assert cohort.instructor == teacher and cohort.name == "Judge course"
    assert list(cohort.assignments.values_list("blueprint__slug", flat=True)) == [exam.slug]

    # a learner launches the link the platform made of it
    client.logout()
    answer = platform.resource_launch("learner-9", [LEARNER], item)
    assert answer.status_code == 200
    assert reverse("exam_start", args=[exam.slug]) in answer.content.decode()
    learner = LtiUser.objects.get(sub="learner-9").auth_user
    assert str(learner.pk) == logged_in_as(client)
    assert learner.email == "" and not learner.has_usable_password()
    assert (learner.first_name, learner.last_name) == ("Ada", "Lovelace")
    assert CohortMembership.objects.filter(cohort=cohort, user=learner).exists()
    [target] = LtiGradeTarget.objects.filter(user=learner, blueprint=exam)

    # the learner sits the exam in the frame; finishing it posts the score
    started = client.post(reverse("exam_start", args=[exam.slug]), secure=True)
    assert started.status_code == 302
    sitting = ExamSitting.objects.get(attempt__user=learner)
    for position, answer_given in enumerate([RIGHT, RIGHT, WRONG], start=1):
        client.post(
            reverse("exam_question", args=[sitting.pk, position]), answer_given, secure=True
        )
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("exam_finish", args=[sitting.pk]), secure=True)
    sitting.refresh_from_db()
    assert sitting.right_count == 2
    [(url, score)] = platform.scores
    assert url == target.lineitem_url + "/scores"
    assert score["userId"] == "learner-9"
    assert (score["scoreGiven"], score["scoreMaximum"]) == (2, 3)
    assert score["activityProgress"] == "Completed" and score["gradingProgress"] == "FullyGraded"
    [token_request] = platform.token_requests
    assert "https://purl.imsglobal.org/spec/lti-ags/scope/score" in token_request["scope"]


def test_the_same_platform_user_is_the_same_tutor_user_and_never_found_by_email(
    platform, client, exam
):
    item = {"title": exam.title, "custom": {"tutor_exam": exam.slug}}
    platform.resource_launch("learner-9", [LEARNER], item)
    first = logged_in_as(client)
    client.logout()
    platform.resource_launch("learner-9", [LEARNER], item)
    assert logged_in_as(client) == first
    client.logout()
    # another person with the same e-mail address is another user
    platform.resource_launch("learner-10", [LEARNER], item)
    assert logged_in_as(client) != first
    assert get_user_model().objects.filter(username__startswith="lti-").count() == 2


def refused(answer, client) -> bool:
    return answer.status_code == 403 and logged_in_as(client) is None


def why(caplog) -> str:
    """The reason the launch was refused, as logged (the page says it in general terms)."""
    return " ".join(r.getMessage() for r in caplog.records if r.name == "tutor.lti")


def test_a_wrong_signature_is_refused(platform, client, exam, caplog):
    item = {"title": exam.title, "custom": {"tutor_exam": exam.slug}}
    forged = new_key()  # signed by another key under the platform's key id
    answer = platform.resource_launch("learner-9", [LEARNER], item, key=forged)
    assert refused(answer, client)
    # the refusal is shown in the registered platforms' frames, and no one else's
    policy = answer["Content-Security-Policy"]
    assert "frame-ancestors https://lms.example.org;" in policy + ";"
    assert "Signature verification failed" in why(caplog)
    assert not LtiUser.objects.exists()


def test_a_replayed_nonce_is_refused(platform, client, exam, caplog):
    state, nonce = platform.login()
    claims = platform.claims(
        nonce,
        "learner-9",
        [LEARNER],
        **{
            LTI + "message_type": "LtiResourceLinkRequest",
            LTI + "resource_link": {"id": "link-1"},
            LTI + "custom": {"tutor_exam": exam.slug},
        },
    )
    token = platform.sign(claims)
    assert platform.post_launch(token, state).status_code == 200
    # the same id_token and state again, from the same browser with its cookies (the state
    # cookie still matches): only the nonce, used once already, refuses it
    assert platform.post_launch(token, state).status_code == 403
    assert "Invalid Nonce" in why(caplog)


def test_an_unknown_deployment_is_refused(platform, client, exam, caplog):
    item = {"title": exam.title, "custom": {"tutor_exam": exam.slug}}
    answer = platform.resource_launch(
        "learner-9", [LEARNER], item, **{LTI + "deployment_id": "deployment-unknown"}
    )
    assert refused(answer, client)
    assert "Unable to find deployment" in why(caplog)
    assert not LtiUser.objects.exists()


def test_an_expired_token_is_refused(platform, client, exam, caplog):
    item = {"title": exam.title, "custom": {"tutor_exam": exam.slug}}
    past = int(time.time()) - 600
    answer = platform.resource_launch("learner-9", [LEARNER], item, iat=past - 300, exp=past)
    assert refused(answer, client)
    assert "Signature has expired" in why(caplog)


def test_a_login_from_an_unregistered_platform_is_refused(platform, client):
    answer = client.post(
        reverse("lti_login"),
        {"iss": "https://evil.example.org", "login_hint": "x", "target_link_uri": "x"},
        secure=True,
    )
    assert answer.status_code == 400


def test_only_an_instructor_may_deep_link(platform, client, exam):
    answer = platform.launch(
        "learner-9",
        [LEARNER],
        **{
            LTI + "message_type": "LtiDeepLinkingRequest",
            "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings": {
                "deep_link_return_url": platform.return_url,
                "accept_types": ["ltiResourceLink"],
                "accept_presentation_document_targets": ["iframe"],
            },
        },
    )
    assert answer.status_code == 403
    assert (
        client.post(
            reverse("lti_deep_link"), {"choice": f"exam:{exam.slug}"}, secure=True
        ).status_code
        == 403
    )


def test_a_launched_session_is_framed_by_its_platform_alone(platform, client, exam):
    item = {"title": exam.title, "custom": {"tutor_exam": exam.slug}}
    answer = platform.resource_launch("learner-9", [INSTRUCTOR], item)
    assert "frame-ancestors https://lms.example.org" in answer["Content-Security-Policy"]
    assert "X-Frame-Options" not in answer
    for name in ("sessionid", "csrftoken"):
        cookie = answer.cookies[name]
        assert cookie["samesite"] == "None" and cookie["secure"] is True
    page = client.get(reverse("exam_index"), secure=True)
    assert "frame-ancestors https://lms.example.org" in page["Content-Security-Policy"]
    switched = client.post(reverse("set_language"), {"language": "de"}, secure=True)
    cookie = switched.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie["samesite"] == "None" and cookie["secure"] is True
    # the admin and the account pages stay unframeable
    account = client.get(reverse("password_change"), secure=True)
    assert "frame-ancestors 'none'" in account["Content-Security-Policy"]
    assert account["X-Frame-Options"] == "DENY"


def test_a_session_of_the_site_itself_stays_unframeable(client, learner):
    client.force_login(learner)
    page = client.get(reverse("exam_index"), secure=True)
    assert "frame-ancestors 'none'" in page["Content-Security-Policy"]
    assert page["X-Frame-Options"] == "DENY"
    switched = client.post(reverse("set_language"), {"language": "de"}, secure=True)
    assert switched.cookies[settings.LANGUAGE_COOKIE_NAME]["samesite"] == "Lax"


def test_the_keyset_publishes_the_active_keys_only(client):
    old, new = Key.objects.generate(), Key.objects.generate()
    old.is_active = False
    old.save()
    keys = client.get(reverse("lti_jwks")).json()["keys"]
    assert [key["kid"] for key in keys] == [str(new)]
    assert all(key["alg"] == "RS256" and "d" not in key for key in keys)


def test_a_deep_link_to_a_shared_bank_opens_it_to_the_course(platform, client):
    platform.deep_linking_request(sub="teacher-1")
    teacher = LtiUser.objects.get(sub="teacher-1").auth_user
    shared = BankFactory(owner=teacher, visibility=Bank.Visibility.SHARED, title="Our course bank")
    private = BankFactory(owner=teacher, visibility=Bank.Visibility.PRIVATE)
    picker = platform.deep_linking_request(sub="teacher-1").content.decode()
    assert f"bank:{shared.slug}" in picker and f"bank:{private.slug}" not in picker
    refused_choice = client.post(
        reverse("lti_deep_link"), {"choice": f"bank:{private.slug}"}, secure=True
    )
    assert refused_choice.status_code == 400
    picked = client.post(reverse("lti_deep_link"), {"choice": f"bank:{shared.slug}"}, secure=True)
    [item] = platform.read_deep_link_response(picked.content.decode())[CONTENT_ITEMS]
    assert item["custom"] == {"tutor_bank": shared.slug} and "lineItem" not in item
    cohort = LtiCohort.objects.get().cohort
    assert list(cohort.banks.all()) == [shared]

    client.logout()
    answer = platform.resource_launch("learner-9", [LEARNER], item)
    assert answer.status_code == 302
    assert answer["Location"] == f"{reverse('practice')}?bank={shared.slug}"
    learner = LtiUser.objects.get(sub="learner-9").auth_user
    assert shared in Bank.objects.visible_to(learner)


def test_a_deep_link_response_is_given_once(platform, client, exam):
    platform.deep_linking_request(sub="teacher-1")
    choice = {"choice": f"exam:{exam.slug}"}
    assert client.post(reverse("lti_deep_link"), choice, secure=True).status_code == 200
    assert client.post(reverse("lti_deep_link"), choice, secure=True).status_code == 403


def test_without_a_key_of_its_own_the_tool_says_so(client, caplog):
    Platform(client)  # registered, but `rotate_keys` never ran
    answer = client.post(
        reverse("lti_login"),
        {"iss": Platform.issuer, "login_hint": "x", "client_id": Platform.client_id},
        secure=True,
    )
    assert answer.status_code == 503
    assert "rotate_keys" in " ".join(r.getMessage() for r in caplog.records)


def test_the_canvas_configuration_names_the_tool_urls(client):
    config = client.get(reverse("lti_canvas_configuration"), secure=True).json()
    assert config["oidc_initiation_url"] == "https://testserver/lti/login/"
    assert config["target_link_uri"] == "https://testserver/lti/launch/"
    assert config["public_jwk_url"] == "https://testserver/lti/jwks.json"
    placements = config["extensions"][0]["settings"]["placements"]
    assert {p["message_type"] for p in placements} == {"LtiDeepLinkingRequest"}
    assert "https://purl.imsglobal.org/spec/lti-ags/scope/score" in config["scopes"]


def test_what_a_platform_says_of_a_person_is_bounded_and_their_email_not_kept(
    platform, client, exam
):
    item = {"title": exam.title, "custom": {"tutor_exam": exam.slug}}
    long = "A" * 5000
    answer = platform.resource_launch(
        "learner-9",
        [LEARNER],
        item,
        given_name=long,
        name=long,
        **{LTI + "context": {"id": "course-7", "title": long, "label": long}},
    )
    assert answer.status_code == 200
    lti_user = LtiUser.objects.get(sub="learner-9")
    assert lti_user.email == "" and len(lti_user.given_name) == 500
    assert len(lti_user.auth_user.first_name) == 150


def test_an_account_switched_off_is_not_logged_in_by_a_launch(platform, client, exam):
    item = {"title": exam.title, "custom": {"tutor_exam": exam.slug}}
    platform.resource_launch("learner-9", [LEARNER], item)
    client.logout()
    get_user_model().objects.filter(lti_users__sub="learner-9").update(is_active=False)
    assert refused(platform.resource_launch("learner-9", [LEARNER], item), client)


def test_a_gradebook_that_refuses_the_score_leaves_the_sitting_finished(
    platform, client, exam, caplog, django_capture_on_commit_callbacks
):
    item = {"title": exam.title, "custom": {"tutor_exam": exam.slug}}
    platform.resource_launch("learner-9", [LEARNER], item)
    platform.refuse_scores = True
    client.post(reverse("exam_start", args=[exam.slug]), secure=True)
    sitting = ExamSitting.objects.get()
    with django_capture_on_commit_callbacks(execute=True):
        finished = client.post(reverse("exam_finish", args=[sitting.pk]), secure=True)
    assert finished.status_code == 302
    sitting.refresh_from_db()
    assert sitting.right_count == 0 and sitting.finished
    assert platform.scores == []
    assert "LTI score not posted" in why(caplog) and "500" in why(caplog)


def test_practice_progress_goes_to_the_gradebook_when_the_instructor_asks(platform, client):
    platform.deep_linking_request(sub="teacher-1")
    teacher = LtiUser.objects.get(sub="teacher-1").auth_user
    shared = BankFactory(owner=teacher, visibility=Bank.Visibility.SHARED)
    first, second = QuestionFactory(bank=shared), QuestionFactory(bank=shared)
    platform.deep_linking_request(sub="teacher-1")
    choice = {"choice": f"bank:{shared.slug}", "graded": "on"}
    picked = client.post(reverse("lti_deep_link"), choice, secure=True)
    [item] = platform.read_deep_link_response(picked.content.decode())[CONTENT_ITEMS]
    assert item["lineItem"]["scoreMaximum"] == 100

    client.logout()
    platform.resource_launch("learner-9", [LEARNER], item)
    learner = LtiUser.objects.get(sub="learner-9").auth_user
    [target] = LtiGradeTarget.objects.filter(user=learner, bank=shared)

    def answer(question, correct: bool) -> None:  # one practice attempt an answer, for brevity
        attempt = Attempt.objects.create(user=learner)
        Response.objects.create(attempt=attempt, user=learner, question=question, correct=correct)

    for question, correct in ((first, True), (second, False), (first, False)):
        answer(question, correct)

    call_command("post_lti_progress", stdout=io.StringIO())
    [(url, score)] = platform.scores
    assert url == target.lineitem_url + "/scores" and score["userId"] == "learner-9"
    assert (score["scoreGiven"], score["scoreMaximum"]) == (50.0, 100)
    assert score["activityProgress"] == "InProgress"
    # nothing answered since: nothing posted; a new right answer: posted again
    call_command("post_lti_progress", stdout=io.StringIO())
    assert len(platform.scores) == 1
    answer(second, True)
    call_command("post_lti_progress", stdout=io.StringIO())
    assert platform.scores[-1][1]["scoreGiven"] == 100.0
    assert platform.scores[-1][1]["activityProgress"] == "Completed"


def test_practice_without_the_gradebook_keeps_no_target(platform, client):
    platform.deep_linking_request(sub="teacher-1")
    bank = BankFactory()
    picked = client.post(reverse("lti_deep_link"), {"choice": f"bank:{bank.slug}"}, secure=True)
    [item] = platform.read_deep_link_response(picked.content.decode())[CONTENT_ITEMS]
    assert "lineItem" not in item

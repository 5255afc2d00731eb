"""Assignment and Grade Services: results posted to the line items of the resource links a
learner launched (`LtiGradeTarget`, kept at launch).

- An exam: `sitting_finished` is called once per sitting, by `proctor.finish` after its
  transaction commits, and posts the sitting's score (right answers of questions asked).
- Practice on a bank (when the instructor asked for it at deep linking): `post_progress`, run by
  `manage.py post_lti_progress` (from cron), posts for each learner who answered since the last
  post the share of the bank's active questions they have answered right at least once, out of
  100. Never from the answer's request: a platform's latency stays out of practice.

A platform that refuses or does not answer is logged (tutor.lti) and skipped: the results are
kept in Tutor whatever the gradebook says.
"""

from __future__ import annotations

import logging

from django.db.models import Exists, OuterRef
from django.utils import timezone
from lti_tool.models import LtiLaunch
from pylti1p3.assignments_grades import AssignmentsGradesService
from pylti1p3.exception import LtiException
from pylti1p3.grade import Grade
from pylti1p3.service_connector import ServiceConnector
from requests import RequestException

from quizzes.lti.launches import http_session
from quizzes.models import ExamSitting, LtiGradeTarget, Question, Response

logger = logging.getLogger("tutor.lti")

SCORE_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
LINEITEM_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"
PROGRESS_MAXIMUM = 100  # practice progress is posted as a percentage
FAILURES = (LtiException, RequestException, ValueError, KeyError)
# seconds for each of the two calls a score takes (token, score): an exam's score is posted from
# the request that finished it, which a platform that does not answer holds 10 s at most
SCORE_TIMEOUT = 5


def remember_target(launch: LtiLaunch, user, *, blueprint=None, bank=None):
    """Keep the launch's line item for the results on `blueprint` (or `bank`), when the platform
    lets Tutor post scores to it; None otherwise."""
    endpoint = launch.ags_claim or {}
    lineitem, scopes = endpoint.get("lineitem"), list(endpoint.get("scope") or [])
    if not isinstance(lineitem, str) or SCORE_SCOPE not in scopes:
        return None
    if len(lineitem) > LtiGradeTarget._meta.get_field("lineitem_url").max_length:
        logger.warning("LTI line item URL too long to keep: %s...", lineitem[:100])
        return None
    target, _created = LtiGradeTarget.objects.update_or_create(
        user=user,
        lineitem_url=lineitem,
        defaults={"lti_user": launch.user, "scopes": scopes, "blueprint": blueprint, "bank": bank},
    )
    return target


def _grade(user_id: str, given: float, maximum: float, completed: bool) -> Grade:
    return (
        Grade()
        .set_user_id(user_id)
        .set_score_given(given)
        .set_score_maximum(maximum)
        .set_activity_progress("Completed" if completed else "InProgress")
        .set_grading_progress("FullyGraded")
        .set_timestamp(timezone.now().isoformat())
    )


def score_of(sitting: ExamSitting, user_id: str) -> Grade:
    return _grade(user_id, sitting.right_count or 0, sitting.question_count, completed=True)


def post(target: LtiGradeTarget, grade: Grade) -> None:
    """POST `grade` to the target's line item (raises on a platform's refusal)."""
    registration = target.lti_user.registration.to_registration()
    connector = ServiceConnector(registration, http_session(timeout=SCORE_TIMEOUT))
    service = AssignmentsGradesService(
        connector, {"lineitem": target.lineitem_url, "scope": target.scopes}
    )
    service.put_grade(grade)


def _posted(target: LtiGradeTarget, grade: Grade, what: str, **context) -> bool:
    try:
        post(target, grade)
    except FAILURES as error:
        logger.warning(
            "LTI %s not posted: %s: %s",
            what,
            type(error).__name__,
            error,
            extra={"lineitem": target.lineitem_url, **context},
        )
        return False
    return True


def _targets():
    return LtiGradeTarget.objects.filter(lti_user__registration__is_active=True).select_related(
        "lti_user__registration"
    )


def sitting_finished(sitting: ExamSitting) -> int:
    """Post a finished sitting's score wherever its learner launched its exam from; the number
    of line items that took it."""
    if sitting.blueprint_id is None or sitting.right_count is None:
        return 0
    targets = _targets().filter(user_id=sitting.attempt.user_id, blueprint_id=sitting.blueprint_id)
    grade_for = lambda target: score_of(sitting, target.lti_user.sub)  # noqa: E731
    return sum(
        _posted(target, grade_for(target), "score", sitting=sitting.pk) for target in targets
    )


def progress_of(target: LtiGradeTarget) -> tuple[int, int]:
    """(active questions of the target's bank its learner has answered right, all of them)."""
    questions = Question.objects.filter(bank_id=target.bank_id, is_active=True)
    right = Response.objects.filter(user_id=target.user_id, correct=True, question=OuterRef("pk"))
    return questions.filter(Exists(right)).count(), questions.count()


def post_progress(now=None) -> int:
    """Post practice progress for every practice target whose learner answered one of its
    bank's questions since the last post; the number posted."""
    now = now or timezone.now()
    answered = Response.objects.filter(
        user_id=OuterRef("user_id"), question__bank_id=OuterRef("bank_id")
    )
    targets = _targets().filter(bank__isnull=False)
    never_posted = targets.filter(Exists(answered), posted_at__isnull=True)
    answered_since = targets.filter(Exists(answered.filter(created_at__gt=OuterRef("posted_at"))))
    posted = 0
    for target in never_posted | answered_since:
        right, total = progress_of(target)
        if not total:
            continue
        given = round(PROGRESS_MAXIMUM * right / total, 1)
        grade = _grade(target.lti_user.sub, given, PROGRESS_MAXIMUM, completed=right == total)
        if _posted(target, grade, "progress", grade_target=target.pk):
            LtiGradeTarget.objects.filter(pk=target.pk).update(posted_at=now)
            posted += 1
    return posted

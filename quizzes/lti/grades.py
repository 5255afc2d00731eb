"""Assignment and Grade Services: an exam sitting's score posted to the line items of the
resource links its learner launched the exam from (`LtiGradeTarget`, kept at launch).

`sitting_finished` is called once per sitting, by `proctor.finish` after its transaction
commits. A platform that refuses or does not answer is logged (tutor.lti) and skipped: the
sitting is finished and scored in Tutor whatever the gradebook says.
"""

from __future__ import annotations

import logging

from django.utils import timezone
from lti_tool.models import LtiLaunch
from pylti1p3.assignments_grades import AssignmentsGradesService
from pylti1p3.exception import LtiException
from pylti1p3.grade import Grade
from pylti1p3.service_connector import ServiceConnector
from requests import RequestException

from quizzes.lti.launches import http_session
from quizzes.models import ExamSitting, LtiGradeTarget

logger = logging.getLogger("tutor.lti")

SCORE_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
LINEITEM_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"


def remember_target(launch: LtiLaunch, user, blueprint) -> LtiGradeTarget | None:
    """Keep the launch's line item for `blueprint`'s scores, when the platform lets Tutor post
    scores to it; None otherwise."""
    endpoint = launch.ags_claim or {}
    lineitem, scopes = endpoint.get("lineitem"), list(endpoint.get("scope") or [])
    if not isinstance(lineitem, str) or SCORE_SCOPE not in scopes:
        return None
    if len(lineitem) > LtiGradeTarget._meta.get_field("lineitem_url").max_length:
        logger.warning("LTI line item URL too long to keep: %s...", lineitem[:100])
        return None
    target, _created = LtiGradeTarget.objects.update_or_create(
        user=user,
        blueprint=blueprint,
        lineitem_url=lineitem,
        defaults={"lti_user": launch.user, "scopes": scopes},
    )
    return target


def score_of(sitting: ExamSitting, user_id: str) -> Grade:
    return (
        Grade()
        .set_user_id(user_id)
        .set_score_given(sitting.right_count or 0)
        .set_score_maximum(sitting.question_count)
        .set_activity_progress("Completed")
        .set_grading_progress("FullyGraded")
        .set_timestamp(timezone.now().isoformat())
    )


def post_score(target: LtiGradeTarget, sitting: ExamSitting) -> None:
    """POST the sitting's score to the target's line item (raises on a platform's refusal)."""
    registration = target.lti_user.registration.to_registration()
    connector = ServiceConnector(registration, http_session())
    service = AssignmentsGradesService(
        connector, {"lineitem": target.lineitem_url, "scope": target.scopes}
    )
    service.put_grade(score_of(sitting, target.lti_user.sub))


def sitting_finished(sitting: ExamSitting) -> int:
    """Post a finished sitting's score wherever its learner launched its exam from; the number
    of line items that took it."""
    if sitting.blueprint_id is None or sitting.right_count is None:
        return 0
    targets = LtiGradeTarget.objects.filter(
        user_id=sitting.attempt.user_id,
        blueprint_id=sitting.blueprint_id,
        lti_user__registration__is_active=True,
    ).select_related("lti_user__registration")
    posted = 0
    for target in targets:
        try:
            post_score(target, sitting)
        except (LtiException, RequestException, ValueError, KeyError) as error:
            logger.warning(
                "LTI score not posted: %s: %s",
                type(error).__name__,
                error,
                extra={"sitting": sitting.pk, "lineitem": target.lineitem_url},
            )
            continue
        posted += 1
    return posted

"""The tool's URLs for platforms (docs/lti.md): the keyset, OIDC login initiation, the launch
(resource links and deep linking) and the deep-linking choice.

Login and launch are posted by the platform, from its own pages, so they carry no CSRF token
(the OIDC state, the signed id_token and its one-use nonce stand in for it). The deep-linking
choice is an ordinary form of Tutor's, posted with the CSRF token from inside the frame.
"""

from __future__ import annotations

import contextlib
import logging
from urllib.parse import urlencode

from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST
from lti_tool.models import Key, LtiLaunch
from lti_tool.utils import sync_data_from_launch
from lti_tool.views import jwks as lti_jwks
from pylti1p3.deep_link_resource import DeepLinkResource
from pylti1p3.exception import LtiException, OIDCException
from pylti1p3.lineitem import LineItem

from quizzes.instructors import cohorts
from quizzes.lti import accounts, framing, grades, launches
from quizzes.models import Assignment, Bank, ExamBlueprint, LtiCohort
from quizzes.models.lti import frame_origins_of, origin_of, registered_frame_origins

logger = logging.getLogger("tutor.lti")

DEEP_LINK_SESSION_KEY = "tutor_lti_deep_link"
BACKEND = "config.auth.ModelBackend"
EXAM_PARAM, BANK_PARAM = "tutor_exam", "tutor_bank"


def jwks(request: HttpRequest) -> HttpResponse:
    """The tool's public keys (django-lti's `Key` rows that are active), for platforms to check
    its signatures: deep-linking responses and the service token requests."""
    return lti_jwks(request)


def canvas_configuration(request: HttpRequest) -> JsonResponse:
    """The JSON a Canvas administrator pastes into a new LTI developer key (docs/lti.md): the
    tool's URLs on this host, deep linking from the assignment and link pickers, the score
    scopes, and only the person's name (Tutor needs no e-mail address)."""
    login_url = request.build_absolute_uri(reverse("lti_login"))
    launch_url = request.build_absolute_uri(reverse("lti_launch"))
    deep_linking = {"message_type": "LtiDeepLinkingRequest", "target_link_uri": launch_url}
    return JsonResponse(
        {
            "title": "Tutor",
            "description": "Magic: The Gathering judging practice and exams, ruled by the rules.",
            "oidc_initiation_url": login_url,
            "target_link_uri": launch_url,
            "public_jwk_url": request.build_absolute_uri(reverse("lti_jwks")),
            "scopes": [grades.SCORE_SCOPE, grades.LINEITEM_SCOPE],
            "extensions": [
                {
                    "platform": "canvas.instructure.com",
                    "privacy_level": "name_only",
                    "settings": {
                        "placements": [
                            {"placement": "assignment_selection", **deep_linking},
                            {"placement": "link_selection", **deep_linking},
                        ]
                    },
                }
            ],
            "custom_fields": {},
        }
    )


def refused(request: HttpRequest, reason: str, status: int = 403) -> HttpResponse:
    response = render(request, "quizzes/lti_refused.html", {"reason": reason}, status=status)
    origins = registered_frame_origins()  # shown in a platform's frame: whichever sent it
    if origins:
        response.xframe_options_exempt = True
        response._csp_replace = {"frame-ancestors": origins}  # type: ignore[attr-defined]
    return response


@csrf_exempt
@xframe_options_exempt
@require_http_methods(["GET", "POST"])
def oidc_login(request: HttpRequest) -> HttpResponse:
    """OIDC third-party login initiation: back to the platform's authorisation URL with a state
    (in a cookie) and a nonce (kept for the launch), returning to Tutor's launch URL."""
    try:
        return launches.oidc_login(request).redirect(
            request.build_absolute_uri(reverse("lti_launch"))
        )
    except (LtiException, OIDCException) as error:
        logger.warning("LTI login refused: %s", error)
        return refused(request, _("This platform is not registered with Tutor."), status=400)
    except Key.DoesNotExist:
        return no_key(request)


def no_key(request: HttpRequest) -> HttpResponse:
    logger.error("LTI: the tool has no active key: run `manage.py rotate_keys` (docs/lti.md)")
    return refused(request, _("Tutor is not ready for launches yet."), status=503)


@csrf_exempt
@require_POST
def launch(request: HttpRequest) -> HttpResponse:
    """The platform's signed launch: the person logged in as their Tutor user, then sent to
    what the link points at (a resource link) or to the deep-linking choice."""
    try:
        lti_launch = launches.validated_launch(request)
    except Key.DoesNotExist:
        return no_key(request)
    except (LtiException, KeyError, ValueError) as error:
        logger.warning("LTI launch refused: %s", error)
        return refused(
            request, _("Tutor could not verify this launch from your learning platform.")
        )
    sync_data_from_launch(lti_launch)  # django-lti's rows: platform user, context, membership
    user = accounts.user_for(lti_launch.user)
    if not user.is_active:  # an account an administrator switched off stays off
        return refused(request, _("This account is switched off."))
    login(request, user, backend=BACKEND)
    framing.mark_session(request.session, frame_origins_of(lti_launch.registration))
    cohort = accounts.cohort_for(lti_launch, user)
    logger.info(
        "LTI launch",
        extra={
            "user": user.pk,
            "registration": lti_launch.registration.pk,
            "cohort": cohort and cohort.pk,
        },
    )
    if lti_launch.is_deep_link_launch:
        if not accounts.teaches(lti_launch.membership):
            return refused(request, _("Only a course's instructors can add Tutor to it."))
        request.session[DEEP_LINK_SESSION_KEY] = lti_launch.get_launch_id()
        return render(request, "quizzes/lti_deep_link.html", _choices(user))
    if lti_launch.is_resource_launch:
        return _resource(request, lti_launch, user)
    return refused(request, _("Tutor does not take this kind of launch."), status=400)


def _resource(request: HttpRequest, lti_launch: LtiLaunch, user) -> HttpResponse:
    exam_slug = lti_launch.get_custom_claim(EXAM_PARAM)
    if exam_slug:
        blueprint = ExamBlueprint.objects.filter(slug=exam_slug, is_active=True).first()
        if blueprint is None:
            return refused(request, _("This exam is not offered any more."), status=404)
        grades.remember_target(lti_launch, user, blueprint=blueprint)
        return render(request, "quizzes/lti_exam.html", {"blueprint": blueprint})
    bank_slug = lti_launch.get_custom_claim(BANK_PARAM)
    if bank_slug:
        bank = Bank.objects.visible_to(user).filter(slug=bank_slug).first()
        if bank is not None:
            grades.remember_target(lti_launch, user, bank=bank)
        return HttpResponseRedirect(f"{reverse('practice')}?{urlencode({'bank': bank_slug})}")
    return HttpResponseRedirect(reverse("home"))


def _banks(user):
    """Banks a course's learners can practise: public ones, and the instructor's own shared
    ones (which join the course's cohort when chosen)."""
    public = Bank.objects.filter(visibility=Bank.Visibility.PUBLIC)
    return (public | cohorts.assignable_banks(user)).order_by("title", "pk")


def _blueprints(user):
    """Active exams: the site's and the instructor's own."""
    return cohorts.assignable_blueprints(user).order_by("position", "title")


def _choices(user) -> dict:
    return {"banks": _banks(user), "blueprints": _blueprints(user).prefetch_related("areas")}


@require_POST
def deep_link(request: HttpRequest) -> HttpResponse:
    """The instructor's choice, returned to the platform as a signed deep-linking response."""
    launch_id = request.session.get(DEEP_LINK_SESSION_KEY)
    if not launch_id or not request.user.is_authenticated:
        return refused(request, _("Open this page again from your learning platform."))
    try:
        lti_launch = launches.stored_launch(request, launch_id)
    except LtiException as error:
        logger.warning("LTI deep link refused: %s", error)
        return refused(request, _("Open this page again from your learning platform."))
    kind, _sep, slug = request.POST.get("choice", "").partition(":")
    graded = request.POST.get("graded") == "on"
    resource = _resource_for(
        request, kind, slug, _course_cohort(lti_launch, request.user), graded=graded
    )
    if resource is None:
        context = _choices(request.user) | {"error": _("Choose a practice bank or an exam.")}
        return render(request, "quizzes/lti_deep_link.html", context, status=400)
    deep = lti_launch.get_message_launch().get_deep_link()
    return_url = deep._deep_link_settings["deep_link_return_url"]
    del request.session[DEEP_LINK_SESSION_KEY]
    response = render(
        request,
        "quizzes/lti_deep_link_return.html",
        {"return_url": return_url, "jwt": deep.get_response_jwt([resource])},
    )
    # the form goes to the platform: this page alone may post there
    response._csp_update = {"form-action": [origin_of(return_url)]}  # type: ignore[attr-defined]
    return response


def _course_cohort(lti_launch: LtiLaunch, user):
    """The cohort of the deep-linking launch's course, when `user` is its instructor."""
    link = LtiCohort.objects.filter(context=lti_launch.context).select_related("cohort").first()
    return link.cohort if link is not None and link.cohort.instructor_id == user.pk else None


def _assign(cohort, **chosen) -> None:
    """What the link opens, as an assignment of the course's cohort (once): a shared bank of
    the instructor's joins the cohort's banks, so the course's learners may practise it."""
    if cohort is None or Assignment.objects.filter(cohort=cohort, **chosen).exists():
        return
    # a public bank of another instructor is refused: it is open to all already
    with contextlib.suppress(cohorts.CohortError):
        cohorts.do_assign(cohort, **chosen)


def _resource_for(
    request: HttpRequest, kind: str, slug: str, cohort, graded: bool = False
) -> DeepLinkResource | None:
    """The content item of the choice: an exam always with its line item, a bank's practice
    with one when the instructor asked for its progress in the gradebook."""
    launch_url = request.build_absolute_uri(reverse("lti_launch"))
    user = request.user
    if kind == "exam":
        blueprint = _blueprints(user).filter(slug=slug).prefetch_related("areas").first()
        if blueprint is None:
            return None
        _assign(cohort, blueprint=blueprint)
        line_item = (
            LineItem()
            .set_label(blueprint.title)
            .set_score_maximum(max(blueprint.question_count, 1))
            .set_resource_id(f"exam:{blueprint.slug}")
            .set_tag("tutor-exam")
        )
        return (
            DeepLinkResource()
            .set_title(blueprint.title)
            .set_url(launch_url)
            .set_custom_params({EXAM_PARAM: blueprint.slug})
            .set_lineitem(line_item)
        )
    if kind == "bank":
        bank = _banks(user).filter(slug=slug).first()
        if bank is None:
            return None
        _assign(cohort, bank=bank)
        resource = (
            DeepLinkResource()
            .set_title(bank.title)
            .set_url(launch_url)
            .set_custom_params({BANK_PARAM: bank.slug})
        )
        if graded:
            progress = (
                LineItem()
                .set_label(bank.title)
                .set_score_maximum(grades.PROGRESS_MAXIMUM)
                .set_resource_id(f"bank:{bank.slug}")
                .set_tag("tutor-practice")
            )
            resource.set_lineitem(progress)
        return resource
    return None

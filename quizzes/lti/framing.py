"""Framing and cookies for sessions begun by an LTI launch; every other page is unchanged.

Platforms show a tool in an iframe of their own pages. Tutor's pages refuse any frame
(`X-Frame-Options: DENY`, CSP `frame-ancestors 'none'`) and its cookies are `SameSite=Lax`, which
a browser does not send from inside another site's frame. A launch (quizzes/lti/views.py) marks
its new session with the origins its platform's administrator allowed (`LtiPlatform`); for that
session only, this middleware

- replaces `frame-ancestors` with those origins and drops `X-Frame-Options` (which cannot name
  an origin), except on the admin, account and password pages, which stay unframeable;
- sends the session, CSRF, language and messages cookies it sets as `SameSite=None; Secure`
  (over HTTPS only: browsers refuse `SameSite=None` without `Secure`).

The trade-off (docs/lti.md): a launched session's cookies go with requests from other sites,
so it leans on Django's CSRF token alone against cross-site forms (every POST still needs it),
where a normal session also has SameSite. Sessions begun by Tutor's own log-in never carry the
mark, and a log-in or log-out replaces the session, mark and all.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage

SESSION_KEY = "tutor_lti_frame_origins"
UNFRAMED_PREFIXES = ("/admin/", "/accounts/")


def mark_session(session, origins: list[str]) -> None:
    session[SESSION_KEY] = list(origins)


def frame_origins(request) -> list[str]:
    """The origins allowed to frame this request's session; [] for a session no launch began."""
    session = getattr(request, "session", None)
    if session is None:
        return []
    # a page that never read its session and came without one costs no query here
    if not session.accessed and settings.SESSION_COOKIE_NAME not in request.COOKIES:
        return []
    return list(session.get(SESSION_KEY, []))


class LtiFramingMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        origins = frame_origins(request)
        if not origins:
            return response
        if not request.path_info.startswith(UNFRAMED_PREFIXES):
            response._csp_replace = {  # read by django-csp's middleware, outside this one
                **getattr(response, "_csp_replace", {}),
                "frame-ancestors": origins,
            }
            if "X-Frame-Options" in response:
                del response["X-Frame-Options"]
        if request.is_secure():
            for name in (
                settings.SESSION_COOKIE_NAME,
                settings.CSRF_COOKIE_NAME,
                settings.LANGUAGE_COOKIE_NAME,
                CookieStorage.cookie_name,  # the messages a redirect carries to the next page
            ):
                if name in response.cookies:
                    response.cookies[name]["samesite"] = "None"
                    response.cookies[name]["secure"] = True
        return response

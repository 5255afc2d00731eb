"""Roles a user holds through Django's groups: named once, read by the session's user and the
instructors' pages alike."""

from __future__ import annotations

INSTRUCTORS_GROUP = "Instructors"


def is_instructor(user) -> bool:
    """Staff, or a member of the Instructors group (the demo instructor is both). The answer is
    kept on the user object, as Django's permission cache is, so a request asks once (the
    page's check and the navigation's)."""
    if not user.is_authenticated or not user.is_active:
        return False
    if user.is_staff:
        return True
    if not hasattr(user, "_instructor_cache"):
        user._instructor_cache = user.groups.filter(name=INSTRUCTORS_GROUP).exists()
    return user._instructor_cache

"""Instructor-written (or imported) text: light formatting kept, anything else (scripts, styles,
handlers, images, frames) dropped by nh3's allow-list. The `authored` template filter and the
Moodle import both clean with this."""

from __future__ import annotations

import nh3

AUTHORED_TAGS = {"a", "blockquote", "br", "code", "em", "li", "ol", "p", "strong", "ul"}


def clean(text: str) -> str:
    """`text` with only `AUTHORED_TAGS` left (links get rel="noopener noreferrer")."""
    return nh3.clean(text or "", tags=AUTHORED_TAGS, link_rel="noopener noreferrer")

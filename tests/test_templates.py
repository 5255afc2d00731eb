"""Django's `{# ... #}` comment ends on its own line; one left open is printed on the page."""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings

OPEN_COMMENT = re.compile(r"\{#(?![^\n]*#\})")


def test_every_one_line_comment_closes_on_its_line():
    templates = Path(settings.BASE_DIR) / "templates"
    open_comments = [
        f"{path.relative_to(templates)}:{number}"
        for path in sorted(templates.rglob("*.html"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if OPEN_COMMENT.search(line)
    ]
    assert open_comments == []

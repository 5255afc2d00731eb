"""Rule numbers as the Comprehensive Rules print them: a section ("701"), a rule ("701.23") or a
subrule ("701.23b"). The one pattern every reader of a citation or a prefix uses."""

from __future__ import annotations

import re

NUMBER = r"\d{3}(?:\.\d+[a-z]?)?"
_IN_TEXT = re.compile(rf"\b{NUMBER}\b")
_WHOLE = re.compile(NUMBER)


def numbers_in(citation: str | None) -> list[str]:
    """The rule numbers in a citation such as "701.23b" or "701.23f, 701.23i"."""
    return _IN_TEXT.findall(citation or "")


def is_rule_number(text: str) -> bool:
    """Whether `text` is exactly one rule number (701, 701.23 or 701.23b)."""
    return _WHOLE.fullmatch(text) is not None

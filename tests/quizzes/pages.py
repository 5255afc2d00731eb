"""Reading a question page as a learner does: the token, the statements, the cards."""

from __future__ import annotations

import html as html_lib
import re


def token_of(page) -> str:
    return re.search(r'name="token" value="([^"]+)"', page.content.decode()).group(1)


def yes_no_statements(html: str) -> dict[str, str]:
    """Statement text -> the name of its true/false field."""
    found = re.findall(
        r'<legend>(.*?)</legend>\s*<label class="choice"><input type="radio" name="(claim_\d+)"',
        html,
        re.S,
    )
    return {html_lib.unescape(text): name for text, name in found}


def ticked_statements(html: str) -> dict[str, str]:
    """Statement text -> the value of its checkbox."""
    found = re.findall(
        r'<input type="checkbox" name="statements" value="(\d+)"[^>]*>\s*(.*?)</label>', html, re.S
    )
    return {html_lib.unescape(text.strip()): value for value, text in found}


def card_refs(html: str) -> dict[str, list[str]]:
    """Card name -> the references of the cards of that name a learner can tick."""
    found = re.findall(
        r'name="cards" value="(card-[0-9a-f]+)".*?<span class="card-name">(.*?)</span>', html, re.S
    )
    refs: dict[str, list[str]] = {}
    for ref, name in found:
        refs.setdefault(html_lib.unescape(name), []).append(ref)
    return refs

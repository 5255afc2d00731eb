"""Input no request may carry: text the databases cannot store or compare.

PostgreSQL refuses a NUL character in any text (and SQLite keeps it, so the two would differ);
a lone surrogate (from a JSON escape such as "\\ud800") cannot be encoded as UTF-8 at all. Both
are refused at the door with a 400 that names the problem, instead of a 500 from the database.

JSON documents are decoded by `StrictJSONDecoder`: Python's `json` accepts NaN and Infinity,
which JSON has not (PostgreSQL's jsonb refuses them, and no count or power is one), and turns a
number of any length into an int (past 4,300 digits Python refuses to, with a ValueError that no
caller expects). Both are a JSONDecodeError at their place in the text, as malformed JSON is.
"""

from __future__ import annotations

import functools
import json
import math
import re
import unicodedata
from collections.abc import Callable, Iterator
from typing import Any

from confusable_homoglyphs import confusables
from django import forms
from django.core.exceptions import ValidationError
from django.forms.fields import InvalidJSONInput
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, UnreadablePostError
from django.utils.translation import gettext as _

UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
# A whole field that is a number past 18 digits can only be meant as an id, and no id is that
# large: SQLite cannot even compare it (OverflowError), so it is refused like the rest.
HUGE_NUMBER = re.compile(r"\s*[-+]?\d{19,}\s*")


MAX_NUMBER_DIGITS = 18  # a JSON number's digits: past any count, power, life total or id


class _Refused(ValueError):
    def __init__(self, token: str, message: str) -> None:
        super().__init__(message)
        self.token, self.message = token, message


def _no_constant(token: str):
    raise _Refused(token, f"{token} is not a number JSON allows: write a number")


def _bounded_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_NUMBER_DIGITS:
        message = f"a number of {digits:,} digits, over the limit of {MAX_NUMBER_DIGITS} digits"
        raise _Refused(text, message)
    return int(text)


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(text, f"{text[:40]} is too large a number")
    return value


def _position(text: str, token: str) -> int:
    """Where `token` first stands outside a string in `text` (0 if nowhere)."""
    pattern = re.compile(r'"(?:[^"\\]|\\.)*"|(' + re.escape(token) + ")", re.DOTALL)
    for match in pattern.finditer(text):
        if match.group(1):
            return match.start(1)
    return 0


class StrictJSONDecoder(json.JSONDecoder):
    """`json.loads(text, cls=StrictJSONDecoder)`: JSON as the standard has it, numbers bounded;
    anything else a JSONDecodeError naming it and its place."""

    def __init__(self, **kwargs) -> None:
        kwargs |= {"parse_constant": _no_constant, "parse_int": _bounded_int}
        super().__init__(parse_float=_finite_float, **kwargs)

    def decode(self, s, *args, **kwargs):
        try:
            return super().decode(s, *args, **kwargs)
        except _Refused as refused:
            raise json.JSONDecodeError(refused.message, s, _position(s, refused.token)) from None


def problem_in(text: str) -> str | None:
    """What is wrong with `text`, or None when a database can store it."""
    found = UNSTORABLE.search(text)
    if found is None:
        return None
    if found.group() == "\x00":
        return "holds a NUL character (\\u0000), which Tutor cannot store"
    return "holds a lone surrogate (\\ud800-\\udfff), which is not valid Unicode text"


def problems_in_json(value: Any) -> Iterator[tuple[str, str]]:
    """(path, problem) for every key or string in a decoded JSON value that cannot be stored.
    Walks without recursion, so it works on any depth json.loads accepted."""
    pending: list[tuple[str, Any]] = [("", value)]
    while pending:
        path, item = pending.pop()
        if isinstance(item, str):
            if problem := problem_in(item):
                yield path or "(the document)", problem
        elif isinstance(item, dict):
            for key, child in item.items():
                child_path = f"{path}.{key}" if path else str(key)
                if problem := problem_in(key):
                    yield child_path, "a key " + problem
                pending.append((child_path, child))
        elif isinstance(item, list):
            pending.extend((f"{path}[{index}]", child) for index, child in enumerate(item))


class StorableJSONField(forms.JSONField):
    """A JSON form field that refuses text no database can store ("\\u0000", a lone "\\ud800",
    NaN, a 5,000-digit number: StrictJSONDecoder) and shows such a document back as typed
    (echoing a lone surrogate cannot be encoded)."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs["decoder"] = kwargs.get("decoder") or StrictJSONDecoder
        super().__init__(*args, **kwargs)

    def to_python(self, value):
        value = super().to_python(value)
        for path, problem in problems_in_json(value):
            raise ValidationError(f"{path}: {problem}.")
        return value

    def bound_data(self, data, initial):
        value = super().bound_data(data, initial)
        if not isinstance(value, InvalidJSONInput) and any(problems_in_json(value)):
            return InvalidJSONInput(data)
        return value


def problem_in_field(text: str) -> str | None:
    """What is wrong with a query or form value (unstorable text, or a number past any id)."""
    if HUGE_NUMBER.fullmatch(text):
        return "holds a number too large for any id (more than 18 digits)"
    return problem_in(text)


def form_fields_are_text(view):
    """Marks a view none of whose form fields is an id (the scenario builder: titles, card names,
    counts an instructor types): there a number past 18 digits is for the view's own checks to
    refuse beside its field, not a 400 page in place of everything typed."""
    view.form_fields_are_text = True
    return view


def _request_texts(request: HttpRequest) -> Iterator[tuple[str, str, Callable]]:
    yield "the address", request.path_info, problem_in
    for source, data in (("query", request.GET), ("form", request.POST)):
        for key, values in data.lists():
            yield f"the {source} field name {key[:40]!r}", key, problem_in
            # a password is never an id (and Django already refuses all-digit passwords); a
            # form field's number waits for its view (`process_view`)
            check = problem_in if "password" in key or source == "form" else problem_in_field
            for value in values:
                yield f"the {source} field {key[:40]!r}", value, check
    for name, value in request.COOKIES.items():
        yield f"the cookie {name[:40]!r}", name + value, problem_in


def _bad_request(where: str, problem: str) -> HttpResponse:
    return HttpResponseBadRequest(
        f"Bad request: {where} {problem}.", content_type="text/plain; charset=utf-8"
    )


class RejectUnstorableInput:
    """400 for a request whose address, query, form fields or cookies hold unstorable text, or
    whose query or form value is a number no id can be (a form's only when its view takes ids)."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            for where, text, check in _request_texts(request):
                if problem := check(text):
                    return _bad_request(where, problem)
        except UnreadablePostError:  # the body stopped arriving (gunicorn.conf.py: BODY_TIMEOUT)
            return HttpResponse(
                "Request timeout: the request's body did not arrive.",
                status=408,
                content_type="text/plain; charset=utf-8",
            )
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view_func: Callable, *args) -> HttpResponse | None:
        if getattr(view_func, "form_fields_are_text", False):
            return None
        for key, values in request.POST.lists():
            if "password" not in key:
                for value in values:
                    if problem := problem_in_field(value):
                        return _bad_request(f"the form field {key[:40]!r}", problem)
        return None


def plain_name(value: str, label: str) -> str:
    """A name as others will read it on a page: Unicode NFC, trimmed, not blank, without control
    or format characters (a right-to-left override, a zero-width space), and not a mix of
    scripts that passes for another name (an "Island" spelled with a Cyrillic "а")."""
    name = unicodedata.normalize("NFC", value).strip()
    if not name:
        raise ValidationError(_("%(field)s cannot be blank.") % {"field": label})
    if any(unicodedata.category(char) in ("Cc", "Cf") for char in name):
        raise ValidationError(
            _("%(field)s contains invisible or control characters.") % {"field": label}
        )
    if confusables.is_dangerous(name):
        raise ValidationError(
            _("%(field)s mixes letters of several alphabets that look alike.") % {"field": label}
        )
    return name


def _unmarked(text: str) -> str:
    # confusables.txt shows right-to-left characters between left-to-right marks
    return text.replace("\u200e", "").replace("\u200f", "")


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each character Unicode's confusables.txt maps to the prototype it passes for ("I", "1" and
    the Greek "Ι" to "l"; "m" to "rn"). confusable-homoglyphs keeps each mapping both ways: a
    character with one look-alike is a source of its prototype, one with several is a prototype;
    of a pair with no third the first in code point order stands for both."""
    data = confusables.confusables_data
    prototypes = {}
    for raw, look_alikes in data.items():
        char = _unmarked(raw)
        if len(char) != 1 or len(look_alikes) != 1:
            continue
        raw_target = look_alikes[0]["c"]
        target = _unmarked(raw_target)
        if len(target) > 1 or len(data.get(raw_target, ())) > 1 or target < char:
            prototypes[char] = target
    return prototypes


def skeleton(text: str) -> str:
    """Unicode's skeleton of `text` (UTS #39): two texts with one skeleton look alike."""
    prototypes = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(prototypes.get(c, c) for c in decomposed))


@functools.lru_cache(maxsize=4096)
def likenesses(name: str) -> frozenset[str]:
    """What `name` passes for, read in any case: its skeleton in lower case, and the lower case
    of its skeleton (a "0" passes for an "O", which in lower case is an "o")."""
    return frozenset({skeleton(name.casefold()), skeleton(skeleton(name).casefold())})


def look_alike(name: str, other: str) -> bool:
    """Whether a reader could take `name` for `other` ("lsland", "ISLAND", "Is1and" and "Ιsland"
    with a Greek Iota all pass for "Island"; "F0rest" for "Forest")."""
    return not likenesses(name).isdisjoint(likenesses(other))

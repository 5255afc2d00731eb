"""The import page as a stream: each step of `interchange.checking` and `.saving` becomes a
line of HTML sent as it happens, then the report or the problems. All-or-nothing still holds:
the save is one transaction, and a stream closed half-way (the browser left) rolls it back."""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator

from django.db import DatabaseError
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from quizzes.instructors import interchange

MARKER = "<!--import-steps-->"
STEP_TEMPLATE = "instructors/_import_step.html"
RESULT_TEMPLATE = "instructors/_import_result.html"
STEPS_SHOWN = 20  # lines of progress per phase, whatever the size of the file


Event = tuple[str, dict]  # ("step" | "result", template context)


def steps(
    user, bank, content: bytes, filename: str, on_existing: str, take_bank_details: bool
) -> Generator[Event, None, None]:
    """Progress events of one import, then its result (the report, or the problems)."""
    try:
        plan = yield from _shown(
            interchange.checking(user, bank, content, filename, on_existing=on_existing)
        )
        report = yield from _shown(interchange.saving(user, bank, plan, take_bank_details))
    except interchange.InterchangeError as error:
        yield ("result", {"problems": error.problems, "more": error.more})
    except DatabaseError as error:  # the transaction has rolled back: nothing was saved
        refused = _("The database refused the import: %(error)s") % {"error": error}
        yield ("result", {"problems": [refused], "more": 0})
    else:
        yield ("result", {"report": report, "bank": bank})


def _shown(work: Generator[interchange.Step, None, object]):
    """Pass on about `STEPS_SHOWN` of the work's steps; return its value."""
    while True:
        try:
            phase, done, total = next(work)
        except StopIteration as finished:
            return finished.value
        every = max(1, total // STEPS_SHOWN)
        if done == total or done % every == 0:
            yield ("step", {"phase": phase, "done": done, "total": total})


def stream(page: Callable[[dict], str], events: Iterator[Event], language: str) -> Iterator[str]:
    """The page in `language`; `page(result)` renders it with `MARKER` where the steps go. Its
    head is rendered now, before the import runs; its tail last, from the result's context."""
    head = page({}).split(MARKER)[0]
    return _streamed(head, page, events, language)


def _streamed(
    head: str, page: Callable[[dict], str], events: Iterator[Event], language: str
) -> Iterator[str]:
    """Each step is rendered after the view has returned, perhaps in another thread (ASGI),
    where the request's language is no longer active."""
    yield head
    yield '<div class="import-steps">'
    result: dict = {}
    while True:
        with translation.override(language):  # each step worked and rendered, then yielded
            event = next(events, None)
            if event is None:
                break
            kind, context = event
            html = render_to_string(RESULT_TEMPLATE if kind == "result" else STEP_TEMPLATE, context)
        if kind == "result":
            result = context
            html = "</div>" + html
        yield html
    with translation.override(language):  # the tail says what the import did (its title)
        yield page(result).split(MARKER)[1]

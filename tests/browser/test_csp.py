"""htmx works under the Content-Security-Policy: the live preview swaps, and the browser reports
no violation (a control shows it would report an inline style)."""

from __future__ import annotations

import pytest

from tests.browser.test_instructor_journey import bank, log_in  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WATCH_VIOLATIONS = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`);
});
"""


def test_htmx_swaps_under_the_content_security_policy(page, live_server, bank):  # noqa: F811
    console = []
    page.on("console", lambda message: console.append(message.text))
    log_in(page, live_server.url)
    response = page.goto(f"{live_server.url}/banks/week-1/scenarios/tutor-three/")
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "style-src 'self'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    page.evaluate(WATCH_VIOLATIONS)

    assert page.evaluate("typeof htmx") == "object"
    assert page.evaluate("htmx.config.includeIndicatorStyles") is False
    assert page.evaluate("document.querySelectorAll('style').length") == 0
    page.evaluate("window.stillTheSamePage = true")
    page.get_by_text("The scenario as JSON").click()  # the JSON beside the builder
    editor = page.get_by_label("Scenario JSON (scenario/1)")
    editor.fill(editor.input_value().replace('"Island#i1"', '"Islnd#i1"'))
    page.locator("#preview", has_text="zones.Alice.library[0]").wait_for()
    assert page.evaluate("window.stillTheSamePage") is True  # swapped by htmx, not reloaded
    assert page.evaluate("window.cspViolations") == []
    assert [text for text in console if "Content Security Policy" in text] == []

    # the control: an inline style is refused and reported, so the empty list above means it
    page.evaluate("document.body.insertAdjacentHTML('beforeend', '<p style=\"color: red\">x</p>')")
    page.wait_for_function("() => window.cspViolations.length > 0")
    assert page.evaluate("window.cspViolations")[0].startswith("style-src")

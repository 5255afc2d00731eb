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


def test_a_style_left_on_a_field_is_not_carried_into_a_swap(page, live_server, bank):  # noqa: F811
    """The browser can leave an empty style attribute on a field (here the CSSOM does). htmx,
    settling a swap, copied it onto the new field: an inline style the policy refuses, logged on
    every answer form sent back with errors. It settles classes and sizes only."""
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/banks/week-1/scenarios/tutor-three/")
    page.evaluate(WATCH_VIOLATIONS)
    page.evaluate(
        "window.swaps = 0; document.addEventListener('htmx:afterSettle', () => swaps++);"
        "const field = document.getElementById('b-title');"
        "field.style.color = 'red'; field.style.color = '';"
    )
    assert page.get_attribute("#b-title", "style") == ""
    title = page.get_by_label("Title", exact=True)
    title.fill(title.input_value() + " again")
    title.press("Tab")  # the builder goes to the server and comes back
    for _ in range(100):
        if page.evaluate("window.swaps") > 0:
            break
        page.wait_for_timeout(100)
    assert page.evaluate("window.swaps") > 0
    assert page.evaluate("window.cspViolations") == []

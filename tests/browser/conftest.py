"""A real browser (Debian's chromium, driven by playwright) against pytest-django's live_server."""

from __future__ import annotations

import os

import pytest

# playwright's sync API runs an event loop in this thread; Django's ORM calls from the test
# (seeding, assertions) are still synchronous and safe here.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def chromium():
    if not os.path.exists(CHROMIUM):
        # Never skipped to go green: `python3 dev.py test` installs it on Debian as root.
        pytest.fail("The browser tests need Debian's chromium: sudo apt-get install chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(chromium):
    context = chromium.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def serious_violations(page) -> list[str]:
    """axe-core violations of serious or critical impact on the page as it is now."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [
        f"{violation['id']} ({violation['impact']}): {violation['help']} "
        f"{[node['target'] for node in violation['nodes']][:3]}"
        for violation in results.response["violations"]
        if violation["impact"] in {"serious", "critical"}
    ]

"""The rulings API's Swagger UI (/api/v1/docs) renders under the site's Content-Security-Policy
from the site's own static files, and lists every endpoint."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_api_docs_render_every_endpoint_under_the_policy(page, live_server):
    console, requests = [], []
    page.on("console", lambda message: console.append(message.text))
    page.on("request", lambda request: requests.append(request.url))
    response = page.goto(f"{live_server.url}/api/v1/docs")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    for path in ("/api/v1/rulings", "/api/v1/banks/{slug}", "/api/v1/schema/scenario-1.json"):
        page.locator(".opblock-summary-path", has_text=path).first.wait_for()
    assert page.get_by_role("button", name="Authorize").count() == 1
    assert all(url.startswith(live_server.url) for url in requests), requests
    assert [text for text in console if "Content Security Policy" in text] == []

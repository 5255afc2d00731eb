"""A real browser (Debian's chromium, driven by playwright) against pytest-django's live_server."""

from __future__ import annotations

import os
from io import StringIO

import pytest
from django.apps import apps
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection, transaction

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


@pytest.fixture(scope="session")
def _content_rows(django_db_setup, django_db_blocker):
    """`load_content` run once per session (per xdist worker), every row it wrote kept here and
    removed again: each browser test that needs the content puts these rows back in one bulk
    insert instead of loading it again (every scenario checked by the engine, each time)."""
    content_apps = {"rules", "quizzes"}
    with django_db_blocker.unblock():
        models = [
            model
            for name in content_apps
            for model in apps.get_app_config(name).get_models(include_auto_created=True)
        ]
        assert not any(model.objects.exists() for model in models), "content from elsewhere"
        call_command("load_content", stdout=StringIO())
        other = [m for m in apps.get_models() if m not in models and m.objects.exists()]
        assert all(m._meta.app_label not in content_apps for m in other)
        rows = {
            model: list(model.objects.values(*[f.attname for f in model._meta.concrete_fields]))
            for model in models
        }
        tables = [model._meta.db_table for model in models]
        connection.ops.execute_sql_flush(connection.ops.sql_flush(no_style(), tables))
    return {model: model_rows for model, model_rows in rows.items() if model_rows}


@pytest.fixture
def content(transactional_db, _content_rows):
    """The seed content as `load_content` leaves it, committed (the live server reads it)."""
    from config import versions

    with transaction.atomic():  # foreign keys are checked at commit: any order will do
        for model, rows in _content_rows.items():
            model.objects.bulk_create([model(**row) for row in rows])
        with connection.cursor() as cursor:  # PostgreSQL's sequences past the ids put back
            for statement in connection.ops.sequence_reset_sql(no_style(), [*_content_rows]):
                cursor.execute(statement)
    for name in versions.NAMES:  # as after a load: texts cached from other rows are not read
        versions.bump(name)


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

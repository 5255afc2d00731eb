"""An instructor whose browser asks for German (and one for Italian): make a bank, a card in the
card form, a scenario in the builder; lint the bank, export it and import the file back while
its progress streams in, make a cohort with an assignment and read the item analysis, with no
English left on any page but the authored content (bank and scenario titles, card texts, the
JSON), which is marked lang="en", and card names without a translation; axe stays clean."""

from __future__ import annotations

import json
import re

import pytest
from django.core.management import call_command

from quizzes.models import Assignment, Bank, Cohort, Question, Scenario
from tests.browser.test_authoring_without_json import until
from tests.browser.test_languages import ENGLISH, check

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-pass-9"
FIND_GROVE = {"claim": "finds", "card": "g1", "value": "cannot"}
SHUFFLES = {"claim": "shuffles", "player": "Alice", "value": "yes"}
WORDS = {
    "de": {
        "reading": "Manabetrag 0",
        "ruling": "Rampant Growth findet nur eine Standardland-Karte, der Hain ist keine.",
        "saved": "Gespeichert (Fassung 1)",
        "lint": "Keine Probleme",
        "checked": "1 von 1 geprüft",
        "report": "0 neue Szenarien, 1 ersetzt",
        "cohort": "Donnerstagskurs",
        "due": "14.03.2031",
    },
    "it": {
        "reading": "valore di mana 0",
        "ruling": "Rampant Growth trova solo una carta terra base: il boschetto non è base.",
        "saved": "Salvato (versione 1)",
        "lint": "Nessun problema",
        "checked": "1 di 1 verificati",
        "report": "0 scenari nuovi, 1 sostituiti",
        "cohort": "Corso del giovedì",
        "due": "14/03/2031",
    },
}


@pytest.fixture
def mentor(transactional_db):
    with open("/dev/null", "w") as quiet:
        call_command("make_instructor", "mentor", "--password", PASSWORD, stdout=quiet)


def log_in(page, base_url: str) -> None:
    page.goto(f"{base_url}/accounts/login/")
    page.locator("input[name=username]").fill("mentor")
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()


def posting(page, action) -> None:
    """Do `action` and wait for the preview's reply (a builder change posts the whole builder)."""
    with page.expect_response(lambda reply: reply.url.endswith("/preview/")):
        action()


def settled(page) -> None:
    """No request in flight (a reply may start another: the builder follows the JSON)."""
    until(page, lambda: page.evaluate("document.querySelector('.htmx-request') === null"))


def make_the_card(page, base: str, language: str) -> None:
    page.goto(f"{base}/cards/new/")
    page.locator("#id_name").fill("Grove of Study")
    page.locator("input[name=types][value=Land]").check()
    page.locator("#id_subtypes").fill("Forest")
    page.locator("#id_oracle").fill("({T}: Add {G}.)")
    page.locator("#reading", has_text=WORDS[language]["reading"]).wait_for()
    check(page, language, "card form with the engine's reading")
    page.locator("main form.card-form button[type=submit]").click()
    page.locator("#card-name", has_text="Grove of Study").wait_for()
    check(page, language, "the new card")


def make_the_bank(page, base: str, language: str) -> None:
    page.goto(f"{base}/banks/")
    check(page, language, "no banks yet")
    page.locator("main a[href$='/banks/new/']").click()
    page.locator("#id_title").fill("Week 2: lands")
    page.locator("#id_visibility").select_option(Bank.Visibility.SHARED)
    check(page, language, "bank form")
    page.locator("main form button[type=submit]").click()
    page.wait_for_url("**/banks/week-2-lands/")
    check(page, language, "an empty bank")


def build_the_scenario(page, base: str, language: str) -> None:
    page.goto(f"{base}/banks/week-2-lands/scenarios/new/")
    page.locator("#b-title").fill("Rampant Growth and a nonbasic Forest")
    page.locator("#b-id").fill("rampant-grove")
    page.locator("#b-source").fill("CR 305.6, 205.3i")
    page.locator("#b-ruling").fill(WORDS[language]["ruling"])
    new_card = page.locator("#b-zone-0-library-new")
    new_card.fill("Grove of Study#g1")
    posting(page, lambda: new_card.press("Tab"))
    settled(page)  # the reply's JSON can post again: a swap mid-typing would splice the text
    what = page.locator("#b-resolve-what")
    what.fill("Rampant Growth")
    posting(page, lambda: what.press("Tab"))
    settled(page)
    ticks = page.locator("#builder input[name='b-ask']")
    index = 0
    while index < ticks.count():  # counted again after each reply: the builder is re-rendered
        tick = ticks.nth(index)
        wanted = json.loads(tick.get_attribute("value")) in (FIND_GROVE, SHUFFLES)
        if tick.is_checked() != wanted:
            posting(page, tick.click)
            settled(page)
        index += 1
    page.locator("#preview-status.status-agrees").wait_for()
    check(page, language, "the builder with the engine's ruling")
    settled(page)
    page.locator("#scenario-form .actions button[value=builder]:not([formaction])").click()
    page.wait_for_url("**/scenarios/rampant-grove/?saved=1")
    assert WORDS[language]["saved"] in page.locator(".saved-note").inner_text()
    check(page, language, "the scenario saved")


def lint_export_import(page, base: str, language: str, tmp_path) -> None:
    page.goto(f"{base}/banks/week-2-lands/lint/")
    assert WORDS[language]["lint"] in page.locator("main").inner_text()
    check(page, language, "lint")

    page.goto(f"{base}/banks/week-2-lands/")
    with page.expect_download() as exported:
        page.locator("main a[href$='/export.json']").click()
    exported_file = tmp_path / "week-2-lands.json"
    exported.value.save_as(exported_file)
    assert [s["id"] for s in json.loads(exported_file.read_text())["scenarios"]] == [
        "rampant-grove"
    ]
    with page.expect_download() as moodle:
        page.locator("main a[href$='/moodle.xml']").click()
    assert moodle.value.suggested_filename == "week-2-lands-moodle.xml"

    page.goto(f"{base}/banks/week-2-lands/import/")
    check(page, language, "import form")
    page.locator("#id_file").set_input_files(str(exported_file))
    page.locator("main form button[type=submit]").click()
    page.get_by_role("status").wait_for()
    steps = page.locator(".import-step").all_inner_texts()
    assert any(WORDS[language]["checked"] in step for step in steps), steps
    assert WORDS[language]["report"] in page.get_by_role("status").inner_text()
    assert Scenario.objects.filter(bank__slug="week-2-lands").count() == 1  # replaced, not added
    check(page, language, "import report with its progress")


def cohort_and_assignment(page, base: str, language: str) -> None:
    page.goto(f"{base}/cohorts/")
    check(page, language, "no cohorts yet")
    page.locator("#id_name").fill(WORDS[language]["cohort"])
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r".*/cohorts/\d+/$"))
    check(page, language, "a new cohort")
    page.locator("#id_bank").select_option(label="Week 2: lands")
    page.locator("#id_due_on").fill("2031-03-14")
    page.locator("form[action$='/assignments/'] button[type=submit]").click()
    page.locator(".assignments", has_text=WORDS[language]["due"]).wait_for()
    assert Assignment.objects.filter(cohort__name=WORDS[language]["cohort"]).count() == 1
    check(page, language, "a cohort with an assignment")


@pytest.mark.parametrize(("language", "locale"), [("de", "de-DE"), ("it", "it-IT")])
def test_an_instructor_works_in_their_language(
    chromium, live_server, mentor, tmp_path, language, locale
):
    context = chromium.new_context(
        locale=locale, viewport={"width": 1200, "height": 900}, accept_downloads=True
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    base = live_server.url
    try:
        log_in(page, base)
        make_the_card(page, base, language)
        make_the_bank(page, base, language)
        build_the_scenario(page, base, language)
        lint_export_import(page, base, language, tmp_path)
        cohort_and_assignment(page, base, language)

        page.goto(f"{base}/banks/week-2-lands/")
        rows = page.locator(".item-analysis tbody tr")
        active = Question.objects.filter(bank__slug="week-2-lands", is_active=True).count()
        assert rows.count() == active >= 2  # a row per question: none answered, one version
        assert not [
            k for k in rows.locator("td:nth-child(3)").all_inner_texts() if ENGLISH.search(k)
        ]
        check(page, language, "item analysis")
        assert Cohort.objects.get(name=WORDS[language]["cohort"]).banks.count() == 1
    finally:
        context.close()

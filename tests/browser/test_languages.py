"""A learner whose browser asks for German (and one for Italian): sign up, practise, read the
feedback with the ruling and the engine's reasons, sit an exam and read the report, with no
English left on the page except what is allowed, marked lang="en": card names without a
translation, oracle texts and type lines, rule titles and texts without an official translation,
the original of a stored ruling Tutor translated (one click away), and instructors' own text.
The site's own content (scenario titles, sources and stored rulings, bank and exam titles,
areas) is in the learner's language: anything marked English that the content catalogs
translate fails; axe stays clean on each page."""

from __future__ import annotations

import datetime
import re

import pytest

from quizzes import content_texts
from quizzes.models import Assignment, Bank, Cohort, ExamBlueprint, LanguagePreference
from quizzes.rulings.names import has_translation
from rules.models import Card
from tests.browser.conftest import CHROMIUM, serious_violations  # noqa: F401
from tests.browser.test_exam_journey import answer_whatever_is_asked
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Interface words that must not be left in English on a German or Italian page (not "Hand",
# "Text" or "Account": German and Italian say them alike; not "due": Italian for two; for the
# instructors' pages not "Engine", "Version", "Name", "Kind", "Land" (German), "Note",
# "Scenario", "zone" (Italian), "Start", "JSON", "Moodle", "Oracle", "Planeswalker").
ENGLISH = re.compile(
    r"\b(Practi[cs]e|Exams?|Rules|Progress|Log (in|out)|Sign up|Your answer|"
    r"Check my answer|Next question|Right!|Not quite|You said|The ruling|The rules that decide|"
    r"Resolving|The board|Battlefield|Library|Graveyard|hidden zone|active player|"
    r"Earlier this turn|must|may|can't|cards?|question|minutes? left|Save my answer|"
    r"Skip for now|Finish the exam|Your score|passed|Score per rule|Review|unanswered|"
    r"Language|Skip to content|targeting|controls|on top of|from the top|of|"
    r"Level|Banks?|Every|Everything|Choose|[Ss]earch|shuffle|Corner|replacements?|yours|"
    r"From your instructors|overdue|cohorts?|Join|instructors?|"
    r"Scenarios|Cohorts?|Import(ed)?|Export|Lint|Save|Preview|Item analysis|Title|Players?|"
    r"Active|Source|Visibility|Learners?|Assign(ments?)?|Facility|Discrimination|[Cc]laims?|"
    r"Checking|Saving|Nothing|Updated|Edit|New|Create|Remove|Duplicate|Types|Subtypes|"
    r"Mana cost|Abilities|Keywords|Choices?|Step|Value|Targets?|Why|What|How|Agrees|"
    r"Disagrees|[Ss]tored|Questions?|Answers?|Joined|Mastery|repeats?|from|zones|Add|"
    r"Describe|resolves|Back|Update|Shared|Private|Public|"
    # the engine's reasons
    r"found|searcher|qualif\w+|instruction|effect|library|graveyard|revealed|hidden|public)\b"
)
WORDS = {
    "de": {
        "sign_up": "Registrieren",
        "check": "Antwort prüfen",
        "feedback": ("Richtig!", "Nicht ganz"),
        "start": "Starten",
        "save": "Antwort speichern",
        "finish": "Prüfung abschließen",
        "score": "Dein Ergebnis:",
        "rules": "Die Regeln, die sie entscheiden",
    },
    "it": {
        "sign_up": "Registrati",
        "check": "Verifica la mia risposta",
        "feedback": ("Giusto!", "Non proprio"),
        "start": "Inizia",
        "save": "Salva la mia risposta",
        "finish": "Concludi l'esame",
        "score": "Il tuo punteggio:",
        "rules": "Le regole che lo decidono",
    },
}


def unmarked_text(page) -> str:
    """The page's text outside elements marked lang="en" and outside text boxes (a clone holds
    a text box's first content, not what was typed since: it is the author's own text)."""
    return page.evaluate(
        """() => {
            const copy = document.body.cloneNode(true);
            copy.querySelectorAll('[lang="en"], script, style, select, textarea')
                .forEach(e => e.remove());
            return copy.innerText;
        }"""
    )


def without_untranslated_names(text: str, language: str) -> str:
    """`text` without the card names that have no name in `language`: the one English the
    issue allows (as printed cards do), wherever a sentence names such a card."""
    names = Card.objects.values_list("name", flat=True)
    for name in sorted(names, key=len, reverse=True):
        if not has_translation(name, language):
            text = text.replace(name, "")
    return text


def english_left(page, language: str) -> list[str]:
    """Interface English in the page's text, outside elements marked lang="en"."""
    text = without_untranslated_names(unmarked_text(page), language)
    return sorted({match.group(0) for match in ENGLISH.finditer(text)})


def translatable_left_in_english(page, language: str) -> list[str]:
    """Texts marked lang="en" that the content catalogs translate (allowed: the original of a
    translated stored ruling, in its <details>, and a rule's English text where the rule has no
    official translation, even when a stored ruling quotes it word for word)."""
    marked = page.evaluate(
        """() => [...document.body.querySelectorAll('[lang="en"]')]
            .filter(e => !e.closest('details.original-ruling, .rule-text'))
            .map(e => e.innerText.trim())"""
    )
    return [text for text in marked if text and content_texts.translated(text, language)]


def check_reasons(page, where: str) -> None:
    """The feedback gives the engine's reasons, in the page's language (not marked English):
    `check` then finds any English left in them."""
    reasons = page.locator(".part .reason")
    assert reasons.count() > 0, where
    assert page.locator('.part .reason[lang="en"], .part .reason [lang="en"]').count() == 0, where


def check(page, language: str, where: str) -> None:
    assert page.locator("html").get_attribute("lang") == language, where
    assert translatable_left_in_english(page, language) == [], where
    left = english_left(page, language)
    if left:
        text = without_untranslated_names(unmarked_text(page), language)
        around = [text[max(0, m.start() - 80) : m.end() + 80] for m in ENGLISH.finditer(text)]
        raise AssertionError(f"{where}: English left {left}: {around[:5]}")
    assert serious_violations(page) == [], where


@pytest.fixture
def seeded(content):
    """The seed content (tests/browser/conftest.py)."""


@pytest.mark.parametrize(("language", "locale"), [("de", "de-DE"), ("it", "it-IT")])
def test_a_learner_works_through_tutor_in_their_language(
    chromium, live_server, seeded, language, locale
):
    words = WORDS[language]
    context = chromium.new_context(locale=locale, viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    base = live_server.url

    page.goto(f"{base}/accounts/signup/")
    check(page, language, "sign-up page")
    page.locator("input[name=username]").fill(f"learner-{language}")
    page.locator("input[name=password1]").fill("a-long-pass-9x")
    page.locator("input[name=password2]").fill("a-long-pass-9x")
    page.locator("main").get_by_role("button", name=words["sign_up"]).click()
    page.wait_for_url("**/practice/")
    assert LanguagePreference.objects.get(user__username=f"learner-{language}").language == language
    check(page, language, "practice question")

    answer_whatever_is_asked(page)
    page.get_by_role("button", name=words["check"]).click()
    page.locator("#feedback-title").wait_for()
    assert page.locator("#feedback-title").inner_text().startswith(words["feedback"])
    check_reasons(page, "feedback")
    check(page, language, "feedback")

    page.goto(f"{base}/exams/")
    check(page, language, "exams")
    page.locator("main form button").first.click()
    page.wait_for_url(re.compile(r".*/exams/\d+/q/1/$"))
    check(page, language, "exam question")
    while re.search(r"/q/\d+/$", page.url):
        answer_whatever_is_asked(page)
        page.get_by_role("button", name=words["save"]).click()
        page.wait_for_load_state()
    page.get_by_role("button", name=words["finish"]).click()
    page.wait_for_load_state()
    assert page.get_by_role("heading", level=1).inner_text().startswith(words["score"])
    check(page, language, "exam report")

    page.locator(".exam-review-list a").first.click()
    page.locator("#feedback-title").wait_for()
    assert words["rules"] in page.content()
    check_reasons(page, "exam review")
    check(page, language, "exam review")

    # the pages merged since: the practice filter open (its level names too), the banks, the
    # card browser and a card, joining a cohort, and the home page with its assignments
    page.goto(f"{base}/practice/?level=L1")
    assert page.locator("details.practice-filter").get_attribute("open") is not None
    check(page, language, "practice with the filter open")
    levels = page.locator("select[name=level] option").all_inner_texts()
    assert len(levels) == 4 and not [name for name in levels if ENGLISH.search(name)], levels
    page.goto(f"{base}/practice/banks/")
    check(page, language, "banks to practise")
    page.goto(f"{base}/cards/")
    check(page, language, "cards")
    page.locator(".card-list a").first.click()
    page.locator("#card-name").wait_for()
    check(page, language, "a card")

    learner = LanguagePreference.objects.get(user__username=f"learner-{language}").user
    cohort = Cohort.objects.create(name="Nord", instructor=UserFactory())
    bank = Bank.objects.filter(visibility=Bank.Visibility.PUBLIC).first()
    cohort.banks.add(bank)
    yesterday = datetime.date.today() - datetime.timedelta(days=1)
    Assignment.objects.create(cohort=cohort, bank=bank, due_on=yesterday)
    Assignment.objects.create(cohort=cohort, blueprint=ExamBlueprint.objects.first())
    page.goto(f"{base}/cohorts/join/")
    check(page, language, "joining a cohort")
    page.locator("input[name=code]").fill(cohort.join_code)
    page.locator("main form button").click()
    page.locator("main [role=status]").wait_for()
    assert cohort.members.filter(pk=learner.pk).exists()
    check(page, language, "joined a cohort")
    page.goto(f"{base}/")
    assert page.locator(".assignments li").count() == 3  # two assignments, one cohort bank
    check(page, language, "home with assignments")
    context.close()

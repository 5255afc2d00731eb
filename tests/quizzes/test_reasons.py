"""The engine's reasons in German and Italian: every reason the engine gives is a Reason made
from its one table (rules/engine/reasons.py), and the catalogs have every message of it."""

from __future__ import annotations

import ast
import json
import pickle
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.utils import translation

from quizzes.loading.generated import read_families
from quizzes.rulings.instances import expand
from quizzes.rulings.reasons import say
from rules.engine import check_find_choice, default_catalog, parse_scenario, resolve
from rules.engine.cards import parse_filter
from rules.engine.reasons import (
    AND,
    INTO_WORDS,
    MESSAGES,
    OR,
    WHERE_WORDS,
    WORDS,
    ZONE_WORDS,
    Phrase,
    Reason,
    because,
)

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "rules" / "engine"
SCENARIO_FILES = sorted(
    [
        *(ROOT / "quizzes" / "content" / "scenarios").glob("*.json"),
        *(ROOT / "tests" / "engine").glob("*scenarios/*.json"),
        *(ROOT.parent / "shared" / "spec" / "examples").glob("*.json"),
    ]
)
LANGUAGES = ("de", "it")


def _family_specs() -> list[dict]:
    """A sample of the families' instances: a few per family."""
    catalog = default_catalog()
    return [
        instance.spec
        for family in read_families(catalog=catalog)
        for instance in expand(family, catalog, seed=0, count=3).instances
    ]


def _reasons(spec: dict) -> Iterator[str]:
    """Every reason of the resolution, and of checking each player's choice of found cards."""
    scenario = parse_scenario(spec)
    for result in resolve(scenario).claims:
        yield result.reason
    labels = [card.label for card in scenario.state.cards]
    for player in scenario.state.players:
        for chosen in ([], labels[:1], labels[:2] * 2):
            yield check_find_choice(spec, player, chosen).reason


def _nested(reason: Reason) -> Iterator[Reason]:
    yield reason
    for value in reason.params.values():
        for item in value if type(value) is tuple else (value,):
            if isinstance(item, Reason):
                yield from _nested(item)


def test_the_scenarios_cover_the_engine():
    assert len(SCENARIO_FILES) > 300


@pytest.fixture(scope="module")
def given_reasons() -> list[str]:
    specs = [json.loads(path.read_text(encoding="utf-8")) for path in SCENARIO_FILES]
    return [reason for spec in specs + _family_specs() for reason in _reasons(spec)]


def test_every_reason_is_a_reason_from_the_table(given_reasons):
    plain = {reason for reason in given_reasons if reason and not isinstance(reason, Reason)}
    assert not plain
    given = {nested.key for reason in given_reasons if reason for nested in _nested(reason)}
    assert given <= set(MESSAGES)
    assert len(given) > 150  # the scenarios reach most of the table


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_reason_given_is_said_in_the_language(given_reasons, language):
    untranslated = set()
    with translation.override(language):
        for reason in {r for r in given_reasons if r}:
            for nested in _nested(reason):
                plural = nested.plural
                count = nested.params.get("count", 1)
                said = (
                    translation.ngettext(nested.message, plural, count)
                    if plural
                    else translation.gettext(nested.message)
                )
                if said == (nested.message if count == 1 or not plural else plural):
                    untranslated.add(nested.message)
            assert say(reason) != reason
    assert not untranslated


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_and_word_of_the_table_is_in_the_catalog(language):
    words = [*ZONE_WORDS.values(), *INTO_WORDS.values(), *WHERE_WORDS.values(), *WORDS.values()]
    words += [OR, AND]
    messages = [m if type(m) is str else m[0] for m in MESSAGES.values()]
    with translation.override(language):
        missing = [m for m in messages + words if translation.gettext(m) == m]
        plurals = [m for m in MESSAGES.values() if type(m) is tuple]
        missing += [p for s, p in plurals if translation.ngettext(s, p, 2) == p]
    assert not missing


def test_a_reason_is_said_with_localised_card_names_zone_words_and_counts():
    reason = because(
        "all_public",
        card="Howling Mine",
        description="an artifact card",
        zone="graveyard",
    )
    nested = because("too_few", cards=because("cards", count=2), reason=reason)
    with translation.override("de"):
        assert say(nested) == (
            "Mindestens 2 Karten müssen gefunden werden: Die Karte „Verborgenes Wissen“ ist an "
            "artifact card in einer öffentlichen Zone (Friedhof), also muss eine Suche nach "
            "allen solchen Karten sie finden."
        )
    with translation.override("it"):
        assert say(because("cards", count=1)) == "1 carta"
        assert "Scheggia" in say(because("qualifies", card="Splinter"))
        assert "mano o esilio" in say(
            because("look_unfixed", card="Splinter", zones_or=("hand", "exile"), player="Bo")
        )
    assert say(nested) == str(nested)  # English: the engine's own sentence


def test_a_reason_keeps_its_message_when_pickled():
    reason = because("if_searching", clause=because("qualifies", card="Forest"), player="Alice")
    again = pickle.loads(pickle.dumps(reason))
    assert again == reason and again.key == "if_searching" and again.params == reason.params


def test_no_reason_in_the_engine_is_written_as_a_string():
    """A Verdict's or a move's reason is a Reason (or another verdict's), never a literal or an
    f-string: those would reach a German page in English."""
    calls = {"Verdict": 2, "ChoiceVerdict": 2, "move": 3, "maybe_move": 3}
    written = []
    for path in sorted(ENGINE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            index = calls.get(name)
            if index is None or len(node.args) <= index:
                continue
            reason = node.args[index]
            literal = isinstance(reason, ast.JoinedStr) or (
                isinstance(reason, ast.Constant) and isinstance(reason.value, str) and reason.value
            )
            if literal:
                written.append(f"{path.name}:{node.lineno}")
    assert not written


def test_a_card_that_doesnt_fit_says_what_is_looked_for_in_german():
    """ "Die Karte „Blood Crypt“ ist nicht eine Karte (Wald)" read oddly (found walking the app)."""
    forest = parse_filter({"subtypes": ["Forest"]}, "filter")
    reason = because("no_match", card="Blood Crypt", description=Phrase.of(forest))
    with translation.override("de"):
        assert say(reason) == "Die Karte „Blood Crypt“ passt nicht: Gesucht ist eine Karte (Wald)."


def test_mana_in_a_reason_is_said_in_the_readers_language():
    """German feedback said "…und sie erzeugt {U} or {G}, also wird …" (found walking the app)."""
    from quizzes.rulings.reasons import say
    from rules.engine.reasons import because

    reason = because(
        "tapped_for_mana_trigger", card_tapped="Reflecting Pool", mana="{U} or {G}", card="X"
    )
    assert "produces {U} or {G}, so" in say(reason)
    with translation.override("de"):
        assert "{U} oder {G}" in say(reason) and " or " not in say(reason)


def test_where_a_card_goes_or_is_takes_each_zones_preposition():
    """ "Alice puts the found card into battlefield", "in die Zone Im-Spiel-Zone": a zone is said
    with its own preposition where a card goes (`into*`) or is (`where*`), as the Comprehensive
    Rules and the cards say it in each language."""
    puts = because("puts_found_card", player="Alice", into="battlefield")
    either = because(
        "opponent_choice_if_found", card="Forest", into="hand", into_rest="graveyard", player="Bo"
    )
    stays = because("not_moved", card="Forest", where="battlefield")
    gone = because("not_chosen", card="Forest", into="graveyard")
    assert puts == "Alice puts the found card onto the battlefield."
    assert stays == "Nothing moves Forest; it stays on the battlefield."
    assert gone == "Forest was not chosen, so it goes into the owner's graveyard."
    assert either == (
        "If found, Forest goes into the owner's hand or into the owner's graveyard depending on "
        "Bo's choice."
    )
    assert because("found_put", card="Forest", into="library_top") == (
        "The found Forest is put on top of the owner's library."
    )
    said = {}
    for language in ("de", "it"):
        with translation.override(language):
            said[language] = [say(r) for r in (puts, either, stays, gone)]
    assert said["de"] == [
        "Alice bringt die gefundene Karte ins Spiel.",
        "Falls gefunden, kommt die Karte „Wald“ je nach Wahl von Bo auf die Hand oder auf den "
        "Friedhof.",
        "Nichts bewegt die Karte „Wald“; sie bleibt im Spiel.",
        "Die Karte „Wald“ wurde nicht gewählt, also kommt sie auf den Friedhof.",
    ]
    assert said["it"] == [
        "Alice mette la carta trovata sul campo di battaglia.",
        "Se trovata, la carta «Foresta» va in mano o nel cimitero a seconda della scelta di Bo.",
        "Nulla sposta la carta «Foresta»; resta sul campo di battaglia.",
        "La carta «Foresta» non è stata scelta, quindi va nel cimitero.",
    ]


def test_a_split_reads_right_whatever_the_count():
    """Cultivate puts one found card onto the battlefield: "chooses which 1 found card go"
    agreed with no count; the choice is now said so that no verb depends on it."""
    one, two = (
        because(
            "split_choice",
            player="Alice",
            cards=because("found_cards", count=count),
            into="battlefield",
            into_rest="hand",
        )
        for count in (1, 2)
    )
    assert one == (
        "Alice chooses 1 found card to go onto the battlefield; the rest go into the owner's hand."
    )
    assert two == (
        "Alice chooses 2 found cards to go onto the battlefield; the rest go into the owner's hand."
    )
    with translation.override("de"):
        assert say(one) == (
            "Alice wählt 1 gefundene Karte aus, um sie ins Spiel zu bringen; der Rest kommt "
            "auf die Hand."
        )
        assert say(two).startswith("Alice wählt 2 gefundene Karten aus, um sie ins Spiel")
    with translation.override("it"):
        assert say(one) == (
            "Alice sceglie 1 carta trovata da mettere sul campo di battaglia; il resto va in mano."
        )

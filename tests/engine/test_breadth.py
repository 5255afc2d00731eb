"""Engine breadth (issue 10): several descriptions, dredge on any draw, costs, {Q}, summoning
sickness across turns, Leonin Arbiter per Arbiter, zone choices, the rest, kicker, face-down
exile, strict input.

Every file in `breadth_scenarios/` is a probe written from a real card's Oracle text and its
official rulings (cited in `source`); `breadth_scenarios/refused/` holds malformed files with
the field their error must name. The unit tests check each rule on its own.
"""

from __future__ import annotations

import copy
import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine import (
    ScenarioError,
    check_expectations,
    check_find_choice,
    evaluate_claim,
    parse_scenario,
    resolve,
)
from rules.engine.costs import parse_cost
from rules.engine.search import max_fill

HERE = Path(__file__).resolve().parent
PROBES = HERE / "breadth_scenarios"
REFUSED = PROBES / "refused"


def _load(name: str) -> dict[str, Any]:
    spec = json.loads((PROBES / f"{name}.json").read_text(encoding="utf-8"))
    spec["expect"] = []
    return spec


@pytest.mark.parametrize("path", sorted(PROBES.glob("*.json")), ids=lambda path: path.stem)
def test_breadth_probe(path: Path) -> None:
    spec = json.loads(path.read_text(encoding="utf-8"))
    mismatches = check_expectations(spec)
    assert not mismatches, "\n".join(m.message for m in mismatches)


@pytest.mark.parametrize("path", sorted(REFUSED.glob("*.json")), ids=lambda path: path.stem)
def test_malformed_file_is_refused_naming_the_field(path: Path) -> None:
    spec = json.loads(path.read_text(encoding="utf-8"))
    with pytest.raises(ScenarioError) as error:
        resolve(spec)
    assert error.value.path == spec["refused"]["path"]
    for words in spec["refused"]["mentions"]:
        assert words in str(error.value)


def _board(zones: dict[str, Any], resolve_step: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "format": "scenario/1",
        "players": ["Alice", "Nadia"],
        "zones": zones,
        "resolve": resolve_step,
        **extra,
    }


def _value(spec: dict[str, Any], claim: str, given: Any = None, **subject: Any) -> Any:
    question = {"claim": claim, **subject}
    if given is not None:
        question["given"] = given
    return evaluate_claim(spec, question).value


# ---------------------------------------------------------------- 1. several descriptions


def test_max_fill_counts_each_card_once() -> None:
    # Two descriptions with room for one each; a card fitting both counts once.
    assert max_fill([(1, 0b11)], [1, 1]) == 1
    assert max_fill([(1, 0b11), (1, 0b01)], [1, 1]) == 2
    assert max_fill([(3, 0b01)], [1, 1]) == 1


@settings(max_examples=150, deadline=None)
@given(
    masks=st.lists(st.integers(min_value=0, max_value=7), max_size=6),
    caps=st.lists(st.integers(min_value=0, max_value=2), min_size=3, max_size=3),
)
def test_max_fill_agrees_with_brute_force(masks: list[int], caps: list[int]) -> None:
    """Every assignment of cards to descriptions (or to none), the best one counted."""
    best = 0
    for assignment in itertools.product(range(-1, 3), repeat=len(masks)):
        used = [0, 0, 0]
        ok = True
        for mask, slot in zip(masks, assignment, strict=True):
            if slot < 0:
                continue
            if not mask >> slot & 1:
                ok = False
                break
            used[slot] += 1
        if ok and all(u <= c for u, c in zip(used, caps, strict=True)):
            best = max(best, sum(1 for slot in assignment if slot >= 0))
    assert max_fill([(1, m) for m in masks], caps) == best


def test_consecutive_searches_are_one_search() -> None:
    spec = _load("krosan-verge-forest-and-plains")
    spec["zones"]["Alice"]["library"] = ["Savannah#s1", "Savannah#s2", "Forest#f1"]
    assert _value(spec, "found_count", searcher="Alice") == [0, 2]
    assert check_find_choice(spec, "Alice", ["s1", "s2"]).legal
    two_forests = check_find_choice(spec, "Alice", ["f1", "s1"])
    assert two_forests.legal  # the Savannah fills the Plains description
    spec["zones"]["Alice"]["library"] = ["Forest#f1", "Forest#f2"]
    verdict = check_find_choice(spec, "Alice", ["f1", "f2"])
    assert not verdict.legal
    assert verdict.rule == "701.23h"


def test_a_public_card_must_fill_an_open_description() -> None:
    # Search library and graveyard for a Forest card and a Plains card: the Plains in the
    # graveyard must be found (701.23b), the Forest in the library needn't be.
    zones = {
        "Alice": {
            "hand": ["Local Verge Spell#spell"],
            "graveyard": ["Plains#gp"],
            "library": ["Forest#lf", "Plains#lp"],
        }
    }
    local = {
        "name": "Local Verge Spell",
        "types": ["Sorcery"],
        "spell": [
            {
                "search": {
                    "zones": ["library", "graveyard"],
                    "for": [
                        {"count": 1, "filter": {"subtypes": ["Forest"]}},
                        {"count": 1, "filter": {"subtypes": ["Plains"]}},
                    ],
                }
            }
        ],
    }
    spec = _board(zones, {"cast": "spell", "by": "Alice"}, cards=[local])
    outcome = resolve(spec)
    assert outcome.find("finds", card="gp").value == "may"  # the library Plains may fill it
    assert outcome.find("found_count", searcher="Alice").value == [1, 2]
    assert not check_find_choice(spec, "Alice", ["lf"]).legal
    assert check_find_choice(spec, "Alice", ["lp", "lf"]).legal
    assert check_find_choice(spec, "Alice", ["gp"]).legal
    spec["zones"]["Alice"]["library"] = ["Forest#lf"]
    assert resolve(spec).find("finds", card="gp").value == "must"


def test_several_descriptions_with_their_own_destinations() -> None:
    local = {
        "name": "Two Way Tutor",
        "types": ["Sorcery"],
        "spell": [
            {"search": {"for": {"filter": {"types": ["Creature"]}}, "put": "hand"}},
            {"search": {"for": {"filter": {"types": ["Land"]}}, "put": "battlefield"}},
        ],
    }
    zones = {"Alice": {"hand": ["Two Way Tutor#t"], "library": ["Dryad Arbor#arbor", "Forest#f"]}}
    spec = _board(zones, {"cast": "t", "by": "Alice"}, cards=[local])
    assert _value(spec, "zone_after", card="arbor") == "battlefield or hand or library"
    assert _value(spec, "zone_after", {"Alice": {"find": ["arbor", "f"]}}, card="arbor") == "hand"
    both = _value(spec, "zone_after", {"Alice": {"find": ["arbor"]}}, card="arbor")
    assert both == "battlefield or hand"


# ---------------------------------------------------------------- 2. dredge on any draw


def test_dredge_list_longer_than_the_draws_is_refused() -> None:
    spec = _load("divination-dredge-each-draw")
    spec["resolve"]["choices"] = {"Alice": {"dredge": ["troll", False, False]}}
    with pytest.raises(ScenarioError) as error:
        resolve(spec)
    assert error.value.path == "choices.Alice.dredge"


def test_library_size_is_checked_at_each_draw() -> None:
    spec = _load("divination-dredge-each-draw")
    spec["resolve"]["choices"] = {"Alice": {"dredge": ["troll", "imp"]}}
    with pytest.raises(ScenarioError) as error:
        resolve(spec)
    assert "702.52b" in str(error.value)
    assert "at that draw" in str(error.value)


def test_draw_then_discard_sees_a_dredged_card() -> None:
    zones = {
        "Alice": {
            "hand": ["Careful Study#cs"],
            "graveyard": ["Stinkweed Imp#imp"],
            "library": ["Forest", "Island", "Swamp", "Plains", "Mountain", "Forest", "Island"],
        }
    }
    spec = _board(zones, {"cast": "cs", "by": "Alice"})
    given = {"Alice": {"dredge": "imp"}}
    # The Imp and the second card drawn are the only cards in hand: both are discarded.
    assert _value(spec, "zone_after", given, card="imp") == "graveyard"
    spec["zones"]["Alice"]["hand"].append("Island#kept")
    assert _value(spec, "zone_after", given, card="imp") == "hand or graveyard"


# ---------------------------------------------------------------- 3.-4. {Q}, {T} and sickness


def test_q_activation_of_an_untapped_permanent_is_refused() -> None:
    spec = _load("gilder-bairn-untapped-cant-untap")
    spec["resolve"] = {"activate": "up", "by": "Alice", "targets": ["down"]}
    with pytest.raises(ScenarioError) as error:
        resolve(spec)
    assert "107.6" in str(error.value)


def test_sick_reason_no_longer_says_this_turn() -> None:
    spec = _load("elves-arrived-on-opponents-turn")
    verdict = evaluate_claim(spec, {"claim": "can_activate", "card": "flashed"})
    assert verdict.rule == "302.6"
    assert "most recent turn began" in verdict.reason
    assert "this turn" not in verdict.reason


def test_haste_lets_a_sick_creature_tap() -> None:
    hasty = {
        "name": "Hasty Elf",
        "types": ["Creature"],
        "keywords": ["haste"],
        "activated": [{"cost": "{T}", "effect": [{"add_mana": "{G}"}]}],
    }
    zones = {
        "Alice": {"battlefield": [{"card": "Hasty Elf", "label": "e", "summoning_sick": True}]}
    }
    spec = _board(zones, {"activate": "e", "by": "Alice"}, cards=[hasty])
    assert _value(spec, "mana_produced", card="e") == "{G}"


# ---------------------------------------------------------------- 5. Leonin Arbiter


def test_a_fact_without_source_is_refused_with_two_arbiters() -> None:
    spec = _load("two-arbiters-one-paid")
    spec["history"] = [{"fact": "ignored_search_prohibition", "player": "Alice"}]
    with pytest.raises(ScenarioError) as error:
        parse_scenario(spec)
    assert error.value.path == "history[0].source"


def test_both_arbiters_paid_by_facts_lift_the_prohibition() -> None:
    spec = _load("two-arbiters-one-paid")
    spec["history"].append(
        {"fact": "ignored_search_prohibition", "player": "Alice", "source": "arb2"}
    )
    assert _value(spec, "searches", player="Alice") == "must"


def test_ignore_prohibition_label_must_be_an_arbiter() -> None:
    spec = _load("two-arbiters-one-paid")
    with pytest.raises(ScenarioError) as error:
        evaluate_claim(
            spec,
            {
                "claim": "searches",
                "player": "Alice",
                "given": {"Alice": {"ignore_prohibition": ["f1"]}},
            },
        )
    assert error.value.path == "choices.Alice.ignore_prohibition"


# ---------------------------------------------------------------- 6. costs


@pytest.mark.parametrize(
    ("cost", "kinds"),
    [
        ("{1}{U}{U}, Discard this card", ["mana", "discard"]),
        ("{T}, Pay 1 life, Sacrifice this land", ["tap", "pay_life", "sacrifice"]),
        ("Exile a creature card from your graveyard", ["exile"]),
        ("Tap two untapped creatures you control", ["tap_other"]),
        ("Remove a +1/+1 counter from this creature", ["remove_counters"]),
        ("{2}{G/U}, {Q}", ["mana", "untap"]),
        ("Sacrifice another Goblin", ["sacrifice"]),
        ("\u22122", ["loyalty"]),
    ],
)
def test_costs_are_read_into_parts(cost: str, kinds: list[str]) -> None:
    assert [part.kind for part in parse_cost(cost, "Card", "cost")] == kinds


def test_a_cost_the_engine_doesnt_model_is_read_but_never_taken_as_paid() -> None:
    # Issue 21: activating it would rest on paying a part the engine can't check (118.3), so
    # the activation is refused, naming the part; the card itself may still be on the board.
    parts = parse_cost("{1}, Pay {E}{E}, Exile this artifact", "Card", "cost")
    assert [part.kind for part in parts] == ["mana", "other", "exile"]
    local = {
        "name": "Odd Relic",
        "types": ["Artifact"],
        "activated": [{"cost": "{1}, Collect evidence 4, Exile this artifact", "effect": []}],
    }
    zones = {"Alice": {"battlefield": ["Odd Relic#relic", "Forest#f"]}}
    with pytest.raises(ScenarioError, match="Collect evidence 4.*isn't modelled"):
        resolve(_board(zones, {"activate": "relic", "by": "Alice"}, cards=[local]))
    outcome = resolve(_board(zones, {"activate": "f", "by": "Alice"}, cards=[local]))
    assert outcome.find("zone_after", card="relic") is None


def _cost_board(cost: str, zones: dict[str, Any], **extra: Any) -> dict[str, Any]:
    local = {
        "name": "Cost Engine",
        "types": ["Artifact"],
        "activated": [{"cost": cost, "effect": [{"draw": 1}]}],
    }
    zones.setdefault("Alice", {}).setdefault("battlefield", []).append("Cost Engine#engine")
    return _board(zones, {"activate": "engine", "by": "Alice"}, cards=[local], **extra)


def test_exile_a_card_from_the_graveyard_chosen_or_open() -> None:
    spec = _cost_board(
        "Exile a creature card from your graveyard",
        {"Alice": {"graveyard": ["Grizzly Bears#b1", "Llanowar Elves#b2", "Forest#f"]}},
    )
    assert _value(spec, "zone_after", card="b1") == "graveyard or exile"
    assert _value(spec, "zone_after", card="f") == "graveyard"
    assert _value(spec, "zone_after", {"Alice": {"cost": ["b2"]}}, card="b2") == "exile"
    assert _value(spec, "zone_after", {"Alice": {"cost": ["b2"]}}, card="b1") == "graveyard"
    with pytest.raises(ScenarioError) as error:
        _value(spec, "zone_after", {"Alice": {"cost": ["f"]}}, card="f")
    assert error.value.path == "choices.Alice.cost"


def test_a_cost_that_cant_be_paid_blocks_the_activation() -> None:
    spec = _cost_board("Discard two cards", {"Alice": {"hand": ["Forest"]}})
    with pytest.raises(ScenarioError) as error:
        resolve(spec)
    assert "118.3" in str(error.value)
    spec["resolve"] = {"draw": "Alice"}
    assert _value(spec, "can_activate", card="engine") is False


def test_counters_removed_as_a_cost() -> None:
    zones = {"Alice": {"battlefield": []}}
    spec = _cost_board("Remove a +1/+1 counter from this artifact", zones)
    spec["zones"]["Alice"]["battlefield"] = [
        {"card": "Cost Engine", "label": "engine", "counters": {"+1/+1": 2}}
    ]
    assert _value(spec, "counters", card="engine") == 1
    spec["zones"]["Alice"]["battlefield"][0]["counters"] = {}
    spec["resolve"] = {"draw": "Alice"}
    assert _value(spec, "can_activate", card="engine") is False


def test_paying_more_life_than_you_have_is_refused() -> None:
    spec = _load("polluted-delta-pays-life")
    spec["life"] = {"Alice": 0}
    with pytest.raises(ScenarioError):
        resolve(spec)
    spec["resolve"] = {"draw": "Alice"}
    assert _value(spec, "can_activate", card="delta2") is False
    assert evaluate_claim(spec, {"claim": "can_activate", "card": "delta2"}).rule == "119.4"


def test_an_undescribed_zone_doesnt_block_a_cost() -> None:
    # The scenario doesn't list Alice's hand: it is undescribed, not empty.
    spec = _cost_board("Discard a card", {})
    assert _value(spec, "can_activate", card="engine") is True


# ---------------------------------------------------------------- 7. zone choices


def test_a_zone_choice_outside_the_instruction_is_refused() -> None:
    spec = _load("ajanis-aid-graveyard-only")
    with pytest.raises(ScenarioError) as error:
        _value(spec, "shuffles", {"Alice": {"zones": ["hand"]}}, player="Alice")
    assert error.value.path == "choices.Alice.zones"


# ---------------------------------------------------------------- 8. the rest


def test_doomsday_open_line_exiles_what_isnt_found() -> None:
    spec = _load("doomsday-exile-the-rest")
    del spec["resolve"]["choices"]
    # Seven cards, five found: any of them may be found, and the others go with the rest.
    assert _value(spec, "zone_after", card="l5") == "library or exile"
    assert _value(spec, "found_count", searcher="Alice") == [5, 5]


def test_a_take_choice_outside_the_look_is_refused() -> None:
    spec = _load("impulse-rest-on-the-bottom")
    with pytest.raises(ScenarioError) as error:
        _value(spec, "zone_after", {"Alice": {"take": ["l5"]}}, card="l5")
    assert error.value.path == "choices.Alice.take"


# ---------------------------------------------------------------- 9. kicker


def test_kicked_choice_on_a_spell_without_kicker_is_refused() -> None:
    spec = _board({"Alice": {"hand": ["Demonic Tutor#dt"]}}, {"cast": "dt", "by": "Alice"})
    with pytest.raises(ScenarioError) as error:
        evaluate_claim(
            spec, {"claim": "searches", "player": "Alice", "given": {"Alice": {"kicked": True}}}
        )
    assert error.value.path == "choices.Alice.kicked"


def test_an_open_kick_spans_both_lines() -> None:
    spec = _load("grow-from-the-ashes-kicked")
    del spec["resolve"]["kicked"]
    assert _value(spec, "found_count", searcher="Alice") == [0, 2]
    assert check_find_choice(spec, "Alice", ["f1"]).legal
    kicked_only = copy.deepcopy(spec)
    kicked_only["resolve"]["kicked"] = False
    assert not check_find_choice(kicked_only, "Alice", ["f1", "p1"]).legal


def test_primal_growths_kicker_needs_a_creature_to_sacrifice() -> None:
    spec = _load("primal-growth-kicked")
    spec["zones"]["Alice"]["battlefield"] = []
    with pytest.raises(ScenarioError) as error:
        _value(spec, "found_count", {"Alice": {"kicked": True}}, searcher="Alice")
    assert error.value.path == "choices.Alice.kicked"


# ---------------------------------------------------------------- 10. face down


def test_may_look_needs_a_face_down_destination() -> None:
    local = {
        "name": "Odd Grasp",
        "types": ["Sorcery"],
        "spell": [{"search": {"for": {"count": 1}, "put": "exile", "may_look": "you"}}],
    }
    with pytest.raises(ScenarioError) as error:
        parse_scenario(_board({}, {"cast": "Odd Grasp", "by": "Alice"}, cards=[local]))
    assert error.value.path.endswith("spell[0].search.may_look")


# ---------------------------------------------------------------- 11. strict input


@pytest.mark.parametrize(
    ("entry", "field"),
    [
        ({"card": "Forest", "lable": "f"}, "zones.Alice.battlefield[0]"),
        ({"card": "Forest", "counters": {"+1/+1": -1}}, "zones.Alice.battlefield[0].counters"),
    ],
)
def test_card_objects_are_strict(entry: dict[str, Any], field: str) -> None:
    spec = _board({"Alice": {"battlefield": [entry]}}, {"draw": "Alice"})
    with pytest.raises(ScenarioError) as error:
        parse_scenario(spec)
    assert error.value.path == field


def test_an_instruction_with_an_unknown_key_is_refused() -> None:
    local = {"name": "Odd Draw", "types": ["Sorcery"], "spell": [{"draw": 1, "then": "discard"}]}
    with pytest.raises(ScenarioError) as error:
        parse_scenario(_board({}, {"cast": "Odd Draw", "by": "Alice"}, cards=[local]))
    assert "then" in error.value.message
    assert error.value.path == "cards[0] (Odd Draw).spell[0]"


def test_exile_found_face_down_after_setting_aside() -> None:
    local = {
        "name": "Face Down Tutor",
        "types": ["Sorcery"],
        "spell": [
            {"search": {"for": {"count": 1}, "put": "set_aside"}},
            {"shuffle": "you"},
            {"exile": {"what": "found", "face_down": True, "may_look": "you"}},
        ],
    }
    zones = {"Alice": {"hand": ["Face Down Tutor#t"], "library": ["Forest#f", "Island#i"]}}
    spec = _board(zones, {"cast": "t", "by": "Alice"}, cards=[local])
    found = {"Alice": {"find": ["f"]}}
    assert _value(spec, "zone_after", card="f") == "library or exile"
    assert _value(spec, "exiled_face_down", found, card="f") is True
    assert _value(spec, "may_look_at", found, card="f", player="Nadia") is False
    assert _value(spec, "may_look_at", found, card="f", player="Alice") is True


@pytest.mark.parametrize("key", ["zones", "take", "cost"])
def test_a_fixed_choice_nothing_reads_is_refused(key: str) -> None:
    spec = _board(
        {"Alice": {"hand": ["Demonic Tutor#dt"], "library": ["Forest#f"]}},
        {
            "cast": "dt",
            "by": "Alice",
            "choices": {"Alice": {key: ["library"] if key == "zones" else ["f"]}},
        },
    )
    with pytest.raises(ScenarioError) as error:
        resolve(spec)
    assert error.value.path == f"choices.Alice.{key}"


def test_a_claim_with_an_unknown_key_is_refused() -> None:
    spec = _load("praetors-grasp-face-down")
    with pytest.raises(ScenarioError) as error:
        evaluate_claim(spec, {"claim": "finds", "card": "n1", "crad": "n2"})
    assert "crad" in error.value.message
    assert "card" in error.value.message


_LANDS = ("Forest", "Plains", "Savannah", "Island")
_TYPES = {
    "Forest": {"Forest"},
    "Plains": {"Plains"},
    "Savannah": {"Forest", "Plains"},
    "Island": set(),
}


def _fits(chosen: list[tuple[str, str]], wanted: list[str]) -> bool:
    """Brute force: can each chosen card fill a different description (one card each)?"""
    for slots in itertools.permutations(range(len(wanted)), len(chosen)):
        if all(wanted[s] in _TYPES[name] for (name, _), s in zip(chosen, slots, strict=True)):
            return True
    return False


@settings(max_examples=60, deadline=None)
@given(
    library=st.lists(st.sampled_from(_LANDS), max_size=4),
    graveyard=st.lists(st.sampled_from(_LANDS), max_size=3),
)
def test_several_descriptions_agree_with_enumerating_every_found_set(
    library: list[str], graveyard: list[str]
) -> None:
    """Search library and graveyard for a Forest card and a Plains card: a set is legal when its
    cards fill different descriptions and no graveyard card (public, 701.23b) could fill one
    left open. Every verdict, bound and choice check agrees with that enumeration."""
    cards = [(name, f"l{i}", "library") for i, name in enumerate(library)]
    cards += [(name, f"g{i}", "graveyard") for i, name in enumerate(graveyard)]
    wanted = ["Forest", "Plains"]
    local = {
        "name": "Two Lands",
        "types": ["Sorcery"],
        "spell": [
            {
                "search": {
                    "zones": ["library", "graveyard"],
                    "for": [{"filter": {"subtypes": [w]}} for w in wanted],
                }
            }
        ],
    }
    zones = {
        "Alice": {
            "hand": ["Two Lands#spell"],
            "library": [f"{n}#{label}" for n, label, z in cards if z == "library"],
            "graveyard": [f"{n}#{label}" for n, label, z in cards if z == "graveyard"],
        }
    }
    spec = _board(zones, {"cast": "spell", "by": "Alice"}, cards=[local])
    legal = []
    for size in range(len(cards) + 1):
        for subset in itertools.combinations(cards, size):
            chosen = [(n, label) for n, label, _ in subset]
            if not _fits(chosen, wanted):
                continue
            left_open = any(
                z == "graveyard"
                and (n, label) not in chosen
                and _fits([*chosen, (n, label)], wanted)
                for n, label, z in cards
            )
            if not left_open:
                legal.append({label for _, label in chosen})
    outcome = resolve(spec)
    sizes = [len(s) for s in legal]
    assert outcome.find("found_count", searcher="Alice").value == [min(sizes), max(sizes)]
    for _, label, _ in cards:
        expected = (
            "must"
            if all(label in s for s in legal)
            else "may"
            if any(label in s for s in legal)
            else "cannot"
        )
        assert outcome.find("finds", card=label).value == expected, label
    for subset in itertools.chain.from_iterable(
        itertools.combinations([c[1] for c in cards], k) for k in range(3)
    ):
        verdict = check_find_choice(spec, "Alice", list(subset))
        assert verdict.legal == (set(subset) in legal), (subset, verdict.reason)


def test_a_public_match_cant_be_left_unfound_while_there_is_room() -> None:
    # Two Forest cards wanted, one in the library and one in the graveyard: finding only the
    # library's leaves room the public one must fill (701.23b: only hidden-zone cards may be
    # left unfound).
    local = {
        "name": "Two Forests",
        "types": ["Sorcery"],
        "spell": [
            {
                "search": {
                    "zones": ["library", "graveyard"],
                    "for": {"count": 2, "filter": {"subtypes": ["Forest"]}},
                }
            }
        ],
    }
    zones = {
        "Alice": {"hand": ["Two Forests#t"], "library": ["Forest#lf"], "graveyard": ["Forest#gf"]}
    }
    spec = _board(zones, {"cast": "t", "by": "Alice"}, cards=[local])
    assert _value(spec, "finds", card="gf") == "must"
    assert _value(spec, "finds", card="lf") == "may"
    assert not check_find_choice(spec, "Alice", ["lf"]).legal
    assert check_find_choice(spec, "Alice", ["gf"]).legal
    spec["zones"]["Alice"]["graveyard"].append("Forest#gf2")
    assert _value(spec, "finds", card="gf") == "may"  # three for two: which ones is a choice
    assert not check_find_choice(spec, "Alice", ["lf"]).legal
    assert check_find_choice(spec, "Alice", ["lf", "gf2"]).legal


def test_cycling_keywords_stand_for_their_abilities() -> None:
    # Written only as keywords: typecycling searches (702.29e), cycling draws (702.29a), and
    # that draw may be replaced by dredge (702.52a).
    local = {
        "name": "Keyword Cycler",
        "types": ["Creature"],
        "mana_cost": "{3}{W}",
        "keywords": ["Plainscycling {2}", "Cycling {1}"],
    }
    zones = {
        "Alice": {
            "hand": ["Keyword Cycler#kc"],
            "graveyard": ["Golgari Thug#thug"],
            "library": ["Plains#p", "Island#i", "Swamp#s", "Forest#f", "Mountain#m"],
        }
    }
    spec = _board(zones, {"activate": "kc", "by": "Alice"}, cards=[local])
    assert _value(spec, "finds", card="p") == "may"
    assert _value(spec, "finds", card="i") == "cannot"
    assert _value(spec, "zone_after", card="kc") == "graveyard"
    spec["resolve"]["ability"] = 1
    assert _value(spec, "zone_after", card="p") == "hand or graveyard"
    assert _value(spec, "zone_after", {"Alice": {"dredge": "thug"}}, card="thug") == "hand"

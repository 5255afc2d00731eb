"""Replacement effects on one event (614, 616): acceptance scenarios and invariants.

Each acceptance test names the rule or the official ruling it rests on.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine.errors import ScenarioError
from rules.engine.replacement import (
    Event,
    Replacement,
    apply_replacements,
    chooser_of,
    dredge,
    graveyard_to_exile,
    mill_events,
    prefer,
)

# Darksteel Colossus: "If Darksteel Colossus would be put into a graveyard from anywhere,
# reveal Darksteel Colossus and shuffle it into its owner's library instead."
COLOSSUS_SHUFFLE = Replacement(
    "Darksteel Colossus",
    "Nadia",
    {"kind": "move", "to_zone": "graveyard", "card": "Darksteel Colossus"},
    {"to_zone": "library", "details": {"shuffled": True}},
)
# Aven Mindcensor: "If an opponent would search a library, that player searches the top four
# cards of that library instead."
MINDCENSOR = {"kind": "search", "whose": "opponent"}


def _mindcensor(name: str, controller: str) -> Replacement:
    return Replacement(name, controller, MINDCENSOR, {"details": {"portion": "top 4"}})


def _search(player: str) -> Event:
    return Event("search", player=player, owner=player, details={"portion": "library"})


def test_the_affected_objects_controller_chooses_not_the_effects_controller():
    """616.1: Colossus, owned and controlled by Nadia, would die while Omar controls Leyline
    of the Void: Nadia chooses. Applying the Colossus first shuffles it into her library, and
    Leyline no longer applies (616.1, the example under 616.1f)."""
    dies = Event(
        "move",
        card="Darksteel Colossus",
        owner="Nadia",
        controller="Nadia",
        from_zone="battlefield",
        to_zone="graveyard",
    )
    leyline = graveyard_to_exile("Leyline of the Void", "Omar", whose="opponent")
    shuffled = apply_replacements(dies, [leyline, COLOSSUS_SHUFFLE], prefer(["Darksteel Colossus"]))
    assert shuffled.chooser == "Nadia"
    assert shuffled.order == ("Darksteel Colossus",)
    assert shuffled.final.to_zone == "library"
    exiled = apply_replacements(dies, [leyline, COLOSSUS_SHUFFLE], prefer(["Leyline of the Void"]))
    assert exiled.order == ("Leyline of the Void",)
    assert exiled.final.to_zone == "exile"
    assert [s.rule for s in exiled.steps] == ["616.1e"]


def test_a_permanent_controlled_by_another_player_is_ordered_by_its_controller():
    """616.1: the affected object's controller chooses, even when another player owns it."""
    stolen = Event("move", card="Hill Giant", owner="Omar", controller="Nadia", to_zone="graveyard")
    assert chooser_of(stolen) == "Nadia"
    assert chooser_of(Event("move", card="Hill Giant", owner="Omar")) == "Omar"
    assert chooser_of(Event("draw", player="Petra")) == "Petra"


def test_dredge_with_leyline_of_the_void_exiles_the_milled_cards():
    """702.52a, 616.1: dredge replaces the draw (the drawing player chooses); the cards it
    mills would go to Nadia's graveyard, and Omar's Leyline of the Void exiles them instead.
    The dredge card itself returns to her hand."""
    leyline = graveyard_to_exile("Leyline of the Void", "Omar", whose="opponent")
    troll = dredge("Golgari Thug", "Nadia", 4)
    draw = apply_replacements(
        Event("draw", player="Nadia"), [leyline, troll], library_sizes={"Nadia": 10}
    )
    assert draw.chooser == "Nadia"
    assert draw.final.kind == "dredge"
    assert draw.final.details == {"mill": 4, "returns": "Golgari Thug"}
    milled = mill_events("Nadia", ["a", "b", "c", "d"])
    outcomes = [apply_replacements(move, [leyline, troll]) for move in milled]
    assert [o.final.to_zone for o in outcomes] == ["exile"] * 4


def test_dredge_needs_enough_cards_in_the_library():
    """702.52b: a player with fewer cards in library than the dredge number can't dredge,
    so the draw happens as it would."""
    outcome = apply_replacements(
        Event("draw", player="Nadia"),
        [dredge("Stinkweed Imp", "Nadia", 5)],
        library_sizes={"Nadia": 4},
    )
    assert not outcome.replaced
    assert outcome.final.kind == "draw"


def test_dredge_is_optional_and_only_an_optional_effect_may_be_declined():
    """702.52a ("you may mill N cards instead"): Nadia may decline dredge and draw; Rest in
    Peace's effect is not optional."""
    imp = dredge("Stinkweed Imp", "Nadia", 5)
    kept = apply_replacements(
        Event("draw", player="Nadia"), [imp], library_sizes={"Nadia": 9}, declined={imp.name}
    )
    assert kept.final.kind == "draw" and not kept.replaced
    rest = graveyard_to_exile("Rest in Peace", "Omar")
    with pytest.raises(ScenarioError):
        apply_replacements(Event("move", card="x", owner="Nadia"), [rest], declined={rest.name})


def test_rest_in_peace_exiles_the_controllers_own_milled_cards_too():
    """Rest in Peace's text covers every graveyard ("a card or token ... from anywhere"), so
    even its controller's milled cards are exiled; Leyline of the Void spares its
    controller's (its text says "an opponent's graveyard")."""
    rest = graveyard_to_exile("Rest in Peace", "Omar")
    leyline = graveyard_to_exile("Leyline of the Void", "Omar", whose="opponent")
    own = mill_events("Omar", ["x"])[0]
    assert apply_replacements(own, [rest]).final.to_zone == "exile"
    assert apply_replacements(own, [leyline]).final.to_zone == "graveyard"


def test_self_replacement_effects_are_applied_first():
    """616.1a: a self-replacement effect must be chosen before any other, even when the
    chooser prefers the other; once it moves the card to the hand, the graveyard effect no
    longer applies (616.1f's "only ... effects that would now be applicable")."""
    to_hand = Replacement(
        "its own instead",
        "Nadia",
        {"kind": "move", "to_zone": "graveyard"},
        {"to_zone": "hand"},
        self_replacement=True,
    )
    rest = graveyard_to_exile("Rest in Peace", "Omar")
    move = Event("move", card="Forest", owner="Nadia", from_zone="library", to_zone="graveyard")
    outcome = apply_replacements(move, [rest, to_hand], prefer(["Rest in Peace"]))
    assert outcome.order == ("its own instead",)
    assert outcome.steps[0].rule == "616.1a"
    assert outcome.steps[0].candidates == ("its own instead",)
    assert outcome.final.to_zone == "hand"


def test_two_mindcensors_each_apply_once():
    """614.5: each effect gets one opportunity to modify the event; two Aven Mindcensors both
    apply and the search is still of the top four cards."""
    both = [_mindcensor("Aven Mindcensor 1", "Omar"), _mindcensor("Aven Mindcensor 2", "Omar")]
    outcome = apply_replacements(_search("Nadia"), both)
    assert outcome.order == ("Aven Mindcensor 1", "Aven Mindcensor 2")
    assert outcome.final.details["portion"] == "top 4"
    assert apply_replacements(_search("Omar"), both).replaced is False


def test_a_chooser_may_not_pick_an_effect_outside_the_candidates():
    rest = graveyard_to_exile("Rest in Peace", "Omar")
    move = Event("move", card="x", owner="Nadia", to_zone="graveyard")
    with pytest.raises(ScenarioError):
        apply_replacements(move, [rest], lambda _who, _c: COLOSSUS_SHUFFLE)


EFFECTS = [
    graveyard_to_exile("Rest in Peace", "Omar"),
    graveyard_to_exile("Leyline of the Void", "Omar", whose="opponent"),
    COLOSSUS_SHUFFLE,
    Replacement("to hand", "Nadia", {"kind": "move", "to_zone": "graveyard"}, {"to_zone": "hand"}),
    Replacement("back", "Nadia", {"kind": "move", "to_zone": "exile"}, {"to_zone": "graveyard"}),
]


@settings(max_examples=200, deadline=None)
@given(
    chosen=st.lists(st.sampled_from(EFFECTS), unique_by=lambda e: e.name),
    owner=st.sampled_from(["Nadia", "Omar"]),
    order=st.permutations([e.name for e in EFFECTS]),
)
def test_every_effect_applies_at_most_once_and_the_process_ends(chosen, owner, order):
    """614.5 and 616.1f: however the chooser orders them, no effect applies twice (so at most
    one step per effect), each step's effect was applicable and chosen among the candidates,
    and afterwards no unused effect applies to the final event."""
    move = Event("move", card="Darksteel Colossus", owner=owner, to_zone="graveyard")
    outcome = apply_replacements(move, chosen, prefer(order))
    assert len(set(outcome.order)) == len(outcome.order) <= len(chosen)
    for step in outcome.steps:
        assert step.applied in step.candidates
    unused = [e for e in chosen if e.name not in outcome.order]
    assert not any(e.applies_to(outcome.final, {}) for e in unused)
    assert outcome.chooser == owner


# Through a scenario: Rest in Peace in the catalog, applied by the resolver (614.1a).
from rules.engine import evaluate_claim, resolve  # noqa: E402

from .builders import cast, scenario  # noqa: E402


def _with_rest_in_peace(resolve_step: dict, nadia: dict) -> dict:
    return scenario(
        zones={
            "Alice": {"battlefield": ["Rest in Peace#rip"], "hand": ["Assassin's Trophy"]},
            "Nadia": nadia,
        },
        active="Alice",
        resolve=resolve_step,
    )


def test_rest_in_peace_exiles_milled_cards():
    """614.1a and Rest in Peace's text: Thought Scour mills two cards of Alice's own library;
    they are exiled instead, and Thought Scour itself is exiled too as it resolves."""
    spec = _with_rest_in_peace(
        cast("Thought Scour", "Nadia", targets=["Alice"]),
        {"hand": ["Thought Scour#scour"], "library": ["Island"]},
    )
    spec["zones"]["Alice"]["library"] = ["Forest#f1", "Forest#f2", "Plains#p3"]
    outcome = resolve(spec)
    for label in ("f1", "f2"):
        verdict = outcome.find("zone_after", card=label)
        assert (verdict.value, verdict.rule) == ("exile", "614.1a")
        assert "Rest in Peace" in verdict.reason
    assert outcome.find("zone_after", card="scour").value == "exile"
    assert evaluate_claim(spec, {"claim": "zone_after", "card": "p3"}).value == "library"


def test_rest_in_peace_destroyed_by_a_spell_is_exiled_and_the_spell_goes_to_the_graveyard():
    """Rest in Peace ruling (2018-03-16): "If Rest in Peace is destroyed by a spell, Rest in
    Peace will be exiled and then the spell will be put into its owner's graveyard." """
    spec = scenario(
        zones={
            "Alice": {"battlefield": ["Rest in Peace#rip"]},
            "Nadia": {"hand": ["Assassin's Trophy#trophy"], "library": ["Plains"]},
        },
        active="Nadia",
        resolve=cast("Assassin's Trophy", "Nadia", targets=["rip"]),
    )
    outcome = resolve(spec)
    rip = outcome.find("zone_after", card="rip")
    assert (rip.value, rip.rule) == ("exile", "614.1a")
    assert outcome.find("zone_after", card="trophy").value == "graveyard"


def test_without_rest_in_peace_the_milled_cards_go_to_the_graveyard():
    spec = _with_rest_in_peace(
        cast("Thought Scour", "Nadia", targets=["Alice"]),
        {"hand": ["Thought Scour#scour"], "library": ["Island"]},
    )
    spec["zones"]["Alice"]["battlefield"] = []
    spec["zones"]["Alice"]["library"] = ["Forest#f1", "Forest#f2"]
    assert resolve(spec).find("zone_after", card="f1").value == "graveyard"


def test_an_aura_left_unattached_under_rest_in_peace_is_exiled():
    """704.5m then 614.1a: the Aura would go to its owner's graveyard as a state-based action;
    Rest in Peace exiles it instead, as it exiles the destroyed land."""
    spec = _with_rest_in_peace(
        {"activate": "quarter", "by": "Alice", "targets": ["host"], "ability": 1},
        {
            "battlefield": [
                "Forest#host",
                {"card": "Wild Growth", "label": "growth", "attached_to": "host"},
            ],
            "library": ["Plains"],
        },
    )
    spec["zones"]["Alice"]["battlefield"].append("Ghost Quarter#quarter")
    outcome = resolve(spec)
    assert outcome.find("zone_after", card="host").value == "exile"
    growth = outcome.find("zone_after", card="growth")
    assert (growth.value, growth.rule) == ("exile", "614.1a")
    assert outcome.find("zone_after", card="quarter").value == "exile"

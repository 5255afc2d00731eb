"""The public functions: check_find_choice (is this set of found cards legal?) and
check_expectations (does a stored ruling agree with the engine?)."""

from __future__ import annotations

from rules.engine import check_expectations, check_find_choice, evaluate_claim

from .builders import cast, expect, scenario, trigger, tutor_spell, vanilla

BOLT = vanilla("Lightning Bolt", ("Instant",), "{R}")


def _splinter() -> dict:
    return scenario(
        zones={
            "Nadia": {
                "battlefield": ["Howling Mine#mine"],
                "graveyard": ["Howling Mine#gy", "Island#gyisland"],
                "hand": ["Howling Mine#hand"],
                "library": ["Howling Mine#lib1", "Swamp", "Howling Mine#lib2"],
            }
        },
        resolve=cast("Splinter", "Alice", targets=["mine"]),
    )


def _gifts_library() -> dict:
    gifts = tutor_spell("Test Gifts", count=4, up_to=True, card_filter={"different_names": True})
    return scenario(
        cards=[gifts, BOLT],
        zones={"Alice": {"library": ["Island#i1", "Island#i2", "Lightning Bolt#b", "Swamp#s"]}},
        resolve=cast("Test Gifts", "Alice"),
    )


# ---------------------------------------------------------------- check_find_choice


def test_the_must_card_alone_is_a_legal_find() -> None:
    assert check_find_choice(_splinter(), "Alice", ["gy"]).legal is True


def test_every_matching_card_is_a_legal_find() -> None:
    verdict = check_find_choice(_splinter(), "Alice", ["gy", "hand", "lib1", "lib2"])
    assert verdict.legal is True


def test_leaving_out_a_must_card_is_illegal() -> None:
    verdict = check_find_choice(_splinter(), "Alice", ["lib1"])
    assert verdict.legal is False
    assert verdict.rule == "701.23b"
    assert verdict.reason


def test_finding_a_card_that_does_not_match_is_illegal() -> None:
    verdict = check_find_choice(_splinter(), "Alice", ["gy", "gyisland"])
    assert verdict.legal is False
    assert verdict.rule.startswith("701.23")


def test_finding_an_unknown_label_is_illegal() -> None:
    assert check_find_choice(_splinter(), "Alice", ["gy", "nosuchcard"]).legal is False


def test_finding_more_than_the_count_is_illegal() -> None:
    spec = scenario(
        zones={"Alice": {"library": ["Island#a", "Swamp#b", "Forest#c"]}},
        resolve=cast("Demonic Tutor", "Alice"),
    )
    assert check_find_choice(spec, "Alice", ["a", "b"]).legal is False


def test_finding_fewer_than_a_quantity_search_requires_is_illegal() -> None:
    spec = scenario(
        zones={"Alice": {"library": ["Island#a", "Swamp#b"]}},
        resolve=cast("Demonic Tutor", "Alice"),
    )
    verdict = check_find_choice(spec, "Alice", [])
    assert verdict.legal is False
    assert verdict.rule == "701.23d"


def test_failing_to_find_with_a_stated_quality_is_legal() -> None:
    spec = scenario(
        zones={"Alice": {"battlefield": ["Evolving Wilds#wilds"], "library": ["Forest"]}},
        resolve={"activate": "wilds", "by": "Alice"},
    )
    assert check_find_choice(spec, "Alice", []).legal is True


def test_two_cards_with_the_same_name_are_illegal_for_different_names() -> None:
    assert check_find_choice(_gifts_library(), "Alice", ["i1", "i2"]).legal is False


def test_cards_with_different_names_are_legal_for_different_names() -> None:
    assert check_find_choice(_gifts_library(), "Alice", ["i1", "b", "s"]).legal is True


def test_a_card_below_the_mindcensor_portion_is_illegal() -> None:
    spec = scenario(
        zones={
            "Alice": {"battlefield": ["Aven Mindcensor#censor"]},
            "Nadia": {"library": ["Island", "Island", "Island", "Island", "Swamp#fifth"]},
        },
        resolve=cast("Demonic Tutor", "Nadia"),
    )
    verdict = check_find_choice(spec, "Nadia", ["fifth"])
    assert verdict.legal is False
    assert verdict.rule == "701.23f"


def test_a_player_who_cannot_search_can_find_nothing() -> None:
    spec = scenario(
        players=("Nadia", "Alice"),
        zones={
            "Alice": {"battlefield": ["Stranglehold"]},
            "Nadia": {"battlefield": ["Evolving Wilds#wilds"], "library": ["Forest#nf"]},
        },
        resolve={"activate": "wilds", "by": "Nadia"},
    )
    assert check_find_choice(spec, "Nadia", ["nf"]).legal is False
    assert check_find_choice(spec, "Nadia", []).legal is True


def test_each_searcher_is_checked_on_their_own_search() -> None:
    spec = scenario(
        zones={
            "Alice": {"graveyard": ["Veteran Explorer#explorer"], "library": ["Forest#af"]},
            "Nadia": {"library": ["Forest#nf"]},
        },
        resolve=trigger("explorer"),
    )
    assert check_find_choice(spec, "Alice", ["af"]).legal is True
    assert check_find_choice(spec, "Alice", ["nf"]).legal is False


# ---------------------------------------------------------------- check_expectations


def test_agreeing_expectations_give_no_mismatch() -> None:
    spec = _splinter()
    spec["expect"] = [expect("finds", "must", card="gy"), expect("finds", "may", card="lib1")]
    assert check_expectations(spec) == []


def test_a_wrong_expectation_is_reported_with_the_engines_ruling() -> None:
    spec = _splinter()
    spec["expect"] = [expect("finds", "may", card="gy")]
    (mismatch,) = check_expectations(spec)
    assert "gy" in mismatch.message
    assert "must" in mismatch.message
    assert "701.23b" in mismatch.message


def test_a_true_is_not_accepted_for_a_one() -> None:
    spec = scenario(
        zones={"Nadia": {"library": ["Island"]}},
        resolve=cast("Archive Trap", "Alice", targets=["Nadia"]),
    )
    spec["expect"] = [expect("mills", True, player="Nadia")]
    assert len(check_expectations(spec)) == 1


def test_given_choices_are_honoured_by_check_expectations() -> None:
    spec = scenario(
        zones={"Alice": {"library": ["Island#island", "Swamp#swamp"]}},
        resolve=cast("Demonic Tutor", "Alice"),
    )
    finding_swamp = {"Alice": {"find": ["swamp"]}}
    spec["expect"] = [
        {**expect("zone_after", "hand", card="swamp"), "given": finding_swamp},
        {**expect("zone_after", "library", card="island"), "given": finding_swamp},
    ]
    assert check_expectations(spec) == []


def test_evaluate_claim_reports_the_subject() -> None:
    result = evaluate_claim(_splinter(), {"claim": "finds", "card": "hand"})
    assert result.claim == "finds"
    assert result.subject["card"] == "hand"

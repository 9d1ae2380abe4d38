"""Every premium line of MH-6 and MH-7, each with a hand that earns it and a near miss; the MH-8 table.

Hands are typed in MH-10 notation; `earned` answers code → premiums of the scorer's best reading.
"""

from __future__ import annotations

import pytest
from mhing_support import earned, score

from api.rules.mhing.premiums import LINES, points

E1 = "b1 b2 b3 c5 c5 c5 we we we dr dr dr k2 k2"  # the MH-10 example


def test_mh10_example_hand_is_scored_in_full() -> None:
    """b1-2-3, c5 ×3, east ×3, red ×3, pair k2: 2 honour triplets, a 2-pair, all suits + winds + dragons."""
    result = score(E1)
    assert earned(E1) == {"honour-triplet": 2, "pair-2-5-8": 1, "all-suits-winds-dragons": 5}
    assert result.total_premiums == 8 and result.points == 64
    assert result.to_json()["reading"]["notation"] == "b1 b2 b3 | c5 c5 c5 | we we we | dr dr dr | k2 k2"


# --- MH-6, line by line ------------------------------------------------------------------------


def test_mh6_each_flower_is_a_premium() -> None:
    assert earned(E1, flowers="f1 f3")["flower"] == 2
    assert earned(E1 + " f2")["flower"] == 1  # typed among the hidden cards: set aside (MH-2)
    assert "flower" not in earned(E1)


def test_mh6_two_sequences_same_numbers_same_suit_3() -> None:
    assert earned("b1 b2 b3 b1 b2 b3 c4 c5 c6 k7 k8 k9 we we")["same-sequences-same-suit"] == 3
    near = earned("b1 b2 b3 b2 b3 b4 c4 c5 c6 k7 k8 k9 we we")
    assert "same-sequences-same-suit" not in near and "same-sequences-different-suits" not in near


def test_mh6_two_sequences_same_numbers_different_suits_1() -> None:
    assert earned("b1 b2 b3 c1 c2 c3 k4 k5 k6 dr dr dr we we")["same-sequences-different-suits"] == 1
    assert "same-sequences-different-suits" not in earned("b1 b2 b3 c2 c3 c4 k4 k5 k6 dr dr dr we we")


def test_mh6_decision_every_unordered_pair_counts() -> None:
    """MH-6 Decision: three 2-3-4 in three suits are three pairs → 3; four identical sequences → 18."""
    assert earned("b2 b3 b4 c2 c3 c4 k2 k3 k4 dr dr dr we we")["same-sequences-different-suits"] == 3
    four = score("b2 b3 b4 b2 b3 b4 b2 b3 b4 b2 b3 b4 c5 c5")
    items = {p.code: p for p in four.items}
    assert items["same-sequences-same-suit"].times == 6
    assert items["same-sequences-same-suit"].premiums == 18
    # The same cards as three triplets and a sequence would score far less: the best reading wins.
    assert four.total_premiums == 18 + 1 + 1 + 1 + 5


def test_mh6_two_triplets_of_the_same_number_1() -> None:
    assert earned("b5 b5 b5 c5 c5 c5 k1 k2 k3 dr dr dr we we")["same-number-triplets"] == 1
    assert "same-number-triplets" not in earned("b5 b5 b5 c6 c6 c6 k1 k2 k3 dr dr dr we we")


def test_mh6_decision_honour_triplets_have_no_number() -> None:
    """Two honour triplets are never "two triplets of the same number"; each is an honour triplet."""
    got = earned("we we we ws ws ws b1 b2 b3 c1 c2 c3 k9 k9")
    assert "same-number-triplets" not in got and got["honour-triplet"] == 2


def test_mh6_every_pair_of_triplets_of_one_number_counts_with_a_fifth_copy_by_joker() -> None:
    """MH-5 Decision: a joker may be a fifth b5; four 5-triplets are six pairs (MH-6 Decision)."""
    result = score("b5 b5 b5 b5 jk jk c5 c5 c5 k5 k5 k5 dr dr")
    items = {p.code: p.premiums for p in result.items}
    assert items["same-number-triplets"] == 6 and items["only-triplets"] == 3
    assert result.to_json()["reading"]["jokers_as"] == ["b5", "b5"]


def test_mh6_each_triplet_of_honour_cards_1() -> None:
    assert earned("dg dg dg b1 b2 b3 c1 c2 c3 k4 k5 k6 b9 b9")["honour-triplet"] == 1
    assert "honour-triplet" not in earned("dg dg b1 b2 b3 c1 c2 c3 k4 k5 k6 b9 b9 b9")


@pytest.mark.parametrize("rank", [2, 5, 8])
def test_mh6_a_pair_of_2s_5s_or_8s_1(rank: int) -> None:
    hand = f"b1 b2 b3 c4 c5 c6 k7 k8 k9 we we we b{rank} b{rank}"
    assert earned(hand)["pair-2-5-8"] == 1


def test_mh6_pair_near_misses_a_7_pair_and_a_triplet_of_8s() -> None:
    assert "pair-2-5-8" not in earned("b1 b2 b3 c4 c5 c6 k7 k8 k9 we we we k7 k7")
    assert "pair-2-5-8" not in earned("b8 b8 b8 c4 c5 c6 k7 k8 k9 we we we dr dr")


def test_mh6_full_straight_3() -> None:
    assert earned("b1 b2 b3 b4 b5 b6 b7 b8 b9 c1 c2 c3 we we")["full-straight"] == 3
    assert "full-straight" not in earned("b1 b2 b3 b4 b5 b6 c7 c8 c9 k1 k2 k3 we we")


def test_mh6_broken_straight_1_without_4_5_6() -> None:
    assert earned("b1 b2 b3 b7 b8 b9 c4 c5 c6 k4 k5 k6 we we")["broken-straight"] == 1
    full = earned("b1 b2 b3 b4 b5 b6 b7 b8 b9 c1 c2 c3 we we")
    assert "broken-straight" not in full  # the 4-5-6 is there: a full straight instead
    assert "broken-straight" not in earned("b1 b2 b3 c7 c8 c9 k4 k5 k6 dr dr dr we we")


def test_mh6_decision_straights_use_distinct_groups() -> None:
    """1-2-3, 1-2-3, 7-8-9 of one suit is one broken straight; 1-2-3/7-8-9 in two suits are two."""
    once = earned("b1 b2 b3 b1 b2 b3 b7 b8 b9 c4 c5 c6 we we")
    assert once["broken-straight"] == 1 and once["same-sequences-same-suit"] == 3
    assert earned("b1 b2 b3 b7 b8 b9 c1 c2 c3 c7 c8 c9 we we")["broken-straight"] == 2


def test_mh6_only_sequences_1() -> None:
    assert earned("b1 b2 b3 c4 c5 c6 k7 k8 k9 b4 b5 b6 dr dr")["only-sequences"] == 1
    assert "only-sequences" not in earned("b1 b2 b3 c4 c5 c6 k7 k8 k9 b4 b4 b4 dr dr")


def test_mh6_only_two_suits_no_honours_1() -> None:
    assert earned("b1 b2 b3 b4 b5 b6 c7 c8 c9 c1 c1 c1 b9 b9")["two-suits-no-honours"] == 1
    assert "two-suits-no-honours" not in earned("b1 b2 b3 b4 b5 b6 c7 c8 c9 c1 c1 c1 dr dr")


def test_mh6_only_one_suit_with_honours_3() -> None:
    assert earned("b1 b2 b3 b4 b5 b6 b7 b8 b9 we we we dr dr")["one-suit-with-honours"] == 3
    assert "one-suit-with-honours" not in earned("b1 b2 b3 b4 b5 b6 c7 c8 c9 we we we dr dr")


def test_mh6_decision_honours_alone_are_not_one_suit() -> None:
    got = earned("we we we ws ws ws ww ww ww dr dr dr dg dg")
    assert "one-suit-with-honours" not in got and got == {"honour-triplet": 4, "only-triplets": 3}


def test_mh6_only_one_suit_no_honours_8() -> None:
    assert earned("b1 b2 b3 b4 b5 b6 b7 b8 b9 b1 b1 b1 b9 b9")["one-suit-no-honours"] == 8
    near = earned("b1 b2 b3 b4 b5 b6 b7 b8 b9 b1 b1 b1 c9 c9")
    assert "one-suit-no-honours" not in near and near["two-suits-no-honours"] == 1


def test_mh6_all_three_suits_winds_and_dragons_5() -> None:
    assert earned(E1)["all-suits-winds-dragons"] == 5
    assert "all-suits-winds-dragons" not in earned("b1 b2 b3 c5 c5 c5 we we we ws ws ws k2 k2")


def test_mh6_only_suit_cards_5_to_9_5() -> None:
    assert earned("b5 b6 b7 c7 c8 c9 k5 k5 k5 b9 b9 b9 c6 c6")["only-5-to-9"] == 5
    assert "only-5-to-9" not in earned("b4 b5 b6 c7 c8 c9 k5 k5 k5 b9 b9 b9 c6 c6")


def test_mh6_only_suit_cards_1_to_5_5() -> None:
    assert earned("b1 b2 b3 c3 c4 c5 k1 k1 k1 b5 b5 b5 c2 c2")["only-1-to-5"] == 5
    assert "only-1-to-5" not in earned("b1 b2 b3 c4 c5 c6 k1 k1 k1 b5 b5 b5 c2 c2")


def test_mh6_only_triplets_3() -> None:
    assert earned("b1 b1 b1 c5 c5 c5 k9 k9 k9 we we we dr dr")["only-triplets"] == 3
    assert "only-triplets" not in earned("b1 b2 b3 c5 c5 c5 k9 k9 k9 we we we dr dr")


def test_mh6_three_dragon_triplets_5() -> None:
    got = earned("dr dr dr dg dg dg dw dw dw b1 b2 b3 c5 c5")
    assert got["three-dragon-triplets"] == 5 and got["honour-triplet"] == 3
    assert "three-dragon-triplets" not in earned("dr dr dr dg dg dg dw dw b1 b2 b3 c5 c5 c5")


def test_mh5_laid_out_groups_stay_as_laid_out() -> None:
    """Hidden, b1 b1 b1 b2 b2 b2 b3 b3 b3 reads best as three 1-2-3; laid out as triplets it stays so."""
    hidden = earned("b1 b1 b1 b2 b2 b2 b3 b3 b3 c4 c5 c6 we we")
    assert hidden["same-sequences-same-suit"] == 9
    laid = earned("c4 c5 c6 we we", groups=["b1 b1 b1", "b2 b2 b2", "b3 b3 b3"])
    assert "same-sequences-same-suit" not in laid


def test_premium_items_name_their_rule_and_groups() -> None:
    result = score("b1 b2 b3 c1 c2 c3 k4 k5 k6 dr dr dr we we", groups=None, flowers="f4")
    body = result.to_json()
    groups = body["reading"]["groups"]
    same = next(p for p in body["premiums"] if p["code"] == "same-sequences-different-suits")
    assert same["rule"] == "MH-6" and same["occurrences"] == [same["groups"]]
    assert {groups[i]["notation"] for i in same["groups"]} == {"b1 b2 b3", "c1 c2 c3"}
    flower = next(p for p in body["premiums"] if p["code"] == "flower")
    assert flower["cards"] == ["f4"] and flower["premiums"] == 1
    assert body["total_premiums"] == sum(p["premiums"] for p in body["premiums"])
    assert all(p["name"] == LINES[p["code"]][0] for p in body["premiums"])


# --- MH-7 --------------------------------------------------------------------------------------


def test_mh7_nothing_fits_3() -> None:
    result = score("b1 b4 b7 c2 c5 c8 k3 k6 k9 we ws ww dr dg")
    assert result.wins and result.kind == "nothing-fits"
    assert {p.code: p.premiums for p in result.items} == {"nothing-fits": 3}


def test_mh7_near_misses_two_cards_too_close_or_identical() -> None:
    assert not score("b1 b3 b7 c2 c5 c8 k3 k6 k9 we ws ww dr dg").wins
    assert not score("b1 b4 b7 c2 c5 c8 k3 k6 k9 we we ww dr dg").wins


def test_mh7_decision_all_seven_honours_8() -> None:
    assert earned("b1 b4 b7 c2 c5 c8 k3 we ws ww wn dr dg dw") == {"nothing-fits-all-honours": 8}
    assert earned("b1 b4 b7 c2 c5 c8 k3 k6 we ws ww wn dr dg") == {"nothing-fits": 3}


def test_mh7_decision_no_whole_hand_premium_applies_flowers_do() -> None:
    """Three suits, winds and dragons would be 5 under MH-6; not for the exceptional hand."""
    assert earned("b1 b4 b7 c2 c5 c8 k3 k6 k9 we ws ww dr dg", flowers="f1 f2") == {
        "flower": 2,
        "nothing-fits": 3,
    }


def test_mh5_decision_jokers_may_complete_the_exceptional_hand() -> None:
    result = score("b1 b4 b7 c2 c5 c8 k3 we ws ww wn dr jk jk")
    assert {p.code for p in result.items} == {"nothing-fits-all-honours"}
    assert result.to_json()["reading"]["jokers_as"] == ["dg", "dw"]
    # Not enough jokers for every honour: still "nothing fits", jokers on cards 3 apart.
    three = score("b1 b4 c2 c5 c8 k3 k6 k9 we ws ww wn jk jk")
    assert {p.code for p in three.items} == {"nothing-fits"}


def test_mh7_is_never_a_hand_with_laid_out_groups() -> None:
    assert not score("b7 c2 c5 c8 k3 k6 k9 we ws ww dr", groups=["b1 jk=b2 b3"]).wins


# --- MH-8 --------------------------------------------------------------------------------------


def test_mh8_points_table_from_0_to_20_premiums() -> None:
    expected = [0, 2, 4, 8, 16, 32, 32, 32, 64, 64, 64, 128, 128, 128, 256, 256, 256, 512, 512, 512, 1024]
    assert [points(n) for n in range(21)] == expected


def test_mh8_examples_2_premiums_4_points_5_to_7_premiums_32() -> None:
    assert points(2) == 4
    assert {points(n) for n in (5, 6, 7)} == {32}


# --- not going out -----------------------------------------------------------------------------


def test_a_hand_that_does_not_go_out_says_why() -> None:
    short = score("b1 b2 b3 c5 c5 c5 we we we dr dr dr k2")
    assert not short.wins and short.reason_code == "wrong-card-count"
    assert short.reason is not None and short.reason.startswith("13 cards")
    stuck = score("b1 b2 b3 c5 c5 c5 we we we dr dr dr k2 k3")
    assert not stuck.wins and stuck.reason_code == "no-reading"
    assert stuck.reason is not None and "no reading into four groups and a pair" in stuck.reason.lower()
    assert stuck.points == 0 and stuck.to_json()["reading"] is None


def test_the_discard_flag_is_carried_through_for_settlement_mh9() -> None:
    assert score(E1, discard=True).to_json()["discard"] is True
    assert score(E1).to_json()["discard"] is False

"""The best reading (MH-5 … MH-7) checked against exhaustive searches and against the `mahjong` package.

* For random winning hands the scorer's premiums equal those of a brute-force search written
  separately (tests/rules/mhing_support.py): every joker given every card, every split into groups
  (few jokers), or every reading that holds the natural cards with any group and any pair (more).
* For random joker-free hands the set of four-groups-and-a-pair readings equals what the `mahjong`
  package's HandDivider returns (its seven-pairs readings left out).
* The itemised premiums always add up to what the search maximised.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mahjong.hand_calculating.divider import HandDivider
from mhing_support import (
    ALL_GROUPS,
    KINDS,
    brute_by_assignment,
    brute_by_cover,
    hand_parts,
    reference_premiums,
    winning_hands,
)

from api.rules.mhing import blocks
from api.rules.mhing.hand import Hand, parse_hand
from api.rules.mhing.premiums import count_premiums, itemise, total
from api.rules.mhing.scoring import natural_counts, score_hand
from api.rules.mhing.search import natural_readings

SLOW = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def scorer_premiums(hand: Hand) -> int | None:
    """MH-6/MH-7 premiums of the scorer's best reading, flowers not included."""
    result = score_hand(hand)
    if not result.wins:
        return None
    return result.total_premiums - len(hand.flowers)


@SLOW
@given(winning_hands(max_jokers=2))
def test_best_reading_equals_every_joker_as_every_card(hand: Hand) -> None:
    fixed, naturals, jokers = hand_parts(hand)
    assert scorer_premiums(hand) == brute_by_assignment(fixed, naturals, jokers)


@settings(SLOW, max_examples=15)
@given(winning_hands(max_jokers=3).filter(lambda h: h.hidden_jokers == 3))
def test_best_reading_with_three_jokers_equals_every_joker_as_every_card(hand: Hand) -> None:
    fixed, naturals, jokers = hand_parts(hand)
    assert scorer_premiums(hand) == brute_by_assignment(fixed, naturals, jokers)


@settings(SLOW, max_examples=40)
@given(winning_hands(max_jokers=6))
def test_best_reading_equals_every_reading_that_holds_the_natural_cards(hand: Hand) -> None:
    """Up to six jokers. Hands built from groups hold 8+ natural cards, at most one per group when
    they are 3 apart, so the exceptional hand (MH-7) never applies to them."""
    fixed, naturals, _ = hand_parts(hand)
    assert scorer_premiums(hand) == brute_by_cover(fixed, naturals)
    assert score_hand(hand).kind == "groups-and-pair"


@st.composite
def spread_hands(draw: st.DrawFn) -> tuple[list[str], int]:
    """Candidates for MH-7: cards of each suit mostly 3 apart, some honours, up to three jokers."""
    jokers = draw(st.integers(0, 3))
    cards: list[str] = []
    for suit in "bck":
        rank = draw(st.integers(1, 3))
        while rank <= 9 and draw(st.integers(0, 5)):
            cards.append(f"{suit}{rank}")
            rank += draw(st.sampled_from([3, 3, 3, 4, 2]))
    cards += draw(st.lists(st.sampled_from(KINDS[27:]), max_size=7, unique=True))
    cards = draw(st.permutations(cards))[: 14 - jokers]
    if len(cards) < 14 - jokers or any(n > 4 for n in Counter(cards).values()):
        cards = (cards + ["we", "ws", "ww", "wn", "dr", "dg", "dw", "b1", "b5", "b9", "c3", "c7"])[
            : 14 - jokers
        ]
    return cards, jokers


@settings(SLOW, max_examples=80)
@given(spread_hands())
def test_exceptional_hand_with_jokers_equals_every_joker_as_every_card(drawn: tuple[list[str], int]) -> None:
    """MH-7 (and MH-5 Decision: jokers may complete it): against the brute force."""
    cards, jokers = drawn
    hand = parse_hand(None, " ".join(cards + ["jk"] * jokers))
    assert scorer_premiums(hand) == brute_by_assignment([], cards, jokers)


@settings(SLOW, max_examples=60)
@given(st.lists(st.sampled_from(KINDS), min_size=14, max_size=14), st.integers(0, 2))
def test_random_hands_go_out_exactly_when_brute_force_finds_a_reading(cards: list[str], jokers: int) -> None:
    """Mostly hands that do not go out: both must agree there is no reading."""
    cards = cards[: 14 - jokers]
    if any(n > 4 for n in Counter(cards).values()):
        return
    hand = parse_hand(None, " ".join(cards + ["jk"] * jokers))
    assert scorer_premiums(hand) == brute_by_assignment([], cards, jokers)


@SLOW
@given(winning_hands(max_jokers=6))
def test_itemised_premiums_add_up_to_the_searched_count(hand: Hand) -> None:
    result = score_hand(hand)
    assert result.wins
    assert total(list(result.items)) == result.total_premiums
    if result.reading is not None:
        blocks_shown = tuple(g.block for g in result.groups)
        assert count_premiums(tuple(sorted(blocks_shown)), result.reading.pair) == result.reading.premiums
        named = [tuple(KINDS[k] for k in blocks.kinds_of(b)) for b in blocks_shown]
        assert reference_premiums(named, KINDS[result.reading.pair]) == result.reading.premiums  # type: ignore[arg-type]
        # The reading holds every card of the hand: naturals where they are, jokers elsewhere.
        body = result.to_json()
        shown = [c for c in body["reading"]["notation"].replace("|", " ").split()]
        physical = ["jk" if c.startswith("jk=") else c for c in shown]
        laid = [c for g in hand.groups for c in g.physical]
        assert Counter(physical) == Counter(laid) + Counter(hand.hidden)


def test_itemise_and_count_agree_on_every_pair_of_groups() -> None:
    """Deterministic sweep: random readings, the two premium counters and the reference agree."""
    rng = random.Random(20)
    for _ in range(3000):
        groups = tuple(sorted(rng.randrange(55) for _ in range(4)))
        pair = rng.randrange(34)
        counted = count_premiums(groups, pair)
        assert total(itemise(groups, pair)) == counted
        named = [tuple(KINDS[k] for k in blocks.kinds_of(b)) for b in groups]
        assert reference_premiums(named, KINDS[pair]) == counted  # type: ignore[arg-type]


# --- differential test against the mahjong package ---------------------------------------------

# Our kinds → the package's 34-tile indices: bamboo → sou, circles → pin, characters → man,
# winds east/south/west/north → its winds, dragons red/green/white → chun/hatsu/haku.
TO_34 = (
    [18 + r for r in range(9)]
    + [9 + r for r in range(9)]
    + [r for r in range(9)]
    + [27, 28, 29, 30, 33, 32, 31]
)
FROM_34 = {tile: kind for kind, tile in enumerate(TO_34)}


def package_readings(counts: list[int]) -> set[tuple[tuple[int, ...], int]]:
    tiles = [0] * 34
    for kind, n in enumerate(counts):
        tiles[TO_34[kind]] = n
    found = set()
    for division in HandDivider.divide_hand(tiles):
        if len(division) == 7:  # seven pairs: not a Mhing hand
            continue
        groups = []
        pair = -1
        for block in division:
            ours = sorted(FROM_34[t] for t in block)
            if len(ours) == 2:
                pair = ours[0]
            else:
                found_block = blocks.block_of(tuple(ours))
                assert found_block is not None
                groups.append(found_block)
        found.add((tuple(sorted(groups)), pair))
    return found


@st.composite
def joker_free_hands(draw: st.DrawFn) -> list[int]:
    """14 cards: half the time four groups and a pair (often several readings), else any cards."""
    counts = [0] * 34
    if draw(st.booleans()):
        for _ in range(4):
            for kind in blocks.kinds_of(draw(st.sampled_from(range(55)))):
                counts[kind] += 1
        counts[draw(st.integers(0, 33))] += 2
    else:
        kinds = draw(st.lists(st.integers(0, 26 if draw(st.booleans()) else 33), min_size=14, max_size=14))
        for kind in kinds:
            counts[kind] += 1
    if max(counts) > 4:
        return draw(joker_free_hands())
    return counts


@settings(max_examples=600, deadline=None)
@given(joker_free_hands())
def test_readings_equal_the_mahjong_package_divider(counts: list[int]) -> None:
    assert natural_readings((), tuple(counts)) == package_readings(counts)


def test_readings_equal_the_divider_on_ambiguous_one_suit_hands() -> None:
    """Exhaustive-ish: every one-suit hand built from two groups over the same ranks, plus a pair."""
    for a in range(16):
        for b in range(a, 16):
            for pair in range(9):
                counts = [0] * 34
                suit_groups = [g for g in ALL_GROUPS if g[0][0] == "c"]
                for group in (suit_groups[a], suit_groups[b], ("b1", "b2", "b3"), ("k9", "k9", "k9")):
                    for card in group:
                        counts[KINDS.index(card)] += 1
                counts[9 + pair] += 2
                if max(counts) > 4:
                    continue
                assert natural_readings((), tuple(counts)) == package_readings(counts)


def test_natural_counts_match_the_scorer_input() -> None:
    hand = parse_hand(None, "b1 b2 b3 c5 c5 c5 we we we dr dr dr k2 k2")
    assert sum(natural_counts(hand)) == 14

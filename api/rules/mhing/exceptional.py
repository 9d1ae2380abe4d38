"""MH-7 "nothing fits": 14 cards, no two identical, cards of one suit at least 3 apart.

3 premiums, or 8 when all seven honours are there once each (MH-7 Decision: the text's "all 8
honour cards" cannot be met, there are seven honour kinds). Jokers may complete the hand (MH-5
Decision): the referee places them on missing honours first (that is what can make 8), then on suit
cards that keep every suit's cards 3 apart. Only a hand with no laid-out group can be this hand: a
laid-out triplet or sequence always holds two cards fewer than 3 apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from api.rules.mhing.cards import FIRST_WIND, KIND_COUNT, SUIT_KINDS

HAND_SIZE = 14


def _spread(mask: int) -> bool:
    """Every two ranks in the mask (bit r−1 for rank r) at least 3 apart."""
    ranks = [r for r in range(9) if mask >> r & 1]
    return all(b - a >= 3 for a, b in zip(ranks, ranks[1:], strict=False))


_VALID_SETS = [m for m in range(1 << 9) if _spread(m)]


def _widest(mask: int) -> int:
    """The largest valid rank set containing `mask` (the mask itself must be valid)."""
    best = mask
    for candidate in _VALID_SETS:
        if candidate & mask == mask and candidate.bit_count() > best.bit_count():
            best = candidate
    return best


class NothingFits(NamedTuple):
    premiums: int  # 3 or 8, flowers not included
    all_honours: bool
    jokers_as: tuple[int, ...]  # the kinds the hidden jokers stand for


def nothing_fits(counts: Sequence[int], jokers: int) -> NothingFits | None:
    """The MH-7 reading of 14 hidden cards (natural kind counts plus jokers), if there is one."""
    if max(counts) > 1 or sum(counts) + jokers != HAND_SIZE:
        return None
    masks = []
    for suit in range(3):
        mask = sum(1 << r for r in range(9) if counts[suit * 9 + r])
        if not _spread(mask):
            return None
        masks.append(mask)
    missing = [k for k in range(FIRST_WIND, KIND_COUNT) if not counts[k]]
    room = []  # suit kinds a joker can still stand for, keeping every suit 3 apart
    for suit, mask in enumerate(masks):
        extra = _widest(mask) & ~mask
        room += [suit * 9 + r for r in range(9) if extra >> r & 1]
    if jokers > len(missing) + len(room):
        return None
    as_honours = missing[:jokers]
    as_suits = room[: jokers - len(as_honours)]
    all_honours = len(as_honours) == len(missing)
    assert all(k < SUIT_KINDS for k in as_suits)
    return NothingFits(8 if all_honours else 3, all_honours, tuple(as_honours + as_suits))

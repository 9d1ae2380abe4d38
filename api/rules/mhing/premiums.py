"""MH-6 premiums of one reading, the MH-7 exceptional hand, and the MH-8 points table.

A *reading* is four groups (block ids, see `blocks`) and a pair kind; jokers are already the cards
they stand for. `count_premiums` is the fast count the search maximises; `itemise` explains the
same count line by line for the chosen reading (tests check that the two always agree).

How the referee applies the lines of MH-6 (all cite MH-6 unless noted):

* Pairs of groups count for every unordered pair (MH-6 Decision): four identical sequences are six
  pairs → 18; three 2-3-4 in three suits → 3.
* "Two sequences of the same numbers": same starting rank; 3 in the same suit, 1 in different suits.
* "Two triplets of the same number": two *suit* triplets of equal rank, in any suits (with jokers
  even in the same suit). Honour cards have no number, so honour triplets never form this premium;
  each earns its own "triplet of honour cards" instead.
* "A pair of 2s, 5s or 8s": the pair of the reading only, of any suit.
* Straights are made of distinct groups of one suit, each group in at most one straight: a full
  straight needs 1-2-3, 4-5-6 and 7-8-9 (4 groups hold at most one); a broken straight is a 1-2-3
  with a 7-8-9 of a suit that has no 4-5-6, so 1-2-3, 1-2-3, 7-8-9 is one broken straight and
  1-2-3, 7-8-9 in two suits are two.
* Whole-hand lines look at all 14 cards — laid-out groups, hidden groups and the pair, jokers as
  the cards they stand for, flowers aside: "only two suits" means suit cards of exactly two suits;
  "only one suit, with honours" needs suit cards of exactly one suit and at least one honour (a hand
  of honours alone has no suit and earns neither one-suit line); "all three suits, winds and
  dragons" needs a card of each suit, a wind and a dragon; "only suit cards 5–9" / "1–5" forbid
  honours; "only sequences" / "only triplets" are about the four groups (the pair is neither);
  "three dragon triplets" needs a triplet of each of the red, green and white dragon.
* MH-7: none of the whole-hand lines applies to the exceptional hand (MH-7 Decision); flowers do.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from api.rules.mhing import blocks
from api.rules.mhing.cards import (
    FIRST_DRAGON,
    KIND_COUNT,
    is_suit,
    rank_of,
    suit_of,
)

MH6 = "MH-6"
MH7 = "MH-7"

# code → (name, rule, premiums per occurrence)
LINES: dict[str, tuple[str, str, int]] = {
    "flower": ("Flower", MH6, 1),
    "same-sequences-same-suit": ("Two sequences of the same numbers, same suit", MH6, 3),
    "same-sequences-different-suits": ("Two sequences of the same numbers, different suits", MH6, 1),
    "same-number-triplets": ("Two triplets of the same number", MH6, 1),
    "honour-triplet": ("Triplet of honour cards", MH6, 1),
    "pair-2-5-8": ("Pair of 2s, 5s or 8s", MH6, 1),
    "full-straight": ("Full straight 1-2-3, 4-5-6, 7-8-9 in one suit", MH6, 3),
    "broken-straight": ("Broken straight 1-2-3 and 7-8-9 in one suit, no 4-5-6", MH6, 1),
    "only-sequences": ("Only sequences", MH6, 1),
    "two-suits-no-honours": ("Only two suits, no honours", MH6, 1),
    "one-suit-with-honours": ("Only one suit, with honours", MH6, 3),
    "one-suit-no-honours": ("Only one suit, no honours", MH6, 8),
    "all-suits-winds-dragons": ("All three suits, winds and dragons", MH6, 5),
    "only-5-to-9": ("Only suit cards 5–9", MH6, 5),
    "only-1-to-5": ("Only suit cards 1–5", MH6, 5),
    "only-triplets": ("Only triplets", MH6, 3),
    "three-dragon-triplets": ("Three dragon triplets", MH6, 5),
    "nothing-fits": ("Nothing fits", MH7, 3),
    "nothing-fits-all-honours": ("Nothing fits, with every honour once", MH7, 8),
}

DRAGON_TRIPLETS = frozenset(blocks.triplet(k) for k in range(FIRST_DRAGON, KIND_COUNT))
_WIND, _DRAGON = 1, 2


def points(premiums: int) -> int:
    """MH-8: 0 → 0; 1–5 → 2, 4, 8, 16, 32; then every third premium doubles: 2^(5 + ⌊(n − 5) / 3⌋)."""
    if premiums <= 0:
        return 0
    doublings = premiums if premiums <= 5 else 5 + (premiums - 5) // 3
    return 1 << doublings


# Per kind: suit bit (1, 2, 4; 0 for honours), honour class, rank (0 for honours).
def _kind_facts(kind: int) -> tuple[int, int, int]:
    if is_suit(kind):
        return 1 << suit_of(kind), 0, rank_of(kind)
    return 0, _WIND if kind < FIRST_DRAGON else _DRAGON, 0


_KIND = [_kind_facts(k) for k in range(KIND_COUNT)]


def _group_facts(block: int) -> tuple[int, int, int, int]:
    """(suit bit, honour class, lowest rank, highest rank) of a group."""
    kinds = blocks.kinds_of(block)
    bit, honour, low = _KIND[kinds[0]]
    return bit, honour, low, _KIND[kinds[2]][2]


_GROUP = [_group_facts(b) for b in blocks.GROUP_IDS]
_SEQ = [blocks.is_sequence(b) for b in blocks.GROUP_IDS]


# Tables for the fast count. A card set's *mask*: bits 0–2 its suits, bit 3 a wind, bit 4 a dragon,
# bit 5 "every suit card 5 or more", bit 6 "every suit card 5 or less".
_HIGH, _LOW = 1 << 5, 1 << 6


def _mask(kinds: tuple[int, ...]) -> int:
    mask = _HIGH | _LOW
    for kind in kinds:
        bit, honour, rank = _KIND[kind]
        mask |= bit | honour << 3
        if bit and rank < 5:
            mask &= ~_HIGH
        if bit and rank > 5:
            mask &= ~_LOW
    return mask


def _whole_hand(mask: int) -> int:
    """The whole-hand premiums that depend on which cards are in the hand (not on the groups)."""
    suits = bin(mask & 7).count("1")
    winds, dragons = bool(mask & 8), bool(mask & 16)
    honours = winds or dragons
    total = 0
    if not honours:
        total += {1: 8, 2: 1}.get(suits, 0)
        total += 5 if mask & _HIGH else 0
        total += 5 if mask & _LOW else 0
    elif suits == 1:
        total += 3
    elif suits == 3 and winds and dragons:
        total += 5
    return total


def _pair_premium(a: int, b: int) -> int:
    """Premiums two groups earn together: same sequences, or suit triplets of one number."""
    (bit_a, _, low_a, _), (bit_b, _, low_b, _) = _GROUP[a], _GROUP[b]
    if _SEQ[a] and _SEQ[b] and low_a == low_b:
        return 3 if bit_a == bit_b else 1
    if not _SEQ[a] and not _SEQ[b] and bit_a and bit_b and low_a == low_b:
        return 1
    return 0


_GROUP_COUNT = len(_GROUP)
_PAIRS = [_pair_premium(a, b) for a in blocks.GROUP_IDS for b in blocks.GROUP_IDS]
_GROUP_MASK = [_mask(blocks.kinds_of(b)) for b in blocks.GROUP_IDS]
_PAIR_MASK = [_mask((k, k)) for k in range(KIND_COUNT)]
_HONOUR_TRIPLET = [0 if _SEQ[b] or _GROUP[b][0] else 1 for b in blocks.GROUP_IDS]
_PAIR_258 = [1 if _KIND[k][0] and _KIND[k][2] in (2, 5, 8) else 0 for k in range(KIND_COUNT)]
_WHOLE = [_whole_hand(m) for m in range(1 << 7)]
_DRAGON_BIT = [1 << (b - FIRST_DRAGON) if b in DRAGON_TRIPLETS else 0 for b in blocks.GROUP_IDS]
# Straight parts: suit · 3 + (0: 1-2-3, 1: 4-5-6, 2: 7-8-9), or -1.
_STRAIGHT = [
    (b - 34) // 7 * 3 + _GROUP[b][2] // 3 if _SEQ[b] and _GROUP[b][2] in (1, 4, 7) else -1
    for b in blocks.GROUP_IDS
]


@lru_cache(maxsize=1 << 17)
def count_premiums(groups: tuple[int, ...], pair: int) -> int:
    """MH-6 premiums of a reading without flowers: four groups (sorted, the cache key) and a pair."""
    a, b, c, d = groups
    n = _GROUP_COUNT
    pairs = _PAIRS
    total = (
        pairs[a * n + b]
        + pairs[a * n + c]
        + pairs[a * n + d]
        + pairs[b * n + c]
        + pairs[b * n + d]
        + pairs[c * n + d]
    )
    honour = _HONOUR_TRIPLET
    total += honour[a] + honour[b] + honour[c] + honour[d] + _PAIR_258[pair]
    masks = _GROUP_MASK
    mask = masks[a] & masks[b] & masks[c] & masks[d] & _PAIR_MASK[pair] & (_HIGH | _LOW)
    mask |= (masks[a] | masks[b] | masks[c] | masks[d] | _PAIR_MASK[pair]) & 31
    total += _WHOLE[mask]
    seq = _SEQ
    sequences = seq[a] + seq[b] + seq[c] + seq[d]
    if sequences == 4:
        total += 1
    elif sequences == 0:
        total += 3
        dragons = _DRAGON_BIT
        if dragons[a] | dragons[b] | dragons[c] | dragons[d] == 7:
            total += 5
    elif sequences == 1:
        dragons = _DRAGON_BIT
        if dragons[a] | dragons[b] | dragons[c] | dragons[d] == 7:
            total += 5
    if sequences >= 2:
        straight = _STRAIGHT
        slots = [x for x in (straight[a], straight[b], straight[c], straight[d]) if x >= 0]
        if len(slots) >= 2:
            for first in (0, 3, 6):
                ones, fours, sevens = slots.count(first), slots.count(first + 1), slots.count(first + 2)
                if fours:
                    if ones and sevens:
                        total += 3
                elif ones and sevens:
                    total += min(ones, sevens)
    return total


class Premium(NamedTuple):
    """One line of MH-6/MH-7 as earned by a hand.

    `groups` are indices into the reading's groups (laid-out first); `pair` says the pair is part of
    it; `occurrences` lists the groups of each time a line about groups occurs (pairs of sequences,
    …); flowers list their `cards`.
    """

    code: str
    times: int  # how often it occurs ("count" in JSON)
    groups: tuple[int, ...] = ()
    pair: bool = False
    occurrences: tuple[tuple[int, ...], ...] = ()
    cards: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return LINES[self.code][0]

    @property
    def rule(self) -> str:
        return LINES[self.code][1]

    @property
    def value(self) -> int:
        return LINES[self.code][2]

    @property
    def premiums(self) -> int:
        return self.value * self.times


def _line(code: str, occurrences: Sequence[tuple[int, ...]], pair: bool = False) -> list[Premium]:
    if not occurrences:
        return []
    used = tuple(sorted({i for occ in occurrences for i in occ}))
    return [Premium(code, len(occurrences), used, pair, tuple(occurrences))]


def itemise(groups: tuple[int, ...], pair: int, flowers: tuple[str, ...] = ()) -> list[Premium]:
    """Every premium of a four-groups-and-a-pair reading, line by line (groups in display order)."""
    items: list[Premium] = []
    if flowers:
        items.append(Premium("flower", len(flowers), cards=flowers))
    facts = [_GROUP[b] for b in groups]
    seqs = [i for i, b in enumerate(groups) if _SEQ[b]]
    trips = [i for i, b in enumerate(groups) if not _SEQ[b]]
    same_suit: list[tuple[int, ...]] = []
    other_suits: list[tuple[int, ...]] = []
    for x, i in enumerate(seqs):
        for j in seqs[x + 1 :]:
            if facts[i][2] == facts[j][2]:
                (same_suit if facts[i][0] == facts[j][0] else other_suits).append((i, j))
    items += _line("same-sequences-same-suit", same_suit)
    items += _line("same-sequences-different-suits", other_suits)
    suit_trips = [i for i in trips if facts[i][0]]
    same_number = [
        (i, j) for x, i in enumerate(suit_trips) for j in suit_trips[x + 1 :] if facts[i][2] == facts[j][2]
    ]
    items += _line("same-number-triplets", same_number)
    items += _line("honour-triplet", [(i,) for i in trips if not facts[i][0]])
    pair_bit, pair_honour, pair_rank = _KIND[pair]
    if pair_rank in (2, 5, 8):
        items.append(Premium("pair-2-5-8", 1, (), True))
    full: list[tuple[int, ...]] = []
    broken: list[tuple[int, ...]] = []
    for bit in (1, 2, 4):
        parts: dict[int, list[int]] = {1: [], 4: [], 7: []}
        for i in seqs:
            if facts[i][0] == bit and facts[i][2] in parts:
                parts[facts[i][2]].append(i)
        if parts[4]:
            if parts[1] and parts[7]:
                full.append((parts[1][0], parts[4][0], parts[7][0]))
        else:
            broken += [tuple(sorted(p)) for p in zip(parts[1], parts[7], strict=False)]
    items += _line("full-straight", full)
    items += _line("broken-straight", broken)
    everything = [tuple(range(len(groups)))]
    suits = pair_bit
    honours = pair_honour
    low = pair_rank if pair_bit else 9
    high = pair_rank if pair_bit else 1
    for bit, honour, lo, hi in facts:
        suits |= bit
        honours |= honour
        if bit:
            low, high = min(low, lo), max(high, hi)
    suit_count = bin(suits).count("1")
    if not seqs or not trips:
        items += _line("only-triplets" if not seqs else "only-sequences", everything)
    if not honours and suit_count == 2:
        items += _line("two-suits-no-honours", everything, True)
    if honours and suit_count == 1:
        items += _line("one-suit-with-honours", everything, True)
    if not honours and suit_count == 1:
        items += _line("one-suit-no-honours", everything, True)
    if suit_count == 3 and honours == _WIND | _DRAGON:
        items += _line("all-suits-winds-dragons", everything, True)
    if not honours and low >= 5:
        items += _line("only-5-to-9", everything, True)
    if not honours and high <= 5:
        items += _line("only-1-to-5", everything, True)
    dragon_groups = [i for i, b in enumerate(groups) if b in DRAGON_TRIPLETS]
    if {groups[i] for i in dragon_groups} == DRAGON_TRIPLETS:
        firsts = sorted({groups[i]: i for i in reversed(dragon_groups)}.values())
        items += _line("three-dragon-triplets", [tuple(firsts)])
    return items


def total(items: list[Premium]) -> int:
    return sum(p.premiums for p in items)

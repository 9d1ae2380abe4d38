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
from itertools import combinations
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

# Each line's premiums, from LINES: the fast count below reads its values here (one source).
VALUE = {code: value for code, (_name, _rule, value) in LINES.items()}

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
        total += {1: VALUE["one-suit-no-honours"], 2: VALUE["two-suits-no-honours"]}.get(suits, 0)
        total += VALUE["only-5-to-9"] if mask & _HIGH else 0
        total += VALUE["only-1-to-5"] if mask & _LOW else 0
    elif suits == 1:
        total += VALUE["one-suit-with-honours"]
    elif suits == 3 and winds and dragons:
        total += VALUE["all-suits-winds-dragons"]
    return total


# The lines two groups make together (same sequences, or suit triplets of one number), in the order
# `itemise` lists them; `_pair_line` gives 0 for none, else 1 + the line's place here.
_PAIR_CODES = ("same-sequences-same-suit", "same-sequences-different-suits", "same-number-triplets")


def _pair_line(a: int, b: int) -> int:
    (bit_a, _, low_a, _), (bit_b, _, low_b, _) = _GROUP[a], _GROUP[b]
    if _SEQ[a] and _SEQ[b] and low_a == low_b:
        return 1 if bit_a == bit_b else 2
    if not _SEQ[a] and not _SEQ[b] and bit_a and bit_b and low_a == low_b:
        return 3
    return 0


# By block ids [a][b]: the line of the two groups, and the premiums they earn together.
_PAIR_LINES = [[_pair_line(a, b) for b in blocks.GROUP_IDS] for a in blocks.GROUP_IDS]
_PAIRS = [[0 if line == 0 else LINES[_PAIR_CODES[line - 1]][2] for line in row] for row in _PAIR_LINES]
_GROUP_MASK = [_mask(blocks.kinds_of(b)) for b in blocks.GROUP_IDS]
_PAIR_MASK = [_mask((k, k)) for k in range(KIND_COUNT)]
_HONOUR_TRIPLET = [0 if _SEQ[b] or _GROUP[b][0] else VALUE["honour-triplet"] for b in blocks.GROUP_IDS]
_PAIR_258 = [
    VALUE["pair-2-5-8"] if _KIND[k][0] and _KIND[k][2] in (2, 5, 8) else 0 for k in range(KIND_COUNT)
]
_DRAGON_BIT = [1 << (b - FIRST_DRAGON) if b in DRAGON_TRIPLETS else 0 for b in blocks.GROUP_IDS]
# Straight parts: suit · 3 + (0: 1-2-3, 1: 4-5-6, 2: 7-8-9), or -1.
_STRAIGHT = [
    (b - 34) // 7 * 3 + _GROUP[b][2] // 3 if _SEQ[b] and _GROUP[b][2] in (1, 4, 7) else -1
    for b in blocks.GROUP_IDS
]

# A group's *line mask*: its card-set mask (`_mask`, bits 0–6), then bit 7 "is a sequence", bit 8
# "is a triplet", bit 9 "is an honour triplet", bits 10–12 "is the red / green / white dragon
# triplet", bits 13–15 "is the 1-2-3 of suit 0 / 1 / 2", bits 16–18 "is the 7-8-9 of suit 0 / 1 / 2"
# (no straight without both). A reading's line mask has the "every suit card 5 or more / 5 or less"
# bits of all its groups and its pair, every other bit of any of them.
_HAS_SEQUENCE, _HAS_TRIPLET, _HAS_HONOUR_TRIPLET = 1 << 7, 1 << 8, 1 << 9
_DRAGON_SHIFT, _ONE_TWO_THREE_SHIFT, _SEVEN_EIGHT_NINE_SHIFT = 10, 13, 16
_HAS_DRAGONS = 7 << _DRAGON_SHIFT
_EVERY = _HIGH | _LOW
_ANY = ~_EVERY


def _straight_bits(block: int) -> int:
    part = _STRAIGHT[block]
    if part < 0 or part % 3 == 1:
        return 0
    return 1 << (_ONE_TWO_THREE_SHIFT if part % 3 == 0 else _SEVEN_EIGHT_NINE_SHIFT) + part // 3


_LINE_MASK = [
    _GROUP_MASK[b]
    | (_HAS_SEQUENCE if _SEQ[b] else _HAS_TRIPLET)
    | (_HAS_HONOUR_TRIPLET if _HONOUR_TRIPLET[b] else 0)
    | _DRAGON_BIT[b] << _DRAGON_SHIFT
    | _straight_bits(b)
    for b in blocks.GROUP_IDS
]

# A reading's premiums that depend on its line mask alone: the card-set lines (`_whole_hand`), "only
# sequences" / "only triplets", three dragon triplets; by the line mask's bits 0–12.
_MASK_BITS = (1 << _ONE_TWO_THREE_SHIFT) - 1


def _mask_premiums(mask: int) -> int:
    total = _whole_hand(mask & 127)
    if not mask & _HAS_TRIPLET:
        total += VALUE["only-sequences"]
    if not mask & _HAS_SEQUENCE:
        total += VALUE["only-triplets"]
    if mask & _HAS_DRAGONS == _HAS_DRAGONS:
        total += VALUE["three-dragon-triplets"]
    return total


_BY_MASK = [_mask_premiums(m) for m in range(1 << _ONE_TWO_THREE_SHIFT)]


def _straight_premiums(slots: list[int]) -> int:
    """Full and broken straights of the straight parts `slots` (`_STRAIGHT`) of a reading."""
    total = 0
    for first in (0, 3, 6):
        ones, fours, sevens = slots.count(first), slots.count(first + 1), slots.count(first + 2)
        if fours:
            if ones and sevens:
                total += VALUE["full-straight"]
        elif ones and sevens:
            total += min(ones, sevens) * VALUE["broken-straight"]
    return total


def count_premiums_uncached(groups: tuple[int, ...], pair: int) -> int:
    """MH-6 premiums of a reading without flowers: four groups (sorted) and a pair."""
    a, b, c, d = groups
    pairs = _PAIRS
    row_a, row_b = pairs[a], pairs[b]
    honour = _HONOUR_TRIPLET
    total = (
        row_a[b]
        + row_a[c]
        + row_a[d]
        + row_b[c]
        + row_b[d]
        + pairs[c][d]
        + honour[a]
        + honour[b]
        + honour[c]
        + honour[d]
        + _PAIR_258[pair]
    )
    masks = _LINE_MASK
    mask_a, mask_b, mask_c, mask_d, mask_pair = masks[a], masks[b], masks[c], masks[d], _PAIR_MASK[pair]
    some = mask_a | mask_b | mask_c | mask_d | mask_pair
    every = mask_a & mask_b & mask_c & mask_d & mask_pair
    total += _BY_MASK[(every & _EVERY | some & _ANY) & _MASK_BITS]
    if some >> _ONE_TWO_THREE_SHIFT & some >> _SEVEN_EIGHT_NINE_SHIFT & 7:  # else no straight
        straight = _STRAIGHT
        total += _straight_premiums(
            [x for x in (straight[a], straight[b], straight[c], straight[d]) if x >= 0]
        )
    return total


# The search's count, memoised on (four groups sorted, pair): joker searches try the same readings
# again and again. A joker-free hand has few readings and shares none with another hand (without
# laid-out groups the reading determines the cards), so `_natural_reading` counts without the cache.
count_premiums = lru_cache(maxsize=1 << 17)(count_premiums_uncached)


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


# `itemise` must explain exactly what `count_premiums` counts: both work from the same per-group
# tables above (line masks, pair lines), and the tests check that the two always agree.
_PAIR_258_ITEM = Premium("pair-2-5-8", 1, (), True)


def _whole_lines(mask: int, size: int) -> tuple[Premium, ...]:
    """The whole-hand lines of a reading of `size` groups with line mask `mask`, in listing order."""
    everything = [tuple(range(size))]
    suit_count = bin(mask & 7).count("1")
    honours = mask >> 3 & 3
    items: list[Premium] = []
    if not mask & _HAS_SEQUENCE or not mask & _HAS_TRIPLET:
        items += _line("only-triplets" if not mask & _HAS_SEQUENCE else "only-sequences", everything)
    if not honours and suit_count == 2:
        items += _line("two-suits-no-honours", everything, True)
    if honours and suit_count == 1:
        items += _line("one-suit-with-honours", everything, True)
    if not honours and suit_count == 1:
        items += _line("one-suit-no-honours", everything, True)
    if suit_count == 3 and honours == _WIND | _DRAGON:
        items += _line("all-suits-winds-dragons", everything, True)
    if not honours and mask & _HIGH:
        items += _line("only-5-to-9", everything, True)
    if not honours and mask & _LOW:
        items += _line("only-1-to-5", everything, True)
    return tuple(items)


# Whole-hand lines of four groups (every reading), by the bits of the line mask they depend on.
_WHOLE_BITS = (1 << 9) - 1
_WHOLE_LINES = [_whole_lines(m, 4) for m in range(1 << 9)]


def _pair_lines(groups: tuple[int, ...]) -> list[Premium]:
    """Lines of two groups: each pair of indices i < j in order, sorted into their lines."""
    lines = _PAIR_LINES
    found = [
        (kind, i, j) for i, j in combinations(range(len(groups)), 2) if (kind := lines[groups[i]][groups[j]])
    ]
    items: list[Premium] = []
    for kind, code in enumerate(_PAIR_CODES, 1):
        occurrences = [(i, j) for k, i, j in found if k == kind]
        if occurrences:
            items += _line(code, occurrences)
    return items


def _straights(groups: tuple[int, ...]) -> list[Premium]:
    """Full and broken straights of each suit in turn."""
    straight = _STRAIGHT
    slots = [i for i, b in enumerate(groups) if straight[b] >= 0]
    full: list[tuple[int, ...]] = []
    broken: list[tuple[int, ...]] = []
    for first in (0, 3, 6):
        ones = [i for i in slots if straight[groups[i]] == first]
        fours = [i for i in slots if straight[groups[i]] == first + 1]
        sevens = [i for i in slots if straight[groups[i]] == first + 2]
        if fours:
            if ones and sevens:
                full.append((ones[0], fours[0], sevens[0]))
        else:
            broken += [tuple(sorted(p)) for p in zip(ones, sevens, strict=False)]
    return _line("full-straight", full) + _line("broken-straight", broken)


def _dragon_line(groups: tuple[int, ...]) -> list[Premium]:
    dragon_groups = [i for i, b in enumerate(groups) if b in DRAGON_TRIPLETS]
    if {groups[i] for i in dragon_groups} != DRAGON_TRIPLETS:
        return []
    firsts = sorted({groups[i]: i for i in reversed(dragon_groups)}.values())
    return _line("three-dragon-triplets", [tuple(firsts)])


def itemise(groups: tuple[int, ...], pair: int, flowers: tuple[str, ...] = ()) -> list[Premium]:
    """Every premium of a four-groups-and-a-pair reading, line by line (groups in display order).

    The line masks say which lines can occur at all; only those are looked at group by group. A
    straight needs a 1-2-3 and a 7-8-9 of one suit (a full one a 4-5-6 as well)."""
    items: list[Premium] = [Premium("flower", len(flowers), cards=flowers)] if flowers else []
    masks = _LINE_MASK
    every = some = _PAIR_MASK[pair]
    if len(groups) == 4:
        a, b, c, d = groups
        mask_a, mask_b, mask_c, mask_d = masks[a], masks[b], masks[c], masks[d]
        every &= mask_a & mask_b & mask_c & mask_d
        some |= mask_a | mask_b | mask_c | mask_d
        lines = _PAIR_LINES
        row_a, row_b = lines[a], lines[b]
        if row_a[b] or row_a[c] or row_a[d] or row_b[c] or row_b[d] or lines[c][d]:
            items += _pair_lines(groups)
        whole = _WHOLE_LINES[(every & _EVERY | some & _ANY) & _WHOLE_BITS]
    else:
        for g in groups:
            every &= masks[g]
            some |= masks[g]
        items += _pair_lines(groups)
        whole = _whole_lines(every & _EVERY | some & _ANY, len(groups))
    if some & _HAS_HONOUR_TRIPLET:
        honour = _HONOUR_TRIPLET
        items += _line("honour-triplet", [(i,) for i, g in enumerate(groups) if honour[g]])
    if _PAIR_258[pair]:
        items.append(_PAIR_258_ITEM)
    if some >> _ONE_TWO_THREE_SHIFT & some >> _SEVEN_EIGHT_NINE_SHIFT & 7:
        items += _straights(groups)
    items += whole
    if some & _HAS_DRAGONS == _HAS_DRAGONS:
        items += _dragon_line(groups)
    return items


def total(items: list[Premium]) -> int:
    return sum(p.premiums for p in items)

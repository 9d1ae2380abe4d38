"""The best reading of a hand into four groups and a pair, jokers chosen to score best (MH-5, MH-6).

How the search stays small:

* The hidden natural cards are cut into *segments* — each suit, each honour kind — because a group
  or pair never spans two segments. Each segment is decomposed on its own into blocks that hold at
  least one of its natural cards, jokers filling the gaps, and that decomposition is memoised on
  (segment, card counts, jokers allowed): the same suit pattern recurs across hands and waits.
* Jokers not used inside those blocks form *free* blocks (all jokers: at most two groups, or a group
  and the pair). A free block may be any group or pair, but only a few can score differently, so
  only those are tried; every other choice is matched or beaten by one of them:
  - a free pair: b5, c5, k5 (a 5 is a 2-5-8 pair and fits both "5–9" and "1–5"), a wind, a dragon;
  - a free triplet: a 5 of each suit, or of a rank another triplet has (same-number premium);
    one wind (winds are interchangeable), each dragon (three dragon triplets);
  - a free sequence: 1-2-3, 4-5-6, 7-8-9 of each suit (straights; 1-2-3 and 7-8-9 also keep
    "1–5" and "5–9"), or of a start another sequence has (same-sequence premiums).
  A 2-3-4 that matches nothing is beaten by the 1-2-3 of its suit: adding a 1-2-3 or 7-8-9 never
  costs a premium (only a 4-5-6 can spoil a broken straight, and 4-5-6 is always tried).
* Premiums of a reading are memoised for the joker search (`premiums.count_premiums`), and so is
  the whole search per canonical hand (laid-out groups, natural counts, jokers). A joker-free hand
  counts its few readings without that memo: no other hand has the same ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import product
from typing import NamedTuple

from api.rules.mhing import blocks
from api.rules.mhing.cards import FIRST_DRAGON, FIRST_WIND, KIND_COUNT, SUIT_KINDS, rank_of
from api.rules.mhing.premiums import count_premiums, count_premiums_uncached

GROUPS_IN_HAND = 4

# (jokers used, pair kind or -1, groups sorted)
Option = tuple[int, int, tuple[int, ...]]

FREE_PAIRS = (4, 13, 22, FIRST_WIND, FIRST_DRAGON)  # b5, c5, k5, east wind, red dragon
_HONOUR_TRIPLETS = (FIRST_WIND, FIRST_DRAGON, FIRST_DRAGON + 1, FIRST_DRAGON + 2)


class Reading(NamedTuple):
    """Four groups and a pair: `groups` are the groups read from the hidden cards (sorted block ids)."""

    premiums: int  # MH-6 premiums, flowers not included
    groups: tuple[int, ...]
    pair: int


def _decompose(counts: list[int], base: int, sequences: bool, jokers: int) -> tuple[Option, ...]:
    """Every way to cover the natural cards of one segment with groups and at most one pair, each
    holding at least one natural card, using at most `jokers` jokers.

    The lowest natural card left goes into a triplet, the pair, or a sequence (whose ranks below it
    are jokers); every other card of that block is a natural one whenever one is left, a joker
    otherwise. Taking naturals greedily loses no reading's score: in any reading, the block holding
    the lowest natural can take the naturals it has room for and the rest of the reading still
    covers what is left; blocks that end up with no natural card are free blocks (`_free_groups`).
    """
    found: set[Option] = set()
    groups: list[int] = []
    size = len(counts)
    suit = base // 9

    def walk(i: int, used: int, pair: int) -> None:
        while i < size and counts[i] == 0:
            i += 1
        if i == size:
            found.add((used, pair, tuple(sorted(groups))))
            return
        here = counts[i]
        free = jokers - used
        kind = base + i
        naturals = 3 if here > 3 else here  # triplet
        if 3 - naturals <= free:
            counts[i] -= naturals
            groups.append(kind)
            walk(i, used + 3 - naturals, pair)
            groups.pop()
            counts[i] += naturals
        if pair < 0:
            naturals = 2 if here > 2 else here
            if 2 - naturals <= free:
                counts[i] -= naturals
                walk(i, used + 2 - naturals, kind)
                counts[i] += naturals
        if not sequences:
            return
        # Sequences in which rank i is the lowest natural card: the ranks below it are jokers.
        for start in (i - 2, i - 1, i):
            if start < 0 or start > 6:
                continue
            took = []
            need = i - start
            for p in range(i + 1, start + 3):
                if counts[p]:
                    took.append(p)
                else:
                    need += 1
            if need > free:
                continue
            counts[i] -= 1
            for p in took:
                counts[p] -= 1
            groups.append(blocks.sequence(suit, start + 1))
            walk(i, used + need, pair)
            groups.pop()
            for p in took:
                counts[p] += 1
            counts[i] += 1

    walk(0, 0, -1)
    return tuple(sorted(found))


def _decompose_natural(counts: list[int], suit: int) -> tuple[Option, ...]:
    """`_decompose` without jokers: the lowest card is in a triplet, the pair or a sequence it starts."""
    found: set[Option] = set()
    groups: list[int] = []

    def walk(i: int, pair: int) -> None:
        while i < 9 and counts[i] == 0:
            i += 1
        if i == 9:
            found.add((0, pair, tuple(sorted(groups))))
            return
        here = counts[i]
        if here >= 3:
            counts[i] -= 3
            groups.append(suit * 9 + i)
            walk(i, pair)
            groups.pop()
            counts[i] += 3
        if here >= 2 and pair < 0:
            counts[i] -= 2
            walk(i, suit * 9 + i)
            counts[i] += 2
        if i < 7 and counts[i + 1] and counts[i + 2]:
            counts[i] -= 1
            counts[i + 1] -= 1
            counts[i + 2] -= 1
            groups.append(blocks.sequence(suit, i + 1))
            walk(i, pair)
            groups.pop()
            counts[i] += 1
            counts[i + 1] += 1
            counts[i + 2] += 1

    if sum(counts) % 3 != 1:
        walk(0, -1)
    return tuple(sorted(found))


@lru_cache(maxsize=1 << 15)
def suit_options(suit: int, counts: tuple[int, ...], jokers: int) -> tuple[Option, ...]:
    if jokers == 0:
        return _decompose_natural(list(counts), suit)
    return _decompose(list(counts), suit * 9, True, jokers)


@lru_cache(maxsize=1 << 10)
def honour_options(kind: int, count: int, jokers: int) -> tuple[Option, ...]:
    return _decompose([count], kind, False, jokers)


def _free_groups(existing: Sequence[int]) -> tuple[int, ...]:
    """The groups worth trying for an all-joker group next to `existing` (see the module doc)."""
    starts = {1, 4, 7}
    ranks = {5}
    for b in existing:
        if blocks.is_sequence(b):
            starts.add(blocks.sequence_start(b))
        elif b < SUIT_KINDS:
            ranks.add(rank_of(b))
    found = [blocks.sequence(s, r) for s in range(3) for r in sorted(starts)]
    found += [blocks.triplet(s * 9 + r - 1) for s in range(3) for r in sorted(ranks)]
    return tuple(found) + _HONOUR_TRIPLETS


def _best_free(base: list[int], free_groups: int, pair: int) -> tuple[int, tuple[int, ...], int]:
    """Best (premiums, all four groups sorted, pair) when the jokers left make free blocks."""
    pairs = FREE_PAIRS if pair < 0 else (pair,)
    best: tuple[int, tuple[int, ...], int] = (-1, (), -1)
    if free_groups == 0:
        key = tuple(sorted(base))
        for p in pairs:
            score = count_premiums(key, p)
            if score > best[0]:
                best = (score, key, p)
        return best
    candidates = _free_groups(base)
    if free_groups == 1:
        for g in candidates:
            key = tuple(sorted([*base, g]))
            for p in pairs:
                score = count_premiums(key, p)
                if score > best[0]:
                    best = (score, key, p)
        return best
    if free_groups == 2:
        for x, g in enumerate(candidates):
            for h in candidates[x:]:
                key = tuple(sorted([*base, g, h]))
                for p in pairs:
                    score = count_premiums(key, p)
                    if score > best[0]:
                        best = (score, key, p)
        return best
    # Three or four free groups would need 9+ jokers: MH-1 has six.
    raise AssertionError("at most two all-joker groups")


@lru_cache(maxsize=1 << 12)
def best_reading(fixed: tuple[int, ...], counts: tuple[int, ...], jokers: int) -> Reading | None:
    """The best reading of hidden natural cards `counts` (per kind) plus `jokers`, next to the
    laid-out groups `fixed` (sorted block ids); None when no reading into four groups and a pair.

    `groups` of the answer are the hidden cards' groups only (the laid-out ones stay as they are).
    """
    room = GROUPS_IN_HAND - len(fixed)
    if room < 0 or sum(counts) + jokers != 3 * room + 2:
        return None
    if jokers == 0:
        return _natural_reading(fixed, counts)
    segments: list[tuple[Option, ...]] = []
    for suit in range(3):
        part = counts[suit * 9 : suit * 9 + 9]
        if any(part):
            segments.append(suit_options(suit, part, jokers))
    for kind in range(FIRST_WIND, KIND_COUNT):
        if counts[kind]:
            segments.append(honour_options(kind, counts[kind], jokers))
    best_score = -1
    best_groups: tuple[int, ...] = ()
    best_pair = -1
    fixed_list = list(fixed)
    chosen: list[int] = []
    last = len(segments)

    def walk(index: int, used: int, pair: int) -> None:
        nonlocal best_score, best_groups, best_pair
        if index == last:
            free_groups = room - len(chosen)
            left = jokers - used
            if left != 3 * free_groups + (2 if pair < 0 else 0):
                return
            score, key, final_pair = _best_free(fixed_list + chosen, free_groups, pair)
            if score > best_score:
                best_score, best_groups, best_pair = score, key, final_pair
            return
        for spent, seg_pair, seg_groups in segments[index]:
            if used + spent > jokers or (seg_pair >= 0 and pair >= 0):
                continue
            if len(chosen) + len(seg_groups) > room:
                continue
            chosen.extend(seg_groups)
            walk(index + 1, used + spent, seg_pair if seg_pair >= 0 else pair)
            del chosen[len(chosen) - len(seg_groups) :]

    walk(0, 0, -1)
    if best_score < 0:
        return None
    return _hidden_reading(best_score, best_groups, best_pair, fixed)


_NO_HONOURS = (0,) * (KIND_COUNT - FIRST_WIND)
_HONOUR_KINDS = range(FIRST_WIND, KIND_COUNT)
_NO_SUIT = (0,) * 9
_SUIT_STARTS = ((0, 0), (1, 9), (2, 18))


def _natural_reading(fixed: tuple[int, ...], counts: tuple[int, ...]) -> Reading | None:
    """`best_reading` without jokers: honours read one way only, suits in few ways."""
    groups = list(fixed)
    pair = -1
    if counts[FIRST_WIND:] != _NO_HONOURS:
        for kind in _HONOUR_KINDS:
            n = counts[kind]
            if not n:
                continue
            if n == 3:
                groups.append(kind)
            elif n == 2 or n == 5:
                if n == 5:
                    groups.append(kind)
                if pair >= 0:
                    return None
                pair = kind
            else:
                return None
    ways: list[tuple[Option, ...]] = []
    for suit, first in _SUIT_STARTS:
        part = counts[first : first + 9]
        if part == _NO_SUIT:
            continue
        options = suit_options(suit, part, 0)
        if len(options) != 1:
            if not options:
                return None
            ways.append(options)
            continue
        _, seg_pair, seg_groups = options[0]
        if seg_pair >= 0:
            if pair >= 0:
                return None
            pair = seg_pair
        groups += seg_groups
    if not ways:
        if pair < 0 or len(groups) != GROUPS_IN_HAND:
            return None
        groups.sort()
        key = tuple(groups)
        return _hidden_reading(count_premiums_uncached(key, pair), key, pair, fixed)
    best: tuple[int, tuple[int, ...], int] = (-1, (), -1)
    for combination in product(*ways):
        final_pair = pair
        chosen = list(groups)
        for _, seg_pair, seg_groups in combination:
            if seg_pair >= 0:
                if final_pair >= 0:
                    break
                final_pair = seg_pair
            chosen.extend(seg_groups)
        else:
            if final_pair < 0 or len(chosen) != GROUPS_IN_HAND:
                continue
            key = tuple(sorted(chosen))
            score = count_premiums_uncached(key, final_pair)
            if score > best[0]:
                best = (score, key, final_pair)
    if best[0] < 0:
        return None
    return _hidden_reading(*best, fixed)


def _hidden_reading(score: int, key: tuple[int, ...], pair: int, fixed: tuple[int, ...]) -> Reading:
    if not fixed:
        return Reading(score, key, pair)
    hidden = list(key)
    for b in fixed:
        hidden.remove(b)
    return Reading(score, tuple(hidden), pair)


def natural_readings(fixed: tuple[int, ...], counts: tuple[int, ...]) -> set[tuple[tuple[int, ...], int]]:
    """Every reading (all four groups sorted, pair) of joker-free hidden cards next to `fixed`."""
    ways: list[tuple[Option, ...]] = []
    for suit in range(3):
        part = counts[suit * 9 : suit * 9 + 9]
        if any(part):
            ways.append(suit_options(suit, part, 0))
    for kind in range(FIRST_WIND, KIND_COUNT):
        if counts[kind]:
            ways.append(honour_options(kind, counts[kind], 0))
    found = set()
    for combination in product(*ways):
        pairs = [p for _, p, _ in combination if p >= 0]
        groups = [*fixed, *(g for _, _, gs in combination for g in gs)]
        if len(pairs) == 1 and len(groups) == GROUPS_IN_HAND:
            found.add((tuple(sorted(groups)), pairs[0]))
    return found

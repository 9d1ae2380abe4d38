"""Helpers for the Mhing tests: hands from notation, and an exhaustive reference scorer.

The reference is written separately from `api.rules.mhing` and works on card names, not block ids:
`reference_premiums` re-reads MH-6 (with the referee's decisions as documented in
`api/rules/mhing/premiums.py`), and the two searches try every possibility by brute force:

* `brute_by_assignment` gives every hidden joker every card in turn (all multisets of kinds),
  and splits each resulting hand into four groups and a pair in every possible way;
* `brute_by_cover` goes through every reading that contains the natural cards: each group either
  holds the lowest natural card not yet covered, or is any group at all (all 55), and the pair is
  any of the 34 kinds — no pruning by what can score.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from itertools import combinations, combinations_with_replacement
from typing import Any

from hypothesis import assume
from hypothesis import strategies as st

from api.rules.mhing.hand import Hand, parse_hand
from api.rules.mhing.scoring import Score, score_hand

SUITS = "bck"
HONOURS = ("we", "ws", "ww", "wn", "dr", "dg", "dw")
KINDS = tuple(f"{s}{r}" for s in SUITS for r in range(1, 10)) + HONOURS
SEQUENCES = tuple((f"{s}{r}", f"{s}{r + 1}", f"{s}{r + 2}") for s in SUITS for r in range(1, 8))
TRIPLETS = tuple((k, k, k) for k in KINDS)
ALL_GROUPS = TRIPLETS + SEQUENCES

Group = tuple[str, str, str]


def score(hidden: str, groups: Any = None, flowers: str = "", discard: bool = False) -> Score:
    return score_hand(parse_hand(groups, hidden, flowers, discard))


def earned(hidden: str, groups: Any = None, flowers: str = "") -> dict[str, int]:
    """code → premiums of the best reading."""
    result = score(hidden, groups, flowers)
    assert result.wins, result.reason
    return {p.code: p.premiums for p in result.items}


# --- the reference premiums (MH-6, MH-7) -------------------------------------------------------


def suit(card: str) -> str | None:
    return card[0] if card[0] in SUITS else None


def rank(card: str) -> int:
    return int(card[1]) if suit(card) else 0


def is_sequence(group: Sequence[str]) -> bool:
    return group[0] != group[1]


def reference_premiums(groups: Sequence[Group], pair: str) -> int:
    """MH-6 premiums of four groups and a pair (flowers not included)."""
    total = 0
    for a, b in combinations(groups, 2):
        if is_sequence(a) and is_sequence(b) and rank(a[0]) == rank(b[0]):
            total += 3 if suit(a[0]) == suit(b[0]) else 1
        if (
            not is_sequence(a)
            and not is_sequence(b)
            and suit(a[0])
            and suit(b[0])
            and rank(a[0]) == rank(b[0])
        ):
            total += 1
    total += sum(1 for g in groups if not is_sequence(g) and not suit(g[0]))
    if suit(pair) and rank(pair) in (2, 5, 8):
        total += 1
    for s in SUITS:
        starts = Counter(rank(g[0]) for g in groups if is_sequence(g) and suit(g[0]) == s)
        if starts[4]:
            total += 3 if starts[1] and starts[7] else 0
        else:
            total += min(starts[1], starts[7])
    cards = [c for g in groups for c in g] + [pair, pair]
    suits = {suit(c) for c in cards if suit(c)}
    winds = any(c.startswith("w") for c in cards)
    dragons = any(c.startswith("d") for c in cards)
    honours = winds or dragons
    total += 1 if all(is_sequence(g) for g in groups) else 0
    total += 3 if not any(is_sequence(g) for g in groups) else 0
    total += 1 if not honours and len(suits) == 2 else 0
    total += 3 if honours and len(suits) == 1 else 0
    total += 8 if not honours and len(suits) == 1 else 0
    total += 5 if len(suits) == 3 and winds and dragons else 0
    total += 5 if not honours and all(rank(c) >= 5 for c in cards) else 0
    total += 5 if not honours and all(rank(c) <= 5 for c in cards) else 0
    total += 5 if {"dr", "dg", "dw"} <= {g[0] for g in groups if not is_sequence(g)} else 0
    return total


def reference_nothing_fits(cards: Sequence[str]) -> int | None:
    """MH-7 premiums of 14 cards (no jokers), or None."""
    if len(cards) != 14 or len(set(cards)) != 14:
        return None
    for s in SUITS:
        ranks = sorted(rank(c) for c in cards if suit(c) == s)
        if any(b - a < 3 for a, b in zip(ranks, ranks[1:], strict=False)):
            return None
    return 8 if set(HONOURS) <= set(cards) else 3


# --- exhaustive searches ------------------------------------------------------------------------


def partitions(cards: Counter[str], groups_left: int, with_pair: bool) -> Iterator[tuple[list[Group], str]]:
    """Every split of `cards` into `groups_left` groups and (if `with_pair`) one pair."""
    if not +cards:
        if groups_left == 0 and not with_pair:
            yield [], ""
        return
    low = min((c for c in cards if cards[c] > 0), key=KINDS.index)
    if with_pair and cards[low] >= 2:
        rest = cards.copy()
        rest[low] -= 2
        for groups, _ in partitions(rest, groups_left, False):
            yield groups, low
    if groups_left == 0:
        return
    options: list[Group] = [(low, low, low)]
    if suit(low) and rank(low) <= 7:
        options.append((low, f"{low[0]}{rank(low) + 1}", f"{low[0]}{rank(low) + 2}"))
    for group in options:
        need = Counter(group)
        if all(cards[c] >= n for c, n in need.items()):
            for groups, pair in partitions(cards - need, groups_left - 1, with_pair):
                yield [group, *groups], pair


def brute_by_assignment(fixed: Sequence[Group], naturals: Sequence[str], jokers: int) -> int | None:
    """Best premiums (flowers not included) by trying every card for every joker."""
    best: int | None = None
    for extra in combinations_with_replacement(KINDS, jokers):
        cards = Counter(naturals) + Counter(extra)
        for groups, pair in partitions(cards, 4 - len(fixed), True):
            value = reference_premiums([*fixed, *groups], pair)
            best = value if best is None else max(best, value)
        if not fixed:
            special = reference_nothing_fits(list(naturals) + list(extra))
            if special is not None:
                best = special if best is None else max(best, special)
    return best


@lru_cache(maxsize=1 << 18)
def _cached_reference(groups: tuple[Group, ...], pair: str) -> int:
    return reference_premiums(groups, pair)


def brute_by_cover(fixed: Sequence[Group], naturals: Sequence[str]) -> int | None:
    """Best four-groups-and-a-pair premiums over every reading that contains the natural cards."""
    best: int | None = None
    room = 4 - len(fixed)
    for pair in KINDS:
        left = Counter(naturals) - Counter([pair, pair])
        for groups in _covers(left, room):
            value = _cached_reference(tuple(sorted([*fixed, *groups])), pair)
            best = value if best is None else max(best, value)
    return best


def _covers(left: Counter[str], room: int) -> Iterator[list[Group]]:
    """Every multiset of `room` groups whose cards contain `left`."""
    if not +left:
        yield from (list(free) for free in combinations_with_replacement(ALL_GROUPS, room))
        return
    if room == 0:
        return
    low = min((c for c in left if left[c] > 0), key=KINDS.index)
    for group in ALL_GROUPS:
        if low in group:
            for rest in _covers(left - Counter(group), room - 1):
                yield [group, *rest]


# --- hands for property tests ------------------------------------------------------------------


def physical_ok(cards: Iterable[str]) -> bool:
    counts = Counter(cards)
    return all(n <= 4 for c, n in counts.items() if c != "jk") and counts["jk"] <= 6


@st.composite
def winning_hands(draw: st.DrawFn, max_jokers: int = 6, max_laid: int = 4) -> Hand:
    """A reading (four groups and a pair), some cards turned into jokers, some groups laid out."""
    groups = [draw(st.sampled_from(ALL_GROUPS)) for _ in range(4)]
    pair = draw(st.sampled_from(KINDS))
    laid = draw(st.integers(0, max_laid))
    jokers = draw(st.integers(0, max_jokers))
    slots = [(g, i) for g in range(4) for i in range(3)] + [(4, 0), (4, 1)]
    chosen = set(draw(st.lists(st.sampled_from(slots), min_size=jokers, max_size=jokers, unique=True)))
    laid_text = []
    hidden = []
    for index, group in enumerate(groups):
        cards = ["jk" if (index, i) in chosen else c for i, c in enumerate(group)]
        if index < laid:
            laid_text.append(" ".join(f"jk={c}" if (index, i) in chosen else c for i, c in enumerate(group)))
        else:
            hidden += cards
    hidden += ["jk" if (4, i) in chosen else pair for i in range(2)]
    physical = [c for text in laid_text for c in text.split()] + hidden
    assume(physical_ok("jk" if c.startswith("jk") else c for c in physical))
    order = draw(st.permutations(hidden))
    flowers = draw(st.sampled_from(["", "f1", "f2 f2 f3"]))
    return parse_hand(laid_text, " ".join(order), flowers, draw(st.booleans()))


def hand_parts(hand: Hand) -> tuple[list[Group], list[str], int]:
    """(laid-out groups as the cards they read as, hidden natural cards, hidden jokers)."""
    fixed: list[Group] = []
    for group in hand.groups:
        a, b, c = (KINDS[k] for k in group.kinds)
        fixed.append((a, b, c))
    naturals = [c for c in hand.hidden if c != "jk"]
    return fixed, naturals, hand.hidden_jokers

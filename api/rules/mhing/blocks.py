"""Groups and pairs as small integers, so readings are cheap to compare, sort and cache.

A group is a *block id*: a triplet of kind k is k (0…33); a sequence of suit s starting at rank r
is 34 + 7·s + (r − 1) (34…54). A pair is simply its kind. A reading is four block ids (sorted)
and a pair kind.
"""

from __future__ import annotations

from api.rules.mhing.cards import KIND_COUNT, KINDS, SUIT_KINDS, rank_of, suit_of

FIRST_SEQUENCE = KIND_COUNT
GROUP_IDS = range(KIND_COUNT + 21)


def triplet(kind: int) -> int:
    return kind


def sequence(suit: int, start: int) -> int:
    """The sequence start, start+1, start+2 of one suit (start 1–7)."""
    return FIRST_SEQUENCE + 7 * suit + start - 1


def is_sequence(block: int) -> bool:
    return block >= FIRST_SEQUENCE


def sequence_suit(block: int) -> int:
    return (block - FIRST_SEQUENCE) // 7


def sequence_start(block: int) -> int:
    return (block - FIRST_SEQUENCE) % 7 + 1


def kinds_of(block: int) -> tuple[int, int, int]:
    """The three kinds a group is made of, lowest first."""
    if is_sequence(block):
        first = sequence_suit(block) * 9 + sequence_start(block) - 1
        return first, first + 1, first + 2
    return block, block, block


def block_of(kinds: tuple[int, ...]) -> int | None:
    """The group three kinds form, if they form one (MH-5)."""
    if len(kinds) != 3:
        return None
    a, b, c = sorted(kinds)
    if a == b == c:
        return triplet(a)
    if c < SUIT_KINDS and suit_of(a) == suit_of(c) and b == a + 1 and c == a + 2:
        return sequence(suit_of(a), rank_of(a))
    return None


def notation(block: int) -> str:
    return " ".join(KINDS[k] for k in kinds_of(block))

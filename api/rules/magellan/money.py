"""Money cards as multisets (sorted tuples of values 1–9), and their crowns (MG-1)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TypeVar

from api.rules.magellan.constants import COPIES, MONEY_VALUES, crowns

T = TypeVar("T")


def contains(cards: Sequence[int], wanted: Iterable[int]) -> bool:
    have = Counter(cards)
    have.subtract(Counter(wanted))
    return all(n >= 0 for n in have.values())


def remove(cards: Sequence[T], taken: Iterable[T]) -> tuple[T, ...]:
    """`cards` less `taken` (which must be contained), order of `cards` kept."""
    rest = list(cards)
    for value in taken:
        rest.remove(value)
    return tuple(rest)


def add(cards: Sequence[int], more: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted((*cards, *more)))


def crowns_of(cards: Iterable[int]) -> int:
    return sum(crowns(v) for v in cards)


def composition(cards: Iterable[int]) -> dict[int, int]:
    counted = Counter(cards)
    return {v: counted.get(v, 0) for v in MONEY_VALUES}


def over_copies(cards: Iterable[int]) -> list[int]:
    """Values that would appear more than seven times (MG-1: seven of each)."""
    return [v for v, n in sorted(Counter(cards).items()) if n > COPIES]


def cards_text(cards: Sequence[int]) -> str:
    return ", ".join(str(v) for v in cards) if cards else "none"

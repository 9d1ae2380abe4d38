"""Seeded server chance (digital play): every shuffle and pick is a pure function of the seed and a
label holding a counter from the state, so replays are exact and undo cannot re-draw."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def shuffled(items: Sequence[T], seed: int, label: str) -> tuple[T, ...]:
    cards = list(items)
    random.Random(f"{seed}/{label}").shuffle(cards)
    return tuple(cards)


def pick(seed: int, label: str, count: int) -> int:
    """A uniform index below `count`."""
    return random.Random(f"{seed}/{label}").randrange(count)

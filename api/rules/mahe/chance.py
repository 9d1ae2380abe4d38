"""Seeded server draws (MA-12): every draw is a pure function of the seed and a counter.

Deriving each die from `(seed, n)` instead of a running generator lets the counter live in the
state: restoring an earlier state and rolling again gives the same value, so replays are exact and
undo cannot be used to re-roll.
"""

from __future__ import annotations

import random

from api.rules.mahe.constants import DECK


def shuffled_deck(seed: int) -> tuple[int, ...]:
    """The 24 egg cards in digital deal order (MA-1 Decision mix, MA-2 shuffle)."""
    cards = list(DECK)
    random.Random(f"{seed}/deck").shuffle(cards)
    return tuple(cards)


def draw_die(seed: int, n: int) -> int:
    """The n-th (0-based) server die of the game."""
    return random.Random(f"{seed}/die/{n}").randint(1, 6)

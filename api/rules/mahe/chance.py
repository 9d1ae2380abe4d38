"""Seeded server draws (MA-12): every draw is a pure function of the seed and a counter.

Deriving each die from `(seed, n)` instead of a running generator lets the counter live in the
state: restoring an earlier state and rolling again gives the same value, so replays are exact and
undo cannot be used to re-roll.
"""

from __future__ import annotations

import random
from dataclasses import replace

from api.rules.mahe.constants import DECK
from api.rules.mahe.state import MaheState


def shuffled_deck(seed: int) -> tuple[int, ...]:
    """The 24 egg cards in digital deal order (MA-1 Decision mix, MA-2 shuffle)."""
    cards = list(DECK)
    random.Random(f"{seed}/deck").shuffle(cards)
    return tuple(cards)


def draw_die(seed: int, n: int) -> int:
    """The n-th (0-based) server die of the game."""
    return random.Random(f"{seed}/die/{n}").randint(1, 6)


def reseeded(state: MaheState, seed: int) -> MaheState:
    """The same game with every future server draw taken from `seed` (MA-12).

    Used when a finished game, whose seed was revealed, is reopened by undo: the cards nobody has
    seen (the digital pile under the face-up card and the four set aside) are shuffled afresh, so
    the revealed seed no longer predicts anything. A no-op when the seed is already `seed`.
    """
    if state.seed == seed:
        return state
    supply = state.supply
    if state.options.chance == "digital":
        unseen = list(supply.hidden + supply.set_aside)
        random.Random(f"{seed}/reseed").shuffle(unseen)
        cut = len(supply.hidden)
        supply = replace(supply, hidden=tuple(unseen[:cut]), set_aside=tuple(unseen[cut:]))
    return replace(state, seed=seed, supply=supply)

"""Seeded server chance (digital play): every shuffle and pick is a pure function of the seed and a
label holding a counter from the state, so replays are exact and undo cannot re-draw."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from api.rules.magellan.state import MagellanState

T = TypeVar("T")


def shuffled(items: Sequence[T], seed: int, label: str) -> tuple[T, ...]:
    cards = list(items)
    random.Random(f"{seed}/{label}").shuffle(cards)
    return tuple(cards)


def pick(seed: int, label: str, count: int) -> int:
    """A uniform index below `count`."""
    return random.Random(f"{seed}/{label}").randrange(count)


def reseeded(state: MagellanState, seed: int) -> MagellanState:
    """The same game with every future server draw taken from `seed` (digital play).

    Used when a finished game, whose seed was revealed, is reopened by undo: what nobody has seen
    (the order of the explorer decks and of the money draw stack, the simulated Pizarro stack) is
    shuffled afresh, so the revealed seed no longer predicts anything. Hands are not touched.
    A no-op when the seed is already `seed`.
    """
    if state.seed == seed:
        return state
    if not state.digital:
        return replace(state, seed=seed)
    decks = tuple(
        replace(deck, hidden=shuffled(deck.hidden, seed, f"reseed/deck/{phase}"))
        for phase, deck in enumerate(state.decks, start=1)
    )
    scoring = state.scoring
    if scoring is not None and scoring.stack:
        scoring = replace(scoring, stack=shuffled(scoring.stack, seed, "reseed/pizarro"))
    return replace(
        state, seed=seed, decks=decks, draw=shuffled(state.draw, seed, "reseed/money"), scoring=scoring
    )

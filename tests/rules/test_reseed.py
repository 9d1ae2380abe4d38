"""Reseeding (MA-12, and Magellan's digital chance): what an undo that reopens a finished game does
to the future. The unseen order is shuffled afresh from the new seed; nothing anyone has seen moves."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from api.rules.magellan.game import MAGELLAN
from api.rules.mahe.game import MAHE
from tests.rules.magellan_support import players, random_event, sides_from

MAHE_PLAYERS = [
    {"name": "Ann", "colours": ["red", "yellow"]},
    {"name": "Ben", "colours": ["green", "darkblue"]},
]


def test_mahe_reseed_shuffles_only_the_unseen_cards() -> None:
    state = MAHE.new_game(MAHE_PLAYERS, MAHE.normalize_options({"chance": "digital"}), 11)
    assert MAHE.reseed(state, 11) is state  # same seed: nothing changes, byte for byte
    fresh = MAHE.reseed(state, 12)
    assert MAHE.chance_seed(fresh) == 12
    assert fresh.supply.face_up == state.supply.face_up  # the face-up card was seen by everyone
    assert Counter(fresh.supply.hidden + fresh.supply.set_aside) == Counter(
        state.supply.hidden + state.supply.set_aside
    )
    assert len(fresh.supply.hidden) == len(state.supply.hidden)
    assert fresh.supply.hidden + fresh.supply.set_aside != state.supply.hidden + state.supply.set_aside
    assert fresh.players == state.players and fresh.position == state.position


@settings(max_examples=25, deadline=None)
@given(
    count=st.integers(3, 6), sides=st.integers(0, 63), seed=st.integers(0, 2**31), steps=st.integers(0, 80)
)
def test_magellan_reseed_keeps_everything_seen_and_every_hand(
    count: int, sides: int, seed: int, steps: int
) -> None:
    options = MAGELLAN.normalize_options(
        {"depth": "ledger", "chance": "digital", "sides": dict(sides_from(sides))}
    )
    state = MAGELLAN.new_game(players(count), options, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.stage == "finished":
            break
        state = MAGELLAN.apply(state, random_event(state, rng))
    assert MAGELLAN.reseed(state, seed) is state
    fresh = MAGELLAN.reseed(state, seed + 1)
    assert fresh.seed == seed + 1
    assert fresh.players == state.players  # hands, ships, piles: untouched
    assert MAGELLAN.public_view(fresh) == MAGELLAN.public_view(state)  # nothing seen changes
    assert Counter(fresh.draw) == Counter(state.draw)
    assert [Counter(d.hidden) for d in fresh.decks] == [Counter(d.hidden) for d in state.decks]
    assert MAGELLAN.load(MAGELLAN.dump(fresh)) == fresh

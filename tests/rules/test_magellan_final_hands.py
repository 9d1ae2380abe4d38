"""MG-10, issue 33 item 6: every hand typed in is recorded as ONE entry (`final_hands`) — all hands
checked before any is taken, so a refused hand never leaves the table half-recorded."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from magellan_support import new, play
from test_magellan_rules import fill_phase

from api.rules.errors import IllegalMove, MalformedEvent
from api.rules.magellan.game import MAGELLAN
from api.rules.magellan.state import MagellanState


def at_scoring(count: int = 4) -> MagellanState:
    """A physical outcomes game whose cards are all boxed: it waits for the hands (MG-10)."""
    state = new(count)
    while state.stage in ("reveal", "auction"):
        state = fill_phase(state)
    assert state.stage == "scoring"
    return state


SCORING = at_scoring()


def test_all_hands_at_once_equal_one_entry_per_hand() -> None:
    hands = {"0": [9, 1], "1": [], "2": [3, 3], "3": [5]}
    together = play(SCORING, {"type": "final_hands", "hands": hands})
    apart = SCORING
    for seat, cards in hands.items():
        apart = play(apart, {"type": "final_hand", "seat": int(seat), "cards": cards})
    assert [p.final_hand for p in together.players] == [p.final_hand for p in apart.players]
    assert together.stage == apart.stage


def test_the_third_hand_refused_refuses_them_all() -> None:
    """The case of the issue: four hands, the third would make more than seven 3s (MG-1)."""
    hands = {"0": [3, 3, 3], "1": [3, 3, 3], "2": [3, 3], "3": [1]}
    with pytest.raises(IllegalMove) as error:
        MAGELLAN.apply(SCORING, {"type": "final_hands", "hands": hands})
    assert error.value.code == "too-many-copies"
    assert "seven 3s" in error.value.detail


@pytest.mark.parametrize(
    "hands",
    [None, [], {}, {"x": [1]}, {"9": [1]}, {"-1": [1]}, "0:1"],
)
def test_a_malformed_hands_object_is_refused(hands: Any) -> None:
    with pytest.raises(MalformedEvent) as error:
        MAGELLAN.apply(SCORING, {"type": "final_hands", "hands": hands})
    assert error.value.code in ("invalid-hands", "hands-required")


hand = st.lists(st.integers(1, 9), max_size=8)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.sampled_from(["0", "1", "2", "3"]), hand, min_size=1))
def test_all_or_nothing(hands: dict[str, list[int]]) -> None:
    """Property: a final_hands entry either takes every hand it names (each as its own final_hand
    entry, in seat order, would) or refuses and leaves every player's hand as it was."""
    try:
        after = MAGELLAN.apply(SCORING, {"type": "final_hands", "hands": hands})
    except (IllegalMove, MalformedEvent):
        one_by_one_fails = False
        state = SCORING
        for seat in sorted(hands, key=int):
            try:
                state = MAGELLAN.apply(state, {"type": "final_hand", "seat": int(seat), "cards": hands[seat]})
            except (IllegalMove, MalformedEvent):
                one_by_one_fails = True
                break
        assert one_by_one_fails
        return
    for seat, cards in hands.items():
        assert after.players[int(seat)].final_hand == tuple(sorted(cards))
    for seat in range(4):
        if str(seat) not in hands:
            assert after.players[seat].final_hand is None

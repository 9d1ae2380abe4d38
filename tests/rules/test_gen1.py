"""GEN-1 in the rules layer (api.rules.replay), the code the phone's own referee runs too: an undo of
an entry that showed chance the software drew is refused, typed values stay undoable."""

from __future__ import annotations

import random

import pytest

from api.rules.errors import IllegalMove
from api.rules.magellan.game import MAGELLAN
from api.rules.mahe.game import MAHE
from api.rules.referee import RefereeTable
from api.rules.replay import advance, chance_stands, replay
from tests.rules.magellan_support import TEST_SHEET, players, random_event

MAHE_PLAYERS = [
    {"name": "Ann", "colours": ["red", "yellow"]},
    {"name": "Ben", "colours": ["green", "darkblue"]},
]
UNDO = {"type": "undo"}


def test_a_server_die_stands_in_the_replay() -> None:
    options = MAHE.normalize_options({"chance": "digital"})
    states = [MAHE.new_game(MAHE_PLAYERS, options, 5)]
    states = advance(MAHE, states, {"type": "choose_turtle", "turtle": "red"})
    states = advance(MAHE, states, UNDO)  # nothing drawn yet: undoable
    states = advance(MAHE, states, {"type": "choose_turtle", "turtle": "red"})
    states = advance(MAHE, states, {"type": "die"})
    assert chance_stands(MAHE, states[-2], states[-1])
    with pytest.raises(IllegalMove) as refused:
        advance(MAHE, states, UNDO)
    assert refused.value.code == "chance-stands" and refused.value.rule == "GEN-1"
    with pytest.raises(IllegalMove):  # a whole log with such an undo does not replay either
        replay(
            MAHE,
            MAHE_PLAYERS,
            options,
            5,
            [{"type": "choose_turtle", "turtle": "red"}, {"type": "die"}, UNDO],
        )


def test_typed_dice_stay_undoable_on_the_phone() -> None:
    table = RefereeTable.start("mahe", MAHE_PLAYERS, {"chance": "physical"}, 5)
    for event in ({"type": "reveal_card", "value": 4}, {"type": "choose_turtle", "turtle": "red"}):
        table = table.apply(event)
    table = table.apply({"type": "die", "value": 3})
    assert table.view()["legal_actions"]["undo"]["possible"] is True
    for _ in range(3):
        table = table.apply(UNDO)
    assert table.view()["legal_actions"]["undo"]["possible"] is False  # nothing left to undo


def test_every_magellan_server_draw_stands_and_nothing_else_does() -> None:
    """Digital chance: the entries whose undo is refused are exactly those that moved the draws."""
    options = MAGELLAN.normalize_options(
        {"depth": "outcomes", "chance": "digital", "board_sheet": TEST_SHEET}
    )
    state = MAGELLAN.new_game(players(4), options, 3)
    rng = random.Random(3)
    stood = 0
    for _ in range(300):
        if state.stage == "finished":
            break
        after = MAGELLAN.apply(state, random_event(state, rng))
        refused = True
        try:
            advance(MAGELLAN, [state, after], UNDO)
            refused = False
        except IllegalMove as error:
            assert error.code == "chance-stands"
        assert refused == (after.draws != state.draws)
        stood += refused
        state = after
    assert stood > 0

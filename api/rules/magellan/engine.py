"""`apply`: one event in, the next state out; the input state is never changed (frozen dataclasses).

Every handler ends in `settle`, which carries out what needs nobody's decision: digital card turns
and draws, boxing a card nobody may bid on, Cook A hands laid open, phase ends (MG-9) and the step
into scoring (MG-10). A step that needs board-sheet numbers waits until they are entered. The rules
themselves live in one module per job; this one only routes events and automatic steps to them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from api.rules.errors import IllegalMove
from api.rules.magellan import auction_flow, endgame, followups, phase_end
from api.rules.magellan.cook import cook_pull
from api.rules.magellan.draws import draw
from api.rules.magellan.events import event_type
from api.rules.magellan.payment import pay
from api.rules.magellan.sheet_needs import set_board_sheet
from api.rules.magellan.slide import slide
from api.rules.magellan.state import MagellanState
from api.rules.magellan.vasco import vasco_part

Handler = Callable[[MagellanState, Mapping[str, Any]], MagellanState]

_HANDLERS: dict[str, Handler] = {
    "set_board_sheet": set_board_sheet,
    "reveal": auction_flow.reveal,
    "veto": auction_flow.veto,
    "bid": auction_flow.bid,
    "pass": auction_flow.pass_,
    "pay": pay,
    "vasco_part": vasco_part,
    "draw": draw,
    "slide": slide,
    "cook_pull": cook_pull,
    "swap": phase_end.swap,
    "end_swaps": phase_end.end_swaps,
    "final_hand": endgame.final_hand,
    "pizarro_draw": endgame.pizarro_draw,
    "pizarro_stop": endgame.pizarro_stop,
}


def apply(state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
    kind = event_type(event)
    if state.stage == "finished":
        raise IllegalMove("game-over", "The game is over: the scores are final (MG-12).", "MG-12")
    return settle(_HANDLERS[kind](state, event))


def settle(state: MagellanState) -> MagellanState:
    """Apply the automatic steps until the game waits for a player (or is over)."""
    while True:
        step = _automatic(state)
        if step is None:
            return state
        state = step


def _automatic(state: MagellanState) -> MagellanState | None:
    """The next step that needs nobody's decision at this stage, or None."""
    if state.stage == "reveal":
        return phase_end.begin(state) if state.deck.size == 0 else auction_flow.auto_reveal(state)
    if state.stage == "auction":
        return auction_flow.auto_auction(state)
    if state.stage == "sale":
        return followups.auto_sale(state)
    if state.stage == "phase_end":
        return phase_end.auto_phase_end(state)
    if state.stage == "scoring":
        return endgame.auto_scoring(state)
    return None

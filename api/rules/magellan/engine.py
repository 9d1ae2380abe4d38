"""`apply`: one event in, the next state out; the input state is never changed (frozen dataclasses).

The flow is declared once, in `FLOW`: the stages of a game (reveal → auction → sale and its
follow-ups → phase end → scoring → finished), the events each accepts and the step each takes on its
own. After every event `settle` takes those steps until the game waits for a player: digital card
turns and draws, boxing a card nobody may bid on, Cook A hands laid open, phase ends (MG-9) and the
step into scoring (MG-10); a step that needs board-sheet numbers waits until they are entered. The
rules themselves live in the handlers; this module routes events and steps to them, and holds the two
handlers no stage owns: a whole auction typed in as one entry, and the board sheet (any stage, MG-2).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from api.rules.errors import IllegalMove, InvalidSetup, MalformedEvent, say
from api.rules.magellan import auction, endgame, followups, phase_end
from api.rules.magellan import events as ev
from api.rules.magellan.events import event_type
from api.rules.magellan.sheet import parse_sheet
from api.rules.magellan.state import MagellanState
from api.rules.magellan.waiting import waiting_text

Handler = Callable[[MagellanState, Mapping[str, Any]], MagellanState]
Step = Callable[[MagellanState], MagellanState | None]


@dataclass(frozen=True)
class Stage:
    """One stage of the game: the events it accepts, and the step it takes without anyone's decision
    (None once it waits for a player)."""

    accepts: Mapping[str, Handler]
    step: Step


def _reveal_step(state: MagellanState) -> MagellanState | None:
    """An empty deck ends the phase (MG-9); otherwise digital play turns up the next card (MG-4)."""
    return phase_end.begin(state) if state.deck.size == 0 else auction.auto_reveal(state)


def auction_steps(state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
    """Issue 33: a whole auction typed in as one entry ("winner and price"). Each step is applied as
    its own bid or pass would be (MG-4 turn order and higher bids, MG-5 who may bid, MG-6 what a
    ledger hand can pay), with the steps the game takes by itself in between; the first refusal
    refuses the whole entry, so no step is taken unless all are. The steps belong to one card: a step
    after its auction closed (sold or boxed, MG-4) is refused."""
    steps = ev.auction_steps(event, len(state.players))
    if state.ledger and len({step["seat"] for step in steps if step["type"] == "bid"}) > 1:
        raise IllegalMove(
            "bids-of-one-player",
            "In ledger depth a bid is its own player's entry: one entry holds the bids of one player "
            "only (MG-6).",
            "MG-6",
        )
    closed = len(state.history)
    for done, step in enumerate(steps):
        if len(state.history) != closed:
            raise IllegalMove(
                "auction-closed",
                say(
                    "The auction of this card is over after {done} of the {count} steps: the rest "
                    "belong to no card (MG-4).",
                    done=done,
                    count=len(steps),
                ),
                "MG-4",
            )
        state = apply(state, step)
    return state


def set_board_sheet(state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
    """MG-2: the sheet (replaced as a whole) may be entered or completed at any time; numbers already
    used for income stay as drawn (Decision)."""
    if event.get("sheet") is None:
        raise MalformedEvent("sheet-required", "Send the board sheet as `sheet` (MG-2).", "MG-2")
    try:
        sheet = parse_sheet(event["sheet"])
    except InvalidSetup as error:
        raise MalformedEvent(error.code, error.detail, error.rule) from None
    return replace(state, sheet=sheet)


FLOW: Mapping[str, Stage] = {
    "reveal": Stage({"reveal": auction.reveal}, _reveal_step),
    "auction": Stage(
        {"veto": auction.veto, "bid": auction.bid, "pass": auction.pass_, "auction": auction_steps},
        auction.auto_auction,
    ),
    "sale": Stage(
        {
            "pay": followups.pay,
            "vasco_part": followups.vasco_part,
            "draw": followups.draw,
            "slide": followups.slide,
            "cook_pull": followups.cook_pull,
        },
        followups.auto_sale,
    ),
    "phase_end": Stage(
        {"draw": followups.draw, "swap": phase_end.swap, "end_swaps": phase_end.end_swaps},
        phase_end.auto_phase_end,
    ),
    "scoring": Stage(
        {
            "final_hand": endgame.final_hand,
            "final_hands": endgame.final_hands,
            "pizarro_draw": endgame.pizarro_draw,
            "pizarro_stop": endgame.pizarro_stop,
        },
        endgame.auto_scoring,
    ),
    "finished": Stage({}, lambda state: None),
}
#: Accepted at every stage before the end: the board sheet may be entered whenever it is at hand.
ANY_STAGE: Mapping[str, Handler] = {"set_board_sheet": set_board_sheet}
#: Every event type's handler, whatever the stage (it knows the precise reason to refuse it).
HANDLERS: Mapping[str, Handler] = {
    **{kind: handler for stage in FLOW.values() for kind, handler in stage.accepts.items()},
    **ANY_STAGE,
}


def apply(state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
    kind = event_type(event)
    if state.stage == "finished":
        raise IllegalMove("game-over", "The game is over: the scores are final (MG-12).", "MG-12")
    handler = FLOW[state.stage].accepts.get(kind) or ANY_STAGE.get(kind)
    if handler is None:
        _refuse_out_of_stage(state, event, kind)
    assert handler is not None
    return settle(handler(state, event))


def _refuse_out_of_stage(state: MagellanState, event: Mapping[str, Any], kind: str) -> None:
    """An event this stage does not accept: its own handler says why, in its words; should it ever
    not refuse, the flow still does."""
    HANDLERS[kind](state, event)
    raise IllegalMove(
        "not-now",
        say("There is no {what} to record now: {waiting_text}", what=kind, waiting_text=waiting_text(state)),
    )


def settle(state: MagellanState) -> MagellanState:
    """Take the stages' own steps until the game waits for a player (or is over)."""
    while True:
        step = FLOW[state.stage].step(state)
        if step is None:
            return state
        state = step

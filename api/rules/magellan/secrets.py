"""What a player keeps to themselves in ledger depth, decided once (MG-3, MG-6, MG-8).

Hands are secret. An event whose legality or effect depends on a seat's hand — a bid (no more than
the hand can pay), a payment, a Magellan A slide, a Cook B pull typed in from the hand, a Marco Polo
swap, a typed draw into the hand — is that seat's to record: `secret_seat` names the seat from
public information only (the event's type and the public state, never a card value), so the platform
can refuse everyone else before the engine looks at the hand. What only that seat may know about
what it can do (its bid limit, that it cannot afford a card) is in `private_actions`, shown in the
seat's own view; the public legal actions never depend on a hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from api.rules.common.events import is_int
from api.rules.errors import note, say
from api.rules.magellan.auction import max_bid, must_keep
from api.rules.magellan.constants import EXPLORER_NAMES
from api.rules.magellan.state import MagellanState

JSON = dict[str, Any]


def _one_of(event: Mapping[str, Any], seats: list[int]) -> int | None:
    """The seat an event is sent for (or the only one that could act); None when it names somebody
    else or that is not clear yet — the engine then refuses from public information alone
    (seat-required, not-your-turn, may-not-bid) before it looks at any hand."""
    claimed = event.get("seat")
    if is_int(claimed):
        return int(claimed) if claimed in seats else None
    return seats[0] if len(seats) == 1 else None


def secret_seat(state: MagellanState, event: Any) -> int | None:
    """The seat whose hidden hand this event depends on, from public information only."""
    if not state.ledger or not isinstance(event, Mapping):
        return None
    kind, card, pe = event.get("type"), state.card, state.phase_end
    if kind == "bid" and state.stage == "auction" and card is not None and card.turn is not None:
        return _one_of(event, [card.turn])  # no more than the hand can pay (MG-6)
    if kind == "auction" and state.stage == "auction":  # issue 33: the one bidder's (engine: MG-6)
        steps = event.get("steps")
        bidders = (
            [step.get("seat") for step in steps if isinstance(step, Mapping) and step.get("type") == "bid"]
            if isinstance(steps, list)
            else []
        )
        seat = bidders[0] if bidders else None
        return int(seat) if is_int(seat) and 0 <= seat < len(state.players) else None
    if state.stage == "sale" and card is not None and card.winner is not None and card.todo:
        head = card.todo[0]
        if kind == head == "pay":
            return _one_of(event, [card.winner])
        if kind == head == "slide" and state.power(card.explorer).slide_from == "hand":  # B: the payment
            return _one_of(event, [card.winner])
        if kind == head == "draw":
            return _one_of(event, [card.winner])
        if kind == head == "cook_pull" and not state.digital:  # typed in: a card of the winner's hand
            return card.winner  # the puller sends it, but it is the winner's hand that decides
    if state.stage == "phase_end" and pe is not None:
        if kind == "draw":
            return _one_of(event, [s for s, n in enumerate(pe.due) if n > 0])
        if kind == "swap":
            return _one_of(event, [s for s, n in enumerate(pe.swaps) if n > 0])
    return None


def private_actions(state: MagellanState, seat: int) -> JSON:
    """What only `seat` may know about its own options: its bid limit (MG-6, MG-8)."""
    card = state.card
    if not state.ledger or state.stage != "auction" or card is None or card.turn != seat:
        return {"bid_max": None, "notes": []}
    cap = max_bid(state, seat, card.explorer)
    minimum = card.high_bid + 1
    notes: list[JSON] = []
    if cap is not None and cap < minimum:
        explorer = EXPLORER_NAMES[card.explorer]
        text = (
            say(
                "You cannot pay {minimum} for {explorer} and keep a card in hand (MG-8): "
                "only a pass is possible.",
                minimum=minimum,
                explorer=explorer,
            )
            if must_keep(state, card.explorer)
            else say(
                "You cannot pay {minimum} for {explorer}: only a pass is possible.",
                minimum=minimum,
                explorer=explorer,
            )
        )
        notes.append(note("cannot-afford", "MG-6", text))
    return {"bid_max": cap, "notes": notes}

"""Who may bid (MG-5), in which order (MG-4), and how much a ledger hand can pay (MG-6, MG-8)."""

from __future__ import annotations

from api.rules.magellan.state import MagellanState


def must_keep(state: MagellanState, explorer: str) -> int:
    """MG-8: Magellan A (a card to slide from the hand) and Cook B (a card to be pulled) need one hand
    card left after paying."""
    side = state.options.side(explorer)
    return 1 if (explorer, side) in (("magellan", "A"), ("cook", "B")) else 0


def max_bid(state: MagellanState, seat: int, explorer: str) -> int | None:
    """Ledger: the most this hand can pay for this card (None in outcomes depth: hands unknown)."""
    if not state.ledger:
        return None
    hand = sorted(state.players[seat].hand)
    keep = must_keep(state, explorer)
    return sum(hand[keep:]) if len(hand) > keep else 0


def eligible(state: MagellanState, explorer: str) -> list[int]:
    """MG-5: phase I everybody with a ship left to place (MG-7 Decision); phases II/III whoever still
    has a ship on this explorer's previous field (which they got by winning it there, MG-5 Decision)."""
    phase = state.phase
    seats = range(len(state.players))
    if phase == 1:
        return [s for s in seats if state.players[s].ships_left > 0]
    return [s for s in seats if state.players[s].ships_on(explorer, phase - 1)]


def starter(state: MagellanState) -> int:
    """MG-4: the winner of the most recent sold card, across phases; for the very first the auctioneer."""
    return state.options.auctioneer if state.last_winner is None else state.last_winner


def bidding_order(state: MagellanState, explorer: str) -> tuple[int, ...]:
    """MG-4 Decision: from the starter clockwise, skipping those who may not bid (MG-5)."""
    allowed = set(eligible(state, explorer))
    return tuple(s for s in state.clockwise_from(starter(state)) if s in allowed)

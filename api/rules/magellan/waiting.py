"""One sentence for the table: what the game waits for now (public view, and the tail of the errors
that refuse an event out of turn)."""

from __future__ import annotations

from api.rules.magellan.constants import EXPLORER_NAMES
from api.rules.magellan.sheet_needs import missing_for_scoring
from api.rules.magellan.state import MagellanState
from api.rules.magellan.table import winner


def waiting_text(state: MagellanState) -> str:
    """One sentence: what the game waits for now."""
    card = state.card
    if state.stage == "reveal":
        return f"{state.name(state.options.auctioneer)} turns up the next explorer card (MG-4)."
    if state.stage == "auction" and card is not None:
        seat = card.turn
        bidder = state.name(seat) if seat is not None else "nobody"
        return f"{EXPLORER_NAMES[card.explorer]} is being auctioned; {bidder} bids or passes (MG-4)."
    if state.stage == "sale" and card is not None and card.todo:
        buyer = state.name(winner(state))
        puller = state.name((winner(state) + 1) % len(state.players))
        return {
            "pay": f"{buyer} pays {card.price} (MG-6).",
            "vasco_part": f"{buyer} chooses the left or right part of Vasco da Gama (MG-8).",
            "draw": f"{buyer} draws {card.draws_due} money card(s) (MG-8).",
            "slide": f"{buyer} slides a money card under Magellan (MG-8).",
            "open_hand": f"{buyer} lays the hand open (MG-8).",
            "cook_pull": f"{puller} pulls a card from {buyer}'s hand (MG-8).",
        }[card.todo[0]]
    if state.stage == "phase_end":
        pe = state.phase_end
        if pe is not None and pe.income is None:
            return "the phase-end income waits for the board sheet's bags (MG-2, MG-9)."
        if pe is not None and any(pe.due):
            return "players draw their phase-end money cards (MG-9)."
        return "Marco Polo swaps (MG-8)."
    if state.stage == "scoring":
        if not state.ledger and any(p.final_hand is None for p in state.players):
            return "every player enters the money cards left in hand (MG-10)."
        if missing_for_scoring(state):
            return "the scoring waits for the board sheet's crowns (MG-2, MG-10)."
        return "the Pizarro draw (MG-11)."
    return "the game is over (MG-12)."

"""What the game waits for: whose event it is, which board-sheet numbers a step needs, and one
sentence for the table saying so.

Whose event: the optional `seat` an event names is checked against who may act now. The board sheet
in play (MG-2): which of its numbers a step waits for (income bags at a phase end MG-9, crowns at the
scoring MG-10). The sentence is shown in the public view and ends the errors that refuse an event
out of turn.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from api.rules.common.events import claimed_seat
from api.rules.errors import IllegalMove, MalformedEvent, say, term
from api.rules.magellan.constants import EXPLORER_NAMES
from api.rules.magellan.sheet import Slot, crowns_fixed_by_rule, missing_entries
from api.rules.magellan.state import MagellanState, Ship, left_neighbour, winner


def check_actor(state: MagellanState, event: Mapping[str, Any], seat: int, rule: str) -> None:
    """When the event names the sending seat, it must be the seat whose decision this is."""
    claimed = claimed_seat(event)
    if claimed is not None and claimed != seat:
        raise IllegalMove(
            "not-your-turn",
            say("This is {name}'s decision now ({rule}).", name=state.name(seat), rule=rule),
            rule,
        )


def pick_actor(
    state: MagellanState, event: Mapping[str, Any], seats: Sequence[int], what: str, rule: str
) -> int:
    """Where several players may act at once, the event's `seat` says whose event it is."""
    claimed = claimed_seat(event)
    if claimed is None:
        if len(seats) == 1:
            return seats[0]
        names = ", ".join(state.name(s) for s in seats)
        raise MalformedEvent(
            "seat-required",
            say(
                "Several players can {what} now ({names}): give the seat ({rule}).",
                what=what,
                names=names,
                rule=rule,
            ),
            rule,
        )
    if claimed not in seats:
        who = state.name(claimed) if 0 <= claimed < len(state.players) else f"Seat {claimed}"
        raise IllegalMove(
            "not-your-turn", say("{who} cannot {what} now ({rule}).", who=who, what=what, rule=rule), rule
        )
    return claimed


def sheet_incomplete(missing: Sequence[str], why: str) -> IllegalMove:
    return IllegalMove(
        "board-sheet-incomplete",
        say(
            "{why} needs numbers the board sheet does not have yet: {items}. Type them in from your board "
            "into the board sheet (MG-2).",
            why=why,
            items="; ".join(missing),
        ),
        "MG-2",
    )


def _ship_slots(state: MagellanState, what: str, wanted: Callable[[Ship, str], bool]) -> list[Slot]:
    """The `what` entry of the field of every ship for which `wanted(ship, side)` holds."""
    sides = state.options.side_map()
    return [
        (ship.explorer, sides[ship.explorer], ship.field, ship.part, what)
        for player in state.players
        for ship in player.ships
        if wanted(ship, sides[ship.explorer])
    ]


def income_slots(state: MagellanState) -> list[Slot]:
    """MG-9: the bags of the fields of the phase just finished where ships stand."""
    return _ship_slots(state, "bags", lambda ship, _side: ship.field == state.phase)


def crown_slots(state: MagellanState) -> list[Slot]:
    """MG-10: the crowns of every field with a ship, except where a rule scores it otherwise."""
    return _ship_slots(
        state,
        "crowns",
        lambda ship, side: crowns_fixed_by_rule(ship.explorer, side, ship.field, ship.part) is None,
    )


def missing_for_income(state: MagellanState) -> list[str]:
    return missing_entries(state.sheet, state.options.side_map(), income_slots(state))


def missing_for_scoring(state: MagellanState) -> list[str]:
    return missing_entries(state.sheet, state.options.side_map(), crown_slots(state))


def needed_now(state: MagellanState) -> list[str]:
    """Sheet entries the game is waiting for right now (phase-end income, scoring)."""
    if state.stage == "phase_end" and state.ledger and state.phase_end and state.phase_end.income is None:
        return missing_for_income(state)
    if state.stage == "scoring":
        return missing_for_scoring(state)
    return []


def waiting_text(state: MagellanState) -> str:
    """One sentence: what the game waits for now."""
    card = state.card
    if state.stage == "reveal":
        return say(
            "{name} turns up the next explorer card (MG-4).", name=state.name(state.options.auctioneer)
        )
    if state.stage == "auction" and card is not None:
        seat = card.turn
        bidder = state.name(seat) if seat is not None else term("nobody")
        return say(
            "{explorer} is being auctioned; {bidder} bids or passes (MG-4).",
            explorer=EXPLORER_NAMES[card.explorer],
            bidder=bidder,
        )
    if state.stage == "sale" and card is not None and card.todo:
        buyer = state.name(winner(state))
        step = card.todo[0]
        if step == "pay":
            return say("{buyer} pays {price} (MG-6).", buyer=buyer, price=card.price)
        if step == "vasco_part":
            return say("{buyer} chooses the left or right part of Vasco da Gama (MG-8).", buyer=buyer)
        if step == "draw":
            return say("{buyer} draws {count} money card(s) (MG-8).", buyer=buyer, count=card.draws_due)
        if step == "slide":
            return say("{buyer} slides a money card under Magellan (MG-8).", buyer=buyer)
        if step == "open_hand":
            return say("{buyer} lays the hand open (MG-8).", buyer=buyer)
        puller = state.name(left_neighbour(state, winner(state)))
        return say("{puller} pulls a card from {buyer}'s hand (MG-8).", puller=puller, buyer=buyer)
    if state.stage == "phase_end":
        pe = state.phase_end
        if pe is not None and pe.income is None:
            return say("the phase-end income waits for the board sheet's bags (MG-2, MG-9).")
        if pe is not None and any(pe.due):
            return say("players draw their phase-end money cards (MG-9).")
        return say("Marco Polo swaps (MG-8).")
    if state.stage == "scoring":
        if not state.ledger and any(p.final_hand is None for p in state.players):
            return say("every player enters the money cards left in hand (MG-10).")
        if missing_for_scoring(state):
            return say("the scoring waits for the board sheet's crowns (MG-2, MG-10).")
        return say("the Pizarro draw (MG-11).")
    return say("the game is over (MG-12).")

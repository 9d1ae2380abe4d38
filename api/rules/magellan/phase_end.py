"""The end of a phase (MG-9): Cook A hands close, the discard is reshuffled, income is drawn once the
board sheet gives the bags, Marco Polo A swaps (MG-8); then the next phase or the scoring."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from api.rules.errors import IllegalMove, say, term
from api.rules.magellan import events as ev
from api.rules.magellan.cards import check_in_hand, discard_from_hand, draw_into_hand, reshuffle
from api.rules.magellan.constants import PHASE_END_CARDS
from api.rules.magellan.endgame import begin_scoring
from api.rules.magellan.state import MagellanState, PhaseEnd, put
from api.rules.magellan.waiting import missing_for_income, pick_actor, waiting_text


def income_of(state: MagellanState, seat: int) -> int | None:
    """MG-9: 2 cards after phases I and II, plus each own ship's bags on the field just finished."""
    sides = state.options.side_map()
    total = PHASE_END_CARDS if state.phase < 3 else 0
    for ship in state.players[seat].ships:
        if ship.field == state.phase:
            bags = state.sheet.bags(ship.explorer, sides[ship.explorer], ship.field, ship.part)
            if bags is None:
                return None
            total += bags
    return total


def begin(state: MagellanState) -> MagellanState:
    """MG-9: Cook A hands close; after phases I/II the discard is shuffled into the draw stack.
    Outcomes depth only records the income (None where the sheet lacks bags)."""
    phase = state.phase
    if not state.ledger:
        income = tuple(income_of(state, s) for s in range(len(state.players)))
        return replace(state, stage="phase_end", phase_end=PhaseEnd(phase), incomes=(*state.incomes, income))
    state = replace(state, players=tuple(replace(p, hand_open=False) for p in state.players))
    if phase < 3:
        state = reshuffle(state)
    swaps = tuple(state.swaps_earned(seat, phase) for seat in range(len(state.players)))
    return replace(state, stage="phase_end", phase_end=PhaseEnd(phase, swaps=swaps))


def _income_drawn(state: MagellanState, pe: PhaseEnd) -> MagellanState:
    return replace(state, phase_end=replace(pe, due=(0,) * len(pe.due)))


def auto_phase_end(state: MagellanState) -> MagellanState | None:
    """Ledger: income fixed once the sheet has the bags, digital income draws in clockwise order from
    the auctioneer's left, a reshuffle when the stack runs out; then the next phase (or the scoring,
    MG-10). None: waiting for the sheet, physical draws or swaps."""
    pe = state.phase_end
    assert pe is not None
    if state.ledger:
        if pe.income is None:
            if missing_for_income(state):
                return None  # waits for set_board_sheet
            income = tuple(income_of(state, s) or 0 for s in range(len(state.players)))
            return replace(
                state, phase_end=replace(pe, income=income, due=income), incomes=(*state.incomes, income)
            )
        if any(pe.due):
            if state.digital:
                first = (state.options.auctioneer + 1) % len(state.players)
                for seat in state.clockwise_from(first):
                    state = draw_into_hand(state, seat, [None] * pe.due[seat], "MG-9")
                return _income_drawn(state, pe)
            if not state.draw:
                return reshuffle(state) if state.discard else _income_drawn(state, pe)
            return None
        if any(pe.swaps):
            return None
    if state.phase < 3:
        return replace(state, phase=state.phase + 1, stage="reveal", phase_end=None)
    return begin_scoring(state)


def _swapper(state: MagellanState, event: Mapping[str, Any], what: str) -> tuple[PhaseEnd, int]:
    """MG-8 Marco Polo A: swaps come after the income is drawn; the seat is one with swaps left."""
    pe = state.phase_end
    if state.stage != "phase_end" or pe is None or pe.income is None or any(pe.due) or not any(pe.swaps):
        raise IllegalMove(
            "no-swap-now",
            say("No Marco Polo swap is open now: {waiting_text}", waiting_text=waiting_text(state)),
            "MG-8",
        )
    seat = pick_actor(state, event, [s for s, n in enumerate(pe.swaps) if n > 0], what, "MG-8")
    return pe, seat


def swap(state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
    """MG-8 Marco Polo A: after income, per ship on the field just finished up to 3 swaps, one by one."""
    pe, seat = _swapper(state, event, "swap")
    value = ev.money_value(event, "discard", term("card to discard"), "MG-8")
    check_in_hand(state, seat, value, "MG-8")
    if state.digital:
        ev.refuse_in_digital(event, "draw", term("draws the new card"), "MG-8")
    drawn = None if state.digital else ev.money_value(event, "draw", term("card drawn"), "MG-8")
    state = draw_into_hand(discard_from_hand(state, seat, [value]), seat, [drawn], "MG-8")
    return replace(state, phase_end=replace(pe, swaps=put(pe.swaps, seat, pe.swaps[seat] - 1)))


def end_swaps(state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
    """MG-8 Marco Polo A: the seat gives up the swaps it has left."""
    pe, seat = _swapper(state, event, "stop swapping")
    return replace(state, phase_end=replace(pe, swaps=put(pe.swaps, seat, 0)))

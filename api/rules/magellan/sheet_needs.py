"""The board sheet in play (MG-2): entering it, and which of its numbers a step waits for (income
bags at a phase end MG-9, crowns at the scoring MG-10)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from api.rules.errors import IllegalMove, InvalidSetup, MalformedEvent, say
from api.rules.magellan.sheet import Slot, crowns_fixed_by_rule, missing_entries, parse_sheet
from api.rules.magellan.state import MagellanState, Ship


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

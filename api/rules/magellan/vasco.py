"""MG-8 Vasco da Gama side B: the winner chooses the part of the field the ship goes to."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from api.rules.errors import IllegalMove, MalformedEvent
from api.rules.magellan import events as ev
from api.rules.magellan.constants import ROMAN, VASCO_DRAWS
from api.rules.magellan.followups import pop, winner_step
from api.rules.magellan.state import MagellanState, Player
from api.rules.magellan.table import current_card, place_ship, set_player


def _from_part(player: Player, phase: int, from_part: str | None) -> str | None:
    """MG-7: the part of the previous field whose ship moves on (None in phase I, where it is new)."""
    if phase == 1:
        if from_part is not None:
            raise IllegalMove(
                "nothing-to-move",
                "In phase I the ship is placed new: there is no ship on a part to move on (MG-7).",
                "MG-7",
            )
        return None
    options = sorted({s.part for s in player.ships_on("vasco", phase - 1) if s.part is not None})
    if from_part is None:
        if len(options) > 1:
            raise IllegalMove(
                "from-part-required",
                f"{player.name} has ships on both parts of Vasco da Gama field {ROMAN[phase - 1]}: "
                "say which one moves on (MG-7).",
                "MG-7",
            )
        return options[0]
    if from_part not in options:
        raise IllegalMove(
            "no-ship-there",
            f"{player.name} has no ship on the {from_part} part of field {ROMAN[phase - 1]} (MG-7).",
            "MG-7",
        )
    return from_part


def vasco_part(state: MagellanState, event: Mapping[str, Any]) -> MagellanState:
    """MG-8 Vasco da Gama B: left part (draw 1/2/3 at once, no crowns) or right part (crowns)."""
    _, seat = winner_step(state, event, "vasco_part", "Vasco da Gama part", "MG-8")
    phase = state.phase
    part = ev.part(event, "part")
    if part is None:
        raise MalformedEvent("part-required", 'Choose the part: "left" or "right" (MG-8).', "MG-8")
    player = state.players[seat]
    from_part = _from_part(player, phase, ev.part(event, "from_part"))
    state = set_player(state, seat, ships=place_ship(player.ships, "vasco", phase, part, from_part))
    state = pop(state, part=part)
    if part == "left" and state.ledger:
        card = current_card(state)
        state = replace(state, card=replace(card, todo=("draw", *card.todo), draws_due=VASCO_DRAWS[phase]))
    return state

"""Whose event it is: the optional `seat` an event names is checked against who may act now."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from api.rules.common.events import claimed_seat
from api.rules.errors import IllegalMove, MalformedEvent
from api.rules.magellan.state import MagellanState


def check_actor(state: MagellanState, event: Mapping[str, Any], seat: int, rule: str) -> None:
    """When the event names the sending seat, it must be the seat whose decision this is."""
    claimed = claimed_seat(event)
    if claimed is not None and claimed != seat:
        raise IllegalMove("not-your-turn", f"This is {state.name(seat)}'s decision now ({rule}).", rule)


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
            "seat-required", f"Several players can {what} now ({names}): give the seat ({rule}).", rule
        )
    if claimed not in seats:
        who = state.name(claimed) if 0 <= claimed < len(state.players) else f"Seat {claimed}"
        raise IllegalMove("not-your-turn", f"{who} cannot {what} now ({rule}).", rule)
    return claimed

"""Replaying a log from scratch: the reference that the cached state and any export must match."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from api.rules.errors import IllegalMove
from api.rules.game import Game

UNDO = "undo"


def is_undo(event: Mapping[str, Any]) -> bool:
    return event.get("type") == UNDO


def replay(
    game: Game,
    players: Sequence[Mapping[str, Any]],
    options: Mapping[str, Any],
    seed: int,
    events: Iterable[Mapping[str, Any]],
) -> Any:
    """Apply every event in order; an undo returns to the state before the last effective event."""
    states = [game.new_game(players, options, seed)]
    for event in events:
        if is_undo(event):
            if len(states) == 1:
                raise IllegalMove("nothing-to-undo", "There is nothing to undo.")
            states.pop()
        else:
            states.append(game.apply(states[-1], event))
    return states[-1]

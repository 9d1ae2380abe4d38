"""Replaying a log from scratch: the reference that the cached state and any export must match."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from api.rules.common.seeds import shown_seed
from api.rules.errors import IllegalMove, MalformedEvent, say
from api.rules.game import Game

UNDO = "undo"
# Field of a recorded undo that reopened a finished game: the fresh seed of every later server draw.
RESEED = "reseed"
# Field of an undo naming the log entry (its seq) it takes back: a phone that recorded the undo at
# some log position means that entry, whatever another phone recorded meanwhile.
UNDOES = "undoes"
# How the open log shows a value that stays secret until the game is over (Game.public_event).
HIDDEN = "hidden"


def is_undo(event: Mapping[str, Any]) -> bool:
    return event.get("type") == UNDO


def undo_target(event: Mapping[str, Any]) -> int | None:
    """The log entry an undo names (`undoes`), or None for a bare undo, which takes back the last
    entry in effect at the position the append names (`expected_version` pins which one that is)."""
    if set(event) - {"type", UNDOES}:
        raise MalformedEvent(
            "undo-takes-no-fields", "An undo has no fields besides its type and the entry it takes back."
        )
    target = event.get(UNDOES)
    if target is None:
        return None
    if isinstance(target, bool) or not isinstance(target, int) or target < 1:
        raise MalformedEvent(
            "invalid-undo-target",
            "An undo names the entry it takes back by its log position, a whole number.",
        )
    return target


def check_undo_target(target: int | None, head: int) -> None:
    """A named undo takes back only the last entry in effect (`head`); never another one."""
    if head == 0:
        raise nothing_to_undo()
    if target is not None and target != head:
        raise IllegalMove(
            "undo-not-last",
            say(
                "Entry {target} is not the last entry in effect (that is entry {head}): an undo takes "
                "back only the last one.",
                target=target,
                head=head,
            ),
        )


def public_undo(payload: Mapping[str, Any], finished: bool) -> dict[str, Any]:
    """A recorded undo as the open log shows it: a fresh seed stays secret until the game is over
    (then shown as api.rules.common.seeds writes seeds)."""
    if RESEED not in payload:
        return dict(payload)
    return {**payload, RESEED: shown_seed(payload[RESEED]) if finished else HIDDEN}


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
        states = advance(game, states, event)
    return states[-1]


def advance(game: Game, states: Sequence[Any], event: Mapping[str, Any]) -> list[Any]:
    """The states in effect (the first is the new game's) after one more log entry.

    Mirrors the table store: an undo restores the state before the last effective event, drawing
    from the current seed, which an undo that reopened a finished game replaced with the fresh one it
    recorded (`reseed`). Seen in the open log of a running game that seed is "hidden": then only a
    table whose record is open (Game.open_record, where the seed draws nothing) can go on.
    """
    if not is_undo(event):
        return [*states, game.apply(states[-1], event)]
    if len(states) == 1:
        raise nothing_to_undo()
    refuse_undo_of_chance(game, states[-2], states[-1])
    fresh = _seed(event[RESEED]) if RESEED in event and event[RESEED] != HIDDEN else None
    return [*states[:-2], undone_to(game, states[-2], states[-1], fresh)]


def nothing_to_undo() -> IllegalMove:
    return IllegalMove("nothing-to-undo", "There is nothing to undo.")


def chance_stands(game: Game, before: Any, current: Any) -> bool:
    """GEN-1: the entry that led from `before` to `current` showed a die or card the software drew.
    It stands, and with it every entry before it (undo takes entries back from the end only)."""
    return game.reveals_hidden_chance(before, current)


def refuse_undo_of_chance(game: Game, before: Any, current: Any) -> None:
    """GEN-1: an undo would let a player re-roll, or see the next die or card before deciding."""
    if chance_stands(game, before, current):
        raise IllegalMove(
            "chance-stands",
            "A die the app rolled or a card it drew stands, like a rolled die at the table: "
            "it cannot be undone, nor can anything recorded before it.",
            rule="GEN-1",
        )


def undone_to(game: Game, before: Any, current: Any, fresh_seed: int | None = None) -> Any:
    """What an undo returns, here and in the table store alike: the state before the undone entry,
    whose future server draws continue from the current seed, or from `fresh_seed` (recorded when
    the undo reopened a finished game), so that an undo can never re-draw what was already seen."""
    seed = fresh_seed if fresh_seed is not None else game.chance_seed(current)
    return before if seed is None else game.reseed(before, seed)


def _seed(value: Any) -> int:
    """An undo's recorded seed: an integer, or its decimal digits as a `kibitz-record/3` record
    writes it (seeds reach 2**62, past what a JavaScript number holds exactly)."""
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 19:
        return int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedEvent("invalid-reseed", "A recorded undo's seed must be an integer.")
    return value

"""Who may record (or preview) an event that depends on a player's hidden cards — decided once.

The game names the seat whose hidden cards an event depends on (`Game.secret_seat`, from public
information only). Everyone but that seat's own token holder is refused here, before the engine
looks at any card, so a refusal — like every other answer to someone without that seat's token —
is the same whatever the hidden cards are (tests/rules/test_magellan_noninterference.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from api.errors import ApiProblem
from api.rules.game import Game
from api.rules.replay import refuse_undo_of_chance, undone_to


def secret_owner(game: Game, state: Any, event: Any) -> int | None:
    return game.secret_seat(state, event) if isinstance(event, Mapping) else None


def step(game: Game, state: Any, event: Mapping[str, Any], preview: bool = False) -> Any:
    """The state after a game event (IllegalMove / MalformedEvent when the rules refuse it). A preview
    never shows a server draw: the player could look before deciding."""
    after = game.apply(state, event)
    if preview and game.reveals_hidden_chance(state, after):
        raise ApiProblem(
            422,
            "preview-would-reveal-chance",
            "The server's dice and cards stay secret until the event is recorded; "
            "legal_actions shows every possible outcome with its odds.",
        )
    return after


def decide(
    game: Game,
    state: Any,
    players: Sequence[Mapping[str, Any]],
    event: Mapping[str, Any],
    holder: int | None,
    preview: bool = False,
) -> Any:
    """What the table store does with a game event from `holder` (see `refuse_unless_owner`): the
    next state, or the refusal. Pure, so twins that differ only in hidden cards can be compared."""
    refuse_unless_owner(game, state, players, event, holder)
    return step(game, state, event, preview)


def undo_owner(game: Game, before: Any, current: Any, undone: Mapping[str, Any]) -> int | None:
    """GEN-1 for an undo of the entry `undone` (which led from `before` to `current`): refused when
    it showed the server's chance; else the seat whose token alone may take it back when it is a
    secret entry (decided, like `secret_owner`, from public information only)."""
    refuse_undo_of_chance(game, before, current)
    return secret_owner(game, before, undone)


def decide_undo(
    game: Game,
    before: Any,
    current: Any,
    undone: Mapping[str, Any],
    players: Sequence[Mapping[str, Any]],
    holder: int | None,
) -> Any:
    """What the table store does with an undo from `holder` (a running game's: no reseed). Pure, so
    twins that differ only in hidden cards can be compared."""
    refuse_unless_seat(players, undo_owner(game, before, current, undone), holder)
    return undone_to(game, before, current)


def refuse_unless_owner(
    game: Game, state: Any, players: Sequence[Mapping[str, Any]], event: Any, holder: int | None
) -> None:
    """`holder`: the seat whose own token came with the request (None: the table's write token)."""
    refuse_unless_seat(players, secret_owner(game, state, event), holder)


def refuse_unless_seat(players: Sequence[Mapping[str, Any]], owner: int | None, holder: int | None) -> None:
    """Refused unless nobody's secret is involved (`owner` None) or `holder` is that seat (GEN-1: an
    undo of a secret entry, too)."""
    if owner is None or holder == owner:
        return
    name = str(players[owner].get("name", f"Seat {owner}"))
    raise ApiProblem(
        403,
        "seat-token-required",
        f"Only {name}'s own phone (their seat link) can record this: it depends on the cards in "
        f"{name}'s hand.",
        seat=owner,
    )

"""What one finished game says about its players, worked out from its recorded log alone.

The record (api.tables.record) is replayed with the rules, so every figure here can be re-derived by
anyone holding the export: scores and winners from the game's own result, and the figures particular
to each game from the states the log went through (undone entries play no part).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from api.rules.registry import get_game
from api.rules.replay import advance

if TYPE_CHECKING:
    from api.games.server import GameStatistics

JSON = dict[str, Any]


@dataclass(frozen=True)
class GameFacts:
    """Per seat: the final score and whether the seat won; `extra[seat]` holds the game's own
    figures (api/games/<game>/statistics.py: Mahé eggs and busts, Magellan points by source …)."""

    game: str
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    extra: tuple[JSON, ...]
    # Score after each step, one list per seat: the points over the game (per move / per round).
    progress: tuple[tuple[int, ...], ...] = field(default=())


def _states(record: Mapping[str, Any]) -> list[Any]:
    """The states in effect at the end of the log: the line of play, undone steps left out."""
    game = get_game(str(record["game"]))
    assert game is not None
    options = game.normalize_options(record.get("options") or {})
    states = [game.new_game(record["players"], options, int(record["seed"]))]
    for entry in record["events"]:
        states = advance(game, states, entry["event"])
    return states


def _effective_events(record: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The game events in effect at the end (each undo takes back the last one in effect)."""
    kept: list[Mapping[str, Any]] = []
    for entry in record["events"]:
        if entry["event"].get("type") == "undo":
            kept.pop()
        else:
            kept.append(entry["event"])
    return kept


def statistics_of(game: str) -> GameStatistics:
    """What a group counts of the game (its package's api.games.server.GameStatistics)."""
    from api.games import server  # the game packages import this module's neighbours

    found = server(game)
    assert found is not None and found.statistics is not None, game
    return found.statistics


def facts_of(record: Mapping[str, Any]) -> GameFacts:
    """The facts of a finished game's record (its result must exist: the game is over)."""
    game_name = str(record["game"])
    game = get_game(game_name)
    assert game is not None
    states = _states(record)
    result = game.result(states[-1])
    if result is None:
        raise ValueError("the record does not reach the end of the game")
    seats = len(record["players"])
    winners = tuple(int(seat) for seat in result["winners"])
    scores, extra, progress = statistics_of(game_name).facts(states, result, _effective_events(record), seats)
    return GameFacts(game_name, scores, winners, extra, progress)

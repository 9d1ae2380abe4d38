"""What a group counts of Mahé tables (api.games.server.GameStatistics): eggs, busts, moves and
beaches per player; how often the player whose move took the beach won (MA-8)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from marshmallow import Schema, fields

from api.games.server import GameFiguresSchema, GameStatistics, Progress
from api.groups.figures import add_count, add_counts

JSON = dict[str, Any]


def facts(states: Sequence[Any], result: JSON, events: Sequence[Mapping[str, Any]], seats: int) -> Progress:
    busts, moves = [0] * seats, [0] * seats
    progress: list[tuple[int, ...]] = []
    last = None
    for state in states[1:]:
        move = state.last_move
        if move is not None and move != last:  # a new move (consecutive moves always differ)
            moves[move.seat] += 1
            busts[move.seat] += move.bust
            progress.append(tuple(p.eggs for p in state.players))
        last = move
    final = states[-1]
    beach = final.beach_taken_by
    extra = tuple(
        {
            "eggs": player.eggs,
            "cards": player.card_count,
            "busts": busts[seat],
            "moves": moves[seat],
            "took_the_beach": beach == seat,
        }
        for seat, player in enumerate(final.players)
    )
    return tuple(p.eggs for p in final.players), extra, tuple(progress)


def imported_extra(score: int) -> JSON:
    """A Mahé score is the egg total (MA-10); the rest is unknown and counts as nothing."""
    return {"eggs": score, "cards": 0, "busts": 0, "moves": 0, "took_the_beach": False}


def _beach_taker_won(game: Any) -> bool:
    """Whether the last move — the turtle that took the beach and ended the game (MA-8) — won."""
    return any(e["took_the_beach"] and seat in game.winners for seat, e in enumerate(game.extra))


def add_summary(summary: JSON, game: Any, sign: int) -> None:
    add_count(summary, "beach_taker_won", sign * int(_beach_taker_won(game)))


def add_player(mine: JSON, extra: Mapping[str, Any], sign: int) -> None:
    counts = {
        "eggs": extra["eggs"],
        "busts": extra["busts"],
        "moves": extra["moves"],
        "beaches": int(extra["took_the_beach"]),
    }
    add_counts(mine, counts, sign)


def player_figures(mine: Mapping[str, Any], games: int) -> JSON:
    eggs = int(mine.get("eggs", 0))
    out: JSON = {"eggs": eggs, "eggs_per_game": round(eggs / games, 2) if games else 0.0}
    for name in ("busts", "moves", "beaches"):
        out[name] = int(mine.get(name, 0))
    return out


def summary_figures(kept: Mapping[str, Any]) -> JSON:
    return {"beach_taker_won": int(kept.get("beach_taker_won", 0))}


def recount_player(extras: Sequence[Mapping[str, Any]]) -> JSON:
    eggs = sum(e["eggs"] for e in extras)
    return {
        "eggs": eggs,
        "eggs_per_game": round(eggs / len(extras), 2) if extras else 0.0,
        "busts": sum(e["busts"] for e in extras),
        "moves": sum(e["moves"] for e in extras),
        "beaches": sum(e["took_the_beach"] for e in extras),
    }


def recount_summary(games: Sequence[Any]) -> JSON:
    return {"beach_taker_won": sum(_beach_taker_won(g) for g in games)}


class MaheFiguresSchema(GameFiguresSchema):
    eggs = fields.Integer(strict=True, required=True)
    eggs_per_game = fields.Float(required=True)
    busts = fields.Integer(strict=True, required=True, metadata={"description": "Moves over 7 (MA-6)"})
    moves = fields.Integer(strict=True, required=True)
    beaches = fields.Integer(
        strict=True, required=True, metadata={"description": "Games ended by their move (MA-8)"}
    )


class MaheSummarySchema(Schema):
    games = fields.Integer(strict=True, required=True)
    beach_taker_won = fields.Integer(
        strict=True,
        required=True,
        metadata={"description": "Games won by the player whose move took the beach (MA-8)"},
    )


STATISTICS = GameStatistics(
    facts=facts,
    imported_extra=imported_extra,
    add_summary=add_summary,
    add_player=add_player,
    player_figures=player_figures,
    summary_figures=summary_figures,
    recount_player=recount_player,
    recount_summary=recount_summary,
    record="most_eggs",  # the highest egg total at the end of a game (MA-10)
    record_value=lambda game, seat: int(game.scores[seat]),
    figures_schema=MaheFiguresSchema,
    summary_schema=MaheSummarySchema,
)

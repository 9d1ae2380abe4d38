"""What one finished game says about its players, worked out from its recorded log alone.

The record (api.tables.record) is replayed with the rules, so every figure here can be re-derived by
anyone holding the export: scores and winners from the game's own result, and the figures particular
to each game from the states the log went through (undone entries play no part).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from api.rules.mhing.hand import hand_from_json
from api.rules.mhing.scoring import score_hand
from api.rules.registry import get_game
from api.rules.replay import advance

JSON = dict[str, Any]


@dataclass(frozen=True)
class GameFacts:
    """Per seat: the final score and whether the seat won; `extra[seat]` holds the game's own
    figures (Mahé eggs and busts, Magellan points by source and explorers, Mhing hands and premiums)."""

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


def _mahe(
    states: Sequence[Any], seats: int
) -> tuple[tuple[int, ...], tuple[JSON, ...], tuple[tuple[int, ...], ...]]:
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


_MAGELLAN_SOURCES = ("fields", "money", "magellan", "pizarro")


def _magellan(result: JSON, final: Any, seats: int) -> tuple[tuple[int, ...], tuple[JSON, ...]]:
    won = [Counter[str]() for _ in range(seats)]
    for outcome in final.history:  # every explorer card sold, to whom (MG-4)
        if outcome.outcome == "sold" and outcome.seat is not None:
            won[outcome.seat][outcome.explorer] += 1
    by_seat = {entry["seat"]: entry for entry in result["scores"]}
    scores, extra = [], []
    for seat in range(seats):
        entry = by_seat[seat]
        pizarro = entry.get("pizarro") or {}
        sources = {
            "fields": int(entry["fields_total"]),
            "money": int(entry["money"]["crowns"]),
            "magellan": int(entry["magellan"]["points"]),
            "pizarro": int(pizarro.get("points") or 0),
        }
        scores.append(int(entry["total"]))
        extra.append({"points_by_source": sources, "explorers_won": dict(sorted(won[seat].items()))})
    return tuple(scores), tuple(extra)


def _mhing(
    events: Sequence[Mapping[str, Any]], states: Sequence[Any], seats: int
) -> tuple[tuple[JSON, ...], tuple[tuple[int, ...], ...]]:
    hands = [0] * seats
    points = [0] * seats
    biggest = [0] * seats
    premiums: list[Counter[str]] = [Counter() for _ in range(seats)]
    progress: list[tuple[int, ...]] = []
    for event, state in zip(events, states[1:], strict=True):
        kind = event.get("type")
        if kind in ("round_won", "round_points"):
            winner = int(event["winner"])
            hands[winner] += 1
            played = state.rounds[-1]
            points[winner] += played.points
            biggest[winner] = max(biggest[winner], played.points)
            if kind == "round_won":
                score = score_hand(hand_from_json(event["hand"], discard=event.get("discarder") is not None))
                premiums[winner].update({item.code: item.times for item in score.items})
        if kind != "end_game":
            progress.append(tuple(state.scores))
    extra = tuple(
        {
            "hands_won": hands[seat],
            "hand_points": points[seat],
            "biggest_hand": biggest[seat],
            "premiums": dict(sorted(premiums[seat].items())),
        }
        for seat in range(seats)
    )
    return extra, tuple(progress)


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
    progress: tuple[tuple[int, ...], ...] = ()
    if game_name == "mahe":
        scores, extra, progress = _mahe(states, seats)
    elif game_name == "magellan":
        scores, extra = _magellan(result, states[-1], seats)
    else:
        by_seat = {entry["seat"]: int(entry["score"]) for entry in result["ranking"]}
        scores = tuple(by_seat[seat] for seat in range(seats))
        extra, progress = _mhing(_effective_events(record), states, seats)
    return GameFacts(game_name, scores, winners, extra, progress)

"""What a group counts of Mhing tables (api.games.server.GameStatistics): hands won, their points,
the biggest hand and the premiums scored (MH-7, MH-8)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from marshmallow import Schema, fields

from api.games.server import GameFiguresSchema, GameStatistics, Progress
from api.groups.figures import add_count, add_counts, premium_list, top
from api.rules.mhing.hand import hand_from_json
from api.rules.mhing.scoring import score_hand

JSON = dict[str, Any]


def facts(states: Sequence[Any], result: JSON, events: Sequence[Mapping[str, Any]], seats: int) -> Progress:
    by_seat = {entry["seat"]: int(entry["score"]) for entry in result["ranking"]}
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
    return tuple(by_seat[seat] for seat in range(seats)), extra, tuple(progress)


def imported_extra(score: int) -> JSON:
    return {"hands_won": 0, "hand_points": 0, "biggest_hand": 0, "premiums": {}}


def add_summary(summary: JSON, game: Any, sign: int) -> None:
    biggest = max(int(e["biggest_hand"]) for e in game.extra)
    add_count(summary.setdefault("biggest", {}), str(biggest), sign)


def add_player(mine: JSON, extra: Mapping[str, Any], sign: int) -> None:
    add_counts(mine, {"hands_won": extra["hands_won"], "hand_points": extra["hand_points"]}, sign)
    add_count(mine.setdefault("biggest", {}), str(int(extra["biggest_hand"])), sign)
    add_counts(mine.setdefault("premiums", {}), extra["premiums"], sign)


def player_figures(mine: Mapping[str, Any], games: int) -> JSON:
    return {
        "hands_won": int(mine.get("hands_won", 0)),
        "hand_points": int(mine.get("hand_points", 0)),
        "biggest_hand": top(mine.get("biggest", {})) or 0,
        "premiums": premium_list(mine.get("premiums", {})),
    }


def summary_figures(kept: Mapping[str, Any]) -> JSON:
    return {"biggest_hand": top(kept.get("biggest", {})) or 0}


def recount_player(extras: Sequence[Mapping[str, Any]]) -> JSON:
    premiums: Counter[str] = Counter()
    for e in extras:
        premiums.update(e["premiums"])
    return {
        "hands_won": sum(e["hands_won"] for e in extras),
        "hand_points": sum(e["hand_points"] for e in extras),
        "biggest_hand": max((e["biggest_hand"] for e in extras), default=0),
        "premiums": premium_list(premiums),
    }


def recount_summary(games: Sequence[Any]) -> JSON:
    return {"biggest_hand": max(e["biggest_hand"] for g in games for e in g.extra)}


class PremiumCountSchema(Schema):
    code = fields.String(required=True)
    count = fields.Integer(strict=True, required=True)


class MhingFiguresSchema(GameFiguresSchema):
    hands_won = fields.Integer(strict=True, required=True)
    hand_points = fields.Integer(strict=True, required=True)
    biggest_hand = fields.Integer(strict=True, required=True)
    premiums = fields.List(
        fields.Nested(PremiumCountSchema), required=True, metadata={"description": "Most frequent first"}
    )


class MhingSummarySchema(Schema):
    games = fields.Integer(strict=True, required=True)
    biggest_hand = fields.Integer(strict=True, required=True)


STATISTICS = GameStatistics(
    facts=facts,
    imported_extra=imported_extra,
    add_summary=add_summary,
    add_player=add_player,
    player_figures=player_figures,
    summary_figures=summary_figures,
    recount_player=recount_player,
    recount_summary=recount_summary,
    record="biggest_hand",  # the biggest single hand won (MH-8 points)
    record_value=lambda game, seat: int(game.extra[seat]["biggest_hand"]),
    figures_schema=MhingFiguresSchema,
    summary_schema=MhingSummarySchema,
)

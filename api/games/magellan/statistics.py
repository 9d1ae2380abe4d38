"""What a group counts of Magellan tables (api.games.server.GameStatistics): points by source and
explorer cards bought per player (MG-4, MG-10)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from marshmallow import Schema, fields

from api.games.server import GameFiguresSchema, GameStatistics, Progress
from api.groups.figures import add_counts

JSON = dict[str, Any]
SOURCES = ("fields", "money", "magellan", "pizarro")  # where a final score's points come from (MG-10)


def facts(states: Sequence[Any], result: JSON, events: Sequence[Mapping[str, Any]], seats: int) -> Progress:
    won = [Counter[str]() for _ in range(seats)]
    for outcome in states[-1].history:  # every explorer card sold, to whom (MG-4)
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
    return tuple(scores), tuple(extra), ()


def imported_extra(score: int) -> JSON:
    return {"points_by_source": dict.fromkeys(SOURCES, 0), "explorers_won": {}}


def add_player(mine: JSON, extra: Mapping[str, Any], sign: int) -> None:
    add_counts(mine.setdefault("points_by_source", {}), extra["points_by_source"], sign)
    add_counts(mine.setdefault("explorers_won", {}), extra["explorers_won"], sign)


def player_figures(mine: Mapping[str, Any], games: int) -> JSON:
    sources = mine.get("points_by_source", {})
    return {
        "points_by_source": {k: int(sources.get(k, 0)) for k in SOURCES},
        "explorers_won": {k: n for k, n in sorted(mine.get("explorers_won", {}).items()) if n},
    }


def recount_player(extras: Sequence[Mapping[str, Any]]) -> JSON:
    sources: Counter[str] = Counter()
    explorers: Counter[str] = Counter()
    for e in extras:
        sources.update(e["points_by_source"])
        explorers.update(e["explorers_won"])
    return {
        "points_by_source": {k: sources[k] for k in SOURCES},
        "explorers_won": dict(sorted(explorers.items())),
    }


class PointsBySourceSchema(Schema):
    # `fields_` only because `fields` is the module; the figure is read from the key "fields"
    # (without `attribute` the answer dropped it: issue 33, "Ships NaN").
    fields_ = fields.Integer(
        strict=True, required=True, data_key="fields", attribute="fields", metadata={"description": "Ships"}
    )
    money = fields.Integer(strict=True, required=True)
    magellan = fields.Integer(strict=True, required=True)
    pizarro = fields.Integer(strict=True, required=True)


class ExplorersWonSchema(Schema):
    columbus = fields.Integer(strict=True, load_default=0, dump_default=0)
    pizarro = fields.Integer(strict=True, load_default=0, dump_default=0)
    magellan = fields.Integer(strict=True, load_default=0, dump_default=0)
    marco_polo = fields.Integer(strict=True, load_default=0, dump_default=0)
    vasco = fields.Integer(strict=True, load_default=0, dump_default=0)
    cook = fields.Integer(strict=True, load_default=0, dump_default=0)


class MagellanFiguresSchema(GameFiguresSchema):
    points_by_source = fields.Nested(PointsBySourceSchema, required=True)
    explorers_won = fields.Nested(
        ExplorersWonSchema, required=True, metadata={"description": "Cards bought (MG-4)"}
    )


class MagellanSummarySchema(Schema):
    games = fields.Integer(strict=True, required=True)


STATISTICS = GameStatistics(
    facts=facts,
    imported_extra=imported_extra,
    add_summary=lambda summary, game, sign: None,
    add_player=add_player,
    player_figures=player_figures,
    summary_figures=lambda kept: {},
    recount_player=recount_player,
    recount_summary=lambda games: {},
    record="highest_score",  # the highest final score of a game (MG-10)
    record_value=lambda game, seat: int(game.scores[seat]),
    figures_schema=MagellanFiguresSchema,
    summary_schema=MagellanSummarySchema,
)

"""Groups over HTTP: players kept between games, the tables they played, history and statistics.

A group is read with its id alone (the read link) and changed with its edit token (the join link),
as a table is. History and statistics are computed from the tables' recorded logs.
"""

from __future__ import annotations

import csv
import io
import json
import time
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from flask import Response, current_app, request
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from api.errors import ApiProblem
from api.groups import outcomes
from api.groups.history import (
    FactsCache,
    Played,
    head_to_head,
    history,
    history_entry,
    progress,
    statistics,
)
from api.groups.store import GroupRow, GroupStore, Membership, group_key
from api.http.context import bearer_token, store
from api.http.limits import guard_creation, guard_token, limit_response
from api.http.stream import CHANGES_KEY, EVENT_STREAM, STARTERS_KEY, open_stream_slot
from api.http.strict import FreeText, idempotency_key
from api.tables.changes import ChangeFeed
from api.tables.record import build_record, spreadsheet_safe
from api.tables.store import TableStore

blp = Blueprint("groups", __name__, url_prefix="/api/groups", description="Groups: players between games")

GROUPS_KEY = "kibitz.groups"
FACTS_KEY = "kibitz.group-facts"
GAME_NAMES = ("mahe", "magellan", "mhing")
GROUP_SECURITY = [{"groupToken": []}]
CREATE_GROUP_IDEMPOTENCY_HEADER = {
    "in": "header",
    "name": "Idempotency-Key",
    "required": False,
    "schema": {"type": "string", "pattern": "^[!-~]{1,128}$", "example": "5f0c2a4e-8d1b-4c3e"},
    "description": "Makes a retried creation harmless: the same key and body answer the same group "
    "(1 to 128 visible ASCII characters; a UUID is ideal).",
}


def groups() -> GroupStore:
    return current_app.extensions[GROUPS_KEY]  # type: ignore[no-any-return]


def _played(group: GroupRow) -> list[Played]:
    cache: FactsCache = current_app.extensions[FACTS_KEY]
    return [cache.played(store(), m) for m in groups().memberships(group.id)]


class GroupPlayerSchema(Schema):
    id = fields.String(
        load_default=None,
        validate=validate.Length(max=16),
        metadata={"description": "Given by the server; send it back to keep the player (omit for a new one)"},
    )
    name = FreeText(max_length=40, required=True, metadata={"description": "The player's name."})
    colour = FreeText(
        max_length=20,
        load_default=None,
        allow_none=True,
        metadata={"description": "e.g. `red`; null for none."},
    )
    emoji = FreeText(  # 16: the longest emoji sequence (a kiss with two skin tones) has 10
        max_length=16,
        load_default=None,
        allow_none=True,
        metadata={"description": "An emoji or initials shown with the name; null for none."},
    )


class GroupPlayerOutSchema(GroupPlayerSchema):
    id = fields.String(required=True)


GROUP_NAME = FreeText(max_length=80, required=True, metadata={"description": "The group's name."})


class GroupCreateSchema(Schema):
    name = GROUP_NAME
    players = fields.List(
        fields.Nested(GroupPlayerSchema), load_default=list, validate=validate.Length(max=60)
    )


class GroupUpdateSchema(GroupCreateSchema):
    expected_version = fields.Integer(strict=True, required=True, validate=validate.Range(min=1))


class LastSeatingSchema(Schema):
    game = fields.String(required=True, validate=validate.OneOf(GAME_NAMES))
    table_id = fields.String(required=True)
    seats = fields.List(fields.String(), required=True, metadata={"description": "Group player id per seat"})
    players = fields.List(
        fields.Dict(metadata={"x-ref": "PlayerSetup"}),
        required=True,
        metadata={"description": "The players as set up then (Mahé: with their turtle colours)"},
    )
    options = fields.Dict(
        required=True,
        metadata={"description": "The options it was played with (the game's own)", "x-ref": "TableOptions"},
    )


class GroupSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    players = fields.List(fields.Nested(GroupPlayerOutSchema), required=True)
    version = fields.Integer(strict=True, required=True)
    tables = fields.Integer(
        strict=True, required=True, metadata={"description": "Tables played in the group"}
    )
    last_seating = fields.List(
        fields.Nested(LastSeatingSchema),
        required=True,
        metadata={"description": "Per game, the seats and colours of the group's latest table of it"},
    )
    created_at = fields.DateTime(required=True)
    updated_at = fields.DateTime(required=True)


class CreatedGroupSchema(Schema):
    replayed = fields.Boolean(
        required=True,
        metadata={"description": "True when this answers a retried creation (the same Idempotency-Key)"},
    )
    id = fields.String(required=True)
    edit_token = fields.String(required=True, metadata={"description": "Needed to change the group"})
    join_path = fields.String(required=True, metadata={"description": "The link that may change the group"})
    read_path = fields.String(required=True, metadata={"description": "The link that only reads it"})
    group = fields.Nested(GroupSchema, required=True)


class AddTableSchema(Schema):
    table_id = fields.String(required=True)
    table_token = fields.String(required=True, metadata={"description": "The table's write token"})
    seats = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "The group player id in each seat, in seat order"},
    )


class MembershipSchema(Schema):
    table_id = fields.String(required=True)
    seats = fields.List(fields.String(), required=True)
    abandoned = fields.Boolean(required=True)
    added_at = fields.DateTime(required=True)


class AbandonSchema(Schema):
    abandoned = fields.Boolean(
        required=True, metadata={"description": "Given up unfinished: kept, not counted"}
    )


class HistoryQuerySchema(Schema):
    game = fields.String(load_default=None, validate=validate.OneOf(GAME_NAMES))
    player = fields.String(load_default=None, metadata={"description": "A group player id"})


class HistoryPlayerSchema(Schema):
    seat = fields.Integer(strict=True, required=True)
    player_id = fields.String(required=True)
    name = fields.String(required=True)
    score = fields.Integer(strict=True, allow_none=True, required=True)
    winner = fields.Boolean(required=True)


class HistoryEntrySchema(Schema):
    table_id = fields.String(required=True)
    game = fields.String(required=True)
    status = fields.String(required=True, metadata={"description": "`finished`, `playing` or `abandoned`"})
    started_at = fields.DateTime(required=True)
    last_entry_at = fields.DateTime(required=True)
    duration_seconds = fields.Integer(
        strict=True, required=True, metadata={"description": "Start to last entry"}
    )
    players = fields.List(fields.Nested(HistoryPlayerSchema), required=True)
    winners = fields.List(fields.String(), required=True, metadata={"description": "Group player ids"})
    record_path = fields.String(allow_none=True, required=True, metadata={"description": "Verifiable record"})
    bgstats_path = fields.String(allow_none=True, required=True)
    table_path = fields.String(required=True)


class HistorySchema(Schema):
    entries = fields.List(fields.Nested(HistoryEntrySchema), required=True)


class StatsQuerySchema(Schema):
    game = fields.String(load_default=None, validate=validate.OneOf(GAME_NAMES))


class GameFiguresSchema(Schema):
    """One player's figures in one game."""

    games = fields.Integer(strict=True, required=True)
    wins = fields.Integer(strict=True, required=True)
    win_rate = fields.Float(required=True)
    average_score = fields.Float(required=True)
    best_score = fields.Integer(strict=True, allow_none=True, required=True)


class MaheFiguresSchema(GameFiguresSchema):
    eggs = fields.Integer(strict=True, required=True)
    eggs_per_game = fields.Float(required=True)
    busts = fields.Integer(strict=True, required=True, metadata={"description": "Moves over 7 (MA-6)"})
    moves = fields.Integer(strict=True, required=True)
    beaches = fields.Integer(
        strict=True, required=True, metadata={"description": "Games ended by their move (MA-8)"}
    )


class PointsBySourceSchema(Schema):
    fields_ = fields.Integer(strict=True, required=True, data_key="fields", metadata={"description": "Ships"})
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


class ByGameSchema(Schema):
    mahe = fields.Nested(MaheFiguresSchema)
    magellan = fields.Nested(MagellanFiguresSchema)
    mhing = fields.Nested(MhingFiguresSchema)


class PlayerStatsSchema(Schema):
    player_id = fields.String(required=True)
    name = fields.String(required=True)
    games = fields.Integer(strict=True, required=True)
    wins = fields.Integer(strict=True, required=True)
    win_rate = fields.Float(required=True)
    by_game = fields.Nested(ByGameSchema, required=True, metadata={"description": "Only the games played"})


class MaheSummarySchema(Schema):
    games = fields.Integer(strict=True, required=True)
    beach_taker_won = fields.Integer(
        strict=True,
        required=True,
        metadata={"description": "Games won by the player whose move took the beach (MA-8)"},
    )


class MagellanSummarySchema(Schema):
    games = fields.Integer(strict=True, required=True)


class MhingSummarySchema(Schema):
    games = fields.Integer(strict=True, required=True)
    biggest_hand = fields.Integer(strict=True, required=True)


class GamesSummarySchema(Schema):
    mahe = fields.Nested(MaheSummarySchema)
    magellan = fields.Nested(MagellanSummarySchema)
    mhing = fields.Nested(MhingSummarySchema)


class StatsSchema(Schema):
    players = fields.List(fields.Nested(PlayerStatsSchema), required=True)
    games = fields.Nested(GamesSummarySchema, required=True)
    counted_tables = fields.Integer(strict=True, required=True)


class HeadToHeadQuerySchema(Schema):
    a = fields.String(required=True)
    b = fields.String(required=True)


class HeadToHeadSchema(Schema):
    a = fields.String(required=True)
    b = fields.String(required=True)
    a_name = fields.String(allow_none=True, required=True)
    b_name = fields.String(allow_none=True, required=True)
    games = fields.Integer(strict=True, required=True)
    a_wins = fields.Integer(strict=True, required=True)
    b_wins = fields.Integer(strict=True, required=True)
    a_ahead = fields.Integer(strict=True, required=True)
    b_ahead = fields.Integer(strict=True, required=True)
    level = fields.Integer(strict=True, required=True)


class ProgressSchema(Schema):
    table_id = fields.String(required=True)
    game = fields.String(required=True)
    lines = fields.List(
        fields.List(fields.Integer(strict=True)),
        required=True,
        metadata={"description": "Per seat, the score after each move (Mahé) or round (Mhing)"},
    )


class MembershipEntrySchema(Schema):
    table_id = fields.String(required=True)
    seats = fields.List(fields.String(), required=True)
    abandoned = fields.Boolean(required=True)


class GroupExportSchema(Schema):
    format = fields.String(required=True, metadata={"description": "`kibitz-group/1`"})
    exported_at = fields.String(required=True)
    group = fields.Nested(GroupSchema, required=True)
    memberships = fields.List(fields.Nested(MembershipEntrySchema), required=True)
    history = fields.List(fields.Nested(HistoryEntrySchema), required=True)
    statistics = fields.Nested(StatsSchema, required=True)
    records = fields.List(
        fields.Dict(metadata={"x-ref": "Record"}),
        required=True,
        metadata={"description": "Each finished table's record, as /export gives it"},
    )


def group_view(group: GroupRow, memberships: list[Membership] | None = None) -> dict[str, Any]:
    if memberships is None:
        memberships = groups().memberships(group.id)
    latest: dict[str, dict[str, Any]] = {}
    for membership in memberships:  # oldest first: the last one of each game stays
        table = store().get(membership.table_id)
        latest[table.game] = {
            "game": table.game,
            "table_id": table.id,
            "seats": membership.seats,
            "players": table.players,
            "options": table.options,
        }
    return {
        "id": group.id,
        "name": group.name,
        "players": group.players,
        "version": group.version,
        "tables": len(memberships),
        "last_seating": list(latest.values()),
        "created_at": group.created_at,
        "updated_at": group.updated_at,
    }


@blp.route("")
class Groups(MethodView):
    @blp.arguments(
        GroupCreateSchema, example={"name": "Friday club", "players": [{"name": "Ann", "colour": "red"}]}
    )
    @blp.response(201, CreatedGroupSchema)
    @blp.doc(operationId="createGroup", parameters=[CREATE_GROUP_IDEMPOTENCY_HEADER])
    @blp.alt_response(
        422,
        response="UNPROCESSABLE_ENTITY",
        description="Bad name or players; `idempotency-key-reused` for another body",
    )
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Start a group

        A family or a club: its players (name, colour, emoji or initials), kept between games. Keep
        the edit token (share it as the join link); the id alone reads the group (the read link).
        With an `Idempotency-Key` (a phone that started the group offline sends it when it is back)
        a retry answers the group it made — the same id and edit token, `replayed`: true.
        """
        guard_creation()
        group, token, replayed = groups().create_once(
            body["name"], body["players"], idempotency_key(request.headers.get("Idempotency-Key"))
        )
        return {
            "replayed": replayed,
            "id": group.id,
            "edit_token": token,
            "join_path": f"/#/g/{group.id}?k={token}",
            "read_path": f"/#/g/{group.id}",
            "group": group_view(group, []),
        }


@blp.route("/<string:group_id>")
class GroupResource(MethodView):
    @blp.doc(operationId="getGroup")
    @blp.response(200, GroupSchema)
    @blp.alt_response(404, response="NOT_FOUND", description="No such group")
    def get(self, group_id: str) -> dict[str, Any]:
        """Read a group

        Its players, how many tables it played, and per game the seats of its latest table there (so
        the next setup can offer the same seats and colours).
        """
        return group_view(groups().get(group_id))

    @blp.doc(operationId="updateGroup", security=GROUP_SECURITY)
    @blp.arguments(GroupUpdateSchema, example={"name": "Friday club", "players": [], "expected_version": 1})
    @blp.response(200, GroupSchema)
    @blp.alt_response(401, response="UNAUTHORIZED", description="No edit token")
    @blp.alt_response(403, response="FORBIDDEN", description="Wrong edit token")
    @blp.alt_response(404, response="NOT_FOUND", description="No such group")
    @blp.alt_response(409, response="CONFLICT", description="`stale-version`: changed meanwhile")
    @blp.alt_response(
        422, response="UNPROCESSABLE_ENTITY", description="`player-has-games`, `duplicate-player-name`, …"
    )
    def put(self, body: dict[str, Any], group_id: str) -> dict[str, Any]:
        """Change a group

        Renames the group and replaces its players: send each kept player with its `id`, new ones
        without. A player who has played the group's tables cannot be removed.
        """
        with guard_token(group_id):
            group = groups().update(
                group_id, bearer_token(), body["name"], body["players"], body["expected_version"]
            )
        return group_view(group)


@blp.route("/<string:group_id>/tables")
class GroupTables(MethodView):
    @blp.doc(operationId="addGroupTable", security=GROUP_SECURITY)
    @blp.arguments(
        AddTableSchema,
        example={"table_id": "TOhmKu7Ht0a1b2c3", "table_token": "…", "seats": ["bwgw4Muh", "57d81YRh"]},
    )
    @blp.response(201, MembershipSchema)
    @blp.alt_response(401, response="UNAUTHORIZED", description="No edit token")
    @blp.alt_response(403, response="FORBIDDEN", description="Wrong group or table token")
    @blp.alt_response(404, response="NOT_FOUND", description="No such group or table")
    @blp.alt_response(409, response="CONFLICT", description="Already in the group with other seats")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY", description="Seats do not match the table")
    def post(self, body: dict[str, Any], group_id: str) -> Membership:
        """Add a table to the group

        Names the group player in each seat. Needs the group's edit token and the table's write
        token; adding the same table with the same seats again changes nothing.
        """
        with guard_token(group_id):
            return groups().add_table(
                group_id, bearer_token(), body["table_id"], body["table_token"], body["seats"]
            )


@blp.route("/<string:group_id>/tables/<string:table_id>")
class GroupTable(MethodView):
    @blp.doc(operationId="abandonGroupTable", security=GROUP_SECURITY)
    @blp.arguments(AbandonSchema, example={"abandoned": True})
    @blp.response(200, MembershipSchema)
    @blp.alt_response(401, response="UNAUTHORIZED", description="No edit token")
    @blp.alt_response(403, response="FORBIDDEN", description="Wrong edit token")
    @blp.alt_response(404, response="NOT_FOUND", description="No such group, or the table is not in it")
    def patch(self, body: dict[str, Any], group_id: str, table_id: str) -> Membership:
        """Abandon a table (or take it back)

        An abandoned table stays in the history as unfinished and is left out of the statistics.
        """
        with guard_token(group_id):
            return groups().set_abandoned(group_id, bearer_token(), table_id, body["abandoned"])


@blp.route("/<string:group_id>/tables/<string:table_id>/progress")
class GroupTableProgress(MethodView):
    @blp.doc(operationId="getGroupTableProgress")
    @blp.response(200, ProgressSchema)
    @blp.alt_response(404, response="NOT_FOUND", description="No such group, table, or no finished game")
    def get(self, group_id: str, table_id: str) -> dict[str, Any]:
        """The score over one finished game

        One line per seat: the score after each move (Mahé) or round (Mhing), from the recorded log.
        """
        group = groups().get(group_id)
        for played in _played(group):
            if played.table.id == table_id and (line := progress(played)) is not None:
                return line
        raise ApiProblem(
            404, "no-progress", "No finished game of this group with a score over time has this id."
        )


@blp.route("/<string:group_id>/history")
class GroupHistory(MethodView):
    @blp.doc(operationId="getGroupHistory")
    @blp.arguments(HistoryQuerySchema, location="query")
    @blp.response(200, HistorySchema)
    @blp.alt_response(404, response="NOT_FOUND", description="No such group")
    def get(self, query: dict[str, Any], group_id: str) -> dict[str, Any]:
        """A group's history

        Every table of the group, newest first: date, game, players (group players, seat by seat),
        scores and winners of finished games, duration, and links to the verifiable record and the
        BG Stats export. Filter by `game` and by `player` (a group player id).
        """
        group = groups().get(group_id)
        return {"entries": history(group, _played(group), query["game"], query["player"])}


@blp.route("/<string:group_id>/stats")
class GroupStats(MethodView):
    @blp.doc(operationId="getGroupStats")
    @blp.arguments(StatsQuerySchema, location="query")
    @blp.response(200, StatsSchema)
    @blp.alt_response(404, response="NOT_FOUND", description="No such group")
    def get(self, query: dict[str, Any], group_id: str) -> dict[str, Any]:
        """A group's statistics

        Per player, overall and per game, over the finished tables that were not abandoned, each
        figure re-derivable from the tables' exported records by replaying them.
        """
        group = groups().get(group_id)
        return statistics(group, _played(group), query["game"])


@blp.route("/<string:group_id>/head-to-head")
class GroupHeadToHead(MethodView):
    @blp.doc(operationId="getGroupHeadToHead")
    @blp.arguments(HeadToHeadQuerySchema, location="query")
    @blp.response(200, HeadToHeadSchema)
    @blp.alt_response(404, response="NOT_FOUND", description="No such group")
    def get(self, query: dict[str, Any], group_id: str) -> dict[str, Any]:
        """Two players head to head

        Over the finished games both played: how often each won, and who finished ahead of the other.
        """
        group = groups().get(group_id)
        return head_to_head(group, _played(group), query["a"], query["b"])


@blp.route("/<string:group_id>/export")
class GroupExport(MethodView):
    @blp.doc(operationId="exportGroup")
    @blp.response(200, GroupExportSchema)
    @blp.alt_response(404, response="NOT_FOUND", description="No such group")
    def get(self, group_id: str) -> Any:
        """Export a group (JSON)

        The group, its history, its statistics and the record of every finished table, so that
        anyone can recompute the statistics by replaying the records.
        """
        group = groups().get(group_id)
        played = _played(group)
        records = []
        for p in played:
            if p.table.finished:
                table, entries = store().log(p.table.id)
                records.append(build_record(table, entries, store().key))
        body = {
            "format": "kibitz-group/1",
            "exported_at": datetime.now(UTC).isoformat(),
            "group": group_view(group),
            "memberships": [
                {
                    "table_id": p.membership.table_id,
                    "seats": p.membership.seats,
                    "abandoned": p.membership.abandoned,
                }
                for p in played
            ],
            "history": history(group, played, None, None),
            "statistics": statistics(group, played),
            "records": records,
        }
        return body, 200, {"Content-Disposition": f'attachment; filename="kibitz-group-{group.id}.json"'}


@blp.route("/<string:group_id>/export.csv")
class GroupExportCsv(MethodView):
    @blp.doc(operationId="exportGroupCsv")
    @blp.response(
        200,
        content_type="text/csv",
        description="One row per player per table",
        example="started_at,table_id,game,status,seat,player,score,winner,duration_s\n",
    )
    @blp.alt_response(404, response="NOT_FOUND", description="No such group")
    def get(self, group_id: str) -> Response:
        """Export a group's history (CSV)

        One row per player per table: date, game, status, player, seat, score, winner, duration.
        """
        group = groups().get(group_id)
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(
            ["started_at", "table_id", "game", "status", "seat", "player", "score", "winner", "duration_s"]
        )
        for entry in history(group, _played(group), None, None):
            for seat in entry["players"]:
                writer.writerow(
                    [
                        entry["started_at"].isoformat(),
                        entry["table_id"],
                        entry["game"],
                        entry["status"],
                        seat["seat"],
                        spreadsheet_safe(seat["name"]),
                        seat["score"],
                        seat["winner"],
                        entry["duration_seconds"],
                    ]
                )
        return Response(
            out.getvalue(),
            mimetype="text/csv",
            headers={"Content-Disposition": f'attachment; filename="kibitz-group-{group.id}.csv"'},
        )


# -- a group's live stream ---------------------------------------------------------------------------

GROUP_STREAM_DOC = {
    "parameters": [
        {
            "in": "header",
            "name": "Last-Event-ID",
            "required": False,
            "schema": {"type": "string", "maxLength": outcomes.MAX_ID, "pattern": outcomes.ID_PATTERN},
            "description": "The `id` of the last event you received: the stream starts with what "
            "changed since (one event per table), instead of `listening`.",
        },
    ],
    "responses": {
        "200": {
            "description": "An endless `text/event-stream`: `listening` first (or, with "
            "`Last-Event-ID`, what you missed), then an event whenever a table of the group "
            "`finished`, was `abandoned` or `reopened`, on whichever server it happened. `id:` is "
            "the statuses of the group's tables, `data:` JSON `{kind, group_id, tables, entry}` "
            "(`entry` as the group's history shows the table). Lines starting with `:` are "
            "heartbeats. Reconnect with `Last-Event-ID` to resume.",
            "content": {
                "text/event-stream": {
                    "schema": {"$ref": "#/components/schemas/GroupStreamEvent"},
                    "example": None,  # filled from api.http.response_examples (GROUP_STREAM_EXAMPLE)
                }
            },
        }
    },
}


def _group_stream_doc() -> dict[str, Any]:
    from api.http.response_examples import group_stream_example

    doc = json.loads(json.dumps(GROUP_STREAM_DOC))
    doc["responses"]["200"]["content"]["text/event-stream"]["example"] = group_stream_example()
    return doc


@blp.route("/<string:group_id>/stream")
class GroupStream(MethodView):
    @blp.doc(operationId="streamGroup", **_group_stream_doc())
    @blp.alt_response(400, response="BAD_REQUEST", description="Malformed Last-Event-ID")
    @blp.alt_response(404, response="NOT_FOUND", description="No such group")
    @blp.alt_response(
        429,
        **limit_response(
            "`too-many-streams`: more than KIBITZ_CLIENT_STREAMS (100) live streams open from your "
            "address (per server process)"
        ),
    )
    def get(self, group_id: str) -> Response:
        """Follow a group live

        Server-Sent Events for bots and scoreboards: an event whenever one of the group's tables
        finishes (with its scores and winners), is abandoned, or is reopened. The group's id (its
        read link) is enough. Resume with `Last-Event-ID` after a dropped connection, on any server:
        the first events are what changed meanwhile.
        """
        raw = request.headers.get("Last-Event-ID", "").strip()
        heard = outcomes.decode(raw) if raw else None
        groups().get(group_id)  # 404 before the stream starts
        release = open_stream_slot()
        try:
            current_app.extensions[STARTERS_KEY]()
        except BaseException:
            release()
            raise
        config = current_app.config
        body = _group_events(
            GroupStreamSource(groups(), store(), current_app.extensions[FACTS_KEY], group_id),
            current_app.extensions[CHANGES_KEY],
            heard,
            heartbeat=config["KIBITZ_STREAM_HEARTBEAT"],
            lifetime=config["KIBITZ_STREAM_LIFETIME"],
        )
        response = Response(
            body, mimetype=EVENT_STREAM, headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        )
        response.call_on_close(release)
        return response


class GroupStreamSource:
    """What a group's stream reads: the statuses of its tables, and a table as its history shows it."""

    def __init__(self, groups: GroupStore, tables: TableStore, facts: FactsCache, group_id: str) -> None:
        self.groups, self.tables, self.facts, self.group_id = groups, tables, facts, group_id

    def statuses(self) -> list[tuple[str, str]]:
        return self.groups.outcomes(self.group_id)

    def message(self, kind: str, now: list[tuple[str, str]], table_id: str | None) -> dict[str, Any]:
        counts = Counter(status for _, status in now)
        entry = None
        if table_id is not None:
            group = self.groups.get(self.group_id)
            membership = next(m for m in self.groups.memberships(self.group_id) if m.table_id == table_id)
            entry = _HISTORY_ENTRY.dump(history_entry(group, self.facts.played(self.tables, membership)))
        return {
            "kind": kind,
            "group_id": self.group_id,
            "tables": {status: counts[status] for status in ("playing", "finished", "abandoned")},
            "entry": entry,
        }


_HISTORY_ENTRY = HistoryEntrySchema()


def _sse(kind: str, event_id: str, data: dict[str, Any]) -> bytes:
    payload = json.dumps(data, separators=(",", ":"), sort_keys=True, default=str)
    return f"id: {event_id}\nevent: {kind}\ndata: {payload}\n\n".encode()


def _group_events(
    source: GroupStreamSource,
    feed: ChangeFeed,
    heard: list[str] | None,
    *,
    heartbeat: float,
    lifetime: float,
) -> Iterator[bytes]:
    """The stream body: `listening` (or what the client missed), then one event per change of a
    table's status, heartbeats between. Woken through the tables' change feed (api.tables.changes:
    in this process on SQLite, PostgreSQL's notices across servers) by an append to any table of the
    group and by the group's own changes; every heartbeat reads the statuses again too, so a lost
    notice costs one heartbeat at most."""
    deadline = time.monotonic() + lifetime
    yield b"retry: 2000\n\n"
    with feed.watch() as watch:
        covered = {group_key(source.group_id)}
        watch.cover(covered)
        woken = watch.changes.version
        while True:
            now = source.statuses()
            keys = {group_key(source.group_id)} | {table_id for table_id, _ in now}
            if keys != covered:  # a table joined: listen to it, then read again (nothing slips by)
                covered = keys
                watch.cover(keys)
                continue
            if heard is None:
                heard = [status for _, status in now]
                yield _sse("listening", outcomes.encode(heard), source.message("listening", now, None))
            else:
                for _, table_id, kind in outcomes.changes(heard, now):
                    yield _sse(kind, outcomes.encode(heard), source.message(kind, now, table_id))
            if time.monotonic() >= deadline:
                return  # the client reconnects with Last-Event-ID
            announced = watch.changes.wait_above(woken)
            if announced is None:
                yield b": heartbeat\n\n"
            else:
                woken = max(woken, announced)

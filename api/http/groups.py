"""Groups over HTTP: players kept between games, the tables they played, history and statistics.

A group is read with its id alone (the read link) and changed with its edit token (the join link),
as a table is. Statistics and head-to-head are kept as tables finish (api.groups.figures, each
figure re-derivable from the tables' records); history and exports come a page at a time, so no read
costs more for a bigger group (issue 31).
"""

from __future__ import annotations

import csv
import io
import json
import re
import socket
import time
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import UTC, date, datetime, timedelta
from typing import Any

from flask import Response, current_app, request
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, ValidationError, fields, validate

from api.errors import ApiProblem
from api.games import servers
from api.groups import figures as kept_figures
from api.groups import history as recount
from api.groups import outcomes
from api.groups.history import Played, history_entry, kept, progress
from api.groups.imports import plays_of
from api.groups.offloop import pause
from api.groups.players import player_page
from api.groups.store import GroupRow, GroupStore, Membership, group_key, imported_table
from api.http.conditional import etagged
from api.http.context import bearer_token, store
from api.http.limits import guard_creation, guard_token, limit_response
from api.http.stream import CHANGES_KEY, EVENT_STREAM, STARTERS_KEY, open_stream_slot
from api.http.strict import CREATION_KEY_RULES, MIN_CREATION_KEY, FreeText, creation_key
from api.rules.registry import GAMES, MANIFESTS
from api.tables.changes import ChangeFeed
from api.tables.record import build_record, spreadsheet_safe

blp = Blueprint("groups", __name__, url_prefix="/api/groups", description="Groups: players between games")

GROUPS_KEY = "kibitz.groups"
FACTS_KEY = "kibitz.group-facts"
GAME_NAMES = tuple(GAMES)
GROUP_SECURITY = [{"groupToken": []}]
CREATE_GROUP_IDEMPOTENCY_HEADER = {
    "in": "header",
    "name": "Idempotency-Key",
    "required": False,
    "schema": {
        "type": "string",
        "pattern": f"^[!-~]{{{MIN_CREATION_KEY},128}}$",
        "example": "5f0c2a4e-8d1b-4c3e-9a7f-0123456789ab",
    },
    "description": "Makes a retried creation harmless: the same key and body answer the same group "
    "with the same edit token (`replayed`: true), even after the group changed; another body is "
    f"refused (422 `idempotency-key-reused`) and never answers the token. {CREATION_KEY_RULES}",
}


def groups() -> GroupStore:
    return current_app.extensions[GROUPS_KEY]  # type: ignore[no-any-return]


LINK_HEADER = {"Link": {"schema": {"type": "string"}, "description": "rel=next"}}
MAX_HISTORY_PAGE = 200
MAX_EXPORT_PAGE = 25  # each finished table's whole record goes in
MAX_CSV_PAGE = 500


def _played(memberships: list[Membership]) -> list[Played]:
    """The page's tables as the group keeps them: one read of their rows, no replay."""
    rows = groups().table_facts([m.table_id for m in memberships if not m.imported])
    rows.update({m.table_id: imported_table(m) for m in memberships if m.imported})
    return [kept(m, rows[m.table_id]) for m in memberships if m.table_id in rows]


def _page_link(path: str, cursor: str, value: int | None, limit: int, extra: dict[str, Any]) -> str | None:
    if value is None:
        return None
    query = "&".join(f"{k}={v}" for k, v in extra.items() if v is not None)
    return f"{path}?{cursor}={value}&limit={limit}" + (f"&{query}" if query else "")


def _link_header(link: str | None) -> dict[str, str]:
    return {"Link": f'<{link}>; rel="next"'} if link else {}


class GroupNewPlayerSchema(Schema):
    """A player of a new group: the server gives the ids (there is nobody to keep yet)."""

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


class GroupPlayerSchema(GroupNewPlayerSchema):
    id = fields.String(
        load_default=None,
        validate=validate.Length(max=16),
        metadata={"description": "Given by the server; send it back to keep the player (omit for a new one)"},
    )


class GroupPlayerOutSchema(GroupPlayerSchema):
    id = fields.String(required=True)


GROUP_NAME = FreeText(max_length=80, required=True, metadata={"description": "The group's name."})


class GroupCreateSchema(Schema):
    name = GROUP_NAME
    players = fields.List(
        fields.Nested(GroupNewPlayerSchema), load_default=list, validate=validate.Length(max=60)
    )


class GroupUpdateSchema(GroupCreateSchema):
    expected_version = fields.Integer(strict=True, required=True, validate=validate.Range(min=1))
    players = fields.List(
        fields.Nested(GroupPlayerSchema), load_default=list, validate=validate.Length(max=60)
    )


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


class GamePlaysSchema(Schema):
    game = fields.String(required=True, validate=validate.OneOf(GAME_NAMES))
    games = fields.Integer(strict=True, required=True, metadata={"description": "Finished, kept games"})
    last_played_at = fields.DateTime(
        required=True, metadata={"description": "The last entry of its latest finished game"}
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
    plays = fields.List(
        fields.Nested(GamePlaysSchema),
        required=True,
        metadata={"description": "Per game played: how many finished games and when last played"},
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


class StrictBoolean(fields.Boolean):
    """JSON `true` or `false` only: not `"yes"`, `1` or `"false"` (a string that says false would be
    read as true by many clients' own code)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value


class AbandonSchema(Schema):
    abandoned = StrictBoolean(
        required=True, metadata={"description": "Given up unfinished: kept, not counted (`true` or `false`)"}
    )


class Moment(fields.String):
    """A bound of a date filter: a date (`2026-11-28`, a UTC day) or a date-time with its offset
    (`2026-11-28T00:00:00+01:00`: a phone's own midnight). Read as an instant in UTC; a date given
    as `to` means the end of that day (the whole day is in)."""

    def __init__(self, *, end: bool, **kwargs: Any) -> None:
        self.end = end
        super().__init__(**kwargs)

    def _deserialize(  # type: ignore[override]
        self, value: Any, attr: str | None, data: Any, **kwargs: Any
    ) -> datetime:
        text = super()._deserialize(value, attr, data, **kwargs)
        if len(text) > 40 or not re.fullmatch(DATE_PATTERN, text, re.ASCII):
            raise ValidationError("Not a date (YYYY-MM-DD) nor a date-time with its offset.")
        try:
            if len(text) == 10:
                day = date.fromisoformat(text)
                moment = datetime(day.year, day.month, day.day, tzinfo=UTC)
                return moment + timedelta(days=1) if self.end else moment
            return datetime.fromisoformat(text).astimezone(UTC)
        except (ValueError, OverflowError) as error:  # written right, but no such day (2026-02-30)
            raise ApiProblem(422, "no-such-date", "There is no such day or time.") from error


DATE_PATTERN = r"^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2}))?$"


class DateFilterSchema(Schema):
    since = Moment(
        end=False,
        data_key="from",
        load_default=None,
        metadata={
            "maxLength": 40,
            "pattern": DATE_PATTERN,
            "example": "2026-11-01",
            "description": "Only tables started at or after this: a date (UTC day) or a date-time "
            "with its offset",
        },
    )
    until = Moment(
        end=True,
        data_key="to",
        load_default=None,
        metadata={
            "maxLength": 40,
            "pattern": DATE_PATTERN,
            "example": "2026-11-30",
            "description": "Only tables started before this date-time, or on or before this date "
            "(the whole UTC day)",
        },
    )


class HistoryQuerySchema(DateFilterSchema):
    game = fields.String(load_default=None, validate=validate.OneOf(GAME_NAMES))
    player = fields.String(
        load_default=None,
        validate=validate.Regexp(r"^[A-Za-z0-9_-]{1,16}$"),
        metadata={"description": "A group player id"},
    )
    before = fields.Integer(
        load_default=None,
        validate=validate.Range(min=1, max=10**9),
        metadata={
            "description": "Only tables older than this place in the group (`next_before` of the last page)"
        },
    )
    limit = fields.Integer(
        load_default=50,
        validate=validate.Range(min=1, max=MAX_HISTORY_PAGE),
        metadata={"description": f"At most this many tables (1–{MAX_HISTORY_PAGE}, default 50)"},
    )


class ExportQuerySchema(Schema):
    after = fields.Integer(
        load_default=0,
        validate=validate.Range(min=0, max=10**9),
        metadata={"description": "Only tables after this place in the group (`next_after` of the last page)"},
    )
    limit = fields.Integer(
        load_default=MAX_EXPORT_PAGE,
        validate=validate.Range(min=1, max=MAX_EXPORT_PAGE),
        metadata={"description": f"At most this many tables (1–{MAX_EXPORT_PAGE})"},
    )


class CsvQuerySchema(ExportQuerySchema):
    limit = fields.Integer(
        load_default=MAX_CSV_PAGE,
        validate=validate.Range(min=1, max=MAX_CSV_PAGE),
        metadata={"description": f"At most this many tables (1–{MAX_CSV_PAGE})"},
    )


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
    table_path = fields.String(allow_none=True, required=True, metadata={"description": "null when imported"})
    imported = fields.Boolean(
        required=True,
        metadata={
            "description": "Imported from a BG Stats export: scores and winners only, no record to verify"
        },
    )


class HistorySchema(Schema):
    entries = fields.List(fields.Nested(HistoryEntrySchema), required=True)
    next_before = fields.Integer(
        strict=True, allow_none=True, required=True, metadata={"description": "`before` of the next page"}
    )
    next = fields.String(
        allow_none=True, required=True, metadata={"description": "The next page (also the `Link` header)"}
    )


class StatsQuerySchema(DateFilterSchema):
    game = fields.String(load_default=None, validate=validate.OneOf(GAME_NAMES))


# Each game's figures and summary come from its package (api.games.server.GameStatistics).
ByGameSchema = Schema.from_dict(
    {name: fields.Nested(g.statistics.figures_schema) for name, g in servers().items() if g.statistics},
    name="ByGameSchema",
)


class PlayerStatsSchema(Schema):
    player_id = fields.String(required=True)
    name = fields.String(required=True)
    games = fields.Integer(strict=True, required=True)
    wins = fields.Integer(strict=True, required=True)
    win_rate = fields.Float(required=True)
    by_game = fields.Nested(ByGameSchema, required=True, metadata={"description": "Only the games played"})


GamesSummarySchema = Schema.from_dict(
    {name: fields.Nested(g.statistics.summary_schema) for name, g in servers().items() if g.statistics},
    name="GamesSummarySchema",
)


class StatsSchema(Schema):
    players = fields.List(fields.Nested(PlayerStatsSchema), required=True)
    games = fields.Nested(GamesSummarySchema, required=True)
    counted_tables = fields.Integer(strict=True, required=True)


class PlayerLastPlayedSchema(Schema):
    game = fields.String(required=True, validate=validate.OneOf(GAME_NAMES))
    at = fields.DateTime(required=True)


class StreaksSchema(Schema):
    current = fields.Integer(
        strict=True, required=True, metadata={"description": "Wins in a row up to the latest game"}
    )
    longest = fields.Integer(strict=True, required=True, metadata={"description": "Most wins in a row"})


class PlayerRecordSchema(Schema):
    game = fields.String(required=True, validate=validate.OneOf(GAME_NAMES))
    kind = fields.String(
        required=True,
        validate=validate.OneOf([g.statistics.record for g in servers().values() if g.statistics]),
        metadata={
            "description": "`most_eggs`: Mahé eggs at the end of a game (MA-10); `highest_score`: a "
            "Magellan final score (MG-10); `biggest_hand`: one Mhing hand's points (MH-8)"
        },
    )
    value = fields.Integer(strict=True, required=True)
    table_id = fields.String(required=True, metadata={"description": "The table it happened at (first time)"})
    at = fields.DateTime(required=True, metadata={"description": "That game's last entry"})


class PlayerPageSchema(Schema):
    player_id = fields.String(required=True)
    name = fields.String(required=True)
    colour = fields.String(allow_none=True, required=True)
    emoji = fields.String(allow_none=True, required=True)
    games = fields.Integer(strict=True, required=True)
    wins = fields.Integer(strict=True, required=True)
    win_rate = fields.Float(required=True)
    last_played_at = fields.DateTime(allow_none=True, required=True)
    by_game = fields.Nested(ByGameSchema, required=True, metadata={"description": "Only the games played"})
    last_played = fields.List(fields.Nested(PlayerLastPlayedSchema), required=True)
    streaks = fields.Nested(StreaksSchema, required=True)
    records = fields.List(
        fields.Nested(PlayerRecordSchema),
        required=True,
        metadata={"description": "One per game played, with the table it was set at"},
    )


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
        metadata={"description": "Each finished table's record of this page, as /export gives it"},
    )
    next_after = fields.Integer(
        strict=True, allow_none=True, required=True, metadata={"description": "`after` of the next page"}
    )
    next = fields.String(
        allow_none=True, required=True, metadata={"description": "The next page (also the `Link` header)"}
    )


class BgStatsFileGameSchema(Schema):
    id = fields.Integer(strict=True, required=True)
    name = fields.String(required=True, validate=validate.Length(max=200))


class BgStatsFilePlayerSchema(Schema):
    id = fields.Integer(strict=True, required=True)
    name = FreeText(max_length=40, required=True, metadata={"description": "The name as BG Stats keeps it"})


class BgStatsFileScoreSchema(Schema):
    playerRefId = fields.Integer(strict=True, required=True)
    score = fields.Raw(
        load_default=None,
        allow_none=True,
        metadata={
            "description": 'A whole number, as a number or text (BG Stats writes "31")',
            "oneOf": [{"type": "integer"}, {"type": "string", "maxLength": 12}],
        },
    )
    winner = StrictBoolean(load_default=False)


class BgStatsFilePlaySchema(Schema):
    uuid = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=64))
    gameRefId = fields.Integer(strict=True, required=True)
    playDate = fields.String(
        required=True,
        validate=validate.Length(equal=19),
        metadata={"example": "2024-01-05 20:15:00", "pattern": r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$"},
    )
    durationMin = fields.Integer(strict=True, load_default=0, validate=validate.Range(min=0, max=100_000))
    ignored = StrictBoolean(
        load_default=False, metadata={"description": "Left out of statistics in BG Stats"}
    )
    sourcePlayId = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=64))
    playerScores = fields.List(
        fields.Nested(BgStatsFileScoreSchema), required=True, validate=validate.Length(min=1, max=20)
    )


class BgStatsExportSchema(Schema):
    """A BG Stats export (`BGStatsExport.json`) cut down to what the import reads: its games (id,
    name), players (id, name) and plays with the fields below (the phone cuts the file so; other
    fields are refused, as everywhere in this API). At most 2,000 plays a file (the body's
    256 KiB holds them; a phone sends only the plays of our games)."""

    games = fields.List(
        fields.Nested(BgStatsFileGameSchema), required=True, validate=validate.Length(max=1000)
    )
    players = fields.List(
        fields.Nested(BgStatsFilePlayerSchema), required=True, validate=validate.Length(max=1000)
    )
    plays = fields.List(
        fields.Nested(BgStatsFilePlaySchema), required=True, validate=validate.Length(max=2000)
    )


class ImportResultSchema(Schema):
    imported = fields.Integer(strict=True, required=True, metadata={"description": "Plays added now"})
    passed_over = fields.Integer(
        strict=True,
        required=True,
        metadata={"description": "Plays already in the group (imported before, or sent from its tables)"},
    )
    new_players = fields.List(
        fields.String(), required=True, metadata={"description": "Names that joined the group"}
    )
    group = fields.Nested(GroupSchema, required=True)


def group_view(group: GroupRow, empty: bool = False) -> dict[str, Any]:
    """The group with, per game, its latest table's seating: O(games) reads, whatever its size."""
    latest: list[dict[str, Any]] = []
    for game in () if empty else GAME_NAMES:
        membership = groups().latest_of_game(group.id, game)
        if membership is None:
            continue
        table = store().get(membership.table_id)
        latest.append(
            {
                "game": table.game,
                "table_id": table.id,
                "seats": membership.seats,
                "players": table.players,
                "options": table.options,
                "_place": membership.position,
            }
        )
    latest.sort(key=lambda seating: seating.pop("_place"))  # as before: by the tables' places
    plays: list[dict[str, Any]] = []
    if not empty:
        kept_games = groups().figures(group.id)["games"]
        last = groups().plays(group.id)
        plays = [
            {"game": game, "games": int(kept_games[game]["games"]), "last_played_at": last[game]}
            for game in GAME_NAMES
            if kept_games.get(game, {}).get("games") and game in last
        ]
    return {
        "id": group.id,
        "name": group.name,
        "players": group.players,
        "version": group.version,
        "tables": 0 if empty else groups().count(group.id),
        "last_seating": latest,
        "plays": plays,
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
        a retry answers the group it made — the same id and edit token, `replayed`: true — and only
        for the very same body: another body is refused (422 `idempotency-key-reused`), even after
        the group changed. The key is a secret like the edit token it answers again: at least 32
        random characters (400 `idempotency-key-too-short` otherwise), sent only here.
        """
        guard_creation()
        group, token, replayed = groups().create_once(
            body["name"], body["players"], creation_key(request.headers.get("Idempotency-Key"))
        )
        return {
            "replayed": replayed,
            "id": group.id,
            "edit_token": token,
            "join_path": f"/#/g/{group.id}?k={token}",
            "read_path": f"/#/g/{group.id}",
            "group": group_view(group, empty=True),
        }


@blp.route("/<string:group_id>")
class GroupResource(MethodView):
    @etagged("getGroup")
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
    @blp.alt_response(
        422,
        response="UNPROCESSABLE_ENTITY",
        description="Seats do not match the table; `group-full`: the group holds its most tables (5,000)",
    )
    def post(self, body: dict[str, Any], group_id: str) -> Membership:
        """Add a table to the group

        Names the group player in each seat. Needs the group's edit token and the table's write
        token; adding the same table with the same seats again changes nothing.
        """
        with guard_token(group_id):
            return groups().add_table(
                group_id, bearer_token(), body["table_id"], body["table_token"], body["seats"]
            )


BGSTATS_EXAMPLE = {
    "games": [{"id": 1, "name": next(iter(MANIFESTS.values())).title}],  # the first game's title
    "players": [{"id": 1, "name": "Ann"}, {"id": 2, "name": "Ben"}],
    "plays": [
        {
            "uuid": "0d3c1a2b-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
            "gameRefId": 1,
            "playDate": "2024-01-05 20:15:00",
            "durationMin": 40,
            "playerScores": [
                {"playerRefId": 1, "score": "31", "winner": True},
                {"playerRefId": 2, "score": "24", "winner": False},
            ],
        }
    ],
}


@blp.route("/<string:group_id>/imports/bgstats")
class GroupBgStatsImport(MethodView):
    @blp.doc(operationId="importBgStats", security=GROUP_SECURITY)
    @blp.arguments(BgStatsExportSchema, example=BGSTATS_EXAMPLE)
    @blp.response(200, ImportResultSchema)
    @blp.alt_response(401, response="UNAUTHORIZED", description="No edit token")
    @blp.alt_response(403, response="FORBIDDEN", description="Wrong edit token")
    @blp.alt_response(404, response="NOT_FOUND", description="No such group")
    @blp.alt_response(
        422,
        response="UNPROCESSABLE_ENTITY",
        description="Not a BG Stats export; `bad-bgstats-play`: a play of these games cannot be "
        "counted (`play_date` says which); `group-full`",
    )
    def post(self, body: dict[str, Any], group_id: str) -> dict[str, Any]:
        """Import plays from BG Stats

        The plays of Mahé, Magellan and Mhing in a BG Stats export (`BGStatsExport.json`; the
        game matched by name, case and accents ignored) join the group as imported results: their
        day, players (by name: names the group lacks join it), scores and winners count in the
        history, statistics and player pages, marked `imported` (there is no record to verify).
        Send the export's `games`, `players` and `plays` with the fields this schema names (the
        phone cuts the file down to them and to these games' plays: the body is at most 256 KiB).
        All or nothing: a play of these games that cannot be counted refuses the whole file and
        changes nothing. Importing the same file again adds nothing (each play is known by its
        id in the file), nor does a play Kibitz sent to BG Stats from one of the group's tables.
        """
        plays = plays_of(body)
        with guard_token(group_id):
            imported, passed, names = groups().import_plays(group_id, bearer_token(), plays)
        return {
            "imported": imported,
            "passed_over": passed,
            "new_players": names,
            "group": group_view(groups().get(group_id)),
        }


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
    @etagged("getGroupTableProgress")
    @blp.doc(operationId="getGroupTableProgress")
    @blp.response(200, ProgressSchema)
    @blp.alt_response(404, response="NOT_FOUND", description="No such group, table, or no finished game")
    def get(self, group_id: str, table_id: str) -> dict[str, Any]:
        """The score over one finished game

        One line per seat: the score after each move (Mahé) or round (Mhing), from the recorded log.
        """
        groups().get(group_id)
        membership = groups().membership(group_id, table_id)
        if membership is not None:
            for played in _played([membership]):
                if (line := progress(played)) is not None:
                    return line
        raise ApiProblem(
            404, "no-progress", "No finished game of this group with a score over time has this id."
        )


@blp.route("/<string:group_id>/history")
class GroupHistory(MethodView):
    @etagged("getGroupHistory")
    @blp.doc(operationId="getGroupHistory")
    @blp.arguments(HistoryQuerySchema, location="query")
    @blp.response(
        200, HistorySchema, headers={"Link": {"schema": {"type": "string"}, "description": "rel=next"}}
    )
    @blp.alt_response(404, response="NOT_FOUND", description="No such group")
    def get(self, query: dict[str, Any], group_id: str) -> Any:
        """A group's history

        Every table of the group, newest first: date, game, players (group players, seat by seat),
        scores and winners of finished games, duration, and links to the verifiable record and the
        BG Stats export. Filter by `game` and by `player` (a group player id). Newest first by when
        the table joined the group, a page at a time: `next` and the `Link` header name the next
        page (`before` the last place you have).
        """
        group = groups().get(group_id)
        limit = query["limit"]
        found = groups().page(
            group_id,
            limit=limit + 1,
            before=query["before"],
            game=query["game"],
            player=query["player"],
            since=query["since"],
            until=query["until"],
        )
        page, more = found[:limit], len(found) > limit
        next_before = page[-1].position if more else None
        link = _page_link(
            f"/api/groups/{group_id}/history",
            "before",
            next_before,
            limit,
            {
                "game": query["game"],
                "player": query["player"],
                "from": _bound(request.args.get("from"), query["since"]),
                "to": _bound(request.args.get("to"), query["until"]),
            },
        )
        entries = [history_entry(group, played) for played in _played(page)]
        return {"entries": entries, "next_before": next_before, "next": link}, 200, _link_header(link)


@blp.route("/<string:group_id>/stats")
class GroupStats(MethodView):
    @etagged("getGroupStats")
    @blp.doc(operationId="getGroupStats")
    @blp.arguments(StatsQuerySchema, location="query")
    @blp.response(200, StatsSchema)
    @blp.alt_response(404, response="NOT_FOUND", description="No such group")
    def get(self, query: dict[str, Any], group_id: str) -> dict[str, Any]:
        """A group's statistics

        Per player, overall and per game, over the finished tables that were not abandoned, each
        figure re-derivable from the tables' exported records by replaying them. Kept as tables
        finish, so a read costs the same whatever the group's size.
        """
        group = groups().get(group_id)
        figures = groups().figures(group_id)  # also catches up a table whose sync was lost
        if query["since"] is None and query["until"] is None:
            return kept_figures.statistics(group.players, figures, query["game"])
        played = _walked(group_id, since=query["since"], until=query["until"])
        return recount.statistics(group, played, query["game"])


def _walked(group_id: str, **filters: Any) -> list[Played]:
    """The counted tables a walk finds, as the group keeps them (api.groups.store.walk)."""
    return [kept(m, t) for m, t in groups().walk(group_id, **filters)]


def _bound(given: str | None, read: datetime | None) -> str | None:
    """A date filter's bound as the next page's link repeats it (URL-safe: `+` written as %2B)."""
    if read is None or given is None:
        return None
    return given.replace("+", "%2B").replace(":", "%3A")


@blp.route("/<string:group_id>/players/<string:player_id>")
class GroupPlayerPage(MethodView):
    @blp.doc(operationId="getGroupPlayer")
    @blp.arguments(DateFilterSchema, location="query")
    @blp.response(200, PlayerPageSchema)
    @blp.alt_response(
        404, response="NOT_FOUND", description="No such group; `player-not-found`: no such player in it"
    )
    def get(self, query: dict[str, Any], group_id: str, player_id: str) -> dict[str, Any]:
        """A player's page

        One group player over the group's finished games (abandoned ones left out): games, wins
        and win rate overall and per game, best and average score, when last played, the current
        and longest win streak (in the order the tables joined the group), and a record per game
        — most eggs at Mahé, highest Magellan score, biggest Mhing hand — with the table it was
        set at. `from` and `to` keep the tables started in that window. The read link is enough.
        Cost: the per-game figures are the group's kept ones; streaks and records come from one
        walk of the player's kept results (at most the group's 5,000 tables, no game replayed).
        """
        group = groups().get(group_id)
        if not any(p["id"] == player_id for p in group.players):
            raise ApiProblem(404, "player-not-found", "The group has no player with this id.")
        figures = groups().figures(group_id)
        played = _walked(group_id, player=player_id, since=query["since"], until=query["until"])
        by_game = None
        if query["since"] is None and query["until"] is None:
            row = kept_figures.statistics(group.players, figures, None)["players"]
            by_game = next(r["by_game"] for r in row if r["player_id"] == player_id)
        return player_page(group, played, player_id, by_game)


@blp.route("/<string:group_id>/head-to-head")
class GroupHeadToHead(MethodView):
    @etagged("getGroupHeadToHead")
    @blp.doc(operationId="getGroupHeadToHead")
    @blp.arguments(HeadToHeadQuerySchema, location="query")
    @blp.response(200, HeadToHeadSchema)
    @blp.alt_response(404, response="NOT_FOUND", description="No such group")
    @blp.alt_response(
        422, response="UNPROCESSABLE_ENTITY", description="`same-player`: `a` and `b` are one player"
    )
    def get(self, query: dict[str, Any], group_id: str) -> dict[str, Any]:
        """Two players head to head

        Over the finished games both played: how often each won, and who finished ahead of the other.
        """
        if query["a"] == query["b"]:
            raise ApiProblem(422, "same-player", "Head to head needs two different players (a and b).")
        group = groups().get(group_id)
        names = {p["id"]: p["name"] for p in group.players}
        return kept_figures.head_to_head(names, groups().figures(group_id), query["a"], query["b"])


def _export_page(group_id: str, after: int, limit: int) -> tuple[list[Membership], int | None]:
    found = groups().page(group_id, limit=limit + 1, after=after)
    page = found[:limit]
    return page, page[-1].position if len(found) > limit else None


@blp.route("/<string:group_id>/export")
class GroupExport(MethodView):
    @blp.doc(operationId="exportGroup")
    @blp.arguments(ExportQuerySchema, location="query")
    @blp.response(200, GroupExportSchema, headers=LINK_HEADER)
    @blp.alt_response(404, response="NOT_FOUND", description="No such group")
    def get(self, query: dict[str, Any], group_id: str) -> Any:
        """Export a group (JSON)

        The group, its statistics, and a page of its tables, oldest first: their memberships,
        history and the record of every finished one, so that anyone can recompute the statistics
        by replaying the records. `next` and the `Link` header name the next page (`after` the
        last place you have); the last page has none.
        """
        group = groups().get(group_id)
        limit = query["limit"]
        page, next_after = _export_page(group_id, query["after"], limit)
        played = _played(page)
        records = []
        for p in played:
            if p.table.finished and not p.membership.imported:
                table, entries = store().log(p.table.id)  # O(that table); the loop served between
                records.append(build_record(table, entries, store().key))
                pause()
        link = _page_link(f"/api/groups/{group_id}/export", "after", next_after, limit, {})
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
            "history": [history_entry(group, p) for p in played],
            "statistics": kept_figures.statistics(group.players, groups().figures(group_id), None),
            "records": records,
            "next_after": next_after,
            "next": link,
        }
        headers = {
            "Content-Disposition": f'attachment; filename="kibitz-group-{group.id}.json"',
            **_link_header(link),
        }
        return body, 200, headers


CSV_COLUMNS = ["started_at", "table_id", "game", "status", "seat", "player", "score", "winner", "duration_s"]


@blp.route("/<string:group_id>/export.csv")
class GroupExportCsv(MethodView):
    @etagged("exportGroupCsv")
    @blp.doc(operationId="exportGroupCsv")
    @blp.arguments(CsvQuerySchema, location="query")
    @blp.response(
        200,
        content_type="text/csv",
        description="One row per player per table (each page with the header row)",
        example="started_at,table_id,game,status,seat,player,score,winner,duration_s\n",
        headers=LINK_HEADER,
    )
    @blp.alt_response(404, response="NOT_FOUND", description="No such group")
    def get(self, query: dict[str, Any], group_id: str) -> Response:
        """Export a group's history (CSV)

        One row per player per table: date, game, status, player, seat, score, winner, duration;
        a page of tables at a time, oldest first (`Link` names the next page). Text cells that a
        spreadsheet would read as a formula are quoted with a leading `'`.
        """
        group = groups().get(group_id)
        limit = query["limit"]
        page, next_after = _export_page(group_id, query["after"], limit)
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(CSV_COLUMNS)
        for played in _played(page):
            entry = history_entry(group, played)
            for seat in entry["players"]:
                writer.writerow(
                    [
                        entry["started_at"].isoformat(),
                        spreadsheet_safe(entry["table_id"]),
                        spreadsheet_safe(entry["game"]),
                        spreadsheet_safe(entry["status"]),
                        seat["seat"],
                        spreadsheet_safe(seat["name"]),
                        seat["score"],
                        seat["winner"],
                        entry["duration_seconds"],
                    ]
                )
        link = _page_link(f"/api/groups/{group_id}/export.csv", "after", next_after, limit, {})
        return Response(
            out.getvalue(),
            mimetype="text/csv",
            headers={
                "Content-Disposition": f'attachment; filename="kibitz-group-{group.id}.csv"',
                **_link_header(link),
            },
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
            "the statuses of the group's tables, `data:` one line of JSON, a `GroupStreamItem` "
            "`{type, kind, group_id, tables, entry}` (`entry` as the group's history shows the "
            "table). Lines starting with `:` are heartbeats. Reconnect with `Last-Event-ID` to resume.",
            "content": {
                "text/event-stream": {
                    "schema": {"$ref": "#/components/schemas/GroupStreamEvent"},
                    "examples": None,  # filled from api.contract.response_examples
                }
            },
        }
    },
}


def _group_stream_doc() -> dict[str, Any]:
    from api.contract.response_examples import group_stream_example

    doc = json.loads(json.dumps(GROUP_STREAM_DOC))
    doc["responses"]["200"]["content"]["text/event-stream"]["examples"] = group_stream_example()
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
        if raw:
            outcomes.check(raw)  # 400 before anything is read
        groups().get(group_id)  # 404 before the stream starts
        release = open_stream_slot()
        try:
            current_app.extensions[STARTERS_KEY]()
        except BaseException:
            release()
            raise
        config = current_app.config
        body = _group_events(
            GroupStreamSource(groups(), group_id),
            current_app.extensions[CHANGES_KEY],
            raw or None,
            heartbeat=config["KIBITZ_STREAM_HEARTBEAT"],
            lifetime=config["KIBITZ_STREAM_LIFETIME"],
        )
        response = Response(
            body, mimetype=EVENT_STREAM, headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        )
        stop_watching = free_when_closed(request.environ.get("gunicorn.socket"), release)
        response.call_on_close(stop_watching)
        response.call_on_close(release)
        return response


def free_when_closed(sock: Any, release: Callable[[], None]) -> Callable[[], None]:
    """Free the stream's slot as soon as its client closes the connection (under the gevent
    worker): a phone that reconnects must not be refused (429) for its own dead stream, which the
    server would otherwise notice only when its next heartbeat fails to write (up to 15 s).
    Returns what stops the watching (when the response closes)."""
    if sock is None or not type(sock).__module__.startswith("gevent."):
        return lambda: None
    import gevent
    from gevent.socket import wait_read

    def watch() -> None:
        try:
            wait_read(sock.fileno())
            data = sock.recv(1, socket.MSG_PEEK)
        except OSError:
            data = b""
        if not data:  # end of stream: the client is gone (a client sending more is left be)
            release()

    watcher = gevent.spawn(watch)
    return lambda: watcher.kill(block=False)


STREAM_CHUNK = 10  # changes whose messages are read together; the loop serves others between chunks


class GroupStreamSource:
    """What a group's stream reads: the statuses of its tables, and tables as its history shows
    them. The messages of a chunk of changes cost three reads together (the group, the chunk's
    memberships, their tables' shown columns), never a replay: the facts are those the group keeps
    (api.groups.store)."""

    def __init__(self, groups: GroupStore, group_id: str) -> None:
        self.groups, self.group_id = groups, group_id

    def statuses(self) -> list[tuple[str, str]]:
        return self.groups.outcomes(self.group_id)

    def entries(self, table_ids: list[str]) -> dict[str, Any]:
        """These tables' history entries, as the group's history shows them (three reads)."""
        group = self.groups.get(self.group_id)
        memberships = self.groups.memberships_of(self.group_id, table_ids)
        rows = self.groups.table_facts(list(memberships))
        return {
            table_id: _entry_json(history_entry(group, kept(membership, rows[table_id])))
            for table_id, membership in memberships.items()
            if table_id in rows
        }

    def message(
        self, kind: str, counts: Counter[str], table_id: str | None, entries: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        return {
            "type": kind,
            "kind": kind,
            "group_id": self.group_id,
            "tables": {status: counts[status] for status in ("playing", "finished", "abandoned")},
            "entry": (entries or {}).get(table_id) if table_id is not None else None,
        }


def _entry_json(entry: dict[str, Any]) -> dict[str, Any]:
    """A history entry as `HistoryEntrySchema` dumps it (its two times in ISO 8601), without
    marshmallow's field-by-field walk: it was most of an event's cost."""
    return {
        **entry,
        "started_at": entry["started_at"].isoformat(),
        "last_entry_at": entry["last_entry_at"].isoformat(),
    }


def _sse(kind: str, event_id: str, data: dict[str, Any]) -> bytes:
    payload = json.dumps(data, separators=(",", ":"), sort_keys=True, default=str)
    return f"id: {event_id}\nevent: {kind}\ndata: {payload}\n\n".encode()


def _chunk_events(
    source: GroupStreamSource, counts: Counter[str], chunk: list[tuple[str, str, str]]
) -> Iterator[bytes]:
    """The events of a chunk of changes (table id, kind, the id after it), their messages read
    together; then the loop serves others before the next chunk."""
    entries = source.entries([table_id for table_id, _, _ in chunk])
    for table_id, kind, event_id in chunk:
        yield _sse(kind, event_id, source.message(kind, counts, table_id, entries))
    pause()


def _group_events(
    source: GroupStreamSource,
    feed: ChangeFeed,
    last_event_id: str | None,
    *,
    heartbeat: float,
    lifetime: float,
) -> Iterator[bytes]:
    """The stream body: `listening` (or what the client missed), then one event per change of a
    table's status, heartbeats between. Woken through the tables' change feed (api.tables.changes:
    in this process on SQLite, PostgreSQL's notices across servers) by an append to any table of the
    group and by the group's own changes; every heartbeat reads the statuses again too, so a lost
    notice costs one heartbeat at most.

    Cost: a `Last-Event-ID` is decoded no further than the group's tables (statuses past them never
    matter), the messages of each chunk of 10 changes take three reads, and the loop serves others
    between chunks: a resume costs the statuses read once plus O(1) reads per change since,
    whatever the id says."""
    deadline = time.monotonic() + lifetime
    yield b"retry: 2000\n\n"
    heard: list[str] | None = None
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
            counts = Counter(status for _, status in now)
            if heard is None and last_event_id is None:
                heard = [status for _, status in now]
                yield _sse("listening", outcomes.encode(heard), source.message("listening", counts, None))
            else:
                if heard is None:
                    assert last_event_id is not None
                    heard = outcomes.decode(last_event_id, limit=len(now))
                chunk: list[tuple[str, str, str]] = []
                for _, table_id, kind in outcomes.changes(heard, now):
                    chunk.append((table_id, kind, outcomes.encode(heard)))
                    if len(chunk) == STREAM_CHUNK:
                        yield from _chunk_events(source, counts, chunk)
                        chunk = []
                if chunk:
                    yield from _chunk_events(source, counts, chunk)
            if time.monotonic() >= deadline:
                return  # the client reconnects with Last-Event-ID
            announced = watch.changes.wait_above(woken)
            if announced is None:
                yield b": heartbeat\n\n"
            else:
                woken = max(woken, announced)

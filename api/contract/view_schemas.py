"""The view schemas every game shares, typed field by field for the OpenAPI document: the live
streams' events, a record's refusal, a BG Stats play. Each game's own (public view, legal actions,
results, private view) are in its package, api/games/<game>/view_schemas.py, built with
api.games.schema_kit.

These schemas only document: the answers are built by the rules (`rules_view`) and dumped as they
are. tests/contract/test_vocabulary.py checks every step of random whole games of every game
against them with additional properties refused, so a key the rules add or drop fails there.
"""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.contract.problem_codes import catalog
from api.games.schema_kit import flag, integer, items, nested, strict, text

BgStatsGame = strict("BgStatsGame", {"name": text(), "sourceGameId": text(), "highestWins": flag()})
BgStatsPlayer = strict(
    "BgStatsPlayer",
    {
        "name": text(),
        "sourcePlayerId": text(),
        "score": integer(),
        "winner": flag(),
        "rank": integer(),
        "seatOrder": integer(),
        "startPlayer": flag(),
    },
)
BgStatsPlay = strict(
    "BgStatsPlay",
    {
        "sourceName": text(),
        "sourcePlayId": text(),
        "playDate": text("YYYY-MM-DD HH:MM:SS"),
        "durationMin": integer(),
        "game": nested(BgStatsGame),
        "players": items(BgStatsPlayer),
    },
    "The play as BG Stats imports it.",
)

ALSO_REGISTERED: list[type[Schema]] = [BgStatsPlay]


# ---------- the live stream (GET /api/tables/{id}/stream) ----------

StreamEntry = strict(
    "TableStreamEntry",
    {
        "seq": integer(),
        "kind": text(one_of=["game", "undo"]),
        "event": fields.Dict(required=True, metadata={"x-ref": "LoggedEvent"}),
        "undoes": integer("For an undo: the seq it took back", null=True),
        "at": fields.DateTime(
            required=True, metadata={"description": "When the server stored the entry (UTC, with its offset)"}
        ),
    },
    "A log entry the phone missed, as the open log shows it.",
)
STREAM_TYPE = "The kind of event (the `oneOf`'s discriminator); the same as the SSE event name"
StreamMessage = strict(
    "TableStreamMessage",
    {
        "type": text(STREAM_TYPE, one_of=["table"]),
        "version": integer("The table version: also the SSE `id`"),
        "entries": items(StreamEntry, "Entries since the `Last-Event-ID` you sent (none on a fresh start)"),
        "table": fields.Dict(required=True, metadata={"x-ref": "Table"}),
        "private": fields.Dict(
            required=True,
            allow_none=True,
            metadata={
                "description": "With `?seat`: that seat's own view; else null",
                "x-private-views": True,
            },
        ),
    },
    "A `table` event: the whole table. The first event of every stream, and every event of a stream "
    "without `?patches=true`.",
)
StreamPatch = strict(
    "TableStreamPatch",
    {
        "type": text(STREAM_TYPE, one_of=["patch"]),
        "version": integer("The table version after the patch: also the SSE `id`"),
        "base": integer("The version the patch applies to: the `id` of the stream's previous event"),
        "entries": items(StreamEntry, "The log entries after `base`"),
        "patch": fields.List(
            fields.Dict(metadata={"x-ref": "PatchOperation"}),
            required=True,
            metadata={
                "description": "JSON Patch (RFC 6902) operations, applied in order, that turn the "
                "table at `base` (as this stream sent it) into the table at `version`; only `add`, "
                "`remove` and `replace` are used",
            },
        ),
        "private": fields.Dict(
            required=True,
            allow_none=True,
            metadata={
                "description": "With `?seat`: that seat's own view, whole; else null",
                "x-private-views": True,
            },
        ),
    },
    "A `patch` event (streams opened with `?patches=true`, after their first event): what the change "
    "changed in the table. A client that cannot apply it (its table is not at `base`) reconnects "
    "without `Last-Event-ID` for the whole table.",
)
StreamEvent = strict(
    "TableStreamEvent",
    {
        "event": text("The SSE event name", one_of=["table", "patch", "problem"]),
        "id": fields.String(
            metadata={"description": "The table version: send it back as `Last-Event-ID` to resume"},
            validate=validate.Regexp(r"^[0-9]+$"),
        ),
        "data": fields.Dict(
            required=True,
            metadata={
                "description": "The event's `data:` line, one line of JSON, parsed",
                "x-ref": "TableStreamItem",
            },
        ),
        "retry": fields.Integer(metadata={"description": "Milliseconds to wait before reconnecting"}),
    },
    "One Server-Sent Event of a table's stream, its fields as an SSE client parses them, `data` parsed "
    "as JSON (a `TableStreamItem`, typed by its `type`). Lines starting with `:` are heartbeats. "
    "A client reads the stream line by line (`text/event-stream`), not as one JSON document.",
)
ALSO_REGISTERED += [StreamMessage, StreamPatch, StreamEvent]


# ---------- a group's live stream (GET /api/groups/{id}/stream) ----------

GROUP_STREAM_EVENTS = ["listening", "finished", "abandoned", "reopened"]
GroupTableCounts = strict(
    "GroupTableCounts",
    {
        "playing": integer("Tables not finished and not abandoned"),
        "finished": integer(),
        "abandoned": integer(),
    },
    "The group's tables by status.",
)
GroupStreamMessage = strict(
    "GroupStreamMessage",
    {
        "type": text(STREAM_TYPE, one_of=GROUP_STREAM_EVENTS),
        "kind": text(
            "`listening`: the stream's first event without `Last-Event-ID` (nothing happened); "
            "`finished`: a table's last move ended its game; `abandoned`: a table was given up; "
            "`reopened`: a finished or abandoned table is being played again (its last move undone, "
            "its abandonment taken back). The same as the SSE event name.",
            one_of=GROUP_STREAM_EVENTS,
        ),
        "group_id": text(),
        "tables": fields.Nested(GroupTableCounts, required=True),
        "entry": fields.Dict(
            required=True,
            allow_none=True,
            metadata={
                "description": "The table as the group's history shows it (players, scores, winners, "
                "the record's link); null with `listening`",
                "x-ref": "HistoryEntry",
            },
        ),
    },
    "The JSON in the `data:` line of each event of a group's stream.",
)
GroupStreamEvent = strict(
    "GroupStreamEvent",
    {
        "event": text("The SSE event name", one_of=GROUP_STREAM_EVENTS),
        "id": fields.String(
            required=True,
            validate=validate.Regexp(r"^(0|([1-9][0-9]{0,5}[fap])+)$"),
            metadata={
                "description": "The statuses of the group's tables as this event leaves them, oldest "
                "first, run-length encoded (`2f1a`: two finished, one abandoned, the rest playing): "
                "send it back as `Last-Event-ID` to hear what changed meanwhile"
            },
        ),
        "data": fields.Dict(
            required=True,
            metadata={
                "description": "The event's `data:` line, one line of JSON, parsed",
                "x-ref": "GroupStreamItem",
            },
        ),
        "retry": fields.Integer(metadata={"description": "Milliseconds to wait before reconnecting"}),
    },
    "One Server-Sent Event of a group's stream, its fields as an SSE client parses them, `data` "
    "parsed as JSON (a `GroupStreamItem`, typed by its `type`). Lines starting with `:` are "
    "heartbeats. A client reads the stream line by line (`text/event-stream`), not as one JSON "
    "document.",
)
ALSO_REGISTERED += [GroupTableCounts, GroupStreamMessage, GroupStreamEvent]

def verdict_codes() -> list[str]:
    """Every code a verification's `problem` can have: its own, and any refusal of the rules."""
    from api.tables.record import VERDICT_CODES

    rules = catalog()
    refusals = {r["code"] for listed in (*rules["rules"].values(), rules["setup"]) for r in listed}
    return sorted(set(VERDICT_CODES) | refusals)


RefusedRecord = strict(
    "RecordRefusal",
    {
        "code": text(
            "Stable: `record-tampered` (an entry changed, removed or moved: the chain breaks), "
            "`record-unsigned`, `record-signature-invalid`, `result-mismatch`, `game-not-finished`, "
            "or the rules' own refusal of an entry or of the setup (with its `rule`)",
            one_of=verdict_codes(),
        ),
        "detail": text(),
        "rule": text("e.g. MA-3", null=True),
    },
    "Why a record does not replay or match.",
)
ALSO_REGISTERED += [RefusedRecord]

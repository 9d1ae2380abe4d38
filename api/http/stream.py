"""Live tables: Server-Sent Events of each new version, so phones stop asking once a second.

`GET /api/tables/{id}/stream` sends the table as `GET /api/tables/{id}` shows it, once at the start
and again after every append, with the log entries since the phone's `Last-Event-ID` (the version
it has), so a phone that reconnects — to this server or another — misses nothing. With `?seat=n` and
that seat's token the stream adds the seat's own view. Comment lines keep idle connections alive.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterator
from typing import Any

from flask import Flask, Response, current_app, request
from flask.views import MethodView
from flask_smorest import Blueprint

from api.errors import ApiProblem
from api.http.context import STORE_KEY, bearer_token, store
from api.http.i18n import asked_language, best_language
from api.http.limits import guard_token
from api.http.schemas import TableSchema
from api.i18n import localize_notes
from api.tables.changes import ChangeFeed, announcer
from api.tables.store import TableStore
from api.tables.views import table_view

blp = Blueprint("stream", __name__, url_prefix="/api/tables", description="Live tables (Server-Sent Events)")

CHANGES_KEY = "kibitz.changes"
STARTERS_KEY = "kibitz.changes.start"
EVENT_STREAM = "text/event-stream"
_TABLE_SCHEMA = TableSchema()
LANGUAGE_TAG = re.compile(r"^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$")

STREAM_DOC = {
    "parameters": [
        {
            "in": "header",
            "name": "Last-Event-ID",
            "required": False,
            "schema": {"type": "string", "pattern": "^[0-9]{1,9}$"},
            "description": "The version you already have (the `id` of the last event you received): "
            "the stream starts with the log entries after it.",
        },
        {
            "in": "query",
            "name": "lang",
            "required": False,
            "schema": {"type": "string", "pattern": LANGUAGE_TAG.pattern, "example": "de"},
            "description": "The language of the referee's notes, as `Accept-Language` would choose it "
            "(a browser's EventSource cannot send headers, so an app's own language choice goes "
            "here); overrides the header.",
        },
        {
            "in": "query",
            "name": "seat",
            "required": False,
            "schema": {"type": "integer", "minimum": 0, "maximum": 6},
            "description": "Add this seat's own view to every event; needs that seat's token as "
            "`Authorization: Bearer …`.",
        },
    ],
    "responses": {
        "200": {
            "description": "An endless `text/event-stream`. Each `table` event has `id:` = the table "
            "version and `data:` = JSON `{version, entries, table, private}`: `entries` are the log "
            "entries since the version you had (as `GET …/events` shows them), `table` is the table as "
            "`GET /api/tables/{id}` shows it, `private` the seat's own view (with `?seat`). Lines "
            "starting with `:` are heartbeats. Reconnect with `Last-Event-ID` to resume.",
            # Each event as an SSE client parses it (schemathesis checks every event against it); its
            # `data:` is one line of JSON, a `TableStreamMessage` (`x-contentSchema`).
            "content": {
                EVENT_STREAM: {
                    "schema": {"$ref": "#/components/schemas/TableStreamEvent"},
                    "example": 'retry: 2000\n\nid: 4\nevent: table\ndata: {"entries":[],"private":null,'
                    '"table":{"game":"mahe","id":"q3v…","version":4},"version":4}\n\n: heartbeat\n\n',
                }
            },
        }
    },
}


def install_change_feed(app: Flask, database_url: str) -> None:
    """One change feed per process; appends announce to it (PostgreSQL: through LISTEN/NOTIFY)."""
    # In tests driven through the WSGI test client a stream ends after its first event.
    lifetime = "0" if app.config.get("TESTING") else "3600"
    for name, default in (("KIBITZ_STREAM_HEARTBEAT", "15"), ("KIBITZ_STREAM_LIFETIME", lifetime)):
        app.config.setdefault(name, float(os.environ.get(name, default)))
    feed = ChangeFeed()
    start, after_commit = announcer(database_url, feed)
    app.extensions[CHANGES_KEY] = feed
    app.extensions[STARTERS_KEY] = start
    app.extensions[STORE_KEY].on_commit = after_commit


def _last_event_id() -> int | None:
    raw = request.headers.get("Last-Event-ID", "").strip()
    if not raw:
        return None
    if not raw.isdigit() or len(raw) > 9:
        raise ApiProblem(400, "bad-last-event-id", "Last-Event-ID must be a table version (a whole number).")
    return int(raw)


def _language() -> str:
    raw = request.args.get("lang")
    if raw is None:
        return asked_language()  # a browser sends its own language with the EventSource request
    if not LANGUAGE_TAG.fullmatch(raw):
        raise ApiProblem(400, "bad-lang", "lang must be a language tag such as de or fr-CH.")
    return best_language(raw)


def _seat() -> int | None:
    raw = request.args.get("seat")
    if raw is None:
        return None
    if not raw.isdigit() or len(raw) > 2:
        raise ApiProblem(400, "bad-seat", "seat must be a seat number (0, 1, 2, …).")
    return int(raw)


@blp.route("/<string:table_id>/stream")
class TableStream(MethodView):
    @blp.doc(operationId="streamTable", **STREAM_DOC)
    @blp.alt_response(400, response="BAD_REQUEST", description="Malformed Last-Event-ID, seat or lang")
    @blp.alt_response(401, response="UNAUTHORIZED", description="`?seat` without a seat token")
    @blp.alt_response(403, response="FORBIDDEN", description="Not this seat's token")
    @blp.alt_response(404, response="NOT_FOUND", description="No such table or seat")
    @blp.alt_response(429, response="TOO_MANY_REQUESTS", description="Too many wrong seat tokens")
    def get(self, table_id: str) -> Response:
        """Follow a table live

        Server-Sent Events: the table now, then again after every change, with heartbeats. Resume
        with `Last-Event-ID` after a dropped connection (on any server): the first event carries
        every log entry you missed. Clients that cannot hold a stream open poll `GET /api/tables/{id}`
        with `If-None-Match` instead.
        """
        last, seat, token, language = _last_event_id(), _seat(), bearer_token(), _language()
        tables = store()
        tables.version_of(table_id)  # 404 before the stream starts
        if seat is not None:
            with guard_token(f"{table_id}/seat/{seat}"):
                tables.private_view(table_id, seat, token)  # 401/403/404 before the stream starts
        current_app.extensions[STARTERS_KEY]()
        config = current_app.config
        body = _events(
            tables,
            current_app.extensions[CHANGES_KEY],
            table_id,
            last,
            seat,
            token,
            language=language,
            heartbeat=config["KIBITZ_STREAM_HEARTBEAT"],
            lifetime=config["KIBITZ_STREAM_LIFETIME"],
        )
        return Response(
            body,
            mimetype=EVENT_STREAM,
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )


def _events(
    tables: TableStore,
    feed: ChangeFeed,
    table_id: str,
    last: int | None,
    seat: int | None,
    token: str | None,
    *,
    language: str,
    heartbeat: float,
    lifetime: float,
) -> Iterator[str]:
    """The stream body: one event per version the phone does not have yet, heartbeats between."""
    deadline = time.monotonic() + lifetime
    yield "retry: 2000\n\n"
    with feed.subscribe(table_id) as changes:
        sent = last
        while True:
            version = tables.version_of(table_id)
            if sent is None or version != sent:
                yield _message(tables, table_id, sent, seat, token, language)
                sent = version
            left = deadline - time.monotonic()
            if left <= 0:
                return  # the phone reconnects with Last-Event-ID
            if changes.wait_above(sent, min(heartbeat, left)) is None:
                yield ": heartbeat\n\n"


def _message(
    tables: TableStore, table_id: str, since: int | None, seat: int | None, token: str | None, language: str
) -> str:
    if since is None:
        table, entries = tables.get(table_id), []
    else:
        table, entries = tables.entries_after(table_id, since)
    data: dict[str, Any] = {
        "version": table.version,
        "entries": entries,
        "table": _TABLE_SCHEMA.dump(table_view(table, language)),
        "private": None
        if seat is None
        else localize_notes(tables.private_view(table_id, seat, token), language),
    }
    # Keys sorted as in every other JSON answer (Flask sorts them), so a phone comparing views
    # field by field sees the same table, whichever way it arrived.
    payload = json.dumps(data, separators=(",", ":"), sort_keys=True, default=str)
    return f"id: {table.version}\nevent: table\ndata: {payload}\n\n"

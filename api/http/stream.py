"""Live tables: Server-Sent Events of each new version, so phones stop asking once a second.

`GET /api/tables/{id}/stream` sends the table as `GET /api/tables/{id}` shows it, once at the start
and again after every append, with the log entries since the phone's `Last-Event-ID` (the version
it has), so a phone that reconnects — to this server or another — misses nothing. With `?seat=n` and
that seat's token the stream adds the seat's own view. Comment lines keep idle connections alive.

Three forms after the first event: the whole table again (the default), a JSON Patch against the
table sent last (`?patches=true`), or the new log entries alone (`?view=log`): a phone whose own
referee holds an open-record table works the state, legal actions and result out from the log, as
boardgame.io's clients run the game code and take only the moves, so a change costs ~200 bytes.
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from apispec import APISpec, BasePlugin
from flask import Flask, Response, current_app, g, request
from flask.views import MethodView
from flask_smorest import Blueprint

from api.errors import ApiProblem
from api.http.context import STORE_KEY, bearer_token, store
from api.http.i18n import LANGUAGE_TAG, asked_language, best_language
from api.http.limits import client_address, guard_token, limit_response
from api.push.editions import LOG, PATCH, TABLE, Editions, first_form
from api.push.press import Press, Reader, Requests, direct_socket
from api.push.view_cache import VIEWS_KEY, ViewCache
from api.rules.registry import get_game
from api.tables.changes import ChangeFeed, announcer
from api.tables.store import TableStore


class _LogItemVocabulary(BasePlugin):
    """Types the `log` event in the document beside the stream's other items: `TableStreamLog`,
    one more branch of `TableStreamItem` and one more SSE event name in `TableStreamEvent` (those are
    declared with the other views, api.contract.vocabulary; this adds to them as they are registered)."""

    def __init__(self, spec: APISpec) -> None:
        self.spec = spec

    def schema_helper(self, name: str, definition: dict[str, Any], **kwargs: Any) -> dict[str, Any] | None:
        if name == "TableStreamEvent":
            events = definition.get("properties", {}).get("event", {})
            if "enum" in events and LOG not in events["enum"]:
                events["enum"].append(LOG)
        elif name == "TableStreamItem" and "TableStreamLog" not in self.spec.components.schemas:
            self.spec.components.schema("TableStreamLog", LOG_ITEM)
            log_ref = "#/components/schemas/TableStreamLog"
            definition["oneOf"].append({"$ref": log_ref})
            definition["discriminator"]["mapping"][LOG] = log_ref
        return None


LOG_ITEM: dict[str, Any] = {
    "type": "object",
    "description": "A `log` event (streams opened with `?view=log`): the log entries since the "
    "stream's previous event, for a client whose own referee derives the state, the legal actions, "
    "the result and `finished` from the log; the table's `updated_at` is the last entry's `at`, "
    "`version` the last entry's `seq`.",
    "properties": {
        "type": {"type": "string", "enum": [LOG], "description": "The kind of event; the SSE event name"},
        "version": {"type": "integer", "minimum": 0, "description": "The table version: also the SSE `id`"},
        "entries": {
            "type": "array",
            "minItems": 1,
            "items": {"$ref": "#/components/schemas/TableStreamEntry"},
            "description": "The log entries after the version the stream sent last (or `since`)",
        },
        "seed": {
            "oneOf": [
                {"type": "integer", "minimum": 0, "maximum": 2**53 - 1},
                {"type": "string", "pattern": "^[0-9]{16,19}$"},
            ],
            "description": "The table's seed once the table shows it (finished, or chosen in the open); "
            "absent while it is secret",
        },
    },
    "required": ["type", "version", "entries"],
    "additionalProperties": False,
}


class _StreamBlueprint(Blueprint):  # type: ignore[misc]
    def register_views_in_doc(self, api: Any, app: Flask, spec: APISpec, **kwargs: Any) -> None:
        super().register_views_in_doc(api, app, spec, **kwargs)
        if not any(isinstance(plugin, _LogItemVocabulary) for plugin in spec.plugins):
            spec.plugins.append(_LogItemVocabulary(spec))


blp = _StreamBlueprint(
    "stream", __name__, url_prefix="/api/tables", description="Live tables (Server-Sent Events)"
)

CHANGES_KEY = "kibitz.changes"
EDITIONS_KEY = "kibitz.editions"
STARTERS_KEY = "kibitz.changes.start"
OPEN_STREAMS_KEY = "kibitz.streams.open"
EVENT_STREAM = "text/event-stream"

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
            "name": "patches",
            "required": False,
            "schema": {"type": "boolean", "default": False},
            "description": "`true`: after the first event (the whole table), each change comes as a "
            "`patch` event, a JSON Patch (RFC 6902) against the table you have, instead of the whole "
            "table again. Reconnect without it (or without `Last-Event-ID`) for the whole table.",
        },
        {
            "in": "query",
            "name": "view",
            "required": False,
            "schema": {"type": "string", "enum": [TABLE, LOG], "default": TABLE},
            "description": "`log`: for a client that runs the game's referee itself (the phone, once its "
            "referee has arrived) on a table whose record is open (no server-drawn chance, no hidden "
            "hand: `open_record` in the game's rules; else 409 `open-record-only`). After the first "
            "event, each change comes as a `log` event: the new log entries alone (and the `seed` "
            "once the table shows it), the state, legal actions and result being what the client's "
            "referee derives from the log (`updated_at` is the last entry's `at`). With `since` or "
            "`Last-Event-ID` even the first event is a `log` event. Overrides `patches`.",
        },
        {
            "in": "query",
            "name": "since",
            "required": False,
            "schema": {"type": "integer", "minimum": 0, "maximum": 999999999},
            "description": "The version you already have, as `Last-Event-ID` says it (a browser's "
            "EventSource cannot send that header on its first connection); the header wins.",
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
            "description": "An endless `text/event-stream`, read line by line. Each event has `id:` "
            "= the table version and `data:` = one line of JSON, a `TableStreamItem` whose `type` "
            "is the event's name: `table` `{version, entries, table, private}` — `entries` the log "
            "entries since the version you had (as `GET …/events` shows them), `table` the table as "
            "`GET /api/tables/{id}` shows it, `private` the seat's own view (with `?seat`); with "
            "`?patches=true`, every event after the first is a `patch` `{version, base, entries, "
            "patch, private}`, `patch` the JSON Patch (RFC 6902) from the table at `base` to the "
            "table now; with `?view=log`, a `log` `{version, entries, seed?}`, the log entries since "
            "the version you had. Lines starting with `:` are heartbeats. Reconnect with `Last-Event-ID` to "
            "resume: the first event after it is the whole table again.",
            # Each event as an SSE client parses it, its `data:` parsed (a `TableStreamItem`).
            "content": {
                EVENT_STREAM: {
                    "schema": {"$ref": "#/components/schemas/TableStreamEvent"},
                    "examples": {
                        "table": {
                            "summary": "The first event: the whole table",
                            "value": {
                                "event": "table",
                                "id": "4",
                                "retry": 2000,
                                "data": {
                                    "type": "table",
                                    "version": 4,
                                    "entries": [],
                                    "table": "filled in by _stream_doc()",
                                    "private": None,
                                },
                            },
                        },
                        "patch": {
                            "summary": "With ?patches=true, each later change as a JSON Patch",
                            "value": {
                                "event": "patch",
                                "id": "5",
                                "data": {
                                    "type": "patch",
                                    "version": 5,
                                    "base": 4,
                                    "entries": [
                                        {
                                            "seq": 5,
                                            "at": "2026-11-28T09:00:00+00:00",
                                            "kind": "game",
                                            "event": {"type": "die", "value": 4},
                                            "undoes": None,
                                        }
                                    ],
                                    "patch": [
                                        {"op": "replace", "path": "/state/turn/sum", "value": 4},
                                        {"op": "replace", "path": "/version", "value": 5},
                                    ],
                                    "private": None,
                                },
                            },
                        },
                        "log": {
                            "summary": "With ?view=log, each later change as its log entries alone",
                            "value": {
                                "event": "log",
                                "id": "5",
                                "data": {
                                    "type": "log",
                                    "version": 5,
                                    "entries": [
                                        {
                                            "seq": 5,
                                            "at": "2026-11-28T09:00:00+00:00",
                                            "kind": "game",
                                            "event": {"type": "die", "value": 4},
                                            "undoes": None,
                                        }
                                    ],
                                },
                            },
                        },
                    },
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
    app.config.setdefault("KIBITZ_CLIENT_STREAMS", int(os.environ.get("KIBITZ_CLIENT_STREAMS", "100")))
    app.extensions[OPEN_STREAMS_KEY] = Counter()
    feed = ChangeFeed()
    listen, after_commit = announcer(database_url, feed)

    def start() -> None:
        listen()
        feed.start_ticking(app.config["KIBITZ_STREAM_HEARTBEAT"])

    app.extensions[CHANGES_KEY] = feed
    app.extensions[EDITIONS_KEY] = Editions(
        app.extensions[STORE_KEY], app.extensions.setdefault(VIEWS_KEY, ViewCache())
    )

    @app.before_request
    def _answering() -> None:  # the press makes way for every request but the streams
        if not request.path.endswith("/stream"):
            Requests.answering += 1
            g.kibitz_answering = True

    @app.teardown_request
    def _answered(_error: BaseException | None) -> None:
        if g.pop("kibitz_answering", False):
            Requests.answering -= 1
            if request.method in ("POST", "PUT"):
                Requests.wrote_at = time.monotonic()

    app.extensions[STARTERS_KEY] = start
    app.extensions[STORE_KEY].on_commit = after_commit


def stream_figures(app: Flask) -> dict[str, int]:
    """What the live streams of this process cost so far (`GET /api/health`)."""
    editions: Editions = app.extensions[EDITIONS_KEY]
    counters = editions.counters
    return {
        "streams": app.extensions[CHANGES_KEY].listening(),
        "tables": editions.following(),
        "reads": counters.reads,
        "renders": counters.renders,
        "handed_back": counters.handed_back,
    }


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


def _mode() -> str:
    """The form of the stream's events after its first (`?view=log`, `?patches=true`)."""
    raw = request.args.get("patches", "false")
    if raw not in ("true", "false"):
        raise ApiProblem(400, "bad-patches", "patches must be true or false.")
    view = request.args.get("view", TABLE)
    if view not in (TABLE, LOG):
        raise ApiProblem(400, "bad-view", "view must be table or log.")
    return LOG if view == LOG else PATCH if raw == "true" else TABLE


def _since() -> int | None:
    """`Last-Event-ID`, else `?since` (what an EventSource opened anew can say)."""
    last = _last_event_id()
    raw = request.args.get("since")
    if last is not None or raw is None:
        return last
    if not raw.isdigit() or len(raw) > 9:
        raise ApiProblem(400, "bad-since", "since must be a table version (a whole number).")
    return int(raw)


def _seat() -> int | None:
    raw = request.args.get("seat")
    if raw is None:
        return None
    if not raw.isdigit() or len(raw) > 2:
        raise ApiProblem(400, "bad-seat", "seat must be a seat number (0, 1, 2, …).")
    return int(raw)


def _stream_doc() -> dict[str, Any]:
    """STREAM_DOC with the example's whole table (the create example's Mahé table at version 4)."""
    from api.contract.response_examples import example_table

    doc: dict[str, Any] = json.loads(json.dumps(STREAM_DOC))
    examples = doc["responses"]["200"]["content"][EVENT_STREAM]["examples"]
    examples["table"]["value"]["data"]["table"] = example_table(4)
    return doc


@blp.route("/<string:table_id>/stream")
class TableStream(MethodView):
    @blp.doc(operationId="streamTable", **_stream_doc())
    @blp.alt_response(
        400, response="BAD_REQUEST", description="Malformed Last-Event-ID, since, seat, view or lang"
    )
    @blp.alt_response(401, response="UNAUTHORIZED", description="`?seat` without a seat token")
    @blp.alt_response(403, response="FORBIDDEN", description="Not this seat's token")
    @blp.alt_response(404, response="NOT_FOUND", description="No such table or seat")
    @blp.alt_response(
        409,
        response="CONFLICT",
        description="`record-damaged`: the stored record was changed outside Kibitz; `open-record-only`: "
        "`?view=log` on a table whose log does not decide everything (server-drawn chance, hidden hands)",
    )
    @blp.alt_response(
        429,
        **limit_response(
            "`too-many-requests`: too many wrong seat tokens; `too-many-streams`: more than "
            "KIBITZ_CLIENT_STREAMS (100) live streams open from your address (per server process)"
        ),
    )
    def get(self, table_id: str) -> Response:
        """Follow a table live

        Server-Sent Events: the table now, then again after every change, with heartbeats. Resume
        with `Last-Event-ID` after a dropped connection (on any server): the first event carries
        every log entry you missed. Clients that cannot hold a stream open poll `GET /api/tables/{id}`
        with `If-None-Match` instead. Entries sent are checked against the stored chain first: a log
        changed outside Kibitz ends the stream with one `event: problem` (`record-damaged`, `seq`).
        """
        last, seat, token, language = _since(), _seat(), bearer_token(), _language()
        mode = _mode()
        tables = store()
        tables.check_head(table_id)  # 404, or 409 record-damaged, before the stream starts
        if mode == LOG:
            _refereed_anywhere(tables, table_id)
        if seat is not None:
            with guard_token(f"{table_id}/seat/{seat}"):
                tables.private_view(table_id, seat, token)  # 401/403/404 before the stream starts
        release = open_stream_slot()
        try:
            current_app.extensions[STARTERS_KEY]()
        except BaseException:
            release()
            raise
        config = current_app.config
        body = _events(
            tables,
            current_app.extensions[EDITIONS_KEY],
            current_app.extensions[CHANGES_KEY],
            table_id,
            last,
            seat,
            direct_socket(request.environ),
            language=language,
            mode=mode,
            heartbeat=config["KIBITZ_STREAM_HEARTBEAT"],
            lifetime=config["KIBITZ_STREAM_LIFETIME"],
        )
        response = Response(
            body,
            mimetype=EVENT_STREAM,
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )
        response.call_on_close(release)  # when the phone goes away or the stream ends
        return response


def _refereed_anywhere(tables: TableStore, table_id: str) -> None:
    """`?view=log` only where the log decides everything: a client cannot derive a server-drawn
    die or a hidden hand (409 `open-record-only`)."""
    table = tables.get(table_id)
    game = get_game(table.game)
    if game is None or not game.open_record(table.options):
        raise ApiProblem(
            409,
            "open-record-only",
            "This table keeps secrets (server-drawn chance or hidden hands): its stream sends whole "
            "tables or patches, not the log alone.",
        )


def open_stream_slot() -> Callable[[], None]:
    """Count one more live stream for this client, or refuse with 429 past its cap: one address
    cannot hold the server's connections (a stream holds one for as long as the phone likes)."""
    open_streams: Counter[str] = current_app.extensions[OPEN_STREAMS_KEY]
    cap = int(current_app.config["KIBITZ_CLIENT_STREAMS"])
    who = client_address()
    if cap > 0 and open_streams[who] >= cap:
        raise ApiProblem(
            429,
            "too-many-streams",
            "Too many live streams are open from your address; close some and try again.",
            headers={"Retry-After": "5"},
        )
    open_streams[who] += 1
    released = False

    def release() -> None:
        nonlocal released
        if not released:
            released = True
            open_streams[who] -= 1
            if open_streams[who] <= 0:
                del open_streams[who]

    return release


def _events(
    tables: TableStore,
    editions: Editions,
    feed: ChangeFeed,
    table_id: str,
    last: int | None,
    seat: int | None,
    sock: Any | None,
    *,
    language: str,
    heartbeat: float,
    lifetime: float,
    mode: str = TABLE,
) -> Iterator[bytes]:
    """The stream body: one event per version the phone does not have yet, heartbeats between.

    The events come from the table's edition (api.push.editions): read and rendered once per change
    for every stream of this process, the same bytes written to each. A stream that was slow to
    write skips to the newest version, in one event with every entry it missed. Each event after
    the first (the whole table, unless a `log` stream named its version) takes the form `mode`.
    """
    deadline = time.monotonic() + lifetime
    yield b"retry: 2000\n\n"
    with feed.subscribe(table_id) as changes, editions.follow(table_id) as edition:
        sent, form = last, first_form(mode, last)
        newest = tables.version_of(table_id)  # after subscribing: no announcement slips by
        read_after = float("-inf")
        while True:
            try:
                version, body = edition.message(
                    sent, newest, language, seat, read_after=read_after, form=form
                )
            except ApiProblem as problem:  # record-damaged: said once, then the stream ends
                yield _problem_message(problem)
                return
            if body is not None:
                yield body
                sent, form = version, mode
            if time.monotonic() >= deadline:
                return  # the phone reconnects with Last-Event-ID
            if sock is not None and changes.version <= version:
                # Caught up: the table's press writes to this stream until it falls behind.
                reader = Reader(sock, version, language, seat, deadline, mode=mode, form=form)
                press = edition.press = edition.press or Press(edition, changes, heartbeat)
                press.hold(reader)
                try:
                    sock.sendall(reader.rest)  # a slow reader: the rest of the event it was taking
                except OSError:
                    return
                if reader.ended:
                    return
                sent, newest, form = reader.sent, max(newest, changes.version), reader.form
                continue
            announced = changes.wait_above(version)  # the process's ticker wakes it for heartbeats
            if announced is None:
                yield b": heartbeat\n\n"
                # A lost notice costs a phone one heartbeat at most: the table is read again if
                # nobody read it for a heartbeat (once for all its streams).
                read_after = time.monotonic() - heartbeat
            elif announced == version:  # the listener (re)started: notices may have gone by
                read_after = time.monotonic()
            else:
                newest = announced


def _problem_message(problem: ApiProblem) -> bytes:
    """A refusal met while streaming (the log was found damaged): an `event: problem` with the
    problem's fields, the stream's last word."""
    body = {
        "type": "problem",
        "status": problem.status,
        "code": problem.code,
        "detail": problem.detail,
        **problem.extra,
    }
    data = json.dumps(body, separators=(",", ":"), sort_keys=True)
    return f"event: problem\ndata: {data}\n\n".encode()

"""Tables: create, read, append (with optimistic concurrency and idempotency), preview, log."""

from __future__ import annotations

from typing import Any

from flask import Response, current_app, request
from flask.views import MethodView
from flask_smorest import Blueprint

from api.contract import examples
from api.http.compression import compressed
from api.http.conditional import etagged
from api.http.context import bearer_token, store
from api.http.i18n import asked_language
from api.http.limits import guard_creation, guard_token
from api.http.schemas import (
    AppendedSchema,
    AppendSchema,
    CreatedTableSchema,
    CreateTableSchema,
    LogQuerySchema,
    LogSchema,
    PreviewResultSchema,
    PreviewSchema,
    PrivateViewSchema,
    ReplaySchema,
    TableSchema,
)
from api.http.strict import CREATION_KEY_RULES, MIN_CREATION_KEY, creation_key, etag_matches, idempotency_key
from api.i18n import DEFAULT, localize_notes
from api.push.view_cache import json_response, json_with_table, views
from api.tables.views import replay_view, table_view

blp = Blueprint("tables", __name__, url_prefix="/api/tables", description="Tables: one game being played")

# The table's write token, or a player's own seat token (which alone may record that player's
# secret events, e.g. a Magellan ledger bid or payment).
WRITE_SECURITY = [{"writeToken": []}, {"seatToken": []}]
IDEMPOTENCY_HEADER = {
    "in": "header",
    "name": "Idempotency-Key",
    "required": False,
    "schema": {"type": "string", "pattern": "^[!-~]{1,128}$", "example": "5f0c2a4e-8d1b-4c3e"},
    "description": "Makes a retried append harmless: the same key and body are applied once "
    "(1 to 128 visible ASCII characters; a UUID is ideal).",
}
CREATE_IDEMPOTENCY_HEADER = {
    **IDEMPOTENCY_HEADER,
    "schema": {
        "type": "string",
        "pattern": f"^[!-~]{{{MIN_CREATION_KEY},128}}$",
        "example": "5f0c2a4e-8d1b-4c3e-9a7f-0123456789ab",
    },
    "description": "Makes a retried creation harmless: the same key and body answer the same table "
    "with the same write and seat tokens (`replayed`: true); another body is refused (422 "
    f"`idempotency-key-reused`) and never answers a token. {CREATION_KEY_RULES}",
}
IF_NONE_MATCH = {
    "in": "header",
    "name": "If-None-Match",
    "required": False,
    "schema": {"type": "string"},
    "description": "The ETag of the table you have; answered with 304 when nothing changed.",
}


def etag_for(table_id: str, version: int, language: str = DEFAULT) -> str:
    """One table version in one language (its notes are said in it)."""
    return f'W/"{table_id}-{version}"' if language == DEFAULT else f'W/"{table_id}-{version}-{language}"'


def replay_etag(table_id: str, version: int, language: str = DEFAULT) -> str:
    """A table's replay up to one version, in one language: the same key as the table's, marked."""
    return etag_for(table_id, version, language).replace('W/"', 'W/"replay-', 1)


@blp.route("")
class Tables(MethodView):
    @blp.arguments(CreateTableSchema, example=examples.CREATE_TABLE)
    @blp.response(201, CreatedTableSchema)
    @blp.doc(operationId="createTable", parameters=[CREATE_IDEMPOTENCY_HEADER])
    @blp.alt_response(
        422,
        response="UNPROCESSABLE_ENTITY",
        description="Unknown game, bad players or options; `idempotency-key-reused` for another body",
    )
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Start a table

        Creates a table for one game with its players (in seat order) and options. The answer holds
        the write token — needed for every append and shared with the players as a join link — and
        the initial state with the legal first actions. With an `Idempotency-Key` a retry of the same
        request answers the table it made — the same id and tokens, `replayed`: true — instead of a
        second table; the same key with another body is refused (422 `idempotency-key-reused`).
        The key is a secret like the tokens it answers again: at least 32 random characters (400
        `idempotency-key-too-short` otherwise), sent only here.
        """
        guard_creation()
        table, token, seat_tokens, replayed = store().create_once(
            body["game"],
            body["players"],
            body["options"],
            body.get("seed"),
            creation_key(request.headers.get("Idempotency-Key")),
        )
        return {
            "replayed": replayed,
            "id": table.id,
            "write_token": token,
            "join_path": f"/#/t/{table.id}?k={token}",
            "seats": [
                {"seat": seat, "token": seat_token, "path": f"/#/t/{table.id}?s={seat}&sk={seat_token}"}
                for seat, seat_token in enumerate(seat_tokens)
            ],
            "table": table_view(table, asked_language()),
        }


@blp.route("/<string:table_id>")
class TableResource(MethodView):
    @blp.doc(
        operationId="getTable", parameters=[IF_NONE_MATCH], responses={"304": {"description": "Not modified"}}
    )
    @blp.response(200, TableSchema, headers={"ETag": {"schema": {"type": "string"}}})
    @blp.alt_response(404, response="NOT_FOUND", description="No such table")
    @blp.alt_response(
        409, response="CONFLICT", description="`record-damaged`: the stored record was changed outside Kibitz"
    )
    def get(self, table_id: str) -> Any:
        """Read a table

        The current state, who decides next and what they may do, whether undo is possible, and the
        result once the game is over. Needs only the table id. Send `If-None-Match` with the last
        ETag to poll cheaply: 304 when nothing changed. Each read checks the record's head in
        constant time (the last entry's hash and signature, no entry past the row's version): a
        damaged record answers 409 `record-damaged`, as the log and the export do.
        """
        version, language = store().check_head(table_id), asked_language()
        etag = etag_for(table_id, version, language)
        known = request.headers.get("If-None-Match")
        if known and etag_matches(known, etag):
            return Response(status=304, headers={"ETag": etag, "Vary": "Accept-Language"})
        body = views().get(table_id, version, language)
        if body is None:
            table = store().get(table_id)
            body, etag = views().render(table, language), etag_for(table.id, table.version, language)
        response = json_response(body, etag)
        response.vary.add("Accept-Language")
        return response


@blp.route("/<string:table_id>/events")
class TableEvents(MethodView):
    @etagged("getLog")
    @blp.doc(operationId="getLog")
    @blp.arguments(LogQuerySchema, location="query")
    @blp.response(200, LogSchema, headers={"Link": {"schema": {"type": "string"}, "description": "rel=next"}})
    @blp.alt_response(404, response="NOT_FOUND", description="No such table")
    @blp.alt_response(
        409, response="CONFLICT", description="`record-damaged`: the stored log was changed outside Kibitz"
    )
    @compressed
    def get(self, query: dict[str, Any], table_id: str) -> Any:
        """Read the log

        The entries ever appended, in order, undo entries included; `in_effect` is false for events
        that were undone. Page through a long log with `limit` and `after` (the `seq` of the last
        entry you have): `next` and the `Link` header name the next page. Without them, the whole log.
        Each read checks the stored hash chain and its signed head: an entry changed, removed or
        moved in the database answers 409 `record-damaged` naming its `seq`.
        """
        table, entries = store().log(table_id)
        after, limit = query["after"], query.get("limit")
        page = [entry for entry in entries if entry["seq"] > after]
        more = limit is not None and len(page) > limit
        page = page[:limit] if limit is not None else page
        next_after = page[-1]["seq"] if more else None
        link = f"/api/tables/{table_id}/events?after={next_after}&limit={limit}" if more else None
        body = {"version": table.version, "events": page, "next_after": next_after, "next": link}
        return body, 200, ({"Link": f'<{link}>; rel="next"'} if link else {})

    @blp.doc(operationId="appendEvent", security=WRITE_SECURITY, parameters=[IDEMPOTENCY_HEADER])
    @blp.arguments(
        AppendSchema,
        examples={
            "die": {"summary": "A typed-in die", "value": examples.APPEND_DIE},
            "undo": {"summary": "Take back entry 4, the last in effect", "value": examples.APPEND_UNDO},
        },
    )
    @blp.response(201, AppendedSchema)
    @blp.alt_response(401, response="UNAUTHORIZED", description="No write token")
    @blp.alt_response(403, response="FORBIDDEN", description="Wrong write token")
    @blp.alt_response(404, response="NOT_FOUND", description="No such table")
    @blp.alt_response(429, response="TOO_MANY_REQUESTS", description="Too many wrong tokens for this table")
    @blp.alt_response(
        409,
        response="CONFLICT",
        description="`stale-version`: the table moved on; the body's `table` is the current one",
        example=examples.STALE,
    )
    @blp.alt_response(
        422,
        response="UNPROCESSABLE_ENTITY",
        description="The rules refuse the event (the `rule` names why)",
        example=examples.ILLEGAL,
    )
    def post(self, body: dict[str, Any], table_id: str) -> Response:
        """Append an event

        Records one event after the log position named by `expected_version`. When another phone
        got there first the answer is 409 with the current table. With an `Idempotency-Key` a retry
        of the same request is answered from the first one (`replayed`: true) instead of being
        applied twice. `{"type": "undo", "undoes": 7}` takes back entry 7, which must be the last
        event in effect (else 422 `undo-not-last`: it never takes back another one); a bare
        `{"type": "undo"}` takes back the last event in effect at `expected_version`. The undo is
        itself recorded. GEN-1: an event that showed a die or card the server drew stands (422
        `chance-stands`, and with it everything before it; `undo.possible` is false), and a secret
        event is undone only with its player's seat token. Send the table's write token, or a
        player's own seat token: an event that depends on a player's hidden cards (Magellan ledger
        depth: their bid, payment, slide from the hand, swap, typed draw) is refused with 403
        `seat-token-required` unless it comes with that player's seat token.
        """
        with guard_token(table_id):
            appended = store().append(
                table_id,
                bearer_token(),
                body["expected_version"],
                body["event"],
                idempotency_key(request.headers.get("Idempotency-Key")),
            )
        fields = {"seq": appended.seq, "replayed": appended.replayed}
        table_body = views().body(appended.table, asked_language())
        response = json_with_table(fields, table_body, 201)
        response.vary.add("Accept-Language")
        return response


@blp.route("/<string:table_id>/replay")
class TableReplay(MethodView):
    @blp.doc(
        operationId="getReplay",
        parameters=[IF_NONE_MATCH],
        responses={"304": {"description": "Not modified"}},
    )
    @blp.response(200, ReplaySchema, headers={"ETag": {"schema": {"type": "string"}}})
    @blp.alt_response(404, response="NOT_FOUND", description="No such table")
    @blp.alt_response(
        409, response="CONFLICT", description="`record-damaged`: the stored log was changed outside Kibitz"
    )
    @compressed
    def get(self, table_id: str) -> Any:
        """Replay the game

        The table after each log entry, from the new game on (`steps[k]`: after entry `k`; an undo
        entry: the table it returned to), each as its readers saw it then. This is how a phone steps
        back through a game it cannot replay itself: the server's own dice and cards come from a
        secret seed, and no step shows anything that was not already shown to the whole table. Needs
        only the table id; `If-None-Match` with the last ETag answers 304 while no entry was added.
        """
        version, language = store().check_head(table_id), asked_language()
        etag = replay_etag(table_id, version, language)
        known = request.headers.get("If-None-Match")
        if known and etag_matches(known, etag):
            return Response(status=304, headers={"ETag": etag, "Vary": "Accept-Language"})
        table, states = store().states(table_id)
        body = ReplaySchema().dump(replay_view(table, states, language))
        rendered = current_app.json.response(body).get_data()
        response = json_response(rendered, replay_etag(table.id, table.version, language))
        response.vary.add("Accept-Language")
        return response


@blp.route("/<string:table_id>/preview")
class TablePreview(MethodView):
    @blp.doc(operationId="previewEvent", security=[{}, {"seatToken": []}])
    @blp.arguments(PreviewSchema, example={"event": {"type": "stop"}})
    @blp.response(200, PreviewResultSchema)
    @blp.alt_response(401, response="UNAUTHORIZED", description="A secret event without a token")
    @blp.alt_response(
        403, response="FORBIDDEN", description="`seat-token-required`: the event depends on a seat's hand"
    )
    @blp.alt_response(404, response="NOT_FOUND", description="No such table")
    @blp.alt_response(429, response="TOO_MANY_REQUESTS", description="Too many wrong tokens for this table")
    @blp.alt_response(
        409, response="CONFLICT", description="`stale-version`; `record-damaged`", example=examples.STALE
    )
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY", description="The rules refuse the event")
    def post(self, body: dict[str, Any], table_id: str) -> dict[str, Any]:
        """Preview an event (dry run)

        Answers with the table as it would be after the event — "this moves red to 15 and yellow
        takes the 5" — without storing anything, so the app can ask for confirmation first. Needs no
        token, except for an event that depends on a player's hidden cards (Magellan ledger: a bid,
        a payment, a slide from the hand …): that one only with that player's own seat token.
        """
        with guard_token(table_id):
            table = store().preview(table_id, body["event"], body.get("expected_version"), bearer_token())
        return {"table": table_view(table, asked_language())}


@blp.route("/<string:table_id>/seats/<int:seat>")
class TableSeat(MethodView):
    @blp.doc(operationId="getSeatView", security=[{"seatToken": []}])
    @blp.response(200, PrivateViewSchema)
    @blp.alt_response(401, response="UNAUTHORIZED", description="No seat token")
    @blp.alt_response(403, response="FORBIDDEN", description="Not this seat's token")
    @blp.alt_response(404, response="NOT_FOUND", description="No such table or seat")
    @blp.alt_response(429, response="TOO_MANY_REQUESTS", description="Too many wrong seat tokens")
    @blp.alt_response(
        409, response="CONFLICT", description="`record-damaged`: the stored record was changed outside Kibitz"
    )
    def get(self, table_id: str, seat: int) -> dict[str, Any]:
        """Read a player's own view

        What only this seat may see — in Magellan's ledger depth the player's own money cards and
        the values slid under their Magellan cards. Needs the seat's own token (from the table's
        creation, `seats[n].token`) as `Authorization: Bearer …`; the shared write token does not
        open it, so players cannot look into each other's hands.
        """
        with guard_token(f"{table_id}/seat/{seat}"):
            view = store().private_view(table_id, seat, bearer_token())
        return {"seat": seat, "view": localize_notes(view, asked_language())}

"""Exports of finished games (JSON, CSV, BG Stats) and verification of a record by replay."""

from __future__ import annotations

from typing import Any

from flask import Response, request
from flask.views import MethodView
from flask_smorest import Blueprint

from api.contract import examples
from api.http.compression import compressed
from api.http.conditional import etagged
from api.http.context import store
from api.http.limits import limit_response
from api.http.schemas import BgStatsSchema, RecordKeySchema, RecordSchema, VerificationSchema
from api.http.verification import beside_the_loop, bounded
from api.tables.bgstats import bgstats_play, bgstats_url
from api.tables.record import build_record, currency, record_csv, require_finished, verify_record

blp = Blueprint("records", __name__, url_prefix="/api", description="Finished games: export and verify")


def _record(table_id: str) -> dict[str, Any]:
    table, entries = store().log(table_id)  # the chain checked (409 record-damaged)
    require_finished(table)
    return build_record(table, entries, store().key)


@blp.route("/tables/<string:table_id>/export")
class ExportJson(MethodView):
    @etagged("exportRecord")
    @blp.doc(operationId="exportRecord")
    @blp.response(200, RecordSchema)
    @blp.alt_response(404, response="NOT_FOUND", description="No such table")
    @blp.alt_response(409, response="CONFLICT", description="`game-not-finished`, `record-damaged`")
    @compressed
    def get(self, table_id: str) -> Any:
        """Export a finished game (JSON)

        A self-contained record — game, players, options, seed, every log entry and the result —
        that anyone can replay with POST /api/verify, or check offline in any language
        (docs/records.md): SHA-256 hash chain, Ed25519 signature over its RFC 8785 (JCS) canonical
        JSON. Every number in it is exact in a double (at most 2^53 - 1); the seeds, which reach
        2^62, are decimal strings.
        """
        record = _record(table_id)
        return record, 200, {"Content-Disposition": f'attachment; filename="kibitz-{table_id}.json"'}


@blp.route("/tables/<string:table_id>/export.csv")
class ExportCsv(MethodView):
    @etagged("exportCsv")
    @blp.doc(operationId="exportCsv")
    @blp.response(
        200,
        content_type="text/csv",
        description="Standings, one player a row",
        example="place,seat,name,eggs,cards,winner\n1,0,Martin,22,6,True\n",
    )
    @blp.alt_response(404, response="NOT_FOUND", description="No such table")
    @blp.alt_response(409, response="CONFLICT", description="`game-not-finished`, `record-damaged`")
    def get(self, table_id: str) -> Response:
        """Export a finished game (CSV standings)

        One row per player: place, seat, name, the game's score columns and whether they won.
        """
        return Response(
            record_csv(_record(table_id)),
            mimetype="text/csv",
            headers={"Content-Disposition": f'attachment; filename="kibitz-{table_id}.csv"'},
        )


@blp.route("/tables/<string:table_id>/export/bgstats")
class ExportBgStats(MethodView):
    @etagged("exportBgStats")
    @blp.doc(operationId="exportBgStats")
    @blp.response(200, BgStatsSchema)
    @blp.alt_response(404, response="NOT_FOUND", description="No such table")
    @blp.alt_response(409, response="CONFLICT", description="`game-not-finished`, `record-damaged`")
    def get(self, table_id: str) -> dict[str, Any]:
        """BG Stats import link

        A `bgstats://` link carrying the play (players, scores, winners) so players can keep their
        history in BG Stats.
        """
        table = store().get(table_id)
        require_finished(table)
        record = _record(table_id)
        play = bgstats_play(table, record["result"])
        return {"url": bgstats_url(play), "play": play}


@blp.route("/verify")
class Verify(MethodView):
    @bounded  # outermost: size and rate are checked before the body is read
    @blp.arguments(RecordSchema, example=examples.RECORD)
    @blp.response(200, VerificationSchema)
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY", description="Not a record, or unknown game")
    @blp.alt_response(
        413,
        **limit_response(
            "`record-too-large`: over KIBITZ_VERIFY_MAX_BYTES (128 KiB; a long game exports as ~30 KB)",
            retry_after=False,
        ),
    )
    @blp.alt_response(
        429,
        **limit_response(
            "`too-many-requests`: over KIBITZ_VERIFY_LIMIT (20 a minute, 200 an hour per client); "
            "`verifier-busy`: more than KIBITZ_VERIFY_QUEUE (8) records wait for the verifier"
        ),
    )
    def post(self, record: dict[str, Any]) -> dict[str, Any]:
        """Verify a game record

        Checks the hash chain and this server's signature (`signature`: valid, invalid or unsigned —
        a record without a signature is never valid; formats 3 and 2 sign every field of the
        record, format 1 only its head, `unbound` lists what it leaves open), replays the record's log from
        its seed with the referee's rules and compares the outcome with the result it claims. Needs
        no table: third parties can check any exported game. `currency` says whether it is still
        its table's record here: `current`, `superseded` (the table has a later head since —
        `current_head` gives its version and number of entries — after an undo and a different
        ending, say), or `unknown-table` (no such table here, or another installation signed it).
        Bounded so that it cannot hold up anyone else: records up to 128 KiB, 20 a minute per
        client, replayed in a thread beside the server's event loop rather than on it.
        """
        raw = request.get_json(silent=True)
        tables = store()
        verdict = beside_the_loop(verify_record, record, tables.key, raw if isinstance(raw, dict) else None)
        # One row read (the table's version and last hash), here rather than beside the loop.
        verdict["currency"], verdict["current_head"] = currency(
            record, verdict["signature"], tables.key, tables.head_of
        )
        return verdict


@blp.route("/record-key")
class RecordKey(MethodView):
    @etagged("getRecordKey")
    @blp.doc(operationId="getRecordKey")
    @blp.response(200, RecordKeySchema)
    def get(self) -> dict[str, Any]:
        """The key that signs records

        The public half of the server's Ed25519 key. Every exported record (`kibitz-record/3`)
        carries its `signature` over the RFC 8785 (JCS) canonical JSON of the whole record but the
        signature's own `value`; with this key anyone checks an export offline (docs/records.md
        specifies it; docs/verify_record.py, examples/verify_record.mjs). `key_id` is the first 16
        lowercase hex digits of SHA-256 of the raw key. Format-2 records signed the same fields
        with their seeds as integers in full; format-1 records carried `chain.signature`, of
        `kibitz-record/1\\n<table_id>\\n<length>\\n<head>`. `keys` lists every key whose signatures
        are accepted, by `key_id`, the current one first: records signed before a key rotation keep
        verifying.
        """
        return store().key.published()

"""Marshmallow schemas for requests and responses; the OpenAPI document is generated from them."""

from __future__ import annotations

from marshmallow import INCLUDE, Schema, ValidationError, fields, validate

from api.contract.problem_codes import catalog
from api.contract.table import TableSchema
from api.http.strict import FreeText
from api.rules.common.seeds import LEGACY_MAX_SEED, MAX_SAFE_INTEGER
from api.rules.registry import GAMES, MANIFESTS

MAX_SEED = MAX_SAFE_INTEGER  # new seeds, and seeds a creator chooses (api.rules.common.seeds)
# Typed in the document by name (api.contract.view_schemas; markers resolved by api.contract.vocabulary).
OPTIONS_REQUESTS = [f"{m.schema_prefix}OptionsRequest" for m in MANIFESTS.values()]
OPTIONS = [f"{m.schema_prefix}Options" for m in MANIFESTS.values()]
RESULTS = [f"{m.schema_prefix}Result" for m in MANIFESTS.values()]


DIGITS = r"^(0|[1-9][0-9]{0,18})$"


class RecordSeed(fields.Field):
    """A record's seed: format 3 writes it as a decimal string (it reaches 2**62, past what a
    JavaScript number holds exactly), formats 1 and 2 as a JSON integer. Loaded and dumped as sent:
    the signature binds its form."""

    def _deserialize(self, value: object, attr: str | None, data: object, **kwargs: object) -> int | str:
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise ValidationError("The seed is an integer, or (format 3) its decimal digits as a string.")
        number = int(value) if isinstance(value, int) or (value.isascii() and value.isdigit()) else -1
        if isinstance(value, str) and (len(value) > 19 or (len(value) > 1 and value[0] == "0")):
            number = -1
        # Tables from before seeds were drawn below 2^53 have seeds up to 2^62: only as digits.
        if not 0 <= number <= (LEGACY_MAX_SEED if isinstance(value, str) else MAX_SEED):
            raise ValidationError(f"The seed is an integer from 0 to {MAX_SEED}, or its decimal digits.")
        return value

    def _serialize(self, value: object, attr: str | None, obj: object, **kwargs: object) -> object:
        return value


class ProblemSchema(Schema):
    """RFC 9457 problem details, with Kibitz's stable machine `code`."""

    type = fields.String(metadata={"description": "URI naming the problem type"})
    title = fields.String(metadata={"description": "HTTP status phrase"})
    status = fields.Integer(strict=True)
    code = fields.String(
        metadata={
            "description": "Stable machine-readable code, e.g. `stale-version`; every code the service "
            "answers with is listed (read from the sources, api/contract/problem_codes.py)",
            "enum": catalog()["codes"],
        }
    )
    detail = fields.String(metadata={"description": "What went wrong, in words a player understands"})
    rule = fields.String(metadata={"description": "Referee rule number (e.g. MA-3) behind a refusal"})
    errors = fields.Dict(
        metadata={"description": "Field-by-field validation messages", "x-ref": "ValidationErrors"}
    )
    table = fields.Dict(
        metadata={"description": "The current table, with 409 stale-version", "x-ref": "Table"}
    )
    entries = fields.List(
        fields.String(),
        metadata={
            "description": "With 409 `sheet-disagrees`: the published board-sheet entries the table's "
            "sheet lacks or has other numbers for (MG-2)"
        },
    )
    play_date = fields.String(
        metadata={"description": "With 422 `bad-bgstats-play`: the day of the play, as the file writes it"}
    )


class PlayerSetupSchema(Schema):
    name = FreeText(max_length=40, required=True, metadata={"description": "The player's name."})
    colours = fields.List(
        fields.String(validate=validate.Length(min=1, max=20)),
        validate=validate.Length(max=2),
        metadata={"description": "Mahé: turtle colours (two each with 2–3 players, one with 4–7; MA-2)"},
    )


class CreateTableSchema(Schema):
    game = fields.String(required=True, metadata={"description": "Game name from GET /api/games"})
    players = fields.List(
        fields.Nested(PlayerSetupSchema),
        required=True,
        validate=validate.Length(min=1, max=7),
        metadata={"description": "Players in seat order (seat = position in this list)"},
    )
    options = fields.Dict(
        keys=fields.String(),
        load_default=dict,
        metadata={
            "description": "Game options; see GET /api/games for each game's options",
            "x-any-of": OPTIONS_REQUESTS,
        },
    )
    seed = fields.Integer(
        strict=True,
        validate=validate.Range(min=0, max=MAX_SEED),
        metadata={
            "description": "Seed for server-drawn chance; chosen by the server when left out. A seed you "
            "choose is shown to every player from the start (it predicts the server's draws)."
        },
    )


class EventSchema(Schema):
    """One game event: `type` plus the fields that type needs; `{"type": "undo", "undoes": seq}` undoes."""

    class Meta:
        unknown = INCLUDE

    type = fields.String(required=True, validate=validate.Length(min=1, max=40))


class AppendSchema(Schema):
    expected_version = fields.Integer(
        strict=True,
        required=True,
        validate=validate.Range(min=0),
        metadata={"description": "The log position (table.version) this event builds on"},
    )
    event = fields.Nested(EventSchema, required=True)


class PreviewSchema(Schema):
    expected_version = fields.Integer(
        strict=True,
        validate=validate.Range(min=0),
        metadata={"description": "If given, the preview is refused with 409 when the table moved on"},
    )
    event = fields.Nested(EventSchema, required=True)


class SeatAccessSchema(Schema):
    seat = fields.Integer(required=True)
    token = fields.String(required=True, metadata={"description": "Opens this seat's private view only"})
    path = fields.String(required=True, metadata={"description": "App link for this player (no write token)"})


class PrivateViewSchema(Schema):
    seat = fields.Integer(required=True)
    view = fields.Dict(
        allow_none=True,
        required=True,
        metadata={
            "description": "What only this seat may see (Magellan ledger: the own hand); null if nothing",
            "x-private-views": True,
        },
    )


class CreatedTableSchema(Schema):
    replayed = fields.Boolean(
        required=True,
        metadata={"description": "True when this answers a retried creation (the same Idempotency-Key)"},
    )
    id = fields.String(required=True)
    write_token = fields.String(
        required=True, metadata={"description": "Needed to append; share it only with the players"}
    )
    join_path = fields.String(required=True, metadata={"description": "App link with the token, for sharing"})
    seats = fields.List(
        fields.Nested(SeatAccessSchema),
        required=True,
        metadata={"description": "One private link per seat, to hand each player their own"},
    )
    table = fields.Nested(TableSchema, required=True)


class AppendedSchema(Schema):
    seq = fields.Integer(
        strict=True, required=True, metadata={"description": "Log position of the stored event"}
    )
    replayed = fields.Boolean(
        required=True, metadata={"description": "True when this answers a retry of an earlier request"}
    )
    table = fields.Nested(TableSchema, required=True)


class PreviewResultSchema(Schema):
    table = fields.Nested(TableSchema, required=True)


class LogEntrySchema(Schema):
    seq = fields.Integer(strict=True, required=True)
    kind = fields.String(required=True, metadata={"description": "`game` or `undo`"})
    event = fields.Dict(required=True, metadata={"x-ref": "LoggedEvent"})
    undoes = fields.Integer(
        strict=True, allow_none=True, metadata={"description": "For an undo: the seq it took back"}
    )
    in_effect = fields.Boolean(required=True, metadata={"description": "False once undone"})
    at = fields.DateTime(required=True)


class LogSchema(Schema):
    version = fields.Integer(strict=True, required=True)
    events = fields.List(fields.Nested(LogEntrySchema), required=True)
    next_after = fields.Integer(
        strict=True,
        allow_none=True,
        required=True,
        metadata={"description": "Ask again with `after` = this for the next page; null: no more"},
    )
    next = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "The next page's path (also in the `Link` header, rel=next); null: no more"},
    )


class ReplayStepSchema(Schema):
    seq = fields.Integer(
        strict=True, required=True, metadata={"description": "After this log entry (0: the new game)"}
    )
    finished = fields.Boolean(required=True)
    state = fields.Dict(required=True, metadata={"description": "The game state as players saw it then"})
    legal_actions = fields.Dict(
        required=True,
        metadata={"description": "Who decided next and what they might do then (`undo.possible` is false)"},
    )
    result = fields.Dict(allow_none=True, metadata={"description": "Final standings, once finished"})


class ReplaySchema(Schema):
    game = fields.String(required=True)
    version = fields.Integer(strict=True, required=True, metadata={"description": "Log entries replayed"})
    steps = fields.List(
        fields.Nested(ReplayStepSchema),
        required=True,
        metadata={"description": "`version` + 1 steps: the new game, then the table after each entry"},
    )


MAX_LOG_PAGE = 1000


class LogQuerySchema(Schema):
    after = fields.Integer(
        load_default=0,
        validate=validate.Range(min=0, max=10**9),
        metadata={"description": "Only entries after this log position (seq); 0: from the start"},
    )
    limit = fields.Integer(
        validate=validate.Range(min=1, max=MAX_LOG_PAGE),
        metadata={"description": f"At most this many entries (1–{MAX_LOG_PAGE}); all when left out"},
    )


class PowerSchema(Schema):
    """One cell of Magellan's MG-8: what winning the explorer's card does on that side and field."""

    explorer = fields.String(required=True)
    side = fields.String(required=True, validate=validate.OneOf(["A", "B"]))
    field = fields.Integer(strict=True, required=True, validate=validate.Range(1, 3))
    summary = fields.String(required=True, metadata={"description": "The power in one English phrase"})
    rule = fields.String(required=True, metadata={"description": "REFEREE.md rule, e.g. MG-8"})
    veto = fields.Boolean(required=True, metadata={"description": "One veto of a later card (Columbus I)"})
    draws = fields.Integer(strict=True, required=True, metadata={"description": "Money cards drawn at once"})
    part_choice = fields.Boolean(required=True, metadata={"description": "Left or right part (Vasco B)"})
    draws_left = fields.Integer(
        strict=True, required=True, metadata={"description": "Draws on the left part"}
    )
    slide_from = fields.String(
        required=True, allow_none=True, validate=validate.OneOf(["hand", "payment"]),
        metadata={"description": "Where Magellan's slid card comes from"},
    )  # fmt: skip
    keep_in_hand = fields.Integer(
        strict=True, required=True, metadata={"description": "Hand cards that must stay after paying"}
    )
    open_hand = fields.Boolean(required=True, metadata={"description": "The rest of the hand lies open"})
    neighbour_pull = fields.Boolean(
        required=True, metadata={"description": "The left neighbour pulls one hand card (Cook B)"}
    )
    swaps = fields.Integer(
        strict=True, required=True, metadata={"description": "Swaps per ship at phase end"}
    )
    crowns = fields.String(
        required=True,
        validate=validate.OneOf(["sheet", "slid-cards", "right-part", "pizarro-draw"]),
        metadata={"description": "How a ship there scores: the sheet's crowns, or what the rule says"},
    )
    pizarro_draw = fields.Boolean(required=True, metadata={"description": "The Pizarro draw at scoring"})
    acts = fields.Boolean(
        required=True,
        metadata={"description": "Whether winning the card does anything beyond placing the ship"},
    )


class GameInfoSchema(Schema):
    name = fields.String(required=True)
    title = fields.String(required=True)
    min_players = fields.Integer(strict=True, required=True)
    max_players = fields.Integer(strict=True, required=True)
    options = fields.Dict(required=True, metadata={"description": "Option defaults", "x-any-of": OPTIONS})
    powers = fields.List(
        fields.Nested(PowerSchema),
        metadata={"description": "Magellan only: MG-8 as data, one row per explorer, side and field"},
    )


def _has_type(event: dict[str, object]) -> bool:
    if not isinstance(event.get("type"), str):
        raise ValidationError("Every event needs a string `type`.")
    return True


HEX_SHA256 = validate.Regexp(r"^[0-9a-f]{64}$")


class RecordEventSchema(Schema):
    seq = fields.Integer(strict=True, required=True, validate=validate.Range(min=1))
    hash = fields.String(
        validate=HEX_SHA256,
        metadata={
            "description": "SHA-256 (hex) over the previous entry's hash and this entry's canonical content"
        },
    )
    # A Dict, not the nested EventSchema: dumping must keep every field of the event.
    event = fields.Dict(
        required=True,
        validate=_has_type,
        metadata={
            "description": 'The event as appended, e.g. `{"type": "die", "value": 4}`',
            "x-ref": "LoggedEvent",
        },
    )


class RecordSchema(Schema):
    """A finished game as exported: enough to replay it anywhere."""

    class Meta:
        unknown = INCLUDE

    format = fields.String(
        required=True,
        validate=validate.OneOf(["kibitz-record/3", "kibitz-record/2", "kibitz-record/1"]),
        metadata={
            "description": "`kibitz-record/3`: `head` and a `signature` over every field, by RFC 8785 "
            "(JCS), the seeds as decimal strings; `kibitz-record/2` (older exports): the same over "
            "integers in full; `kibitz-record/1` (older still): `chain.signature` over the head only "
            "(docs/records.md)"
        },
    )
    table_id = fields.String(
        metadata={"description": "The table it was recorded at (part of what is signed)"}
    )
    game = fields.String(required=True, metadata={"enum": list(GAMES)})
    players = fields.List(fields.Nested(PlayerSetupSchema), required=True, validate=validate.Length(min=1))
    options = fields.Dict(load_default=dict, metadata={"x-any-of": OPTIONS_REQUESTS})
    seed = RecordSeed(
        required=True,
        metadata={
            "description": "The table's seed: in format 3 its decimal digits as a string (seeds reach "
            "2^62, past the integers a JavaScript number holds exactly), in formats 1 and 2 an integer",
            "oneOf": [
                {"type": "string", "pattern": DIGITS, "maxLength": 19},
                {"type": "integer", "minimum": 0, "maximum": MAX_SEED},
            ],
            "example": "3369090833065030803",
        },
    )
    events = fields.List(fields.Nested(RecordEventSchema), required=True)
    result = fields.Dict(allow_none=True, metadata={"x-any-of": RESULTS})
    table_id = fields.String(metadata={"description": "The table it was exported from"})
    created_at = fields.String(metadata={"description": "When the table was created (ISO 8601)"})
    finished_at = fields.String(metadata={"description": "When the game finished (ISO 8601)"})
    chain = fields.Nested(
        "ChainSchema", metadata={"description": "The hash chain over the entries: its length and last hash"}
    )
    head = fields.Nested(
        "RecordHeadSchema",
        metadata={"description": "Format 2: which head of the table's log this record is"},
    )
    signature = fields.Nested(
        "SignatureSchema",
        metadata={
            "description": "Format 2: the server's Ed25519 signature over the canonical JSON of the "
            "whole record without this `value` (docs/records.md); without it: unsigned"
        },
    )


class RecordHeadSchema(Schema):
    version = fields.Integer(
        strict=True,
        required=True,
        validate=validate.Range(min=0),
        metadata={"description": "The table version"},
    )
    entries = fields.Integer(
        strict=True,
        required=True,
        validate=validate.Range(min=0),
        metadata={"description": "How many log entries (undo entries included) the record holds"},
    )
    at = fields.String(required=True, metadata={"description": "When the last entry was appended (ISO 8601)"})


class SignatureSchema(Schema):
    algorithm = fields.String(required=True, validate=validate.Equal("Ed25519"))
    key_id = fields.String(
        required=True, metadata={"description": "Which key signed: `key_id` of GET /api/record-key"}
    )
    value = fields.String(
        required=True,
        metadata={
            "description": "Ed25519 signature (base64url, no padding): formats 3 and 2, of the "
            "canonical record without this value; format 1, of "
            "`kibitz-record/1\\n<table_id>\\n<length>\\n<head>` (docs/records.md)"
        },
    )


class ChainSchema(Schema):
    algorithm = fields.String(required=True, validate=validate.Equal("sha256"))
    length = fields.Integer(strict=True, required=True, validate=validate.Range(min=0))
    head = fields.String(required=True, validate=HEX_SHA256)
    signature = fields.Nested(
        SignatureSchema, metadata={"description": "The server's signature of the head; without it: unsigned"}
    )


class PublicKeySchema(Schema):
    """The public half of one record key."""

    algorithm = fields.String(required=True, metadata={"description": "`Ed25519`"})
    key_id = fields.String(
        required=True, metadata={"description": "First 16 hex digits of SHA-256 of the raw key"}
    )
    public_key = fields.String(required=True, metadata={"description": "The raw 32-byte key, base64url"})
    public_key_pem = fields.String(
        required=True, metadata={"description": "The same as PEM (SubjectPublicKeyInfo)"}
    )


class ListedKeySchema(PublicKeySchema):
    current = fields.Boolean(
        required=True, metadata={"description": "The key that signs new heads and records now"}
    )


class RecordKeySchema(PublicKeySchema):
    """The public half of the key that signs records now, and every key whose signatures are still
    accepted (the keys it replaced: older records keep verifying)."""

    keys = fields.List(
        fields.Nested(ListedKeySchema),
        required=True,
        metadata={"description": "Every accepted key by `key_id`, the current one first"},
    )


class ChainCheckSchema(Schema):
    intact = fields.Boolean(required=True)
    index = fields.Integer(
        allow_none=True, metadata={"description": "0-based position of the first broken entry"}
    )
    seq = fields.Integer(allow_none=True, metadata={"description": "Its seq as the record states it"})
    reason = fields.String(allow_none=True)


class VerificationSchema(Schema):
    valid = fields.Boolean(
        required=True,
        metadata={"description": "Signed by this server, its chain whole, replays to the end and matches"},
    )
    finished = fields.Boolean(required=True)
    result = fields.Dict(
        allow_none=True, metadata={"description": "The result the replay computes", "x-any-of": RESULTS}
    )
    claimed_result_matches = fields.Boolean(required=True)
    chain = fields.Nested(
        ChainCheckSchema, required=True, metadata={"description": "Where the hash chain breaks"}
    )
    signature = fields.String(
        required=True,
        validate=validate.OneOf(["valid", "invalid", "unsigned"]),
        metadata={"description": "The server's signature of the head: a record without one is never valid"},
    )
    problem = fields.Dict(
        allow_none=True, metadata={"description": "Why it is not valid", "x-ref": "RecordRefusal"}
    )
    format = fields.String(
        allow_none=True,
        validate=validate.OneOf(["kibitz-record/3", "kibitz-record/2", "kibitz-record/1"]),
        metadata={"description": "The record's format, as it says"},
    )
    unbound = fields.List(
        fields.String(),
        required=True,
        metadata={
            "description": "Top-level fields its signature does not vouch for: none in formats 3 and 2; in "
            "format 1 everything but the table, header, entries and chain (e.g. `created_at`)"
        },
    )
    currency = fields.String(
        allow_none=True,
        validate=validate.OneOf(["current", "superseded", "unknown-table"]),
        metadata={
            "description": "Is it still its table's record here? `current`: the table's head is this "
            "record's; `superseded`: the table has a later head (`current_head`); `unknown-table`: no "
            "such table here, or another installation signed it; null: the signature is not this "
            "server's (nothing can be said)"
        },
    )
    current_head = fields.Nested(
        "CurrentHeadSchema",
        allow_none=True,
        metadata={"description": "The table's head here now, when the table is known"},
    )


class CurrentHeadSchema(Schema):
    version = fields.Integer(required=True, metadata={"description": "The table's version now"})
    entries = fields.Integer(required=True, metadata={"description": "Its number of log entries now"})


class BgStatsSchema(Schema):
    url = fields.String(required=True, metadata={"description": "bgstats:// link that opens BG Stats"})
    play = fields.Dict(
        required=True, metadata={"description": "The play as BG Stats imports it", "x-ref": "BgStatsPlay"}
    )

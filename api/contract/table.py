"""A table as the API answers it — GET /api/tables/{id}, an append's answer, every live stream's
event: the schema its view (api.tables.views) is dumped with and documented by. Kept apart from the
handlers' schemas (api.http.schemas) because the push (api.push) renders the same answer and must
not import a handler."""

from __future__ import annotations

from marshmallow import Schema, ValidationError, fields

from api.rules.common.seeds import LEGACY_MAX_SEED, MAX_SAFE_INTEGER, SEED_DIGITS, read_seed

# A seed as the API shows it: the number, or (a table from before seeds stayed below 2^53) its digits.
SEED_FORMS = [
    {"type": "integer", "minimum": 0, "maximum": MAX_SAFE_INTEGER},
    {
        "type": "string",
        "pattern": SEED_DIGITS,
        "description": "A seed above 2^53 − 1 (a table from before seeds were drawn below it), as its "
        "decimal digits, so that JavaScript reads it exactly",
    },
]


class ShownSeed(fields.Field):
    """A seed as api.rules.common.seeds writes it (a number, or the digits of a larger one); a record
    sent back may carry either form, and is hashed and replayed with the number."""

    def _serialize(self, value: object, attr: str | None, obj: object, **kwargs: object) -> object:
        return value

    def _deserialize(self, value: object, attr: str | None, data: object, **kwargs: object) -> object:
        number = read_seed(value)
        if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= LEGACY_MAX_SEED:
            raise ValidationError("A whole number from 0 to 9007199254740991, or a larger seed's digits.")
        if isinstance(value, int) and value > MAX_SAFE_INTEGER:
            raise ValidationError("A seed above 9007199254740991 is written as a string of its digits.")
        return value


class TableSchema(Schema):
    id = fields.String(required=True)
    game = fields.String(required=True)
    version = fields.Integer(
        strict=True, required=True, metadata={"description": "Number of log entries so far"}
    )
    finished = fields.Boolean(required=True)
    players = fields.List(fields.Dict(metadata={"x-ref": "PlayerSetup"}), required=True)
    options = fields.Dict(required=True)
    state = fields.Dict(required=True, metadata={"description": "The game state as players see it"})
    legal_actions = fields.Dict(
        required=True,
        metadata={"description": "Who decides next, the allowed events with their odds, and `undo.possible`"},
    )
    result = fields.Dict(allow_none=True, metadata={"description": "Final standings once finished"})
    seed = ShownSeed(
        allow_none=True,
        metadata={
            "oneOf": SEED_FORMS,
            "description": "The table's seed: shown from the start when the creator chose it, else revealed "
            "once the game is finished (an undo that reopens it draws on from a fresh secret seed, "
            "recorded in that undo entry as `reseed`)"
        },
    )
    created_at = fields.DateTime(required=True)
    updated_at = fields.DateTime(required=True)

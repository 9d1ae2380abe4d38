"""Stateless Mahé: a position plus dice in, the resulting position, bust and card taker out."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from api.contract import examples
from api.rules.mahe.constants import TURTLE_COLOURS
from api.rules.mahe.position import resolve_move

blp = Blueprint("mahe", __name__, url_prefix="/api/mahe", description="Mahé without a table")

COLOUR = fields.String(validate=validate.Length(min=1, max=20), metadata={"enum": list(TURTLE_COLOURS)})


class PositionSchema(Schema):
    raft = fields.List(COLOUR, load_default=list, metadata={"description": "Turtles on the raft"})
    track = fields.List(
        fields.List(COLOUR),
        required=True,
        validate=validate.Length(equal=21),
        metadata={"description": "21 fields, each bottom → top"},
    )


class MoveRequestSchema(Schema):
    position = fields.Nested(PositionSchema, required=True)
    turtle = fields.String(
        required=True, metadata={"description": "The moving turtle", "enum": list(TURTLE_COLOURS)}
    )
    dice = fields.List(
        fields.Integer(strict=True, validate=validate.Range(min=1, max=6)),
        required=True,
        validate=validate.Length(min=1, max=3),
        metadata={"description": "Dice in order; egg cards played as dice (MA-11) count as dice"},
    )
    owners = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(strict=True, validate=validate.Range(min=0, max=6)),
        metadata={
            "description": "Turtle colour → seat, to name seats in the answer",
            "x-ref": "TurtleOwners",
        },
    )
    face_up = fields.Integer(
        strict=True,
        validate=validate.Range(min=1, max=7),
        metadata={"description": "The face-up card (7: beach)"},
    )


class MoveResultSchema(Schema):
    position = fields.Nested(PositionSchema, required=True)
    distance = fields.Integer(strict=True, required=True)
    bust = fields.Boolean(required=True)
    from_ = fields.Integer(
        strict=True, data_key="from", required=True, metadata={"description": "0 = the raft"}
    )
    to = fields.Integer(strict=True, required=True, metadata={"description": "0 = the raft"})
    passes_beach = fields.Boolean(required=True)
    carried = fields.List(fields.String(), required=True)
    left_behind = fields.List(fields.String(), required=True)
    card_taker_turtle = fields.String(allow_none=True, required=True)
    card_taker_seat = fields.Integer(strict=True, allow_none=True, required=True)
    card_value = fields.Integer(strict=True, allow_none=True, required=True)
    decider_turtle = fields.String(required=True)
    decider_seat = fields.Integer(strict=True, allow_none=True, required=True)
    complete = fields.Boolean(
        required=True, metadata={"description": "False while the decider could still ask for a die"}
    )


@blp.route("/move")
class Move(MethodView):
    @blp.arguments(MoveRequestSchema, example=examples.MAHE_MOVE)
    @blp.response(200, MoveResultSchema)
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY", description="Impossible position or dice")
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Resolve one Mahé move

        For third-party apps: give a position and the dice of one move (MA-3); get the resulting
        position (MA-5), whether it busts (MA-6), and who takes the face-up card (MA-7). The example
        is the rule book's: red on field 18 (on dark blue, yellow on top) rolls 1, 2, 3.
        """
        result = resolve_move(
            body["position"], body["turtle"], body["dice"], body.get("owners"), body.get("face_up")
        )
        result["from_"] = result.pop("from")
        return result

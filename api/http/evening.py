"""A table's next game over HTTP (issue 33): the phones of a finished table follow the rematch or
the group's next game without scanning a code again (api.groups.evening)."""

from __future__ import annotations

from typing import Any

from flask import current_app
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields

from api.groups.evening import Evening, Handover
from api.http.context import bearer_token, store
from api.http.groups import GROUPS_KEY
from api.http.limits import guard_token

blp = Blueprint(
    "evening", __name__, url_prefix="/api/tables", description="An evening: the next game of a table"
)

EVENING_KEY = "kibitz.evening"


def evening() -> Evening:
    found = current_app.extensions.get(EVENING_KEY)
    if found is None:
        found = current_app.extensions[EVENING_KEY] = Evening(store(), current_app.extensions[GROUPS_KEY])
    return found  # type: ignore[no-any-return]


class SeatHandOverSchema(Schema):
    seat = fields.Integer(required=True, metadata={"description": "A seat of this table"})
    token = fields.String(required=True, metadata={"description": "That seat's own token"})
    next_seat = fields.Integer(required=True, metadata={"description": "The same player's seat there"})
    next_token = fields.String(required=True, metadata={"description": "That seat's own token"})


class HandOverSchema(Schema):
    table_id = fields.String(required=True, metadata={"description": "The next game's table id"})
    table_token = fields.String(required=True, metadata={"description": "The next game's write token"})
    seats = fields.List(
        fields.Nested(SeatHandOverSchema),
        load_default=list,
        metadata={"description": "Players' own links carried along: a phone with one gets its new one"},
    )


class NextTableQuerySchema(Schema):
    seat = fields.Integer(
        load_default=None,
        metadata={"description": "Ask as this seat, with its own token (a player's own link)"},
    )


class NextTableSchema(Schema):
    table_id = fields.String(required=True, metadata={"description": "The next game's table id"})
    game = fields.String(required=True)
    read_path = fields.String(required=True, metadata={"description": "The link that only watches it"})
    join_path = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "The link that records at it: only for the old table's write token"},
    )
    seat_path = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "The player's own link there: only for `seat` with that seat's token"},
    )
    group_ids = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "The groups the next game is filed in (empty without the token)"},
    )


def _answer(handover: Handover) -> dict[str, Any]:
    nid = handover.next_id
    return {
        "table_id": nid,
        "game": handover.game,
        "read_path": f"/#/t/{nid}",
        "join_path": f"/#/t/{nid}?k={handover.token}" if handover.token else None,
        "seat_path": f"/#/t/{nid}?s={handover.seat[0]}&sk={handover.seat[1]}" if handover.seat else None,
        "group_ids": handover.groups if handover.token else [],
    }


@blp.route("/<string:table_id>/next")
class NextTable(MethodView):
    @blp.doc(operationId="getNextTable", security=[{}, {"writeToken": []}, {"seatToken": []}])
    @blp.arguments(NextTableQuerySchema, location="query", as_kwargs=True)
    @blp.response(200, NextTableSchema)
    @blp.alt_response(403, response="FORBIDDEN", description="`bad-write-token`: not this table's token")
    @blp.alt_response(404, response="NOT_FOUND", description="`no-next-table` yet, or no such table")
    def get(self, table_id: str, seat: int | None = None) -> Any:
        """The next game of a table

        The rematch or the group's next game started from this table. With the table's write token
        the answer carries the next game's join link (the phones that recorded here record there
        too); with `seat` and that seat's own token, the player's own link there; without a token
        only the read link. A phone on a finished table asks every few seconds.
        """
        with guard_token(table_id):
            answer = _answer(evening().next_of(table_id, bearer_token(), seat))
        return answer, 200, {"Cache-Control": "no-store"}

    @blp.doc(operationId="handOverTable", security=[{"writeToken": []}])
    @blp.arguments(HandOverSchema, example={"table_id": "TOhmKu7Ht0a1b2c3", "table_token": "…"})
    @blp.response(201, NextTableSchema)
    @blp.alt_response(401, response="UNAUTHORIZED", description="No write token")
    @blp.alt_response(403, response="FORBIDDEN", description="A wrong token of either table")
    @blp.alt_response(404, response="NOT_FOUND", description="No such table")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY", description="`same-table`")
    def post(self, body: dict[str, Any], table_id: str) -> dict[str, Any]:
        """Start this table's next game

        Names the table the players move on to (a rematch, the group's next game), with the write
        tokens of both tables. The first next game stands: the answer is the one recorded. A rematch
        (the same game and players in the same seats) of a group's table is filed in the group with
        the same seats.
        """
        with guard_token(table_id):
            return _answer(
                evening().hand_over(
                    table_id, bearer_token(), body["table_id"], body["table_token"], body["seats"]
                )
            )

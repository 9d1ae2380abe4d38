"""What a Mhing table shows, typed field by field for the OpenAPI document (MH-*)."""

from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, fields, validate

from api.games.schema_kit import (
    Decider,
    action,
    flag,
    integer,
    ints,
    items,
    listing,
    nested,
    notes,
    optional_copy,
    ranked,
    ref,
    result,
    strict,
    text,
    undo,
)
from api.rules.common import events as common

MhingPlayer = strict(
    "MhingPlayer", {"seat": integer(), "name": text(), "score": integer(), "dealer": flag("Deals this round")}
)
MhingPayment = strict(
    "MhingPayment",
    {"seat": integer(), "owed": integer(), "paid": integer("Less when the payer ran out (MH-9)")},
)
MhingRound = strict(
    "MhingRound",
    {
        "number": integer(),
        "dealer": integer(),
        "outcome": text(one_of=["won", "points", "drawn"]),
        "winner": integer(null=True),
        "discarder": integer(null=True),
        "points": integer("MH-8"),
        "premiums": integer(null=True),
        "score": fields.Dict(  # the stateless scoring's answer (api.games.mhing.endpoints), by name
            required=True, allow_none=True,
            metadata={"description": "The winning hand scored, when it was entered", "x-ref": "ScoreResult"},
        ),
        "changes": ints("Score change per seat"),
        "scores": ints("Scores per seat after the round"),
        "payments": items(MhingPayment, "Variant 2: who paid what (MH-9)"),
    },
)  # fmt: skip
MhingRanking = ranked("Mhing", {"score": integer()})
MhingResult = result("Mhing", MhingRanking, ["target", "all-points", "agreement"])
MhingOptions = strict(
    "MhingOptions",
    {
        "settlement": fields.Integer(
            strict=True,
            required=True,
            validate=validate.OneOf([1, 2]),
            metadata={"description": "1: add up to 500; 2: pay the winner from 500 each (MH-9)"},
        ),
        "first_seat": integer("The first dealer (MH-2)"),
    },
)
MhingView = strict(
    "MhingView",
    {
        "settlement": integer("Variant 1 or 2 (MH-9)"),
        "target": integer(null=True),
        "total_points": integer(null=True),
        "players": items(MhingPlayer),
        "dealer": integer("Who deals (MH-2)"),
        "round": integer(),
        "rounds_played": integer(),
        "rounds": items(MhingRound, "The latest rounds"),
        "last_round": nested(MhingRound, null=True),
        "finished": flag(),
        "ended_by": text(null=True, one_of=["target", "all-points", "agreement", None]),
    },
)
PointsRow = strict("MhingPointsRow", {"premiums": integer(), "points": integer()})
MHING_ACTIONS = [
    action(
        "Mhing",
        "round_won",
        {
            "winners": ints("Seats that may have gone out"),
            "discarders": ints(),
            "fields": fields.Dict(
                keys=fields.String(), values=fields.String(), required=True,
                metadata={"description": "The event's fields, each with what it means"},
            ),
        },
    ),
    action("Mhing", "round_points",
           {"winners": ints(), "discarders": ints(), "points_table": items(PointsRow)}),
    action("Mhing", "round_drawn", {}),
    action("Mhing", "end_game", {}),
]  # fmt: skip
Dealer = strict("MhingDealer", {"seat": integer(), "name": text()})
MhingLegalActions = strict(
    "MhingLegalActions",
    {
        "phase": text(one_of=["round", "finished"]),
        "round": integer(),
        "dealer": nested(Dealer, null=True),
        "decider": nested(Decider, null=True),
        "actions": listing(fields.Raw(metadata=ref("MhingAction"))),
        "notes": notes(),
        "undo": undo(),
    },
)
MhingOptionsRequest = optional_copy(MhingOptions, "MhingOptionsRequest")


# ---------- its events' own kind of field (api.contract.vocabulary) ----------

CARDS = {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]}


class MhingHandSchema(Schema):
    """A Mhing hand as events carry it (MH-10 notation per part)."""

    class Meta:
        unknown = RAISE

    groups = fields.List(
        fields.Raw(metadata=CARDS),
        metadata={"description": "Laid-out groups, each in MH-10 notation, e.g. `b3 jk=b4 b5`"},
    )
    hidden = fields.Raw(required=True, metadata={**CARDS, "description": "The cards in the hand"})
    flowers = fields.Raw(metadata={**CARDS, "description": "Flower cards"})
    discard = fields.Boolean(metadata={"description": "Whether the last card was a discard"})


def hand_field(spec: common.Field, options: dict[str, Any]) -> fields.Field:
    return fields.Nested(MhingHandSchema, **options)

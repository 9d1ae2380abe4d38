"""Stateless Magellan: scoring an end position (MG-10 … MG-12), Pizarro odds (MG-11), sheet check."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from api.contract import examples
from api.http.schemas import MAX_SEED
from api.http.strict import FreeText
from api.rules.errors import InvalidSetup, MalformedEvent
from api.rules.magellan.constants import EXPLORERS, MONEY_VALUES, PARTS
from api.rules.magellan.scoring import odds
from api.rules.magellan.sheet import missing_entries, parse_sheet, rule_fixed_entries, sheet_json, side_map
from api.rules.magellan.stateless import score_position, stack_counts

blp = Blueprint("magellan", __name__, url_prefix="/api/magellan", description="Magellan without a table")

MONEY = fields.Integer(strict=True, validate=validate.OneOf(MONEY_VALUES))
SIDES = fields.Dict(
    keys=fields.String(validate=validate.OneOf(EXPLORERS)),
    values=fields.String(validate=validate.OneOf(("A", "B"))),
    load_default=dict,
    metadata={
        "description": 'Board side per explorer, e.g. {"pizarro": "B"}; "A" where left out',
        "x-ref": "MagellanSides",
    },
)
STACK = fields.Dict(
    keys=fields.String(validate=validate.OneOf([str(v) for v in MONEY_VALUES])),
    values=fields.Integer(strict=True, validate=validate.Range(min=0, max=7)),
    metadata={
        "description": 'Money value → copies left in the stack, e.g. {"1": 3, "9": 5}',
        "x-ref": "MoneyStack",
    },
)


class MagellanShipSchema(Schema):
    explorer = fields.String(required=True, validate=validate.OneOf(EXPLORERS))
    field = fields.Integer(
        strict=True, required=True, validate=validate.Range(min=1, max=3), metadata={"description": "1–3"}
    )
    part = fields.String(
        validate=validate.OneOf(PARTS),
        allow_none=True,
        load_default=None,
        metadata={"description": "Vasco da Gama side B only: left or right part (MG-8)"},
    )


class MagellanSimulateSchema(Schema):
    seed = fields.Integer(strict=True, required=True, validate=validate.Range(min=0, max=MAX_SEED))
    count = fields.Integer(
        strict=True,
        required=True,
        validate=validate.Range(min=0, max=63),
        metadata={"description": "Cards turned up so far; ask again with count + 1 to draw one more"},
    )


class MagellanPizarroSchema(Schema):
    draws = fields.List(MONEY, metadata={"description": "Money values turned up, in order (physical)"})
    simulate = fields.Nested(
        MagellanSimulateSchema,
        metadata={"description": "Draw from a seeded shuffle of the stack instead (digital)"},
    )


class MagellanScorePlayerSchema(Schema):
    name = FreeText(max_length=40, required=True, metadata={"description": "The player's name."})
    ships = fields.List(fields.Nested(MagellanShipSchema), load_default=list, validate=validate.Length(max=6))
    money = fields.List(MONEY, load_default=list, metadata={"description": "Money cards left in hand"})
    magellan_piles = fields.List(
        fields.List(MONEY, validate=validate.Length(min=1, max=3)),
        load_default=list,
        metadata={"description": "Per Magellan pile the slid money values (1–3 cards, MG-8)"},
    )
    pizarro = fields.Nested(
        MagellanPizarroSchema,
        allow_none=True,
        metadata={"description": "Only for a ship on Pizarro side B field III (MG-11)"},
    )


class MagellanScoreRequestSchema(Schema):
    sides = SIDES
    board_sheet = fields.Dict(
        required=True,
        metadata={
            "description": "The board sheet (MG-2); the crowns of fields with ships",
            "x-ref": "BoardSheet",
        },
    )
    first_seat = fields.Integer(
        strict=True,
        load_default=0,
        validate=validate.Range(min=0, max=5),
        metadata={"description": "Winner of the last card: scores first (MG-10)"},
    )
    players = fields.List(
        fields.Nested(MagellanScorePlayerSchema),
        required=True,
        validate=validate.Length(min=3, max=6, error="Magellan is for 3 to 6 players (MG-3)."),
        metadata={"description": "Every player in seat order; Magellan is for 3 to 6 players (MG-3)"},
    )
    stack = STACK


class MagellanScoreResultSchema(Schema):
    scoring_order = fields.List(
        fields.Integer(strict=True), required=True, metadata={"description": "Seats, MG-10"}
    )
    scores = fields.List(
        fields.Dict(metadata={"x-ref": "MagellanScore"}),
        required=True,
        metadata={
            "description": "Per seat: fields, fields_total, money, magellan {piles, points}, pizarro, "
            "by_explorer, before_pizarro, total"
        },
    )
    ranking = fields.List(
        fields.Dict(metadata={"x-ref": "MagellanRanking"}),
        required=True,
        metadata={"description": "seat, name, score, place"},
    )
    winners = fields.List(fields.Integer(strict=True), required=True)
    decided_by = fields.String(required=True, metadata={"description": "`points` or `shared` (MG-12)"})
    explanation = fields.String(required=True)


class MagellanOddsRequestSchema(Schema):
    stack = STACK
    known_cards = fields.List(
        MONEY,
        load_default=list,
        metadata={"description": "Without `stack`: cards known to be elsewhere (hands, Magellan piles)"},
    )
    drawn = fields.List(
        MONEY, load_default=list, metadata={"description": "Cards of this Pizarro draw so far"}
    )
    total = fields.Integer(
        strict=True,
        validate=validate.Range(min=0, max=200),
        metadata={"description": "Current Pizarro sum; defaults to the sum of `drawn`"},
    )
    target = fields.Integer(
        strict=True,
        allow_none=True,
        validate=validate.Range(min=-200, max=200),
        metadata={
            "description": "A Pizarro sum to beat (e.g. the leader's total minus yours before Pizarro)"
        },
    )


class MagellanOddsSchema(Schema):
    total = fields.Integer(strict=True, required=True)
    stack_size = fields.Integer(strict=True, required=True)
    bust_chance = fields.Float(allow_none=True, required=True, metadata={"description": "Next card > 20"})
    points_if_stop = fields.Integer(strict=True, required=True)
    expected_points = fields.Float(required=True, metadata={"description": "Best stopping rule"})
    advice = fields.String(required=True, metadata={"description": "`draw` or `stop` for most points"})
    next_card = fields.List(fields.Dict(metadata={"x-ref": "MagellanNextCard"}), required=True)
    target = fields.Integer(strict=True, allow_none=True, required=True)
    beat_chance = fields.Float(metadata={"description": "Chance to end above target, best stopping rule"})
    beat_advice = fields.String(metadata={"description": "`draw` or `stop` to beat the target"})
    tie_or_beat_chance = fields.Float(metadata={"description": "Chance to end at target or above"})


class MagellanSheetCheckSchema(Schema):
    sheet = fields.Dict(required=True, metadata={"x-ref": "BoardSheet"})
    sides = SIDES


class MagellanSheetCheckResultSchema(Schema):
    sheet = fields.Dict(
        required=True,
        metadata={"description": "The sheet in full shape, nulls included", "x-ref": "BoardSheet"},
    )
    missing = fields.List(fields.String(), required=True, metadata={"description": "Still null, these sides"})
    complete = fields.Boolean(required=True)
    rule_fixed = fields.List(
        fields.Dict(metadata={"x-ref": "MagellanRuleFixed"}),
        required=True,
        metadata={"description": "Entries a rule fixes"},
    )


@blp.route("/score")
class Score(MethodView):
    @blp.arguments(MagellanScoreRequestSchema, example=examples.MAGELLAN_SCORE)
    @blp.response(200, MagellanScoreResultSchema)
    @blp.alt_response(
        422, response="UNPROCESSABLE_ENTITY", description="Impossible position, or `board-sheet-incomplete`"
    )
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Score an end position

        For players who only want the count: ships per field, money left, Magellan piles and the
        Pizarro draw in; each player's breakdown and the ranking out, in the MG-10 order starting
        with the winner of the last card. The Pizarro draw is typed in (`draws`) or simulated
        (`simulate`: seeded, from `stack` or from all money cards not listed). The example is the
        rule book's MG-10/MG-11 one (with example sheet numbers): red has 36 before Pizarro, draws
        5, 6, 2, 8 = 21 and scores 0 for Pizarro; blue wins with 52.
        """
        return score_position(body)


@blp.route("/pizarro/odds")
class PizarroOdds(MethodView):
    @blp.arguments(
        MagellanOddsRequestSchema,
        required=False,
        example={"known_cards": [8, 1, 1, 5, 2, 4, 1, 2, 3, 4], "drawn": [5, 6, 2], "target": 16},
    )
    @blp.response(200, MagellanOddsSchema)
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY", description="Impossible stack")
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Pizarro odds

        The chance that the next card busts (total over 20) and, under the best stopping rule, the
        expected Pizarro points and the chance to beat `target` — exact, over the remaining stack
        (MG-11). Without `stack` the stack is all 63 money cards less `known_cards` and `drawn`.
        """
        drawn = list(body["drawn"])
        total = body.get("total", sum(drawn))
        stack = stack_counts(body.get("stack"), [*body["known_cards"], *drawn])
        return odds(stack, total, body.get("target"))


@blp.route("/board-sheet/check")
class SheetCheck(MethodView):
    @blp.arguments(MagellanSheetCheckSchema, example={"sheet": {"explorers": {}}, "sides": {"vasco": "B"}})
    @blp.response(200, MagellanSheetCheckResultSchema)
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY", description="`invalid-board-sheet`")
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Check a board sheet

        Validates a sheet (MG-2) and lists what a game with these sides still needs, plus the
        entries a rule fixes (they are never asked for).
        """
        try:
            sheet = parse_sheet(body["sheet"])
        except InvalidSetup as error:
            raise MalformedEvent(error.code, error.detail, error.rule) from None
        sides = side_map(body["sides"])
        missing = missing_entries(sheet, sides)
        return {
            "sheet": sheet_json(sheet),
            "missing": missing,
            "complete": not missing,
            "rule_fixed": rule_fixed_entries(sides),
        }

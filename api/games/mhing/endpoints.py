"""Stateless Mhing: score a hand, list its waits, the MH-8 points table, and MH-4 claims — no table needed."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, ValidationError, fields, validate

from api.contract import examples
from api.http.strict import StrictBoolean
from api.rules.mhing.claims import resolve_json
from api.rules.mhing.events import MAX_PREMIUMS
from api.rules.mhing.hand import parse_hand
from api.rules.mhing.premiums import points
from api.rules.mhing.scoring import score_hand, score_json
from api.rules.mhing.waits import waits_json

blp = Blueprint("mhing", __name__, url_prefix="/api/mhing", description="Mhing without a table")

CARDS_DOC = {
    "oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}],
    "description": "Cards in MH-10 notation: b1–b9, c1–c9, k1–k9, we ws ww wn, dr dg dw, f1–f4, jk; "
    "case-insensitive, separated by spaces or commas — or a list with one card per item",
}
GROUPS_DOC = {
    "oneOf": [
        {"type": "string"},
        {
            "type": "array",
            "items": {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
        },
    ],
    "description": "Groups laid out during the round (MH-3), fixed as laid out (MH-5): a list of groups, "
    "each three cards as a string or list, or one string with groups separated by `|`. A joker in a "
    "group is declared as the card it stands for: `b3 jk=b4 b5`",
}


def _is_cards(value: Any) -> bool:
    return isinstance(value, str) or (isinstance(value, list) and all(isinstance(v, str) for v in value))


class CardsField(fields.Field):
    """A string or a list of strings (checked card by card by the rules, MH-10)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if not _is_cards(value):
            raise ValidationError("Cards are MH-10 notation: a string like 'b1 b2 b3' or a list of cards.")
        return value


class GroupsField(fields.Field):
    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, str) or (isinstance(value, list) and all(_is_cards(g) for g in value)):
            return value
        raise ValidationError("Groups are a list of groups (each a string or a list of cards) or one string.")


class HandSchema(Schema):
    groups = GroupsField(load_default=None, metadata=GROUPS_DOC)
    hidden = CardsField(
        required=True,
        metadata={**CARDS_DOC, "description": "The hidden cards; jokers as `jk`, never declared"},
    )
    flowers = CardsField(
        load_default="",
        metadata={
            **CARDS_DOC,
            "description": "Flowers laid out (f1–f4); also set aside if typed among the hidden cards",
        },
    )


class ScoreRequestSchema(HandSchema):
    discard = StrictBoolean(
        load_default=False,
        metadata={
            "description": "The last card was another player's discard (MH-9 variant 2: they pay double)"
        },
    )


class ShownGroupSchema(Schema):
    cards = fields.List(fields.String(), required=True, metadata={"description": "The cards it reads as"})
    notation = fields.String(required=True, metadata={"description": "Jokers shown as `jk=b4`"})
    kind = fields.String(required=True, metadata={"description": "`triplet` or `sequence`"})
    laid_out = fields.Boolean(required=True)
    jokers = fields.Integer(strict=True, required=True)


class PairSchema(Schema):
    cards = fields.List(fields.String(), required=True)
    notation = fields.String(required=True)
    jokers = fields.Integer(strict=True, required=True)


class ReadingSchema(Schema):
    kind = fields.String(
        required=True, metadata={"description": "`groups-and-pair` or `nothing-fits` (MH-7)"}
    )
    groups = fields.List(
        fields.Nested(ShownGroupSchema),
        required=True,
        metadata={"description": "Four groups, laid-out ones first; premiums refer to them by index"},
    )
    pair = fields.Nested(PairSchema, allow_none=True, required=True)
    cards = fields.List(fields.String(), required=True, metadata={"description": "All 14 cards as read"})
    notation = fields.String(required=True, metadata={"description": "e.g. `b3 jk=b4 b5 | … | c5 c5`"})
    jokers_as = fields.List(
        fields.String(), required=True, metadata={"description": "What each hidden joker stands for (MH-5)"}
    )


class PremiumSchema(Schema):
    code = fields.String(required=True, metadata={"description": "Stable code, e.g. `honour-triplet`"})
    name = fields.String(required=True)
    rule = fields.String(required=True, metadata={"description": "MH-6 or MH-7"})
    value = fields.Integer(strict=True, required=True, metadata={"description": "Premiums per occurrence"})
    count = fields.Integer(strict=True, required=True, metadata={"description": "How often it occurs"})
    premiums = fields.Integer(strict=True, required=True, metadata={"description": "value × count"})
    groups = fields.List(
        fields.Integer(strict=True), required=True, metadata={"description": "Indices into reading.groups"}
    )
    pair = fields.Boolean(required=True, metadata={"description": "The pair is part of it"})
    occurrences = fields.List(
        fields.List(fields.Integer(strict=True)),
        required=True,
        metadata={"description": "The groups of each occurrence"},
    )
    cards = fields.List(fields.String(), required=True, metadata={"description": "Flowers: the flower cards"})


class HandNotationSchema(Schema):
    """A hand as the referee understood it, in MH-10 notation (jokers in groups declared)."""

    groups = fields.List(fields.String(), required=True, metadata={"description": "Laid-out groups"})
    hidden = fields.String(required=True)
    flowers = fields.String(required=True)
    discard = fields.Boolean(required=True)


class ScoreResultSchema(Schema):
    wins = fields.Boolean(required=True, metadata={"description": "The hand goes out (MH-5, MH-7)"})
    reason_code = fields.String(
        allow_none=True,
        required=True,
        metadata={
            "description": "`wrong-card-count`, `no-reading`, or `nothing-fits-on-discard` (the exceptional "
            "hand, MH-7, never goes out on a discard: MH-3)"
        },
    )
    reason = fields.String(allow_none=True, required=True, metadata={"description": "Why it does not go out"})
    cards = fields.Integer(strict=True, required=True, metadata={"description": "Cards besides flowers"})
    reading = fields.Nested(ReadingSchema, allow_none=True, required=True)
    premiums = fields.List(fields.Nested(PremiumSchema), required=True)
    total_premiums = fields.Integer(strict=True, required=True)
    points = fields.Integer(strict=True, required=True, metadata={"description": "MH-8"})
    flowers = fields.List(fields.String(), required=True)
    discard = fields.Boolean(required=True)
    hand = fields.Nested(
        HandNotationSchema,
        required=True,
        metadata={"description": "The hand as understood, in MH-10 notation"},
    )


class WaitsRequestSchema(HandSchema):
    discard = StrictBoolean(
        load_default=False,
        metadata={
            "description": "Only cards that complete the hand as another player's discard: the exceptional "
            "hand (MH-7) is then never a wait (MH-3)"
        },
    )


class WaitSchema(Schema):
    card = fields.String(
        required=True, metadata={"description": "A card that completes the hand (`jk`: a joker)"}
    )
    copies_left = fields.Integer(
        strict=True,
        required=True,
        metadata={"description": "Copies not in the hand; 0: it cannot be drawn any more"},
    )
    total_premiums = fields.Integer(strict=True, required=True)
    points = fields.Integer(strict=True, required=True)
    reading = fields.Nested(ReadingSchema, required=True)
    on_discard = fields.Boolean(
        required=True,
        metadata={
            "description": "It also completes the hand as a discard (false for the exceptional hand, MH-3)"
        },
    )


class WaitsResultSchema(Schema):
    cards = fields.Integer(strict=True, required=True)
    ready = fields.Boolean(required=True, metadata={"description": "At least one card completes the hand"})
    waits = fields.List(fields.Nested(WaitSchema), required=True)
    hand = fields.Nested(HandNotationSchema, required=True)


class PointsBodySchema(Schema):
    premiums = fields.Integer(
        strict=True,
        required=True,
        validate=validate.Range(min=0, max=MAX_PREMIUMS),
        metadata={"description": "Number of premiums", "example": 7},
    )


class PointsQuerySchema(Schema):
    """The same as a query parameter, where every value arrives as text."""

    premiums = fields.Integer(
        required=True,
        validate=validate.Range(min=0, max=MAX_PREMIUMS),
        metadata={"description": "Number of premiums", "example": 7},
    )


class PointsResultSchema(Schema):
    premiums = fields.Integer(strict=True, required=True)
    points = fields.Integer(strict=True, required=True)
    rule = fields.String(required=True)


class ClaimSchema(Schema):
    seat = fields.Integer(strict=True, required=True, validate=validate.Range(min=0))
    kind = fields.String(
        required=True,
        validate=validate.OneOf(("out", "triplet", "sequence")),
        metadata={"description": "`out` (going out), `triplet` or `sequence`"},
    )


class ClaimRequestSchema(ClaimSchema):
    hand = fields.Nested(
        HandSchema,
        load_default=None,
        metadata={
            "description": "Only with `out`: the claimant's hand with the discard in it. Checked: the "
            "discard must complete it, and the exceptional hand (MH-7) never goes out on a discard "
            "(MH-3) — refused as `nothing-fits-on-discard`"
        },
    )


class ClaimsRequestSchema(Schema):
    discarder = fields.Integer(
        strict=True, required=True, metadata={"description": "Seat of the player who discarded"}
    )
    seats = fields.Integer(
        strict=True,
        required=True,
        validate=validate.Range(min=2, max=6),
        metadata={"description": "Number of players"},
    )
    claims = fields.List(fields.Nested(ClaimRequestSchema), load_default=list)


class ClaimsResultSchema(Schema):
    taker = fields.Nested(
        ClaimSchema, allow_none=True, required=True, metadata={"description": "null: no claim"}
    )
    next_seat = fields.Integer(strict=True, required=True, metadata={"description": "Who plays next"})
    skipped = fields.List(
        fields.Integer(strict=True), required=True, metadata={"description": "Seats that lose their turn"}
    )
    ranked = fields.List(
        fields.Nested(ClaimSchema), required=True, metadata={"description": "Strongest first"}
    )
    explanation = fields.String(required=True)


def _hand(body: dict[str, Any], discard: bool = False) -> Any:
    return parse_hand(body.get("groups"), body["hidden"], body.get("flowers"), discard)


@blp.route("/score")
class Score(MethodView):
    @blp.arguments(ScoreRequestSchema, example=examples.MHING_SCORE)
    @blp.response(200, ScoreResultSchema)
    @blp.alt_response(
        422, response="UNPROCESSABLE_ENTITY", description="Unknown card, impossible count (MH-1), bad group"
    )
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Score a winning hand

        Give the groups laid out during the round (jokers declared, `jk=b4`), the hidden cards (jokers
        as `jk`: the referee makes each the card that scores best, MH-5), the flowers and whether the
        last card was a discard. The answer is the best reading — four groups and a pair, or the
        exceptional hand (MH-7) — with every premium itemised (MH-6, MH-7), the total and the points
        (MH-8). A hand that does not go out is answered with `wins: false` and the reason.
        """
        return score_json(score_hand(_hand(body, body["discard"])))


@blp.route("/waits")
class Waits(MethodView):
    @blp.arguments(WaitsRequestSchema, example=examples.MHING_WAITS)
    @blp.response(200, WaitsResultSchema)
    @blp.alt_response(
        422,
        response="UNPROCESSABLE_ENTITY",
        description="Not 13 cards besides flowers, or a bad card or group",
    )
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """List the waits of a hand

        For a hand one card short of going out (13 cards besides flowers, laid-out groups included):
        every card that would complete it, with the points each would give (MH-5 … MH-8) and how many
        copies are still unseen.
        """
        return waits_json(_hand(body, body["discard"]))


@blp.route("/points")
class Points(MethodView):
    @blp.arguments(PointsQuerySchema, location="query")
    @blp.response(200, PointsResultSchema)
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY", description="Premiums missing or out of range")
    def get(self, query: dict[str, Any]) -> dict[str, Any]:
        """Points for a number of premiums

        MH-8: 0 premiums are 0 points; the first is worth 2 and each further one up to the 5th
        doubles; after that every third premium doubles (5–7 premiums: 32 points).
        """
        return {"premiums": query["premiums"], "points": points(query["premiums"]), "rule": "MH-8"}

    @blp.arguments(PointsBodySchema, example={"premiums": 7})
    @blp.response(200, PointsResultSchema)
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY", description="Premiums missing or out of range")
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Points for a number of premiums (POST)

        The same as the GET, with the number of premiums in the body (MH-8).
        """
        return {"premiums": body["premiums"], "points": points(body["premiums"]), "rule": "MH-8"}


@blp.route("/claims")
class Claims(MethodView):
    @blp.arguments(ClaimsRequestSchema, example=examples.MHING_CLAIMS)
    @blp.response(200, ClaimsResultSchema)
    @blp.alt_response(
        422,
        response="UNPROCESSABLE_ENTITY",
        description="Bad seat, own discard claimed, two claims by one seat",
    )
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Resolve claims on a discard

        MH-4: give the discarder's seat, the number of seats and every claim on the last discard.
        Going out beats a triplet, a triplet beats a sequence; equal claims go to the claimant nearest
        after the discarder. The answer names who takes the turn and which seats are skipped.
        """
        return resolve_json(body["discarder"], body["seats"], body["claims"])

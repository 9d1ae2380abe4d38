"""Board sheets over HTTP: the numbers on the players' own boards, entered once and reused."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from api.http.context import bearer_token, sheet_store
from api.http.limits import guard_creation, guard_token
from api.http.strict import Name
from api.sheets.kinds import SHEET_KINDS, sheet_kind
from api.sheets.store import sheet_view

blp = Blueprint("sheets", __name__, url_prefix="/api/sheets", description="Board sheets (Magellan MG-2)")

SHEET_NAME = Name(required=True, validate=validate.Length(min=1, max=80))


class SheetCreateSchema(Schema):
    game = fields.String(
        required=True, metadata={"description": "Game the sheet belongs to", "enum": list(SHEET_KINDS)}
    )
    name = SHEET_NAME
    data = fields.Dict(
        required=True,
        metadata={
            "description": "The sheet; null numbers are entries not typed in yet",
            "x-ref": "BoardSheet",
        },
    )


class SheetUpdateSchema(Schema):
    name = SHEET_NAME
    data = fields.Dict(required=True, metadata={"x-ref": "BoardSheet"})
    expected_version = fields.Integer(
        strict=True,
        required=True,
        validate=validate.Range(min=1),
        metadata={"description": "The version you edited"},
    )


class SheetSchema(Schema):
    id = fields.String(required=True)
    game = fields.String(required=True)
    name = fields.String(required=True)
    version = fields.Integer(strict=True, required=True)
    data = fields.Dict(required=True, metadata={"x-ref": "BoardSheet"})
    missing = fields.List(
        fields.String(), required=True, metadata={"description": "Entries still empty (either side)"}
    )
    complete = fields.Boolean(required=True)
    created_at = fields.DateTime(required=True)
    updated_at = fields.DateTime(required=True)


class CreatedSheetSchema(Schema):
    id = fields.String(required=True)
    edit_token = fields.String(required=True, metadata={"description": "Needed to change the sheet"})
    sheet = fields.Nested(SheetSchema, required=True)


class TemplateQuerySchema(Schema):
    game = fields.String(required=True, metadata={"enum": list(SHEET_KINDS), "example": "magellan"})


class SheetTemplateSchema(Schema):
    game = fields.String(required=True)
    data = fields.Dict(
        required=True, metadata={"description": "Every entry, all null", "x-ref": "BoardSheet"}
    )


@blp.route("")
class Sheets(MethodView):
    @blp.arguments(
        SheetCreateSchema,
        example={"game": "magellan", "name": "Our board", "data": {"explorers": {}}},
    )
    @blp.response(201, CreatedSheetSchema)
    @blp.doc(operationId="createSheet")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY", description="Not a valid sheet for this game")
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Create a board sheet

        Stores the numbers printed on your own board (Magellan: money bags and crowns of every
        explorer field, per side). Leave numbers you have not typed in yet as null; Kibitz never
        fills them in for you. Keep the edit token to change the sheet later.
        """
        guard_creation()
        sheet, token = sheet_store().create(body["game"], body["name"], body["data"])
        return {"id": sheet.id, "edit_token": token, "sheet": sheet_view(sheet)}


@blp.route("/template")
class SheetTemplate(MethodView):
    @blp.arguments(TemplateQuerySchema, location="query")
    @blp.response(200, SheetTemplateSchema)
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY", description="The game has no board sheets")
    def get(self, query: dict[str, Any]) -> dict[str, Any]:
        """Blank board sheet

        Every entry a sheet for this game has, all null: the form to fill in from your board.
        """
        return {"game": query["game"], "data": sheet_kind(query["game"]).blank()}


@blp.route("/<sheet_id:sheet_id>")
class SheetResource(MethodView):
    @blp.doc(operationId="getSheet")
    @blp.response(200, SheetSchema)
    @blp.alt_response(404, response="NOT_FOUND", description="No such sheet")
    def get(self, sheet_id: str) -> dict[str, Any]:
        """Read a board sheet

        The numbers, which entries are still missing, and the version to send with an update.
        """
        return sheet_view(sheet_store().get(sheet_id))

    @blp.doc(operationId="updateSheet", security=[{"editToken": []}])
    @blp.arguments(
        SheetUpdateSchema, example={"name": "Our board", "data": {"explorers": {}}, "expected_version": 1}
    )
    @blp.response(200, SheetSchema)
    @blp.alt_response(401, response="UNAUTHORIZED", description="No edit token")
    @blp.alt_response(403, response="FORBIDDEN", description="Wrong edit token")
    @blp.alt_response(404, response="NOT_FOUND", description="No such sheet")
    @blp.alt_response(409, response="CONFLICT", description="`stale-version`: changed meanwhile")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY", description="Not a valid sheet")
    def put(self, body: dict[str, Any], sheet_id: str) -> dict[str, Any]:
        """Update a board sheet

        Replaces the name and the numbers; needs the edit token (`Authorization: Bearer …`) and
        the version you edited, so two people typing at once cannot overwrite each other.
        """
        with guard_token(sheet_id):
            sheet = sheet_store().update(
                sheet_id, bearer_token(), body["name"], body["data"], body["expected_version"]
            )
        return sheet_view(sheet)

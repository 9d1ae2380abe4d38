"""Board sheets over HTTP: the numbers on the players' own boards, entered once and reused."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
from typing import Any
from urllib.parse import quote

from cryptography.hazmat.primitives import serialization
from flask import current_app
from flask.views import MethodView
from flask_smorest import Blueprint
from limits import parse_many
from marshmallow import Schema, fields, validate

from api.errors import ApiProblem
from api.http.conditional import etagged
from api.http.context import bearer_token, sheet_library, sheet_store, store
from api.http.limits import (
    LIMITS_KEY,
    RateLimits,
    client_address,
    guard_creation,
    guard_token,
    limit_response,
)
from api.http.strict import FreeText, check_text
from api.sheets.kinds import sheet_kind, sheet_kinds
from api.sheets.library import MAX_EDITIONS, MAX_LISTED, publication_view
from api.sheets.store import sheet_view

SHEETS_EXAMPLE = next(iter(sheet_kinds()))  # the first game with board sheets

blp = Blueprint("sheets", __name__, url_prefix="/api/sheets", description="Board sheets (Magellan MG-2)")

SHEET_NAME = FreeText(max_length=80, required=True, metadata={"description": "The sheet's name."})


class SheetCreateSchema(Schema):
    game = fields.String(
        required=True, metadata={"description": "Game the sheet belongs to", "enum": list(sheet_kinds())}
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
    game = fields.String(required=True, metadata={"enum": list(sheet_kinds()), "example": SHEETS_EXAMPLE})


class SheetTemplateSchema(Schema):
    game = fields.String(required=True)
    data = fields.Dict(
        required=True, metadata={"description": "Every entry, all null", "x-ref": "BoardSheet"}
    )


@blp.route("")
class Sheets(MethodView):
    @blp.arguments(
        SheetCreateSchema,
        example={"game": SHEETS_EXAMPLE, "name": "Our board", "data": {"explorers": {}}},
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
    @etagged("getSheet")
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


# ---------- the library: sheets published for an edition, confirmed by tables (MG-2) ----------

CONFIRMATION_RULE = (
    "A confirmation counts only once its table reached the end of scoring (MG-10: the game over and "
    "scored) with every published number on its board sheet, equal — until then it waits, and a "
    "table that finished with other numbers never counts; each table once; and one client (a keyed "
    "hash of its network address, an IPv6 client by its /64) once per edition, with its first "
    "counted confirmation there. `confirmations` is the number of distinct such clients, `tables` "
    "the number of such tables."
)


def client_tag() -> str:
    """Who sent this request, for the library's counts and budgets: a keyed hash of the client's
    address (an IPv6 client by its /64, which one household usually has whole), never the address
    itself — keyed by a secret of this installation (the records' signing key), so a stored tag
    cannot be turned back into an address by trying them all."""
    address = client_address()
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        network = address
    else:
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is None:
            network = str(ipaddress.ip_network(f"{ip}/64", strict=False))
        else:
            network = str(ip.ipv4_mapped if isinstance(ip, ipaddress.IPv6Address) else ip)
    private = store().key.private.private_bytes(
        serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
    )
    secret = hashlib.sha256(b"kibitz-client-tag:" + private).digest()
    return hmac.new(secret, network.encode(), hashlib.sha256).hexdigest()[:32]


def spend_publish_budget(tag: str) -> None:
    """One new publication from this client; past KIBITZ_PUBLISH_LIMIT (default 5 a day) 429
    `publish-budget-spent` with Retry-After. Publishing numbers already published costs nothing."""
    limits: RateLimits = current_app.extensions[LIMITS_KEY]
    items = parse_many(current_app.config["KIBITZ_PUBLISH_LIMIT"])
    allowed = limits.hit_all(items, "publish", tag)
    limits.announce("publish", items, "publish", tag)
    if not allowed:
        wait = limits.retry_after(items, "publish", tag)
        raise ApiProblem(
            429,
            "publish-budget-spent",
            f"Your address has published as many new board sheets as it may for now; try again in {wait} seconds.",  # noqa: E501 - one f-string: the catalog extractor leaves it whole
            headers={"Retry-After": str(wait)},
        )


EDITION_RULES = (
    "The printed edition the numbers were typed from, as people name it (e.g. the publisher and "
    "year on the box). One edition however it is spelt: case and spaces do not matter."
)


MAX_EDITION = 80


def edition_field(**kwargs: Any) -> FreeText:
    return FreeText(
        max_length=MAX_EDITION,
        metadata={"description": EDITION_RULES, "example": "Hans im Glück 2024"},
        **kwargs,
    )


class PublishSchema(Schema):
    edition = edition_field(required=True)


class ConfirmSchema(Schema):
    table_id = fields.String(
        required=True,
        validate=validate.Length(min=1, max=64),
        metadata={"description": "The table that plays with these numbers; its write token authorizes"},
    )


class PublicationSchema(Schema):
    id = fields.String(required=True)
    game = fields.String(required=True)
    edition = fields.String(required=True, metadata={"description": "As first published"})
    data = fields.Dict(
        required=True,
        metadata={
            "description": "The published numbers; null where the publisher typed none",
            "x-ref": "BoardSheet",
        },
    )
    filled = fields.Integer(
        strict=True, required=True, metadata={"description": "How many entries have a number"}
    )
    confirmations = fields.Integer(
        strict=True,
        required=True,
        metadata={
            "description": "Distinct clients whose table played these numbers to scoring. "
            + CONFIRMATION_RULE
        },
    )
    tables = fields.Integer(
        strict=True,
        required=True,
        metadata={"description": "Tables that played these numbers to the end of scoring and confirmed them"},
    )
    published_at = fields.DateTime(required=True)
    last_confirmed_at = fields.DateTime(required=True, allow_none=True)


class PublishedSchema(Schema):
    created = fields.Boolean(
        required=True,
        metadata={"description": "False: these numbers were already published for this edition"},
    )
    publication = fields.Nested(PublicationSchema, required=True)


class ConfirmedSchema(Schema):
    counted = fields.Boolean(
        required=True,
        metadata={
            "description": "True: the table counts (it reached the end of scoring with these numbers). "
            "False: recorded, it counts once the table is scored with these numbers. Asking again "
            "changes nothing: a table counts once."
        },
    )
    publication = fields.Nested(PublicationSchema, required=True)


class EditionSchema(Schema):
    edition = fields.String(required=True)
    confirmations = fields.Integer(
        strict=True,
        required=True,
        metadata={"description": "Sum over the edition's publications (a client counts once per edition)"},
    )
    publications = fields.List(
        fields.Nested(PublicationSchema),
        required=True,
        metadata={
            "description": "Each distinct set of numbers apart, the most confirmed first; among as many "
            "confirmations one publisher's first before anyone's second, then the oldest"
        },
    )
    disagreements = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "Entries the publications give different numbers for: look at your board"},
    )


class LibraryQuerySchema(Schema):
    game = fields.String(required=True, metadata={"enum": list(sheet_kinds()), "example": SHEETS_EXAMPLE})
    after = fields.Integer(
        load_default=0,
        validate=validate.Range(min=0, max=10**6),
        metadata={"description": "Only places after this one (`next_after` of the last page)"},
    )
    limit = fields.Integer(
        load_default=None,
        validate=validate.Range(min=1, max=MAX_LISTED),
        metadata={
            "description": f"At most this many places: editions of a whole game (default {MAX_EDITIONS}), "
            f"publications of one `edition` (default and most {MAX_LISTED})"
        },
    )
    edition = fields.String(
        validate=[check_text, validate.Length(min=1, max=80)],
        metadata={
            "description": "Only this edition (case and spaces do not matter)",
            "example": "Hans im Glück 2024",
        },
    )


class LibrarySchema(Schema):
    game = fields.String(required=True)
    editions = fields.List(fields.Nested(EditionSchema), required=True)
    next_after = fields.Integer(
        strict=True, allow_none=True, required=True, metadata={"description": "`after` of the next page"}
    )
    next = fields.String(
        allow_none=True, required=True, metadata={"description": "The next page (also the `Link` header)"}
    )


@blp.route("/<sheet_id:sheet_id>/publish")
class PublishSheet(MethodView):
    @blp.doc(operationId="publishSheet", security=[{"editToken": []}])
    @blp.arguments(PublishSchema, example={"edition": "Hans im Glück 2024"})
    @blp.response(201, PublishedSchema)
    @blp.alt_response(
        200, schema=PublishedSchema, description="These very numbers were already published for this edition"
    )
    @blp.alt_response(401, response="UNAUTHORIZED", description="No edit token")
    @blp.alt_response(403, response="FORBIDDEN", description="Wrong edit token")
    @blp.alt_response(404, response="NOT_FOUND", description="No such sheet")
    @blp.alt_response(
        422, response="UNPROCESSABLE_ENTITY", description="`empty-sheet`: no number typed in yet"
    )
    @blp.alt_response(
        429,
        **limit_response(
            "`publish-budget-spent`: this address published its new sheets for now; "
            "`too-many-requests`: too many creations"
        ),
    )
    def post(self, body: dict[str, Any], sheet_id: str) -> tuple[dict[str, Any], int]:
        """Publish a board sheet for its edition

        Shares the sheet's numbers (as they are now) with every group owning the same edition: they
        pick it instead of typing the numbers in from their board. Needs the sheet's edit token.
        Numbers stay what players typed in (MG-2: Kibitz never invents them); a sheet may be partial
        (the numbers one game needed). The same numbers published again for the same edition are the
        same publication (200); different numbers become a publication of their own, never merged.
        Counts as a creation for the rate limit; a *new* publication also spends the client's
        publication budget (by default 5 a day per address: 429 `publish-budget-spent` with
        Retry-After), so nobody floods an edition's list.
        """
        with guard_token(sheet_id):
            sheet = sheet_store().with_token(sheet_id, bearer_token())
        guard_creation()
        tag = client_tag()
        publication, created = sheet_library().publish(
            sheet, body["edition"], publisher=tag, spend=lambda: spend_publish_budget(tag)
        )
        answer = {"created": created, "publication": publication_view(publication)}
        return answer, 201 if created else 200


@blp.route("/library")
class Library(MethodView):
    @etagged("listSheetLibrary")
    @blp.doc(operationId="listSheetLibrary")
    @blp.arguments(LibraryQuerySchema, location="query")
    @blp.response(
        200, LibrarySchema, headers={"Link": {"schema": {"type": "string"}, "description": "rel=next"}}
    )
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY", description="The game has no board sheets")
    def get(self, query: dict[str, Any]) -> Any:
        """Published board sheets

        The published sheets of a game by edition (optionally one edition), the most confirmed
        first; each publication with its numbers and how many confirmed them on their own board.
        A confirmation counts only once its table reached the end of scoring (MG-10) with every
        published number, equal; each table once, and one client (by its address) once per
        edition: `confirmations` counts distinct clients, `tables` tables. Publications with
        different numbers stay apart, and `disagreements` names the entries they differ on.

        Bounded so that nobody can crowd a sheet out: among publications with as many
        confirmations, one publisher's first comes before anyone's second (then the oldest first);
        a whole game lists at most 10 publications per edition and 20 editions a page (the most
        confirmed first; among equals a publisher's first edition before its second), one `edition`
        at most 200 publications a page.

        A page at a time (`limit` asks for fewer): `next` and the `Link` header name the next page
        (`after` the last place you have). Places follow the order at the time of each read: a
        publication confirmed meanwhile can move across a page boundary.
        """
        sheet_kind(query["game"])
        editions, next_after = sheet_library().listing(
            query["game"], query.get("edition"), after=query["after"], limit=query["limit"]
        )
        limit = query["limit"] or (MAX_LISTED if query.get("edition") else MAX_EDITIONS)
        link = None
        if next_after is not None:
            extra = f"&edition={quote(query['edition'])}" if query.get("edition") else ""
            link = f"/api/sheets/library?game={query['game']}{extra}&after={next_after}&limit={limit}"
        body = {
            "game": query["game"],
            "editions": [
                {**edition, "publications": [publication_view(p) for p in edition["publications"]]}
                for edition in editions
            ],
            "next_after": next_after,
            "next": link,
        }
        return body, 200, ({"Link": f'<{link}>; rel="next"'} if link else {})


@blp.route("/library/<publication_id>/confirm")
class ConfirmPublication(MethodView):
    @blp.doc(operationId="confirmPublishedSheet", security=[{"writeToken": []}])
    @blp.arguments(ConfirmSchema, example={"table_id": "q3vR7kP2mX9tL4wA"})
    @blp.response(200, ConfirmedSchema)
    @blp.alt_response(401, response="UNAUTHORIZED", description="No write token of the table")
    @blp.alt_response(403, response="FORBIDDEN", description="Not this table's write token")
    @blp.alt_response(404, response="NOT_FOUND", description="No such publication or table")
    @blp.alt_response(
        409, response="CONFLICT", description="`sheet-disagrees`: the table's sheet has other numbers"
    )
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY", description="`wrong-game`")
    def post(self, body: dict[str, Any], publication_id: str) -> dict[str, Any]:
        """Confirm a published board sheet at a table

        The players of a table that plays with these numbers found them equal to their own board.
        Needs the table's write token (`Authorization: Bearer …`); the table's board sheet must
        have every published number, equal (`entries` in a 409 lists the others). A confirmation
        made during the game is recorded and counts once the table reaches the end of scoring with
        these numbers (`counted` says whether it counts yet); each table counts once, however
        often it confirms, and one client once per edition.
        """
        table_id = body["table_id"]
        with guard_token(table_id):
            store().check_token(table_id, bearer_token())
        table = store().get(table_id)
        publication, counted = sheet_library().confirm(
            publication_id, table_id, table.game, table.state, client=client_tag()
        )
        return {"counted": counted, "publication": publication_view(publication)}

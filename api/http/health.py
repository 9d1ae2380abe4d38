"""A liveness probe for load balancers (and the load benchmark's baseline)."""

from __future__ import annotations

from typing import Any

from flask import current_app
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields

blp = Blueprint("health", __name__, url_prefix="/api/health", description="Liveness")


class StreamsSchema(Schema):
    streams = fields.Integer(required=True, metadata={"description": "Live streams open now"})
    tables = fields.Integer(required=True, metadata={"description": "Tables they follow"})
    reads = fields.Integer(
        required=True, metadata={"description": "Database reads for live streams since the process started"}
    )
    renders = fields.Integer(required=True, metadata={"description": "Events rendered for them"})
    handed_back = fields.Integer(
        required=True,
        metadata={"description": "Times a slow reader was handed back to write on its own"},
    )


class HealthSchema(Schema):
    status = fields.String(required=True, metadata={"example": "ok"})
    streams = fields.Nested(
        StreamsSchema,
        required=True,
        metadata={
            "description": "This process's live streams and what they cost: one database read and "
            "one render per change of a table, not per phone"
        },
    )


@blp.route("")
class Health(MethodView):
    @blp.response(200, HealthSchema)
    def get(self) -> dict[str, Any]:
        """Is the service up?

        Answers without touching the database: for load balancers and monitoring.
        """
        from api.http.stream import stream_figures  # the stream blueprint imports much more

        return {"status": "ok", "streams": stream_figures(current_app)}

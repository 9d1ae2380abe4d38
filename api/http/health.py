"""A liveness probe for load balancers (and the load benchmark's baseline)."""

from __future__ import annotations

from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields

blp = Blueprint("health", __name__, url_prefix="/api/health", description="Liveness")


class HealthSchema(Schema):
    status = fields.String(required=True, metadata={"example": "ok"})


@blp.route("")
class Health(MethodView):
    @blp.response(200, HealthSchema)
    def get(self) -> dict[str, str]:
        """Is the service up?

        Answers without touching the database: for load balancers and monitoring.
        """
        return {"status": "ok"}

"""Liveness and readiness probes for the reverse proxy and monitoring (and the load benchmark's
baseline).

`/api/health` and `/api/health/live` answer without touching the database: the process is up.
`/api/health/ready` answers 200 only when the database answers and its schema is at the migrations'
head, else 503 `not-ready`: the proxy (deploy/Caddyfile.in) sends no phone to a server that is
starting, lost its database, or runs code newer than the schema during an upgrade."""

from __future__ import annotations

from functools import cache
from typing import Any

import sqlalchemy as sa
from flask import current_app
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields

from api.errors import ApiProblem
from api.http.context import store

blp = Blueprint("health", __name__, url_prefix="/api/health", description="Liveness and readiness")


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


class ProbeSchema(Schema):
    status = fields.String(required=True, metadata={"example": "ok"})


class ReadySchema(ProbeSchema):
    schema = fields.String(
        required=True, metadata={"description": "The database's migration revision", "example": "0015"}
    )


@blp.route("/live")
class Live(MethodView):
    @blp.response(200, ProbeSchema)
    def get(self) -> dict[str, Any]:
        """Is the process alive?

        Never touches the database: a liveness probe restarts a process, and a database outage is
        not cured by restarting the app servers.
        """
        return {"status": "ok"}


@cache
def _heads() -> frozenset[str]:
    """The migrations' head revisions, read once per process from the migration scripts."""
    from alembic.script import ScriptDirectory

    from api.db.migrate import alembic_config

    return frozenset(ScriptDirectory.from_config(alembic_config("sqlite://")).get_heads())


def _current_revisions(engine: sa.Engine) -> frozenset[str]:
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as conn:
        conn.execute(sa.text("SELECT 1"))
        return frozenset(MigrationContext.configure(conn).get_current_heads())


@blp.route("/ready")
class Ready(MethodView):
    @blp.response(200, ReadySchema)
    @blp.alt_response(
        503, response="DEFAULT_ERROR", description="`not-ready`: no database, or a schema behind the head"
    )
    def get(self) -> dict[str, Any]:
        """May this server take requests?

        The database answers and its schema is at the migrations' head. The reverse proxy takes a
        server out of rotation while this says 503 (`not-ready`), and back once it says 200.
        """
        try:
            current = _current_revisions(store().engine)
        except sa.exc.SQLAlchemyError:
            raise ApiProblem(
                503, "not-ready", "The database does not answer.", headers={"Retry-After": "5"}
            ) from None
        if current != _heads():
            raise ApiProblem(
                503,
                "not-ready",
                "The database schema is not at this version's migrations (run the migrations first).",
                headers={"Retry-After": "5"},
            )
        return {"status": "ok", "schema": ",".join(sorted(current))}

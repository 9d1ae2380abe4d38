"""The Flask application: API blueprints, OpenAPI document, problem+json errors and the PWA."""

from __future__ import annotations

import io
from importlib import import_module
from typing import Any

from flask import Flask
from flask_cors import CORS
from flask_smorest import Api, Blueprint

from api.config import MAX_BODY_BYTES, database_url_from_env
from api.contract.conventions import Handling, apply_conventions
from api.contract.links import add_links
from api.contract.spec_style import install_spec_style
from api.contract.vocabulary import register_views, register_vocabulary
from api.db.engine import make_engine
from api.games import servers
from api.groups.history import FactsCache
from api.groups.store import GroupStore
from api.http import evening, games, groups, health, records, sheets, stream, tables
from api.http.compression import install_compression
from api.http.conditional import ETAGGED, IF_NONE_MATCH
from api.http.context import LIBRARY_KEY, SHEETS_KEY, STORE_KEY
from api.http.i18n import install_content_language
from api.http.limits import COUNTED, LIMITED_OPERATIONS, install_rate_limits, quota_sentence
from api.http.metrics import install_metrics
from api.http.problems import PROBLEM_TYPE, handle_http_exception, register_problem_handlers
from api.http.schemas import ProblemSchema
from api.http.security import register_security_headers, trust_proxies
from api.http.stream import install_change_feed
from api.http.strict import install_query_check
from api.http.verification import install_verification_limits
from api.phone.pwa import SheetIdConverter, register_path_converter, serve_static
from api.phone.pwa import blp as pwa_blueprint
from api.sheets.library import SheetLibrary
from api.sheets.store import SheetStore
from api.tables.store import TableStore

API_VERSION = "1.1.0"

API_DESCRIPTION = """\
Kibitz referees physical board games: the players keep the real board, dice and cards; clients
record what happens and Kibitz says what is legal, who decides next, and the score.

* A **table** is one game being played, kept as an append-only event log. Create one with
  `POST /api/tables`; keep the `write_token` (send it as `Authorization: Bearer …` to append).
  Reading needs only the table id.
* Every append names the log position it builds on (`expected_version`); a stale one gets 409 with
  the current table. Send an `Idempotency-Key` so retries are applied once.
* Errors are `application/problem+json` with a stable `code` and a human `detail`. Send
  `Accept-Language` (en, de, fr, it, nl, es) to get `detail` in that language (`Content-Language`
  says which); the `code` and `rule` never change with the language.
* Finished games export as a record that `POST /api/verify` replays and checks, and that anyone
  can check offline in any language (`kibitz-record/3`: SHA-256 chain, Ed25519 over RFC 8785
  canonical JSON; docs/records.md).
* **Rate limits**: operations that count (creations, verifications, wrong tokens) say where you
  stand in the `RateLimit-Policy` and `RateLimit` fields (IETF draft-ietf-httpapi-ratelimit-headers)
  and answer 429 with `Retry-After` past a quota; each such operation states its quotas. Any
  request may also meet 429 `too-many-connections` (and a closed connection) when one address holds
  more than 200 connections open at once (docs/architecture.md, "Limits").
* **Lists page** with `Link: <…>; rel="next"` (and `next` in the body); the reads clients poll
  carry an `ETag`: send it back as `If-None-Match` to get 304 while nothing changed.
* **Versions** (docs/versioning.md): `info.version` is MAJOR.MINOR.PATCH. Breaking — never within a
  major version — is removing or renaming an operation, field, parameter or header, changing a
  type or meaning, requiring or refusing what was accepted, changing a refusal's status or `code`.
  Not breaking: new operations, optional fields, answer fields, headers and enumeration values
  (ignore fields you do not know; treat unknown values as "other"), and new record formats (every
  format ever exported keeps verifying). Something deprecated is marked `deprecated: true`, its
  answers carry `Deprecation` (RFC 9745) and, once dated, `Sunset` (RFC 8594), and it stays at
  least 6 months, until the next major version.
"""


class KibitzApi(Api):
    """flask-smorest Api whose documented error bodies are problem+json."""

    ERROR_SCHEMA = ProblemSchema
    DEFAULT_ERROR_RESPONSE_CONTENT_TYPE = PROBLEM_TYPE

    def _register_responses(self) -> None:
        saved = self.DEFAULT_RESPONSE_CONTENT_TYPE
        self.DEFAULT_RESPONSE_CONTENT_TYPE = PROBLEM_TYPE
        try:
            super()._register_responses()  # type: ignore[misc]
        finally:
            self.DEFAULT_RESPONSE_CONTENT_TYPE = saved

    def handle_http_exception(self, error: Any) -> Any:
        return handle_http_exception(error)


def _sized_bodies(flask_app: Flask) -> Any:
    """A body without Content-Length (chunked) is read here, up to one byte past the limit, and
    given its length, so werkzeug answers 413 for one over MAX_CONTENT_LENGTH exactly as for a
    sized one (instead of reading a truncated or empty body and answering 400)."""
    wsgi_app = flask_app.wsgi_app

    def app(environ: dict[str, Any], start_response: Any) -> Any:
        if environ.get("CONTENT_LENGTH") in (None, "") and environ.get("REQUEST_METHOD") in ("POST", "PUT"):
            limit = int(flask_app.config["MAX_CONTENT_LENGTH"])
            body = environ["wsgi.input"].read(limit + 1)
            environ["CONTENT_LENGTH"] = str(len(body))
            environ["wsgi.input"] = io.BytesIO(b"" if len(body) > limit else body)
            environ.pop("HTTP_TRANSFER_ENCODING", None)  # sized now: werkzeug ignores sizes if chunked
        return wsgi_app(environ, start_response)

    return app


def game_blueprints() -> list[Blueprint]:
    """Each game's own endpoints without a table (`api/games/<game>/endpoints.py`, where it has
    them): handlers, so the app finds them, not the game's package (which the contract and the
    groups read)."""
    found = []
    for folder in servers():
        try:
            module = import_module(f"api.games.{folder}.endpoints")
        except ModuleNotFoundError as missing:
            if missing.name != f"api.games.{folder}.endpoints":
                raise
            continue
        found.append(module.blp)
    return found


def create_app(database_url: str | None = None, **config: Any) -> Flask:
    app = Flask(__name__, static_folder=None)
    app.config.update(
        API_TITLE="Kibitz",
        API_VERSION=API_VERSION,
        OPENAPI_VERSION="3.1.0",
        OPENAPI_URL_PREFIX="/api",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="/docs",
        OPENAPI_SWAGGER_UI_URL="/api/docs/assets/",
        API_SPEC_OPTIONS={
            "info": {
                "description": API_DESCRIPTION,
                "license": {"name": "UNLICENSED", "identifier": "LicenseRef-UNLICENSED"},
                "contact": {"name": "The Kibitz developers"},
            },
            "servers": [{"url": "/"}],
            # Reading needs no token; the operations that need one name their scheme.
            "security": [],
        },
        MAX_CONTENT_LENGTH=MAX_BODY_BYTES,
        JSON_SORT_KEYS=False,
    )
    app.config.update(config)
    install_metrics(app)
    install_rate_limits(app)
    install_compression(app)
    install_verification_limits(app)
    url = database_url or database_url_from_env()
    engine = make_engine(url)
    app.extensions[STORE_KEY] = TableStore(engine)
    install_change_feed(app, url)
    app.extensions[SHEETS_KEY] = SheetStore(engine)
    app.extensions[LIBRARY_KEY] = SheetLibrary(engine)
    app.extensions[groups.GROUPS_KEY] = GroupStore(engine, app.extensions[STORE_KEY])
    # A group's streams hear its changes as a table's hear its appends (SQLite: in this process).
    app.extensions[groups.GROUPS_KEY].on_commit = app.extensions[STORE_KEY].on_commit
    app.extensions[groups.FACTS_KEY] = FactsCache()

    register_path_converter(app)
    api = KibitzApi(app)
    install_spec_style(api)
    api.register_converter(SheetIdConverter, lambda _converter: {"type": "string"})
    app.extensions["kibitz.api"] = api
    api.spec.components.security_scheme(
        "writeToken",
        {"type": "http", "scheme": "bearer", "description": "The table's write token from its creation"},
    )
    api.spec.components.security_scheme(
        "seatToken",
        {"type": "http", "scheme": "bearer", "description": "One seat's token from the table's creation"},
    )
    api.spec.components.security_scheme(
        "groupToken",
        {"type": "http", "scheme": "bearer", "description": "The group's edit token from its creation"},
    )
    blueprints = [
        health.blp,
        games.blp,
        tables.blp,
        stream.blp,
        records.blp,
        *game_blueprints(),  # /api/<game>/…
        sheets.blp,
        groups.blp,
        evening.blp,
    ]
    for blueprint in blueprints:
        api.register_blueprint(blueprint)
    add_links(api.spec)
    # The options of any game's table (a group remembers them per game).
    api.spec.components.schema(
        "TableOptions",
        {"oneOf": [{"$ref": f"#/components/schemas/{g.docs.options.__name__}"} for g in servers().values()]},
    )
    register_vocabulary(api.spec)
    register_views(api.spec)
    apply_conventions(api.spec, Handling(ETAGGED, IF_NONE_MATCH, LIMITED_OPERATIONS, COUNTED, quota_sentence))
    register_problem_handlers(app)
    install_query_check(app)
    install_content_language(app)
    register_security_headers(app)
    # Third-party web apps call the API from their own origin; writes use bearer tokens, not cookies.
    CORS(
        app,
        resources={r"/api/*": {"origins": "*"}},
        allow_headers=["Authorization", "Content-Type", "Idempotency-Key", "If-None-Match"],
        # What a browser client may read: the next page (`Link`), the answer's language, the
        # version for If-None-Match, and when to try again (with the rate-limit fields).
        expose_headers=["ETag", "Retry-After", "Link", "Content-Language", "RateLimit", "RateLimit-Policy"],
        methods=["GET", "POST", "PUT", "PATCH", "OPTIONS"],
        max_age=600,
    )
    app.register_blueprint(pwa_blueprint)
    app.wsgi_app = _sized_bodies(app)  # type: ignore[method-assign]
    serve_static(app)  # the phone app's files (var/static/), in front of everything else
    trust_proxies(app)
    return app

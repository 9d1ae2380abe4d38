"""The document's conventions, applied to every operation once all are registered: a stable
`operationId`, the real error statuses (no catch-all `default`) each as problem+json with its
codes, `429` with `Retry-After`, `Accept-Language` in and `Content-Language` out, and an example
request and answer. Kept here so the blueprints stay about what each operation does.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any

from apispec import APISpec

from api.contract.integers import bound_integers
from api.contract.openapi31 import speak_openapi_31
from api.contract.problem_codes import rule_refusals_markdown, setup_refusals_markdown
from api.contract.response_examples import PARAMETER_EXAMPLES, response_examples
from api.games import servers
from api.i18n import available

PROBLEM = "application/problem+json"

OPERATION_IDS = {
    ("/api/health", "get"): "getHealth",
    ("/api/health/live", "get"): "getLiveness",
    ("/api/health/ready", "get"): "getReadiness",
    ("/api/games", "get"): "listGames",
    ("/api/verify", "post"): "verifyRecord",
    ("/api/sheets/template", "get"): "getSheetTemplate",
}

BODY_400 = (
    "`invalid-json`, `invalid-text` (not UTF-8, a lone surrogate), `control-character` (NUL and other "
    "control characters in any text), `number-too-long` (a whole number over 20 digits), "
    "`too-deeply-nested` (over 32 levels): refused before any rule reads the body"
)
STATUS_TEXT = {
    400: "The request is malformed: a query string (read by this operation or not) that is not UTF-8 "
    "or holds control characters (`invalid-text`, `control-character`); a body: " + BODY_400,
    401: "No token where one is needed (`unauthorized`, `seat-token-required`, `edit-token-required`)",
    403: "The token does not open this (`bad-write-token`, `bad-seat-token`, `bad-edit-token`, "
    "`seat-token-required`)",
    404: "No such resource (`table-not-found`, `seat-not-found`, `sheet-not-found`, `publication-not-found`)",
    409: "The resource moved on (`stale-version`) or is not there yet (`game-not-finished`)",
    413: "`request-too-large`: the body is over 256 KiB",
    422: "`invalid-request`: a field the document describes is missing or of the wrong kind (`errors` "
    "says which); or the rules refuse it: `code` names the refusal and `rule` the REFEREE.md rule "
    "(e.g. `no-third-die-at-seven`, MA-3)",
    429: "`too-many-requests`: too many attempts from your address; `Retry-After` says when to try again",
    503: "`not-ready`: no database, or its schema is not at this version's migrations; `Retry-After` says "
    "when to ask again",
}
PER_OPERATION = {
    ("/api/groups/{group_id}/stream", "get", 400): "`bad-last-event-id`: not the id of an event of a "
    "group's stream",
    ("/api/groups/{group_id}/stream", "get", 404): "`group-not-found`",
    ("/api/groups/{group_id}/stream", "get", 429): "`too-many-streams`: more than KIBITZ_CLIENT_STREAMS "
    "(100) live streams open from your address (per server process); `Retry-After` says when to try "
    "again",
    (
        "/api/tables",
        "post",
        422,
    ): "The players or options cannot start this game: "
    + setup_refusals_markdown()
    + "; or `invalid-request`",
    ("/api/tables/{table_id}/events", "post", 409): "`stale-version`: the table moved on; `table` is the "
    "current one",
    ("/api/tables/{table_id}/events", "post", 422): "The rules refuse the event: `code` and `rule` say why. "
    "Every refusal of the referee, per game (with its REFEREE.md rule where it has one), or "
    "`invalid-request`:\n" + rule_refusals_markdown(),
    ("/api/tables/{table_id}/preview", "post", 422): "The rules refuse the event, as an append would: "
    "`code` and `rule` say why. Every refusal of the referee, per game, or `invalid-request`:\n"
    + rule_refusals_markdown(),
    ("/api/tables/{table_id}/preview", "post", 409): "`stale-version`: the table moved on; `table` is the "
    "current one",
    ("/api/tables/{table_id}/export", "get", 409): "`game-not-finished`",
    ("/api/tables/{table_id}/export.csv", "get", 409): "`game-not-finished`",
    ("/api/tables/{table_id}/export/bgstats", "get", 409): "`game-not-finished`",
    ("/api/sheets/{sheet_id}", "put", 409): "`stale-version`: the sheet changed meanwhile",
    ("/api/sheets/{sheet_id}/publish", "post", 422): "`empty-sheet` (no number typed in yet), "
    "`edition-required` (a blank edition), or `invalid-request`",
    ("/api/sheets/library/{publication_id}/confirm", "post", 404): "`publication-not-found`, "
    "`table-not-found`",
    ("/api/sheets/library/{publication_id}/confirm", "post", 409): "`sheet-disagrees`: the table's "
    "board sheet lacks or differs in the published numbers; `entries` names them",
    ("/api/sheets/library/{publication_id}/confirm", "post", 422): "`wrong-game`: the table plays "
    "another game; or `invalid-request`",
}
ETAG = {
    "description": "A weak tag of this answer: send it as `If-None-Match` to get 304 while it is unchanged",
    "schema": {"type": "string"},
}
RATE_LIMIT_HEADERS = {
    "RateLimit": {"$ref": "#/components/headers/RateLimit"},
    "RateLimit-Policy": {"$ref": "#/components/headers/RateLimit-Policy"},
}
REFUSAL_CODES = {
    "create": "`too-many-requests`: too many new tables, groups, sheets and publications from your address",
    "verify": "`too-many-requests`: too many verifications from your address",
    "publish": "`publish-budget-spent`: this address published its new sheets for now",
    "token": "`too-many-requests`: too many wrong tokens from your address here (a right token is always "
    "accepted)",
    "streams": "`too-many-streams`: too many live streams open from your address",
    "verifier": "`verifier-busy`: too many records wait for the verifier",
}
RATE_LIMIT = {
    "description": "Where this client stands, per policy of RateLimit-Policy (IETF "
    "draft-ietf-httpapi-ratelimit-headers): `r` requests remain, `t` seconds until the window is whole "
    'again, e.g. `"create-minute";r=29;t=60, "create-hour";r=299;t=3600`',
    "schema": {"type": "string"},
}
RATE_LIMIT_POLICY = {
    "description": "The quota policies that counted this request: `q` requests per `w` seconds, e.g. "
    '`"create-minute";q=30;w=60, "create-hour";q=300;w=3600`',
    "schema": {"type": "string"},
}
CONTENT_LANGUAGE = {
    "description": "The language `detail` and notes are said in (English when the asked one has no "
    "translation)",
    "schema": {"type": "string", "enum": sorted(available())},
}
RETRY_AFTER = {
    "description": "Seconds to wait before trying again",
    "schema": {"type": "integer", "minimum": 1},
}
ACCEPT_LANGUAGE = {
    "in": "header",
    "name": "Accept-Language",
    "required": False,
    "schema": {"type": "string", "example": "de, en;q=0.5"},
    "description": "The language of `detail` in problems and of the referee's notes: "
    + ", ".join(sorted(available()))
    + " (English otherwise). Never changes a `code` or a `rule`.",
}


@dataclass(frozen=True)
class Handling:
    """What the handlers do that the document states, handed in by the app (api.app) so that the
    contract never imports a handler: the operations answering 304 to `If-None-Match`
    (api.http.conditional) and the parameter's documentation, and the operations that count attempts
    or hold a capped resource, with what each counts and the counts every answer reports
    (api.http.limits) and their quotas in words."""

    etagged: Collection[str]
    if_none_match: Mapping[str, Any]
    limited: Mapping[tuple[str, str], tuple[str, ...]]
    counted: Collection[str]
    quota_sentence: Callable[[tuple[str, ...]], str]


def _problem_response(
    path: str, method: str, status: int, example: dict[str, Any], handling: Handling
) -> dict[str, Any]:
    per_game = (text for g in servers().values() if (text := g.problem_texts.get((path, method, status))))
    description = PER_OPERATION.get((path, method, status)) or next(per_game, STATUS_TEXT[status])
    headers: dict[str, Any] = {"Content-Language": CONTENT_LANGUAGE}
    kinds = handling.limited.get((path, method), ())
    if status == 429:
        headers["Retry-After"] = RETRY_AFTER
        refusals = list(dict.fromkeys(REFUSAL_CODES[kind] for kind in kinds))
        if refusals:
            description = "; ".join(refusals) + ". `Retry-After` says when to try again"
    counts = set(kinds) & {*handling.counted, "token"}
    if (status == 429 and counts) or (status in (401, 403) and "token" in kinds):
        headers.update(RATE_LIMIT_HEADERS)
    return copy.deepcopy(
        {
            "description": description,
            "headers": headers,
            "content": {PROBLEM: {"schema": {"$ref": "#/components/schemas/Problem"}, "example": example}},
        }
    )


def _problem_example(status: int, code: str, detail: str) -> dict[str, Any]:
    from http import HTTPStatus

    return {
        "type": f"urn:kibitz:problem:{code}",
        "title": HTTPStatus(status).phrase,
        "status": status,
        "code": code,
        "detail": detail,
    }


EXAMPLE_PROBLEMS = {
    400: _problem_example(400, "control-character", "Text must not contain control characters such as NUL."),
    401: _problem_example(401, "unauthorized", "This needs a token: send it as Authorization: Bearer …"),
    403: _problem_example(403, "bad-write-token", "That is not this table's write token."),
    404: _problem_example(404, "table-not-found", "There is no table with the id 'nope'."),
    409: _problem_example(409, "game-not-finished", "The game is not finished yet."),
    413: _problem_example(413, "request-too-large", "The body is larger than 256 KiB."),
    422: {**_problem_example(422, "no-third-die-at-seven", "The sum is already 7: no third die (MA-3)."),
          "rule": "MA-3"},
    429: _problem_example(429, "too-many-requests", "Too many new tables from your address; try again in "
                          "60 seconds."),
    503: _problem_example(503, "not-ready", "The database does not answer."),
}  # fmt: skip


# What api.http.strict refuses with 400 before any schema: text with control characters, whole
# numbers over 20 digits. Said in the schemas every request reaches, so a request the document
# calls valid is never refused as malformed.
NO_CONTROLS = r"^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]*$"


def _harden(node: Any) -> None:
    if isinstance(node, dict):
        kind = node.get("type")
        if kind == "string" and not {"enum", "pattern", "format"} & set(node):
            node["pattern"] = NO_CONTROLS
        for key, value in node.items():
            if key not in ("example", "examples", "default"):
                _harden(value)
    elif isinstance(node, list):
        for value in node:
            _harden(value)


def _referenced(node: Any, found: set[str]) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str) and value.startswith("#/components/schemas/"):
                found.add(value.rsplit("/", 1)[1])
            elif key not in ("example", "examples"):
                _referenced(value, found)
    elif isinstance(node, list):
        for value in node:
            _referenced(value, found)


def harden_requests(spec: APISpec) -> None:
    """Keep control characters out of every string that a request body or parameter reaches (the
    schemas themselves, followed through their references)."""
    paths = spec._paths  # noqa: SLF001
    schemas = spec.components.schemas
    roots: list[Any] = []
    for item in paths.values():
        roots.extend(p for p in item.get("parameters", []) if isinstance(p, dict))
        for operation in item.values():
            if isinstance(operation, dict):
                roots.append(operation.get("requestBody", {}))
                roots.extend(operation.get("parameters", []))
    seen: set[str] = set()
    todo: set[str] = set()
    _referenced(roots, todo)
    while todo - seen:
        name = (todo - seen).pop()
        seen.add(name)
        _referenced(schemas[name], todo)
    for root in roots:
        if isinstance(root, dict) and "schema" in root:
            _harden(root["schema"])
        elif isinstance(root, dict):
            for content in root.get("content", {}).values():
                _harden(content.get("schema"))
    for name in sorted(seen):
        _harden(schemas[name])


def apply_conventions(spec: APISpec, handling: Handling) -> None:
    """Rewrite every registered operation in place (see the module docstring)."""
    paths = spec._paths  # noqa: SLF001 - apispec keeps registered paths here; no public accessor
    examples = response_examples()
    spec.components.parameter("AcceptLanguage", "header", ACCEPT_LANGUAGE)
    spec.components.parameter("IfNoneMatch", "header", dict(handling.if_none_match))
    spec.components.header("ETag", ETAG)
    spec.components.header("RateLimit", RATE_LIMIT)
    spec.components.header("RateLimit-Policy", RATE_LIMIT_POLICY)
    spec.components.security_scheme(
        "editToken",
        {"type": "http", "scheme": "bearer", "description": "A board sheet's edit token from its creation"},
    )
    # Each game's own operations (api.games.server.GameServer) beside the platform's.
    operation_ids = dict(OPERATION_IDS)
    for game in servers().values():
        operation_ids.update(game.operation_ids)
    for path, item in paths.items():
        for method, operation in item.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            operation.setdefault("operationId", operation_ids.get((path, method)))
            responses = operation["responses"]
            responses.pop("default", None)
            statuses = {int(code) for code in responses if code.isdigit() and int(code) >= 400}
            statuses.add(400)  # any query string is checked (api.http.strict.check_query_string)
            has_body = "requestBody" in operation
            if has_body:
                statuses |= {400, 413, 422}
            if any(p.get("in") == "query" for p in operation.get("parameters", [])):
                statuses |= {400, 422}
            if (path, method) in handling.limited:
                statuses.add(429)
            for status in sorted(statuses):
                problem = EXAMPLE_PROBLEMS[status]
                responses[str(status)] = _problem_response(path, method, status, problem, handling)
            operation.setdefault("parameters", []).append({"$ref": "#/components/parameters/AcceptLanguage"})
            if operation["operationId"] in handling.etagged:
                operation.setdefault("parameters", []).append({"$ref": "#/components/parameters/IfNoneMatch"})
                responses["304"] = {
                    "description": "Not modified: the answer you have (its `ETag`) is still the answer",
                    "headers": {"ETag": {"$ref": "#/components/headers/ETag"}},
                }
                responses["200"].setdefault("headers", {})["ETag"] = {"$ref": "#/components/headers/ETag"}
            kinds = handling.limited.get((path, method), ())
            if kinds:
                said = operation.get("description", "").rstrip()
                operation["description"] = f"{said}\n\n{handling.quota_sentence(kinds)}".lstrip()
            for code, response in responses.items():
                if code.startswith("2") and set(kinds) & set(handling.counted):
                    response.setdefault("headers", {}).update(copy.deepcopy(RATE_LIMIT_HEADERS))
                if code.startswith("2") and "content" in response:
                    response.setdefault("headers", {})["Content-Language"] = copy.deepcopy(CONTENT_LANGUAGE)
                    example = examples.get(operation["operationId"])
                    for media, content in response["content"].items():
                        content.setdefault("schema", {"type": "string"})  # text answers (CSV)
                        if media == "application/json" and example is not None:
                            content.setdefault("example", json.loads(json.dumps(example, default=str)))
        for parameter in item.get("parameters", []):
            if parameter.get("in") == "path" and parameter["name"] in PARAMETER_EXAMPLES:
                parameter.setdefault("example", PARAMETER_EXAMPLES[parameter["name"]])
    spec.components.responses.clear()  # the catch-alls flask-smorest registered, now unused
    harden_requests(spec)
    bound_integers(spec)
    speak_openapi_31(spec)

"""Every error leaves as application/problem+json with a stable `code` and a human `detail`."""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any

from flask import Flask, Response, json
from werkzeug.exceptions import HTTPException

from api.contract.problem_codes import http_code
from api.contract.table import TableSchema
from api.errors import ApiProblem
from api.http.i18n import asked_language
from api.http.metrics import count_refusal
from api.i18n import DEFAULT, localize
from api.rules.errors import RuleError
from api.tables.store import StaleVersion
from api.tables.views import table_view

PROBLEM_TYPE = "application/problem+json"
log = logging.getLogger("kibitz.errors")


def problem(status: int, code: str, detail: str, *, language: str = DEFAULT, **extra: Any) -> Response:
    body = {
        "type": f"urn:kibitz:problem:{code}",
        "title": HTTPStatus(status).phrase,
        "status": status,
        "code": code,
        "detail": detail,
        **extra,
    }
    response = Response(json.dumps(body), status=status, mimetype=PROBLEM_TYPE)
    count_refusal(status, code)
    response.headers["Content-Language"] = language
    response.vary.add("Accept-Language")
    return response


def _validation_detail(messages: Any) -> str:
    """Flatten webargs/marshmallow messages into one readable sentence."""
    parts: list[str] = []

    def walk(prefix: str, node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in {"json", "headers", "query", "view_args"} and not prefix:
                    walk("", value)
                else:
                    walk(f"{prefix}.{key}" if prefix else str(key), value)
        elif isinstance(node, list) and all(isinstance(m, str) for m in node):
            parts.append(f"{prefix}: {' '.join(node)}" if prefix else " ".join(node))
        elif isinstance(node, list):
            for index, value in enumerate(node):
                walk(f"{prefix}[{index}]", value)
        else:
            parts.append(f"{prefix}: {node}")

    walk("", messages)
    return "; ".join(parts) or "The request is not valid."


def handle_http_exception(error: HTTPException) -> Response:
    status = error.code or 500
    data = getattr(error, "data", None) or {}
    messages = data.get("messages") or data.get("errors")
    if messages:
        return problem(status, "invalid-request", _validation_detail(messages), errors=messages)
    detail = data.get("message") or error.description or HTTPStatus(status).phrase
    response = problem(status, http_code(status), str(detail))
    # Keep what the exception itself says in headers (e.g. `Allow` on 405), but not its body type.
    for name, value in error.get_headers():
        if name.lower() != "content-type":
            response.headers[name] = value
    for name, value in (data.get("headers") or {}).items():
        response.headers[name] = value
    return response


def register_problem_handlers(app: Flask) -> None:
    @app.errorhandler(ApiProblem)
    def _api_problem(error: ApiProblem) -> Response:
        if isinstance(error, StaleVersion):
            # The loser of a race gets the winner's table, so it can show it and decide again.
            current = TableSchema().dump(table_view(error.table, asked_language()))
            return problem(error.status, error.code, error.detail, table=current)
        language = asked_language()
        detail = localize(error.detail, {}, language)
        said_in = language if detail != error.detail else DEFAULT  # no catalog entry: still English
        response = problem(error.status, error.code, detail, language=said_in, **error.extra)
        response.headers.update(error.headers)
        return response

    @app.errorhandler(RuleError)
    def _rule_error(error: RuleError) -> Response:
        extra = {"rule": error.rule} if error.rule else {}
        language = asked_language()
        detail = localize(error.template, error.params, language)
        said_in = language if detail != error.detail else DEFAULT  # no catalog entry: still English
        return problem(error.status, error.code, detail, language=said_in, **extra)

    @app.errorhandler(Exception)
    def _unexpected(error: Exception) -> Response:
        if isinstance(error, HTTPException):
            return handle_http_exception(error)
        log.exception("unhandled error")
        return problem(500, "internal-error", "Something went wrong on our side. Please try again.")

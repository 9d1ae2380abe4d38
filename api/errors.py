"""Problems the service answers with (RFC 9457 problem+json), independent of Flask."""

from __future__ import annotations

from typing import Any


class ApiProblem(Exception):
    """A refusal with an HTTP status, a stable machine code and a sentence a person understands."""

    def __init__(
        self, status: int, code: str, detail: str, *, headers: dict[str, str] | None = None, **extra: Any
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.headers = headers or {}  # e.g. Retry-After on a 429
        self.extra = extra


def not_found(table_id: str) -> ApiProblem:
    return ApiProblem(404, "table-not-found", f"There is no table with the id {table_id!r}.")

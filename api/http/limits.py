"""Rate limits on table creation and on failed write-token attempts, with the `limits` library.

Counters live in memory per process by default; set RATELIMIT_STORAGE_URI (e.g. redis://…) so
several app servers share them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask, current_app, request
from limits import RateLimitItem, parse_many
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter

from api.errors import ApiProblem

LIMITS_KEY = "kibitz.limits"
DEFAULTS = {
    "KIBITZ_CREATE_LIMIT": "30 per minute;300 per hour",
    "KIBITZ_TOKEN_FAILURE_LIMIT": "10 per minute;100 per hour",
}


class RateLimits:
    def __init__(self, storage_uri: str, create: str, token_failures: str) -> None:
        self.limiter = MovingWindowRateLimiter(storage_from_string(storage_uri))
        self.create: list[RateLimitItem] = parse_many(create)
        self.token_failures: list[RateLimitItem] = parse_many(token_failures)

    def hit_all(self, items: list[RateLimitItem], *key: str) -> bool:
        return all([self.limiter.hit(item, *key) for item in items])

    def within(self, items: list[RateLimitItem], *key: str) -> bool:
        return all(self.limiter.test(item, *key) for item in items)


def install_rate_limits(app: Flask) -> None:
    for name, default in DEFAULTS.items():
        app.config.setdefault(name, os.environ.get(name, default))
    uri = app.config.get("RATELIMIT_STORAGE_URI") or os.environ.get("RATELIMIT_STORAGE_URI", "memory://")
    app.extensions[LIMITS_KEY] = RateLimits(
        uri, app.config["KIBITZ_CREATE_LIMIT"], app.config["KIBITZ_TOKEN_FAILURE_LIMIT"]
    )


def _limits() -> RateLimits:
    return current_app.extensions[LIMITS_KEY]  # type: ignore[no-any-return]


def _client() -> str:
    return request.remote_addr or "unknown"


def too_many(what: str) -> ApiProblem:
    return ApiProblem(
        429, "too-many-requests", f"Too many {what} from your address; wait a minute and try again."
    )


def guard_creation() -> None:
    """Count one creation for this client; refuse with 429 past the limit."""
    if not _limits().hit_all(_limits().create, "create", _client()):
        raise too_many("new tables")


@contextmanager
def guard_token(resource_id: str) -> Iterator[None]:
    """Refuse once a client has failed too often with one table's token; count each failure.

    Counted per table and client, so guessing at one table locks out nobody else.
    """
    limits = _limits()
    key = ("token", _client(), resource_id)
    if not limits.within(limits.token_failures, *key):
        raise too_many("wrong write tokens")
    try:
        yield
    except ApiProblem as problem:
        if problem.status in (401, 403):
            limits.hit_all(limits.token_failures, *key)
        raise

"""Rate limits on table creation, record verification and wrong tokens, with the `limits` library.

Limits key on the client's address — the peer's, or behind KIBITZ_TRUSTED_PROXIES reverse proxies
the one they forward — and wrong tokens on the table too, so one guesser locks out nobody else.

Counters live in memory in the one serving process by default (gunicorn.conf.py runs one gevent
worker, so every request shares them); several workers or app servers must share them through
RATELIMIT_STORAGE_URI=redis://… — gunicorn.conf.py refuses to start more workers without it.
"""

from __future__ import annotations

import hashlib
import math
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import Flask, current_app, request
from limits import RateLimitItem, parse_many
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter

from api.errors import ApiProblem
from api.http.schemas import ProblemSchema

LIMITS_KEY = "kibitz.limits"
DEFAULTS = {
    "KIBITZ_CREATE_LIMIT": "30 per minute;300 per hour",
    # One wrong token (a stale link) tried again and again: locks out that token only.
    "KIBITZ_TOKEN_FAILURE_LIMIT": "10 per minute;100 per hour",
    # All wrong tokens from one client at one table: guessing stays throttled.
    "KIBITZ_TOKEN_GUESS_LIMIT": "30 per minute;300 per hour",
    # POST /api/verify replays a whole game: a few a minute is plenty for anyone checking records.
    "KIBITZ_VERIFY_LIMIT": "20 per minute;200 per hour",
    # New board-sheet publications per client (api.http.sheets): a few a day is plenty for a club.
    "KIBITZ_PUBLISH_LIMIT": "5 per day",
}


class RateLimits:
    def __init__(
        self,
        storage_uri: str,
        create: str,
        token_failures: str,
        token_guesses: str,
        verify: str = DEFAULTS["KIBITZ_VERIFY_LIMIT"],
    ) -> None:
        self.limiter = MovingWindowRateLimiter(storage_from_string(storage_uri))
        self.create: list[RateLimitItem] = parse_many(create)
        self.token_failures: list[RateLimitItem] = parse_many(token_failures)
        self.token_guesses: list[RateLimitItem] = parse_many(token_guesses)
        self.verify: list[RateLimitItem] = parse_many(verify)

    def hit_all(self, items: list[RateLimitItem], *key: str) -> bool:
        return all([self.limiter.hit(item, *key) for item in items])

    def retry_after(self, items: list[RateLimitItem], *key: str) -> int:
        """Seconds until every exhausted window lets one more request through."""
        now = time.time()
        waits = [
            stats.reset_time - now
            for item in items
            if (stats := self.limiter.get_window_stats(item, *key)).remaining <= 0
        ]
        return max(1, math.ceil(max(waits, default=1)))


def install_rate_limits(app: Flask) -> None:
    for name, default in DEFAULTS.items():
        app.config.setdefault(name, os.environ.get(name, default))
    uri = app.config.get("RATELIMIT_STORAGE_URI") or os.environ.get("RATELIMIT_STORAGE_URI", "memory://")
    app.extensions[LIMITS_KEY] = RateLimits(
        uri,
        app.config["KIBITZ_CREATE_LIMIT"],
        app.config["KIBITZ_TOKEN_FAILURE_LIMIT"],
        app.config["KIBITZ_TOKEN_GUESS_LIMIT"],
        app.config["KIBITZ_VERIFY_LIMIT"],
    )


def _limits() -> RateLimits:
    return current_app.extensions[LIMITS_KEY]  # type: ignore[no-any-return]


def client_address() -> str:
    """The client's address: the peer's, or the one the trusted proxies name (api.http.security)."""
    return request.remote_addr or "unknown"


_client = client_address


def limit_response(description: str, *, retry_after: bool = True) -> dict[str, Any]:
    """`alt_response` arguments documenting a limit's refusal in the OpenAPI document (a response
    reference would drop the description)."""
    doc: dict[str, Any] = {
        "description": description,
        "schema": ProblemSchema,
        "content_type": "application/problem+json",
    }
    if retry_after:
        wait = {"description": "Seconds to wait before trying again", "schema": {"type": "integer"}}
        doc["headers"] = {"Retry-After": wait}
    return doc


def too_many(what: str, retry_after: int) -> ApiProblem:
    return ApiProblem(
        429,
        "too-many-requests",
        f"Too many {what} from your address; try again in {retry_after} seconds.",
        headers={"Retry-After": str(retry_after)},
    )


def guard_creation() -> None:
    """Count one creation for this client; refuse with 429 (and Retry-After) past the limit."""
    limits = _limits()
    if not limits.hit_all(limits.create, "create", _client()):
        raise too_many("new tables", limits.retry_after(limits.create, "create", _client()))


def guard_verification() -> None:
    """Count one record verification for this client; 429 (with Retry-After) past the limit."""
    limits = _limits()
    if not limits.hit_all(limits.verify, "verify", _client()):
        raise too_many("verifications", limits.retry_after(limits.verify, "verify", _client()))


def _presented_token() -> str:
    """A short digest of the token this request carries (never the token itself)."""
    header = request.headers.get("Authorization", "")
    return hashlib.sha256(header.encode("utf-8", "surrogatepass")).hexdigest()[:16]


@contextmanager
def guard_token(resource_id: str) -> Iterator[None]:
    """Count a client's wrong tokens at one table; past the budget a wrong token hears 429.

    The token is always checked first, and a right one is always accepted: whoever else guessed
    from the same address (a café's Wi-Fi, a reverse proxy's clients), a rightful player is never
    refused. Tokens carry 192 random bits, so answering a guesser's every try gives nothing away;
    the budget tells a guesser (and a phone with a stale link) to stop. Two counts, per table and
    client: failures with the very token presented (a stale link retrying), and all failures
    together (guessing many tokens). A right token costs no look at the counters at all.
    """
    try:
        yield
    except ApiProblem as problem:
        # `seat-token-required` is no wrong token: a valid one (or none) for another seat's secret
        # event, which a pass-and-play phone sends again with that seat's own token.
        if problem.status in (401, 403) and problem.code != "seat-token-required":
            _count_failure(resource_id)
        raise


def _count_failure(resource_id: str) -> None:
    """Count one wrong token; 429 (with Retry-After) instead of its 403 once a budget is spent."""
    limits = _limits()
    same_token = ("token", _client(), resource_id, _presented_token())
    any_token = ("guess", _client(), resource_id)
    for items, key in ((limits.token_failures, same_token), (limits.token_guesses, any_token)):
        if not limits.hit_all(items, *key):
            raise too_many("wrong tokens for this table", limits.retry_after(items, *key)) from None

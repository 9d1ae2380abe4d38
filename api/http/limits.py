"""Rate limits on table creation and on failed token attempts, with the `limits` library.

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

from flask import Flask, current_app, request
from limits import RateLimitItem, parse_many
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter

from api.errors import ApiProblem

LIMITS_KEY = "kibitz.limits"
DEFAULTS = {
    "KIBITZ_CREATE_LIMIT": "30 per minute;300 per hour",
    # One wrong token (a stale link) tried again and again: locks out that token only.
    "KIBITZ_TOKEN_FAILURE_LIMIT": "10 per minute;100 per hour",
    # All wrong tokens from one client at one table: guessing stays throttled.
    "KIBITZ_TOKEN_GUESS_LIMIT": "30 per minute;300 per hour",
}


class RateLimits:
    def __init__(self, storage_uri: str, create: str, token_failures: str, token_guesses: str) -> None:
        self.limiter = MovingWindowRateLimiter(storage_from_string(storage_uri))
        self.create: list[RateLimitItem] = parse_many(create)
        self.token_failures: list[RateLimitItem] = parse_many(token_failures)
        self.token_guesses: list[RateLimitItem] = parse_many(token_guesses)
        # Every failure is counted in all token windows at once (both keys, every item), so a guess
        # window at least as long as every other one holds each failure any of them holds — unless
        # it is itself full. While it holds fewer than the smallest limit, no window is exhausted:
        # one look instead of four for the usual request, which has no failures behind it (on Redis,
        # one round trip instead of four per append).
        every = self.token_failures + self.token_guesses
        widest = max(self.token_guesses, key=lambda item: item.get_expiry())
        covers = all(widest.get_expiry() >= item.get_expiry() for item in every)
        self._widest_guess = widest if covers else None
        self._fewest = min(item.amount for item in every)

    def hit_all(self, items: list[RateLimitItem], *key: str) -> bool:
        return all([self.limiter.hit(item, *key) for item in items])

    def within(self, items: list[RateLimitItem], *key: str) -> bool:
        return all(self.limiter.test(item, *key) for item in items)

    def no_failures_to_speak_of(self, *guess_key: str) -> bool:
        """True when this key's failures cannot have exhausted any token window (one look)."""
        if self._widest_guess is None:
            return False
        remaining = self.limiter.get_window_stats(self._widest_guess, *guess_key).remaining
        return self._widest_guess.amount - remaining < self._fewest

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
    )


def _limits() -> RateLimits:
    return current_app.extensions[LIMITS_KEY]  # type: ignore[no-any-return]


def _client() -> str:
    return request.remote_addr or "unknown"


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


def _presented_token() -> str:
    """A short digest of the token this request carries (never the token itself)."""
    header = request.headers.get("Authorization", "")
    return hashlib.sha256(header.encode("utf-8", "surrogatepass")).hexdigest()[:16]


@contextmanager
def guard_token(resource_id: str) -> Iterator[None]:
    """Refuse a client that fails too often at one table; count each failure.

    Two counts, per table and client: failures with the very token presented (a phone with a stale
    link retrying locks out only that link, not the right token from the same address), and all
    failures together (guessing many tokens stays throttled). Guessing at one table locks out
    nobody else.
    """
    limits = _limits()
    same_token = ("token", _client(), resource_id, _presented_token())
    any_token = ("guess", _client(), resource_id)
    if not limits.no_failures_to_speak_of(*any_token):
        for items, key in ((limits.token_failures, same_token), (limits.token_guesses, any_token)):
            if not limits.within(items, *key):
                raise too_many("wrong tokens for this table", limits.retry_after(items, *key))
    try:
        yield
    except ApiProblem as problem:
        # `seat-token-required` is no wrong token: a valid one (or none) for another seat's secret
        # event, which a pass-and-play phone sends again with that seat's own token.
        if problem.status in (401, 403) and problem.code != "seat-token-required":
            limits.hit_all(limits.token_failures, *same_token)
            limits.hit_all(limits.token_guesses, *any_token)
        raise

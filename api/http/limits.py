"""Rate limits on table creation, record verification and wrong tokens, with the `limits` library.

Limits key on the client's address — the peer's, or behind KIBITZ_TRUSTED_PROXIES reverse proxies
the one they forward — and wrong tokens on the table too, so one guesser locks out nobody else.

Every answer of an operation that counted something says where its client stands, in the IETF
`RateLimit-Policy` and `RateLimit` fields (draft-ietf-httpapi-ratelimit-headers: a policy a name,
`q` its quota, `w` its window in seconds; `r` what remains, `t` the seconds until it is whole
again); `LIMITED_OPERATIONS` names what each operation counts, for the document.

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

from flask import Flask, Response, current_app, g, request
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

    def announce(self, kind: str, items: list[RateLimitItem], *key: str) -> None:
        """Keep, for this request's answer, each of `kind`'s policies and where the client stands."""
        now = time.time()
        said: dict[str, tuple[str, str]] = g.setdefault("rate_limits", {})
        for item in items:
            stats = self.limiter.get_window_stats(item, *key)
            name = policy_name(kind, item)
            window = item.get_expiry()
            reset = max(0, min(window, math.ceil(stats.reset_time - now)))
            remaining = max(0, stats.remaining)
            said[name] = (f'"{name}";q={item.amount};w={window}', f'"{name}";r={remaining};t={reset}')

    def retry_after(self, items: list[RateLimitItem], *key: str) -> int:
        """Seconds until every exhausted window lets one more request through."""
        now = time.time()
        waits = [
            stats.reset_time - now
            for item in items
            if (stats := self.limiter.get_window_stats(item, *key)).remaining <= 0
        ]
        return max(1, math.ceil(max(waits, default=1)))


def policy_name(kind: str, item: RateLimitItem) -> str:
    """`create-minute`, `create-hour`, `publish-day`, `verify-5-minutes` …"""
    unit = item.GRANULARITY.name
    return f"{kind}-{unit}" if item.multiples == 1 else f"{kind}-{item.multiples}-{unit}s"


def send_rate_limits(response: Response) -> Response:
    """The RateLimit-Policy and RateLimit fields of what this request counted (none: nothing sent)."""
    said = g.get("rate_limits")
    if said:
        response.headers["RateLimit-Policy"] = ", ".join(policy for policy, _ in said.values())
        response.headers["RateLimit"] = ", ".join(state for _, state in said.values())
    return response


def install_rate_limits(app: Flask) -> None:
    app.after_request(send_rate_limits)
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
    allowed = limits.hit_all(limits.create, "create", _client())
    limits.announce("create", limits.create, "create", _client())
    if not allowed:
        raise too_many("new tables", limits.retry_after(limits.create, "create", _client()))


def guard_verification() -> None:
    """Count one record verification for this client; 429 (with Retry-After) past the limit."""
    limits = _limits()
    allowed = limits.hit_all(limits.verify, "verify", _client())
    limits.announce("verify", limits.verify, "verify", _client())
    if not allowed:
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
    counted = [("token", limits.token_failures, same_token), ("guess", limits.token_guesses, any_token)]
    for kind, items, key in counted:
        allowed = limits.hit_all(items, *key)
        limits.announce(kind, items, *key)
        if not allowed:
            raise too_many("wrong tokens for this table", limits.retry_after(items, *key)) from None


# What each limited operation counts, by the document's path and method: `create`, `verify`,
# `publish` (KIBITZ_*_LIMIT, every answer carries RateLimit fields), `token` (wrong tokens: the
# refusals carry them; a right token counts nothing), `streams` (KIBITZ_CLIENT_STREAMS) and
# `verifier` (KIBITZ_VERIFY_QUEUE). tests/contract/test_rate_limits.py checks it against the views.
LIMITED_OPERATIONS: dict[tuple[str, str], tuple[str, ...]] = {
    ("/api/tables", "post"): ("create",),
    ("/api/groups", "post"): ("create",),
    ("/api/sheets", "post"): ("create",),
    ("/api/sheets/{sheet_id}/publish", "post"): ("token", "create", "publish"),
    ("/api/verify", "post"): ("verify", "verifier"),
    ("/api/tables/{table_id}/events", "post"): ("token",),
    ("/api/tables/{table_id}/preview", "post"): ("token",),
    ("/api/tables/{table_id}/seats/{seat}", "get"): ("token",),
    ("/api/tables/{table_id}/stream", "get"): ("token", "streams"),
    ("/api/tables/{table_id}/next", "get"): ("token",),
    ("/api/tables/{table_id}/next", "post"): ("token",),
    ("/api/sheets/{sheet_id}", "put"): ("token",),
    ("/api/sheets/library/{publication_id}/confirm", "post"): ("token",),
    ("/api/groups/{group_id}", "put"): ("token",),
    ("/api/groups/{group_id}/tables", "post"): ("token",),
    ("/api/groups/{group_id}/tables/{table_id}", "patch"): ("token",),
    ("/api/groups/{group_id}/imports/bgstats", "post"): ("token",),
    ("/api/groups/{group_id}/stream", "get"): ("streams",),
}
COUNTED = ("create", "verify", "publish")  # every answer says where the client stands
QUOTAS = {
    "create": (
        "KIBITZ_CREATE_LIMIT",
        "new tables, groups, board sheets and sheet publications per client address together",
    ),
    "verify": ("KIBITZ_VERIFY_LIMIT", "record verifications per client address"),
    "publish": ("KIBITZ_PUBLISH_LIMIT", "new sheet publications per client address"),
}


def quota_sentence(kinds: tuple[str, ...]) -> str:
    """The operation's limits in words, with the default quotas, for its description."""
    parts = []
    for kind in kinds:
        if kind in QUOTAS:
            setting, what = QUOTAS[kind]
            default = DEFAULTS[setting].replace(";", ", ")
            parts.append(f"{default} {what} (`{setting}`; policies `{kind}-…`)")
        elif kind == "token":
            parts.append(
                f"{DEFAULTS['KIBITZ_TOKEN_FAILURE_LIMIT'].replace(';', ', ')} wrong tries of one token "
                f"and {DEFAULTS['KIBITZ_TOKEN_GUESS_LIMIT'].replace(';', ', ')} wrong tokens in all, per "
                "client address and table, group or sheet (`KIBITZ_TOKEN_FAILURE_LIMIT`, "
                "`KIBITZ_TOKEN_GUESS_LIMIT`; policies `token-…`, `guess-…`; a right token is always "
                "accepted and counts nothing)"
            )
        elif kind == "streams":
            parts.append("100 live streams per client address and server process (`KIBITZ_CLIENT_STREAMS`)")
        elif kind == "verifier":
            parts.append("8 records waiting for the verifier per server process (`KIBITZ_VERIFY_QUEUE`)")
    return "Rate limits (defaults; 429 with `Retry-After` beyond them): " + "; ".join(parts) + "."

"""POST /api/verify within bounds: it replays a whole game for anyone, without a token, so it is
limited in size (413 before the body is read), in rate per client (429), and in the CPU it can take
from everyone else — the replay runs in one thread of its own beside the gevent loop, never on it,
so a 0.3 s replay does not stall every other request of the process for 0.3 s; and a bounded queue
waits for that thread (429 `verifier-busy` past it)."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from typing import Any, TypeVar

from flask import Flask, current_app, request

from api.errors import ApiProblem
from api.http.limits import guard_verification

T = TypeVar("T")
DEFAULTS = {
    # A long finished game (a 5-player Magellan ledger game, about 200 entries) exports as ~30 KB.
    "KIBITZ_VERIFY_MAX_BYTES": 128 * 1024,
    # Verifications waiting for the verifier thread, per server process.
    "KIBITZ_VERIFY_QUEUE": 8,
}
_waiting = 0
_pool: Any = None


def install_verification_limits(app: Flask) -> None:
    for name, default in DEFAULTS.items():
        app.config.setdefault(name, int(os.environ.get(name, default)))


def bounded(view: Callable[..., T]) -> Callable[..., T]:
    """Size and rate checks before the record is read or parsed (outermost decorator of the view)."""

    @functools.wraps(view)
    def checked(*args: Any, **kwargs: Any) -> T:
        limit = int(current_app.config["KIBITZ_VERIFY_MAX_BYTES"])
        if (request.content_length or 0) > limit:
            raise ApiProblem(
                413,
                "record-too-large",
                "This record is larger than the verifier takes; a finished game exports far smaller.",
                limit=limit,
            )
        guard_verification()
        return view(*args, **kwargs)

    return checked


def beside_the_loop(work: Callable[..., T], *args: Any) -> T:
    """Run CPU-bound `work` in the process's one verifier thread when serving under gevent (its
    greenlet waits; the loop goes on serving), or right here otherwise (the WSGI test client)."""
    from gevent import monkey

    if not monkey.is_module_patched("threading"):
        return work(*args)
    global _waiting
    if _waiting >= int(current_app.config["KIBITZ_VERIFY_QUEUE"]):
        raise ApiProblem(
            429,
            "verifier-busy",
            "The verifier is busy with other records; try again in a few seconds.",
            headers={"Retry-After": "2"},
        )
    _waiting += 1
    try:
        return _verifier_thread().apply(work, args)  # type: ignore[no-any-return]
    finally:
        _waiting -= 1


def _verifier_thread() -> Any:
    """gevent's pool of real OS threads, one thread: the replay holds the GIL in slices, the loop
    gets it back between them; at most one replay per process runs at a time."""
    global _pool
    if _pool is None:
        from gevent.threadpool import ThreadPool

        _pool = ThreadPool(1)
    return _pool

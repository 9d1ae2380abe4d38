"""CPU work of the group layer run beside gevent's loop, so one request never holds every other.

Under the gevent worker (threading patched) the work runs in one real OS thread of this module's
own (not the record verifier's: a busy verifier must not refuse a finished game its figures); the
greenlet that asked waits while the loop serves everyone else. Without gevent (the WSGI test
client, scripts) it runs right here. Only pure computation goes there: database reads stay on the
loop, where gevent's sockets are.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
_pool: Any = None


def off_the_loop(work: Callable[..., T], *args: Any) -> T:
    global _pool
    from gevent import monkey

    if not monkey.is_module_patched("threading"):
        return work(*args)
    if _pool is None:
        from gevent.threadpool import ThreadPool

        _pool = ThreadPool(1)
    return _pool.apply(work, args)  # type: ignore[no-any-return]


def pause() -> None:
    """Let the loop serve others between two bounded pieces of one request's work: under the
    gevent worker, wait until the loop has polled its sockets and run every greenlet that was ready
    (`gevent.idle`; `sleep(0)` may switch back before any socket is polled). Nothing otherwise."""
    from gevent import monkey

    if monkey.is_module_patched("time"):
        import gevent

        gevent.idle()

"""PostgreSQL round trips under gevent that do not queue behind every other request.

Under gevent psycopg parks the greenlet for every answer from the server, and the hub first runs
every other ready greenlet. Under the load benchmark's table mix a round trip to the local server
then took 3.7 ms at the median instead of 0.12 ms, and the one worker sat idle a third of the time
while its requests waited for answers long since arrived (README, "Load"). A nearby server mostly
answers within a fraction of a millisecond, so the worker waits up to `GRACE_SECONDS` for the
answer without yielding, and only then parks the greenlet as before: a slow query still lets every
other request of the worker run.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import psycopg
from psycopg.abc import RV, PQGen
from psycopg.waiting import Ready, Wait

GRACE_SECONDS = 0.0005

_Select = Callable[[list[int], list[int], list[int], float], tuple[list[int], list[int], list[int]]]


_original_select: list[_Select] = []  # found once: gevent's get_original is slow
_original_poll: list[Callable[[], Any]] = []
# select() takes no descriptor at or past FD_SETSIZE ("filedescriptor out of range"): a server with
# over a thousand open streams got such a socket for its database connection and every query on
# it failed with a 500 (benchmarks/scale.py). Past it the unpatched poll() waits instead.
FD_SETSIZE = 1024


def _polling_select(
    rlist: list[int], wlist: list[int], _x: list[int], timeout: float
) -> tuple[list[int], list[int], list[int]]:
    """`select.select` for one descriptor of any number, through the unpatched `select.poll`."""
    if not _original_poll:
        from gevent import monkey

        _original_poll.append(monkey.get_original("select", "poll"))
    import select

    poller = _original_poll[0]()
    fileno = (rlist or wlist)[0]
    poller.register(fileno, (select.POLLIN if rlist else 0) | (select.POLLOUT if wlist else 0))
    flags = 0
    for _fd, event in poller.poll(timeout * 1000):
        flags |= event
    failed = flags & (select.POLLERR | select.POLLHUP | select.POLLNVAL)
    readable = rlist if flags & select.POLLIN or (rlist and failed) else []
    writable = wlist if flags & select.POLLOUT or (wlist and failed) else []
    return readable, writable, []


def _gevent_select() -> _Select | None:
    """The unpatched `select.select` when gevent has patched it (a gevent worker), else None."""
    if _original_select:
        return _original_select[0]
    monkey = sys.modules.get("gevent.monkey")
    if monkey is None or not monkey.is_module_patched("select"):
        return None
    _original_select.append(monkey.get_original("select", "select"))
    return _original_select[0]


class PromptConnection(psycopg.Connection[Any]):
    """A psycopg connection that, under gevent, takes a quick answer without leaving the CPU."""

    def wait(self, gen: PQGen[RV], interval: float = 0.1, timeout: float | None = None) -> RV:
        real_select = _gevent_select()
        if real_select is None or timeout is not None:  # threads, or a LISTEN waiting for notices
            return super().wait(gen, interval, timeout)
        from gevent.socket import wait_read, wait_readwrite, wait_write

        park = {Wait.R: wait_read, Wait.W: wait_write, Wait.RW: wait_readwrite}
        fileno = self.pgconn.socket
        if fileno >= FD_SETSIZE:
            real_select = _polling_select
        try:
            state = next(gen)
            while True:
                wanted = ([fileno] if state & Wait.R else [], [fileno] if state & Wait.W else [])
                readable, writable, _ = real_select(*wanted, [], GRACE_SECONDS)
                if not (readable or writable):
                    park[state](fileno)  # cooperative: the other requests run meanwhile
                    readable, writable, _ = real_select(*wanted, [], 0)
                state = gen.send(Ready((Ready.R if readable else 0) | (Ready.W if writable else 0)))
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]

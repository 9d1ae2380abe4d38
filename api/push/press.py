"""The press: one loop per table writes each change to every stream of the table that keeps up.

Under gunicorn's gevent worker a stream that has caught up hands its connection to its table's
press and sleeps. At each change the press takes the event once from the table's edition (one
read, one render per group: api.push.editions), frames it once as an HTTP chunk — exactly as
gunicorn frames what a response yields — and offers the same bytes to each socket in turn, never
waiting: a socket that takes them all stays with the press; one that takes part (a slow reader)
is handed back to its own stream with the rest to write, and from there it skips to the newest
version like any stream that fell behind. Requests come first: the press yields to the server's
other work every fraction of a millisecond of writing, and while any request other than a stream
is being answered in this process (an append above all) it waits, up to `DEFER_AT_MOST`, before
reading, rendering or writing on — so appends back to back on a crowded table cost what they cost
on an empty one, and the phones get the newest version (with every entry) once the appender pauses.

Everywhere else (another server, a test client, a plain HTTP/1.0 client) streams write their own
events, from the same edition.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections import defaultdict
from typing import Any

import gevent
from gevent import monkey as gevent_monkey
from prometheus_client import Histogram

from api.push.editions import LOG, Edition
from api.tables.changes import TableChanges

log = logging.getLogger(__name__)

# The press's own figure, served at /metrics with the others (api.http.metrics).
FANOUT_LAG = Histogram(
    "kibitz_fanout_lag_seconds",
    "From a change's announcement in this process (a local commit or PostgreSQL's notice) until "
    "every caught-up stream of its table was written",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0),
)

WRITES_BETWEEN_YIELDS = 50
SLICE = 0.0003  # seconds of writing between yields, at most
DEFER_AT_MOST = 0.25  # seconds the fan-out of one change waits for requests, at most
DEFER_STEP = 0.001
QUIET = 0.003  # after a write, seconds without one before the fan-out goes on
STARVE_AT_MOST = 0.25  # past DEFER_AT_MOST, seconds the fan-out still waits for requests in flight
# A stream's kernel send buffer (Linux doubles it): a phone that stops reading is found out after
# a few dozen events instead of the megabytes an autotuned buffer would hold for each of thousands.
SEND_BUFFER = 64 * 1024
HEARTBEAT = b": heartbeat\n\n"


def chunk(data: bytes) -> bytes:
    """`data` as one HTTP/1.1 chunk, as gunicorn writes what a chunked response yields."""
    return b"%X\r\n%s\r\n" % (len(data), data)


def direct_socket(environ: dict[str, Any]) -> Any | None:
    """The client's socket when the press may write to it: gunicorn's gevent worker, plain HTTP/1.1
    GET (so gunicorn frames the response in chunks, as the press does). Behind a trusted proxy the
    scheme that counts is the connection's own (the proxy's plain HTTP), not the https it forwards."""
    sock = environ.get("gunicorn.socket")
    scheme = environ.get("werkzeug.proxy_fix.orig", {}).get("wsgi.url_scheme", environ.get("wsgi.url_scheme"))
    if (
        sock is None
        or environ.get("REQUEST_METHOD") != "GET"
        or environ.get("SERVER_PROTOCOL") != "HTTP/1.1"
        or scheme != "http"
        or not type(sock).__module__.startswith("gevent.")
    ):
        return None
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
    return sock


class Requests:
    """How many requests this process is answering right now, streams left out, and when it last
    answered a write (api.http.stream counts them): what the press makes way for."""

    answering = 0
    wrote_at = float("-inf")  # time.monotonic() when the last POST/PUT was answered


def _poll() -> None:
    """Let the loop poll the sockets and run what they woke (an append's request) before going on.

    gevent's `sleep(0)` only runs the greenlets already ready, without polling: an append waiting
    on the wire was read only once the press had written a whole change to every phone. A timer
    (`sleep(20 µs)`) polls, but on a busy machine each one gives the core away to other processes.
    `gevent.idle()` polls without blocking and comes back once the loop has nothing else to do."""
    if gevent_monkey.is_module_patched("time"):
        gevent.idle()
    else:
        time.sleep(0)


def make_way(deadline: float) -> None:
    """Yield through the loop's poll, then wait while a request is being answered or a write was
    answered less than `QUIET` ago (the next of a run of appends is on its way) — until `deadline`;
    past it, for `STARVE_AT_MOST` more, still while a request is being answered (the fan-out goes
    on in the gaps); never longer, so a storm of requests cannot starve the phones."""
    _poll()
    now = time.monotonic()
    while now < deadline and (Requests.answering > 0 or now - Requests.wrote_at < QUIET):
        time.sleep(DEFER_STEP)
        now = time.monotonic()
    while Requests.answering > 0 and now < deadline + STARVE_AT_MOST:
        time.sleep(DEFER_STEP / 4)
        now = time.monotonic()


class Reader:
    """One stream as the press holds it: its socket, where it is, and how to hand it back."""

    __slots__ = ("sock", "sent", "language", "seat", "mode", "form", "deadline", "back", "rest", "ended")

    def __init__(
        self, sock: Any, sent: int, language: str, seat: int | None, deadline: float, *, mode: str, form: str
    ) -> None:
        self.sock = sock
        self.sent = sent
        self.language = language
        self.seat = seat
        self.mode = mode  # the form the stream asked for (editions.TABLE, PATCH, LOG)
        self.form = form  # the form its next event may take (the whole table until it had one)
        self.deadline = deadline
        self.back = threading.Event()  # set when the stream is its own again
        self.rest = b""  # what the socket did not take of the last event
        self.ended = False  # the connection is gone, or the stream's lifetime is over


class Press:
    """The readers of one table and the loop that writes to them (it runs while there are any)."""

    def __init__(self, edition: Edition, changes: TableChanges, heartbeat: float) -> None:
        self.edition = edition
        self.changes = changes
        self.heartbeat = heartbeat
        self.readers: set[Reader] = set()
        self._running = False
        self._deadline = 0.0  # until when this change's fan-out makes way for requests

    def hold(self, reader: Reader) -> None:
        """Take the stream over until it falls behind or ends; returns when it is handed back."""
        self.readers.add(reader)
        if not self._running:
            self._running = True
            threading.Thread(target=self._run, name="kibitz-press", daemon=True).start()
        reader.back.wait()

    def _hand_back(self, reader: Reader, *, rest: bytes = b"", ended: bool = False) -> None:
        self.readers.discard(reader)
        reader.rest, reader.ended = rest, ended
        reader.back.set()

    def _run(self) -> None:
        read_after = float("-inf")
        try:
            while self.readers:
                behind = min(reader.sent for reader in self.readers)
                announced = self.changes.wait_above(behind)
                now = time.monotonic()
                if announced is None:  # a heartbeat: also the moment to end streams whose time is up
                    read_after = now - self.heartbeat
                    self._write_to(list(self.readers), chunk(HEARTBEAT), None)
                    for reader in [r for r in self.readers if r.deadline <= now]:
                        self._hand_back(reader, ended=True)
                    announced = behind
                elif announced == behind:
                    read_after = now  # the listener (re)started: notices may have gone by
                self._deadline = now + DEFER_AT_MOST
                make_way(self._deadline)
                announced = max(announced, self.changes.version)  # appends meanwhile: the newest
                self._publish(announced, read_after)
                if announced > behind and self.changes.announced_at:
                    FANOUT_LAG.observe(time.monotonic() - self.changes.announced_at)
        except Exception:  # a database error: every stream goes back to its own loop, which says so
            log.exception("the press of table %s stopped", self.edition.table_id)
            for reader in list(self.readers):
                self._hand_back(reader)
        finally:
            self._running = False
            if self.readers:  # came while the loop was ending
                self._running = True
                threading.Thread(target=self._run, name="kibitz-press", daemon=True).start()

    def _publish(self, announced: int, read_after: float) -> None:
        groups: defaultdict[tuple[int, str, int | None, str], list[Reader]] = defaultdict(list)
        for reader in self.readers:
            # `log` events are the same in every language and for every seat: one group.
            lean = reader.form == LOG
            key = (reader.sent, "" if lean else reader.language, None if lean else reader.seat, reader.form)
            groups[key].append(reader)
        for group, readers in groups.items():
            sent, form = group[0], group[3]
            version, body = self.edition.message(
                sent, announced, readers[0].language, readers[0].seat, read_after=read_after, form=form
            )
            make_way(self._deadline)
            if body is not None:
                self._write_to(readers, chunk(body), version)

    def _write_to(self, readers: list[Reader], frame: bytes, version: int | None) -> None:
        """The same bytes to each reader, without ever waiting for one."""
        began = time.monotonic()
        for written, reader in enumerate(readers, 1):
            if reader not in self.readers:
                continue
            try:
                taken = reader.sock.send(frame, 0, 0.0)  # gevent: one try, never waits
            except BlockingIOError:
                taken = 0
            except OSError:  # the phone went away
                self._hand_back(reader, ended=True)
                continue
            if version is not None:
                reader.sent, reader.form = version, reader.mode  # it has a table now
            if taken < len(frame):
                self.edition.counters.handed_back += 1
                self._hand_back(reader, rest=frame[taken:])
            if written % WRITES_BETWEEN_YIELDS == 0 or time.monotonic() - began >= SLICE:
                make_way(self._deadline)  # let the server's other work in (gevent: a cooperative yield)
                began = time.monotonic()

"""Change feed: wakes the live streams of this process when a table's log grows, wherever it grew.

One app process (SQLite, `make serve`) announces its own appends directly. Several app servers on
PostgreSQL hear each other through PostgreSQL's own LISTEN/NOTIFY: a trigger on the log
(migration 0006) sends `pg_notify` inside the appending transaction, so a notice goes out exactly
when the append commits, and one listener connection per process turns notices into wake-ups. No
broker of our own: the database is the bus.

Streams also re-read the table's version at every heartbeat (one ticker per process wakes them all,
so that a waiting stream holds no timer of its own), so a lost notice delays a phone by one
heartbeat at most instead of leaving it stale. Notices sent while a listener was not yet (or no
longer) listening are not lost either: each time it starts listening, every stream of the process
re-reads its table at once.

A group's stream (api.http.groups) watches several keys at once: each table of the group, and the
group itself (`group:<id>`: a table added or abandoned, announced by api.groups.store on the same
channel). A watch is woken by an announcement of any key it covers, by the ticker and by a resync.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

log = logging.getLogger(__name__)

CHANNEL = "kibitz_tables"


class ChangeFeed:
    """Per-table wake-ups for the streams of one process.

    Each table has its own condition, so an append wakes only the streams of that table, not every
    stream of the process.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tables: dict[str, TableChanges] = {}
        self._watches: set[Watch] = set()
        self._covering: dict[str, set[Watch]] = {}  # key → the watches it wakes
        self._ticking = False

    def announce(self, table_id: str, version: int) -> None:
        with self._lock:
            changes = self._tables.get(table_id)
            watches = list(self._covering.get(table_id, ()))
        if changes is not None:
            changes.advance(version)
        for watch in watches:
            watch.changes.bump()

    @contextmanager
    def watch(self) -> Iterator[Watch]:
        """A waiter woken by any key it covers (`Watch.cover`); cover the keys before reading what
        they guard, so no announcement slips by."""
        watch = Watch(self)
        with self._lock:
            self._watches.add(watch)
        try:
            yield watch
        finally:
            with self._lock:
                self._watches.discard(watch)
                self._uncover(watch, watch.keys)

    def _cover(self, watch: Watch, keys: set[str]) -> None:
        with self._lock:
            for key in keys - watch.keys:
                self._covering.setdefault(key, set()).add(watch)
            self._uncover(watch, watch.keys - keys)
            watch.keys = set(keys)

    def _uncover(self, watch: Watch, keys: set[str]) -> None:
        for key in keys:
            covering = self._covering.get(key)
            if covering is not None:
                covering.discard(watch)
                if not covering:
                    del self._covering[key]

    @contextmanager
    def subscribe(self, table_id: str) -> Iterator[TableChanges]:
        """Listen to one table; subscribe before reading its version so no announcement slips by."""
        with self._lock:
            changes = self._tables.setdefault(table_id, TableChanges())
            changes.waiters += 1
        try:
            yield changes
        finally:
            with self._lock:
                changes.waiters -= 1
                if changes.waiters == 0:
                    del self._tables[table_id]

    def resync(self) -> None:
        """Every stream re-reads its table now: notices may have gone by while nobody listened."""
        with self._lock:
            every = list(self._tables.values()) + [watch.changes for watch in self._watches]
        for changes in every:
            changes.wake()

    def start_ticking(self, every: float) -> None:
        """Wake every stream of the process every `every` seconds for its heartbeat (once per
        process, lazily: in the serving process, after gunicorn forked and patched)."""
        with self._lock:
            if self._ticking:
                return
            self._ticking = True
        threading.Thread(target=self._tick, args=(every,), name="kibitz-heartbeat", daemon=True).start()

    def _tick(self, every: float) -> None:
        while True:
            time.sleep(every)
            with self._lock:
                every_table = list(self._tables.values()) + [watch.changes for watch in self._watches]
            for changes in every_table:
                changes.tick()

    def listening(self) -> int:
        """How many streams are waiting right now (for health and benchmarks)."""
        with self._lock:
            return sum(changes.waiters for changes in self._tables.values()) + len(self._watches)


class Watch:
    """The keys one stream covers, and the waiter their announcements wake (its `version` counts
    the wake-ups)."""

    def __init__(self, feed: ChangeFeed) -> None:
        self._feed = feed
        self.keys: set[str] = set()
        self.changes = TableChanges()
        self.changes.version = 0

    def cover(self, keys: set[str]) -> None:
        """Be woken by exactly these keys from now on."""
        if keys != self.keys:
            self._feed._cover(self, keys)  # noqa: SLF001 - the feed's own bookkeeping


class TableChanges:
    """A table's newest announced version, and one event per version that its streams wait on.

    Announcing sets the event the waiters hold and puts a fresh one in its place: the announcer
    does the same small work however many streams wait (under gevent the hub wakes them after the
    announcer has moved on), where a condition's notify_all woke every waiter in the announcer.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._moved = threading.Event()
        self.version = -1
        self.announced_at = 0.0  # monotonic time of the newest announcement (the fan-out lag metric)
        self.waiters = 0
        self.resyncs = 0
        self.ticks = 0

    def advance(self, version: int) -> None:
        with self._lock:
            if version <= self.version:
                return
            self.version = version
            self.announced_at = time.monotonic()
            moved, self._moved = self._moved, threading.Event()
        moved.set()

    def bump(self) -> None:
        """One more wake-up (a watch: any of its keys was announced)."""
        with self._lock:
            self.version += 1
            moved, self._moved = self._moved, threading.Event()
        moved.set()

    def wake(self) -> None:
        """Every waiter reads its table again (the listener (re)started)."""
        with self._lock:
            self.resyncs += 1
            moved, self._moved = self._moved, threading.Event()
        moved.set()

    def tick(self) -> None:
        """Every waiter sends its heartbeat."""
        with self._lock:
            self.ticks += 1
            moved, self._moved = self._moved, threading.Event()
        moved.set()

    def wait_above(self, after: int, timeout: float | None = None) -> int | None:
        """The newest version announced above `after`, or `after` itself when told to read the
        table again; None at a heartbeat's tick, or when `timeout` passes first."""
        with self._lock:
            if self.version > after:
                return self.version
            moved, resyncs = self._moved, self.resyncs
        if not moved.wait(timeout):
            return None
        if self.version > after or self.resyncs != resyncs:
            return max(self.version, after)
        return None


def parse_notice(payload: str) -> tuple[str, int] | None:
    table_id, _, version = payload.rpartition(":")
    if not table_id or not version.isdigit():
        return None
    return table_id, int(version)


def _libpq_url(database_url: str) -> str:
    return database_url.replace("postgresql+psycopg://", "postgresql://", 1)


class PostgresListener:
    """One LISTEN connection per process that forwards every notice to the feed; reconnects until
    stopped (`stop_listeners`: whoever drops a database stops the listeners on it first)."""

    def __init__(self, database_url: str, feed: ChangeFeed) -> None:
        self.database_url = _libpq_url(database_url)
        self.feed = feed
        self._started = False
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def ensure_started(self) -> None:
        """Start the listener lazily, in the serving process (after gunicorn forked and patched)."""
        with self._lock:
            if self._started:
                return
            self._started = True
            _LISTENERS.add(self)
        self._thread = threading.Thread(target=self._run, name="kibitz-listen", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop listening and wait for the thread to end: no reconnecting to a database that is gone."""
        self._stopping.set()
        _LISTENERS.discard(self)
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)

    def _run(self) -> None:
        import psycopg  # imported here so that a gevent worker has patched `select` first

        while not self._stopping.is_set():
            try:
                with psycopg.connect(self.database_url, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self.feed.resync()  # what changed before this LISTEN took effect, streams read now
                    while not self._stopping.is_set():
                        # A bounded wait, so that a stop is seen within STOP_POLL seconds.
                        for notice in conn.notifies(timeout=STOP_POLL):
                            parsed = parse_notice(notice.payload)
                            if parsed is not None:
                                self.feed.announce(*parsed)
            except Exception:  # the database went away: streams fall back to heartbeats meanwhile
                if self._stopping.is_set():
                    return
                log.exception("change listener lost its connection; reconnecting")
                self._stopping.wait(1.0)


# How often a waiting listener checks whether it was stopped (seconds).
STOP_POLL = 0.5
_LISTENERS: set[PostgresListener] = set()


def stop_listeners(database_url: str | None = None) -> None:
    """Stop this process's listeners (on `database_url` only, if given), e.g. before the database
    they listen on is dropped."""
    wanted = None if database_url is None else _libpq_url(database_url)
    for listener in list(_LISTENERS):
        if wanted is None or listener.database_url == wanted:
            listener.stop()


def announcer(database_url: str, feed: ChangeFeed) -> tuple[Callable[[], None], Callable[[str, int], Any]]:
    """(start, after_commit) for this database: what to start per process, what to call per append."""
    if database_url.startswith("postgresql"):
        listener = PostgresListener(database_url, feed)
        return listener.ensure_started, lambda _table_id, _version: None
    return lambda: None, feed.announce

"""One database read and one render per change of a table, shared by every live stream of a process.

A live stream used to read the table and its new log entries and render its own event at every
change: a thousand phones at one table made a thousand reads and renders of the same bytes, and
appends queued behind them for database connections. Here the first stream to ask after a change
reads the table once (its row and the log entries since the last read), and each message is rendered
once per group of streams that need exactly the same bytes: (from-version, version, language, seat).
Nearly every stream of a table is one version behind, so a change costs one read and one render per
language and seat kind; a phone further behind (a slow reader skipping ahead to the newest version,
or one back with Last-Event-ID) gets a message of its own, rendered once per distinct from-version.

A stream that asked for patches (`?patches=true`) gets, after its first whole table, `patch` events:
the JSON Patch from the table it has to the new one (api.push.deltas), diffed once per group too. The
table as each version renders it is kept per language for a few versions, the base of those patches.

A stream opened with `?view=log` (a phone whose own referee holds the table) gets `log` events: the
new log entries alone (and the seed once the table shows it): the state, legal actions and result
are what its referee works out from the log. They depend on neither language nor seat, so every
such stream of a table one version behind shares one message.
"""

from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from api.contract.table import TableSchema
from api.i18n import localize_notes
from api.push.deltas import diff
from api.push.view_cache import ViewCache
from api.rules.common.seeds import shown_seed
from api.tables.store import TableRow, TableStore, public_entries, require_game
from api.tables.views import table_view

ENTRIES_KEPT = 256  # log entries kept per followed table; a phone further behind costs one read
MESSAGES_KEPT = 64  # rendered messages kept per followed table (a few per change at most)
VIEWS_KEPT = 16  # table views kept per followed table, per (version, language): the patches' bases
_TABLE_SCHEMA = TableSchema()
# The forms of a stream's events: the whole table, a JSON Patch against the table sent last, or the
# log entries alone (api.http.stream's `?patches=true`, `?view=log`).
TABLE, PATCH, LOG = "table", "patch", "log"
# (from-version, version, language, seat, form): the form the message may take
MessageKey = tuple[int | None, int, str, int | None, str]


def first_form(mode: str, since: int | None) -> str:
    """The form of a stream's first event (`mode`: the form it asked for, each later event's): the
    whole table, unless a `log` stream names the version it has."""
    return LOG if mode == LOG and since is not None else TABLE


def view_document(table: TableRow, language: str) -> Any:
    """The table as `GET /api/tables/{id}` shows it, as plain JSON values (what a patch diffs)."""
    return json.loads(json.dumps(_TABLE_SCHEMA.dump(table_view(table, language)), default=str))


def _event(name: str, version: int, data: dict[str, Any]) -> bytes:
    # Keys sorted as in every other JSON answer (Flask sorts them), so a phone comparing views
    # field by field sees the same table, whichever way it arrived.
    payload = json.dumps(data, separators=(",", ":"), sort_keys=True, default=str)
    return f"id: {version}\nevent: {name}\ndata: {payload}\n\n".encode()


def message_key(since: int | None, version: int, language: str, seat: int | None, form: str) -> MessageKey:
    """Which streams share a message. A `log` event needs the phone's version (else, or past the
    table's: the whole table) and is the same in every language and for every seat."""
    if form == LOG and (since is None or since > version):
        form = TABLE
    if form == LOG:
        language, seat = "", None
    return (since, version, language, seat, form)


def render(
    table: TableRow, entries: list[dict[str, Any]], private: Any, language: str, view: Any = None
) -> bytes:
    """One `table` event of the stream: `{type: "table", version, entries, table, private}`."""
    data = {
        "type": "table",
        "version": table.version,
        "entries": entries,
        "table": view_document(table, language) if view is None else view,
        "private": private,
    }
    return _event("table", table.version, data)


def render_log(table: TableRow, entries: list[dict[str, Any]]) -> bytes:
    """One `log` event: `{type: "log", version, entries}`, and `seed` once the table shows it."""
    data: dict[str, Any] = {"type": LOG, "version": table.version, "entries": entries}
    if table.finished or table.seed_public:
        data["seed"] = shown_seed(table.seed)
    return _event(LOG, table.version, data)


def render_patch(
    table: TableRow, base: int, entries: list[dict[str, Any]], private: Any, patch: list[dict[str, Any]]
) -> bytes:
    """One `patch` event: `{type: "patch", version, base, entries, patch, private}`, the patch
    turning the table at version `base` (as the stream sent it) into this version's."""
    data = {
        "type": "patch",
        "version": table.version,
        "base": base,
        "entries": entries,
        "patch": patch,
        "private": private,
    }
    return _event("patch", table.version, data)


class Counters:
    """What the streams of a process cost the database and the renderer (tests and benchmarks)."""

    def __init__(self) -> None:
        self.reads = 0
        self.renders = 0
        self.handed_back = 0  # slow readers the press gave back (api.push.press)


class Edition:
    """One table as the streams of this process last read it: the newest row, the log entries
    `(base, version]` (versions and log positions are one and the same), and rendered messages."""

    def __init__(
        self, table_id: str, tables: TableStore, counters: Counters, cache: ViewCache | None = None
    ) -> None:
        self.table_id = table_id
        self._cache = cache
        self._tables = tables
        self.counters = counters
        self._lock = threading.Lock()
        self._table: TableRow | None = None
        self._rows: list[Mapping[str, Any]] = []
        self._read_at = float("-inf")  # the time.monotonic() of the last read
        self._messages: OrderedDict[MessageKey, bytes] = OrderedDict()
        self._views: OrderedDict[tuple[int, str], Any] = OrderedDict()
        self.press: Any = None  # the loop that writes to this table's streams (api.push.press)

    @property
    def _base(self) -> int:
        assert self._table is not None
        return self._table.version - len(self._rows)

    def message(
        self,
        since: int | None,
        at_least: int,
        language: str,
        seat: int | None,
        *,
        read_after: float = float("-inf"),
        form: str = TABLE,
    ) -> tuple[int, bytes | None]:
        """The newest version and the event that brings a phone from version `since` (None: a phone
        with nothing) to it — None when the phone is there already. The table is read again only
        when it is older than `at_least` (a version announced since) or was read before `read_after`
        (a heartbeat's or a listener's doubt), once for every stream that asks. With `form` PATCH,
        the event is a `patch` against the table at `since` when that view is still kept, else
        whole; with LOG, the entries after `since` (whole when the phone has nothing)."""
        table = self._table
        if table is not None and table.version >= at_least and self._read_at >= read_after:
            if table.version == since:
                return table.version, None
            body = self._messages.get(message_key(since, table.version, language, seat, form))
            if body is not None:
                return table.version, body
        with self._lock:  # one reader and renderer; the streams that came meanwhile find its work
            table, missed = self._table, None
            if table is None or table.version < at_least or self._read_at < read_after:
                first = at_least if since is None else min(since, at_least)
                table, _ = self._read(self._table.version if self._table else max(first, 0))
            if since is not None and since < self._base:
                table, missed = self._read(since)  # further behind than kept: read what it missed
            if table.version == since:
                return table.version, None
            key = message_key(since, table.version, language, seat, form)
            body = self._messages.get(key)
            if body is None:
                if missed is None and since is not None:
                    missed = [r for r in self._rows if r["seq"] > since]
                if key[-1] == LOG:
                    self.counters.renders += 1
                    body = render_log(table, public_entries(table, missed or []))
                else:
                    base = self._views.get((since, language)) if form == PATCH and since is not None else None
                    body = self._render(table, missed or [], language, seat, since, base)
                self._messages[key] = body
                while len(self._messages) > MESSAGES_KEPT:
                    self._messages.popitem(last=False)
            return table.version, body

    def _read(self, after: int) -> tuple[TableRow, list[Mapping[str, Any]]]:
        """The row and the entries past `after`; kept, with those kept before them."""
        table, rows = self._tables.log_after(self.table_id, after)
        self.counters.reads += 1
        kept = rows
        if self._table is not None and self._base <= after <= self._table.version:
            kept = [r for r in self._rows if r["seq"] <= after] + rows
        self._table, self._rows, self._read_at = table, kept[-ENTRIES_KEPT:], time.monotonic()
        return table, rows

    def _view(self, table: TableRow, language: str) -> Any:
        """This version's table in `language`, rendered once and kept as a base for patches."""
        key = (table.version, language)
        view = self._views.get(key)
        if view is None:
            # The append that made this version rendered it for its own answer: parsed, not redone.
            cached = self._cache.get(table.id, table.version, language) if self._cache else None
            view = json.loads(cached) if cached is not None else view_document(table, language)
            self._views[key] = view
            while len(self._views) > VIEWS_KEPT:
                self._views.popitem(last=False)
        return view

    def _render(
        self,
        table: TableRow,
        missed: list[Mapping[str, Any]],
        language: str,
        seat: int | None,
        since: int | None,
        base: Any,
    ) -> bytes:
        self.counters.renders += 1
        private = None
        if seat is not None:
            game = require_game(table.game)
            private = localize_notes(game.private_view(game.load(table.state), seat), language)
        entries = public_entries(table, missed)
        view = self._view(table, language)
        if base is not None and since is not None:
            return render_patch(table, since, entries, private, diff(base, view))
        return render(table, entries, private, language, view)


class Editions:
    """The editions of the tables this process streams, kept while any stream follows them."""

    def __init__(self, tables: TableStore, cache: ViewCache | None = None) -> None:
        self.tables = tables
        self.cache = cache
        self.counters = Counters()
        self._lock = threading.Lock()
        self._followed: dict[str, tuple[Edition, int]] = {}

    def following(self) -> int:
        return len(self._followed)

    @contextmanager
    def follow(self, table_id: str) -> Iterator[Edition]:
        with self._lock:
            edition, streams = self._followed.get(table_id) or (
                Edition(table_id, self.tables, self.counters, self.cache),
                0,
            )
            self._followed[table_id] = (edition, streams + 1)
        try:
            yield edition
        finally:
            with self._lock:
                edition, streams = self._followed[table_id]
                if streams == 1:
                    del self._followed[table_id]
                else:
                    self._followed[table_id] = (edition, streams - 1)

"""The table store: create tables and append to their logs without ever losing or doubling an event.

Appends name the log position they build on (`expected_version`) and are applied with a
compare-and-swap on the table row; an `Idempotency-Key` makes a retried append harmless.
The table row caches the current state, so reading costs the same however long the log is.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Engine, and_, bindparam, cast, insert, literal_column, select, update
from sqlalchemy.exc import IntegrityError

from api.db.engine import DriverStatement, lone_statements, read_connection, write_transaction
from api.db.schema import events, game_tables
from api.errors import ApiProblem, not_found
from api.rules.errors import InvalidSetup, RuleError, say
from api.rules.game import Game
from api.rules.registry import get_game
from api.rules.replay import (
    RESEED,
    advance,
    chance_stands,
    check_undo_target,
    is_undo,
    public_undo,
    undo_target,
    undone_to,
)
from api.tables.chain import RecordKey, genesis, link, record_key
from api.tables.secrecy import refuse_unless_owner, refuse_unless_seat, secret_owner, step, undo_owner
from api.tables.snapshots import since_snapshot, state_at
from api.tables.tokens import (
    derived_token,
    hash_token,
    is_our_id,
    new_salt,
    new_seed,
    new_table_id,
    new_write_token,
    token_matches,
)


@dataclass(frozen=True)
class TableRow:
    id: str
    game: str
    players: list[dict[str, Any]]
    options: dict[str, Any]
    seed: int
    seed_public: bool
    version: int
    head: int
    state: dict[str, Any]
    finished: bool
    created_at: datetime
    updated_at: datetime
    # GEN-1: the entry in effect at `head` showed server-drawn chance, so it cannot be undone.
    head_stands: bool = False


@dataclass(frozen=True)
class Appended:
    seq: int
    table: TableRow
    replayed: bool


@dataclass(frozen=True)
class Transition:
    """What one event does to a table: the row fields it changes and the log entry it adds."""

    kind: str
    state: dict[str, Any]
    head_after: int
    undoes: int | None
    finished: bool
    # What the log entry stores: the event as sent, plus (undo only) a fresh seed when it reopened a
    # finished game.
    payload: dict[str, Any]
    # GEN-1: whether the entry in effect afterwards showed server-drawn chance (it then stands).
    drawn: bool = False
    # An undo of a secret entry: the seat whose token alone may take it back (GEN-1).
    owner: int | None = None


class _Conflict(Exception):
    """The compare-and-swap lost a race; answered as 409 after the transaction is rolled back."""


# The append's statements, built once: each append only binds its values (building a statement
# per call cost more Python time than the database spent on it).
_HEAD_SINCE = (
    select(events.c.since_snapshot)
    .where(and_(events.c.table_id == game_tables.c.id, events.c.seq == game_tables.c.head))
    .scalar_subquery()
    .label("head_since")
)
_HEAD_DRAWN = (
    select(events.c.chance_drawn)
    .where(and_(events.c.table_id == game_tables.c.id, events.c.seq == game_tables.c.head))
    .scalar_subquery()
    .label("head_drawn")
)
_LAST_HASH = (
    select(events.c.hash)
    .where(and_(events.c.table_id == game_tables.c.id, events.c.seq == game_tables.c.version))
    .scalar_subquery()
    .label("last_hash")
)
_ROW = select(game_tables, _HEAD_SINCE, _HEAD_DRAWN, _LAST_HASH).where(
    game_tables.c.id == bindparam("table_id")
)
_ADVANCE = (
    update(game_tables)
    .where(and_(game_tables.c.id == bindparam("b_id"), game_tables.c.version == bindparam("b_expected")))
    .values(
        version=bindparam("b_version"),
        head=bindparam("b_head"),
        state=bindparam("b_state", type_=game_tables.c.state.type),
        finished=bindparam("b_finished"),
        updated_at=bindparam("b_now", type_=game_tables.c.updated_at.type),
    )
)
_ENTRY = insert(events)
_ENTRY_COLUMNS = (
    "table_id", "seq", "kind", "payload", "undoes", "prev_head", "head_after", "state",
    "since_snapshot", "chance_drawn", "hash", "signature", "idempotency_key", "request_hash", "created_at",
)  # fmt: skip
# PostgreSQL: the compare-and-swap and the new entry in one statement (the entry is inserted only
# when the update found the table at the expected version). Casts: a SELECT list's parameters get
# no type from the INSERT's columns.
_ADVANCE_AND_ENTER = (
    insert(events)
    .from_select(
        list(_ENTRY_COLUMNS),
        select(
            *(
                cast(bindparam(f"e_{name}", type_=events.c[name].type), events.c[name].type)
                for name in _ENTRY_COLUMNS
            )
        ).select_from(_ADVANCE.returning(game_tables.c.id).cte("advanced")),
    )
    .returning(events.c.seq)
)  # a row back exactly when the entry was stored


def _entry_binds(entry: Mapping[str, Any]) -> dict[str, Any]:
    return {f"e_{name}": entry[name] for name in _ENTRY_COLUMNS}


_log = logging.getLogger(__name__)
WRITTEN_ROWS_KEPT = 4096  # tables whose last written row each process keeps (a few KB each)
_VERSION = select(game_tables.c.version).where(game_tables.c.id == bindparam("table_id"))
# The table's head as a record names it: its version and the last entry's hash (POST /api/verify).
_HEAD = select(game_tables.c.version, _LAST_HASH).where(game_tables.c.id == bindparam("table_id"))
# Every read of a table checks its head in O(1) (`check_head`): the row's version, the last entry
# (its content, hash and signature), the hash before it, and that no entry lies past the version.
_last, _before, _beyond = events.alias("last_entry"), events.alias("before_last"), events.alias("beyond")
_ONE: Any = literal_column("1")  # a literal, not a parameter: the driver-level statement binds by name
_HEAD_CHECK = (
    select(
        game_tables.c.version,
        game_tables.c.game,
        game_tables.c.players,
        game_tables.c.options,
        game_tables.c.seed,
        _last.c.seq.label("last_seq"),
        _last.c.payload.label("last_payload"),
        _last.c.hash.label("last_hash"),
        _last.c.signature.label("last_signature"),
        _before.c.hash.label("before_hash"),
        _beyond.c.seq.label("beyond"),
    )
    .select_from(
        game_tables.outerjoin(
            _last, and_(_last.c.table_id == game_tables.c.id, _last.c.seq == game_tables.c.version)
        )
        .outerjoin(
            _before,
            and_(_before.c.table_id == game_tables.c.id, _before.c.seq == game_tables.c.version - _ONE),
        )
        .outerjoin(
            _beyond,
            and_(_beyond.c.table_id == game_tables.c.id, _beyond.c.seq == game_tables.c.version + _ONE),
        )
    )
    .where(game_tables.c.id == bindparam("table_id"))
)
DAMAGED_KEPT = 4096  # table versions found damaged, remembered per process
_COLUMNS: dict[str, Any] = {}  # "read one column" statements, one per column, built on first use


def require_game(name: str) -> Game:
    game = get_game(name)
    if game is None:
        raise ApiProblem(422, "unknown-game", f"Kibitz does not know a game called {name!r}.")
    return game


def request_hash(expected_version: int, event: Mapping[str, Any]) -> str:
    canonical = json.dumps({"v": expected_version, "e": event}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def creation_hash(
    game: str, players: Sequence[Mapping[str, Any]], options: Mapping[str, Any], seed: int | None
) -> str:
    """What a creation asked for, as its Idempotency-Key is checked against."""
    body = {"game": game, "players": [dict(p) for p in players], "options": dict(options), "seed": seed}
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def _tokens(key: str | None, salt: str | None, seats: int) -> tuple[str, list[str]]:
    """The write token and the seat tokens: random, or derived from the creation's key and salt."""
    if key is None or salt is None:
        return new_write_token(), [new_write_token() for _ in range(seats)]
    return derived_token(key, salt, "write"), [derived_token(key, salt, f"seat-{n}") for n in range(seats)]


def _now() -> datetime:
    return datetime.now(UTC)


def _row(mapping: Mapping[str, Any]) -> TableRow:
    return TableRow(
        id=mapping["id"],
        game=mapping["game"],
        players=mapping["players"],
        options=mapping["options"],
        seed=int(mapping["seed"]),
        seed_public=bool(mapping["seed_public"]),
        version=mapping["version"],
        head=mapping["head"],
        state=mapping["state"],
        finished=bool(mapping["finished"]),
        created_at=_utc(mapping["created_at"]),
        updated_at=_utc(mapping["updated_at"]),
        head_stands=bool(mapping.get("head_drawn")),
    )


def _utc(moment: datetime) -> datetime:
    """Stored in UTC; SQLite hands it back without its zone (RFC 3339 answers need the offset)."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _public_events(
    game: Game, finished: bool, options: Mapping[str, Any]
) -> Callable[[str, dict[str, Any]], dict[str, Any]]:
    """How a log entry's event reads in the open log: secrets masked until the game is over."""

    def public_game_event(payload: dict[str, Any]) -> dict[str, Any]:
        return payload if finished else game.public_event(payload, options)

    def shown(kind: str, payload: dict[str, Any]) -> dict[str, Any]:
        return public_undo(payload, finished) if kind == "undo" else public_game_event(payload)

    return shown


def public_entries(table: TableRow, rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Stored log entries (`TableStore.log_after`) as the open log of `table` shows them."""
    shown = _public_events(require_game(table.game), table.finished, table.options)
    return [
        {
            "seq": r["seq"],
            "kind": r["kind"],
            "event": shown(r["kind"], r["payload"]),
            "undoes": r["undoes"],
            "at": _utc(r["created_at"]).isoformat(),
        }
        for r in rows
    ]


class StaleVersion(ApiProblem):
    def __init__(self, table: TableRow, expected: int) -> None:
        super().__init__(
            409,
            "stale-version",
            f"The table has moved on: you built on log position {expected}, it is now at "
            f"{table.version}. Look at the new state and try again.",
        )
        self.table = table


def record_damaged(seq: int, reason: str) -> ApiProblem:
    """The stored log no longer is the record that was written: an entry was changed, removed or
    moved outside Kibitz, or its chain recomputed without the server's key."""
    return ApiProblem(
        409,
        "record-damaged",
        "This table's stored record was changed outside Kibitz: an entry no longer follows from the "
        "ones before it (`seq` names the first). Its log is neither shown nor replayed.",
        seq=seq,
        reason=reason,
    )


def in_effect(rows: Sequence[Any]) -> set[int]:
    """The game entries still in effect, from the recorded events alone: an undo takes back the last
    entry in effect (api.rules.replay)."""
    stack: list[int] = []
    for row in rows:
        if row["kind"] != "undo":
            stack.append(int(row["seq"]))
        elif stack:
            stack.pop()
    return set(stack)


class TableStore:
    def __init__(self, engine: Engine, key: RecordKey | None = None) -> None:
        self.engine = engine
        # Signs each new head of a log; never stored in the database (api.tables.chain).
        self.key = key or record_key()
        # The hottest statements, straight to the driver (api.db.engine.DriverStatement): the poll's
        # version query everywhere, the append's row read and compare-and-swap on PostgreSQL.
        postgresql = engine.dialect.name == "postgresql"
        self._version = DriverStatement(engine, _VERSION)
        self._head_check = DriverStatement(engine, _HEAD_CHECK)  # JSON as text on SQLite: parsed below
        self._row = DriverStatement(engine, _ROW) if postgresql else None
        self._cas = DriverStatement(engine, _ADVANCE_AND_ENTER) if postgresql else None
        # The row as this process last wrote it, per table (bounded): a version never changes, so
        # the next append naming it is decided without reading the row, and the compare-and-swap
        # still refuses it if another process moved the table on meanwhile.
        self._written: dict[str, Mapping[str, Any]] = {}
        self._written_lock = threading.Lock()
        # Table versions a full read of the log found damaged (bounded): every later read of that
        # version in this process says so too, the O(1) table view included (`check_head`).
        self._damaged: dict[tuple[str, int], ApiProblem] = {}
        # Called after each committed append (the live streams of this process listen to it).
        self.on_commit: Callable[[str, int], object] = lambda _table_id, _version: None
        # Called after a committed append that finished the game or reopened a finished one (an
        # undo): the groups the table is in keep their figures by it (api.groups.store).
        self.on_result_change: Callable[[str], object] = lambda _table_id: None

    # -- creating and reading ------------------------------------------------------------------

    def create(
        self,
        game_name: str,
        players: Sequence[Mapping[str, Any]],
        options: Mapping[str, Any],
        seed: int | None = None,
    ) -> tuple[TableRow, str, list[str]]:
        """The new table, its write token, and one private-view token per seat."""
        table, token, seat_tokens, _replayed = self.create_once(game_name, players, options, seed)
        return table, token, seat_tokens

    def create_once(
        self,
        game_name: str,
        players: Sequence[Mapping[str, Any]],
        options: Mapping[str, Any],
        seed: int | None = None,
        idempotency_key: str | None = None,
    ) -> tuple[TableRow, str, list[str], bool]:
        """As `create`; with an `Idempotency-Key` a retry of the same request answers the table it
        made (the same id and tokens, `replayed` True) and a reuse for another request is refused,
        so a phone whose creation answer was lost never leaves a twin table behind."""
        digest = creation_hash(game_name, players, options, seed)
        key_hash = hash_token(idempotency_key) if idempotency_key else None
        if idempotency_key and key_hash:
            prior = self._created(key_hash, idempotency_key, digest)
            if prior is not None:
                return prior
        game = require_game(game_name)
        if not game.min_players <= len(players) <= game.max_players:
            raise InvalidSetup(
                "player-count",
                say(
                    "{title} is for {min_players} to {max_players} players, not {count}.",
                    title=game.title,
                    min_players=game.min_players,
                    max_players=game.max_players,
                    count=len(players),
                ),
            )
        normalized = game.normalize_options(options)
        # A seed the creator chose would let them alone foresee every server draw: it is public.
        seed_public = seed is not None
        seed = new_seed() if seed is None else seed
        state = game.dump(game.new_game(players, normalized, seed))
        salt = new_salt() if idempotency_key else None
        token, seat_tokens = _tokens(idempotency_key, salt, len(players))
        now = _now()
        values = {
            "id": new_table_id(),
            "game": game.name,
            "players": [dict(p) for p in players],
            "options": normalized,
            "seed": seed,
            "seed_public": seed_public,
            "write_token_hash": hash_token(token),
            "version": 0,
            "head": 0,
            "initial_state": state,
            "state": state,
            "finished": False,
            "created_at": now,
            "updated_at": now,
        }
        try:
            with write_transaction(self.engine) as conn:
                conn.execute(
                    insert(game_tables).values(
                        **values,
                        seat_token_hashes=[hash_token(seat_token) for seat_token in seat_tokens],
                        creation_key_hash=key_hash,
                        creation_hash=digest if idempotency_key else None,
                        creation_salt=salt,
                    )
                )
        except IntegrityError:
            # The same key at the same moment from another request (a retry racing the first try).
            prior = self._created(key_hash, idempotency_key, digest) if idempotency_key and key_hash else None
            if prior is None:
                raise
            return prior
        return _row(values), token, seat_tokens, False

    def _created(self, key_hash: str, key: str, digest: str) -> tuple[TableRow, str, list[str], bool] | None:
        """The table an earlier creation with this key made, answered again; None when there is none."""
        with read_connection(self.engine) as conn:
            wanted = select(game_tables).where(game_tables.c.creation_key_hash == key_hash)
            row = conn.execute(wanted).mappings().first()
        if row is None:
            return None
        if row["creation_hash"] != digest:
            raise ApiProblem(
                422,
                "idempotency-key-reused",
                "This Idempotency-Key was already used for a different request; use a new key.",
            )
        token, seat_tokens = _tokens(key, row["creation_salt"], len(row["players"]))
        return _row(row), token, seat_tokens, True

    def get(self, table_id: str) -> TableRow:
        with read_connection(self.engine) as conn:
            return self._load(conn, table_id)

    def version_of(self, table_id: str) -> int:
        """Just the log position: enough to answer a conditional GET with 304.

        The hottest query (every poll of every phone), so it goes to the driver directly: the
        statement is compiled once per database, and a pooled connection (autocommit on PostgreSQL)
        runs it without SQLAlchemy's per-call machinery, which cost more than the query itself.
        """
        if not is_our_id(table_id):
            raise not_found(table_id)
        raw = self.engine.raw_connection()
        try:
            row = self._version.first(raw, {"table_id": table_id})
        finally:
            raw.close()
        if row is None:
            raise not_found(table_id)
        return int(row["version"])

    def head_of(self, table_id: str) -> tuple[int, str | None] | None:
        """The table's head as a record names it — its version (= its number of entries) and the
        last entry's hash — or None when there is no such table here. One row read."""
        if not is_our_id(table_id):
            return None
        with read_connection(self.engine) as conn:
            row = conn.execute(_HEAD, {"table_id": table_id}).mappings().first()
        if row is None:
            return None
        version = int(row["version"])
        return version, (str(row["last_hash"]) if row["last_hash"] else None) if version else None

    def check_head(self, table_id: str) -> int:
        """The table's version, once its head is found whole: 404 for no such table, else 409
        record-damaged when the row's version has no last entry or an entry past it, when the last
        entry's content does not hash to its stored hash (from the one before it), when the server's
        signature of that head fails, or when a full read of this version's log in this process
        found it damaged before. One indexed row read and one SHA-256 however long the log is; an
        early entry changed is found by the reads of the log (`log`, `states`, a catch-up), which
        this process then remembers."""
        if not is_our_id(table_id):
            raise not_found(table_id)
        raw = self.engine.raw_connection()  # straight to the driver, as the poll's own query
        try:
            row = self._head_check.first(raw, {"table_id": table_id})
        finally:
            raw.close()
        if row is None:
            raise not_found(table_id)
        version = int(row["version"])
        known = self._damaged.get((table_id, version))
        if known is not None:
            raise known
        if row["beyond"] is not None:
            raise record_damaged(version + 1, "past-the-head")
        if version == 0:
            return 0
        if row["last_seq"] is None or not row["last_hash"]:
            raise record_damaged(version, "missing")
        payload = row["last_payload"]
        if isinstance(payload, str):  # SQLite through the driver: JSON as text
            payload = json.loads(payload)
        if version == 1:
            header = {k: row[k] for k in ("game", "players", "options", "seed")}
            for name in ("players", "options"):
                if isinstance(header[name], str):
                    header[name] = json.loads(header[name])
            before = genesis(header)
        elif not row["before_hash"]:
            raise record_damaged(version - 1, "missing")
        else:
            before = str(row["before_hash"])
        if link(before, version, payload) != row["last_hash"]:
            raise record_damaged(version, "changed")
        if not self.key.verifies(row["last_signature"], table_id, version, str(row["last_hash"])):
            raise record_damaged(version, "not-signed")
        return version

    def log(self, table_id: str) -> tuple[TableRow, list[dict[str, Any]]]:
        """The full log, each entry marked with whether it is still in effect (not undone)."""
        self.check_head(table_id)  # the row against its head, and no entry past it
        with read_connection(self.engine) as conn:
            table = self._load(conn, table_id)
            rows = (
                conn.execute(
                    select(
                        events.c.seq,
                        events.c.kind,
                        events.c.payload,
                        events.c.undoes,
                        events.c.created_at,
                        events.c.hash,
                        events.c.signature,
                    )
                    # Not past the row read: an append since then is the next read's to check.
                    .where(and_(events.c.table_id == table_id, events.c.seq <= table.version))
                    .order_by(events.c.seq)
                )
                .mappings()
                .all()
            )
        self._check_chain(table, rows)
        effective = in_effect(rows)
        game = require_game(table.game)
        shown = _public_events(game, table.finished, table.options)
        entries = [
            {
                "seq": r["seq"],
                "kind": r["kind"],
                "event": shown(r["kind"], r["payload"]),
                "undoes": r["undoes"],
                "in_effect": r["kind"] == "game" and r["seq"] in effective,
                "at": _utc(r["created_at"]),
                "hash": r["hash"],
                "signature": r["signature"],
            }
            for r in rows
        ]
        return table, entries

    def states(self, table_id: str) -> tuple[TableRow, list[Any]]:
        """Every state the table went through, the new game's first: states[k] follows log entry k
        (an undo entry: the state it returned to). The server replays its own record, secret seeds
        included, so it can show the past of a table whose draws no phone can replay; nothing in it
        lies beyond what every reader has already seen. Reads the whole log, like the log itself."""
        self.check_head(table_id)
        with read_connection(self.engine) as conn:
            table = self._load(conn, table_id)
            initial = self._column(conn, table_id, game_tables.c.initial_state)
            rows = (
                conn.execute(
                    select(events.c.seq, events.c.payload, events.c.hash, events.c.signature)
                    .where(and_(events.c.table_id == table_id, events.c.seq <= table.version))
                    .order_by(events.c.seq)
                )
                .mappings()
                .all()
            )
        self._check_chain(table, rows)
        game = require_game(table.game)
        line = [game.load(initial)]
        went_through = [line[-1]]
        for row in rows:
            line = advance(game, line, row["payload"])  # the very steps the store took
            went_through.append(line[-1])
        return table, went_through

    def entries_after(self, table_id: str, after: int) -> tuple[TableRow, list[dict[str, Any]]]:
        """The table and the log entries past position `after`, as the open log shows them.

        What a live stream sends a phone that comes back with `Last-Event-ID`: what it missed.
        """
        table, rows = self.log_after(table_id, after)
        return table, public_entries(table, rows)

    def log_after(self, table_id: str, after: int) -> tuple[TableRow, list[Mapping[str, Any]]]:
        """The table and its log entries past position `after` as stored (`public_entries` shows
        them): the live streams keep these and show them as the table at hand allows."""
        with read_connection(self.engine) as conn:
            table = self._load(conn, table_id)
            rows = (
                conn.execute(
                    select(
                        events.c.seq,
                        events.c.kind,
                        events.c.payload,
                        events.c.undoes,
                        events.c.created_at,
                        events.c.hash,
                        events.c.signature,
                    )
                    .where(
                        and_(
                            events.c.table_id == table_id,
                            events.c.seq >= after,
                            events.c.seq <= table.version,  # not past the row read
                        )
                    )
                    .order_by(events.c.seq)
                )
                .mappings()
                .all()
            )
        return table, self._check_chain(table, rows, after=max(after, 0))

    def private_view(self, table_id: str, seat: int, token: str | None) -> dict[str, Any] | None:
        """What only `seat` may see, for the holder of that seat's token."""
        with read_connection(self.engine) as conn:
            hashes = self._column(conn, table_id, game_tables.c.seat_token_hashes) or []
            if not 0 <= seat < len(hashes):
                raise ApiProblem(404, "seat-not-found", f"This table has no seat {seat}.")
            if not token:
                raise ApiProblem(401, "seat-token-required", "Your own view needs your seat's link.")
            if not token_matches(token, hashes[seat]):
                raise ApiProblem(403, "bad-seat-token", "This link is not for this seat.")
            table = self._load(conn, table_id)
        self.check_head(table_id)  # a damaged record is said on every read of the table
        game = require_game(table.game)
        return game.private_view(game.load(table.state), seat)

    def check_token(self, table_id: str, token: str | None) -> None:
        with read_connection(self.engine) as conn:
            stored = self._token_hash(conn, table_id)
        self._verify_token(token, stored)

    # -- appending -----------------------------------------------------------------------------

    def append(
        self,
        table_id: str,
        token: str | None,
        expected_version: int,
        event: Mapping[str, Any],
        idempotency_key: str | None = None,
    ) -> Appended:
        digest = request_hash(expected_version, event)
        try:
            # Read and decide outside any transaction: the compare-and-swap below stores the step
            # only if the table is still at the version it was decided on (else 409, as a race).
            with lone_statements(self.engine) as conn:
                known = self._written.get(table_id)
                if known is not None and known["version"] == expected_version:
                    row = known  # the version this process wrote last: no read
                else:
                    known = None
                    row = self._row_of(conn, table_id)  # one read: the table and its token hashes
                holder = self._holder_of(row, token)
                table = _row(row)
                if expected_version != table.version:
                    # A retry of a request already applied names an older version: answer it as
                    # a replay. (With the version current, a used key can only be a reuse: the
                    # unique key index refuses the insert and the handler below says so.)
                    prior = self._prior(conn, table_id, idempotency_key, digest) if idempotency_key else None
                    if prior is not None:
                        return Appended(prior, table, replayed=True)
                    raise StaleVersion(table, expected_version)
                game = require_game(table.game)
                current = game.load(table.state)
                try:
                    refuse_unless_owner(game, current, table.players, event, holder)
                    step = self._transition(conn, game, table, current, event)
                    refuse_unless_seat(table.players, step.owner, holder)  # GEN-1: a secret undo
                except (RuleError, ApiProblem):
                    if known is not None:  # refused on the version it names: is it still current?
                        fresh = self._load(conn, table_id)
                        if fresh.version != expected_version:
                            raise StaleVersion(fresh, expected_version) from None
                    if idempotency_key:  # a key used before for another request says so first
                        self._prior(conn, table_id, idempotency_key, digest)
                    raise
                seq, now = table.version + 1, _now()
                advanced = {
                    "b_id": table_id,
                    "b_expected": expected_version,
                    "b_version": seq,
                    "b_head": step.head_after,
                    "b_state": step.state,
                    "b_finished": step.finished,
                    "b_now": now,
                }
                game_step = step.kind == "game"
                chained = link(self._last_hash(row, table), seq, step.payload)
                since = since_snapshot(row["head_since"], table.head, table.version) if game_step else None
                entry = {
                    "table_id": table_id,
                    "seq": seq,
                    "kind": step.kind,
                    "payload": step.payload,
                    "undoes": step.undoes,
                    "prev_head": table.head,
                    "head_after": seq if step.kind == "game" else step.head_after,
                    # Only snapshots keep the state (api.tables.snapshots); undo entries never.
                    "state": step.state if since == 0 else None,
                    "since_snapshot": since,
                    "chance_drawn": step.drawn if game_step else None,
                    "hash": chained,
                    "signature": self.key.sign(table_id, seq, chained),
                    "idempotency_key": idempotency_key,
                    "request_hash": digest,
                    "created_at": now,
                }
                if self._cas:  # PostgreSQL: on the connection that read the row
                    self._advance_and_enter(conn, self._cas, advanced, entry)
            if not self._cas:
                self._advance_then_enter(advanced, entry)
        except (_Conflict, IntegrityError):
            # Another append won the race. If it was this very request (same key), answer as a replay.
            with read_connection(self.engine) as conn:
                table = self._load(conn, table_id)
                if idempotency_key:
                    prior = self._prior(conn, table_id, idempotency_key, digest)
                    if prior is not None:
                        return Appended(prior, table, replayed=True)
            raise StaleVersion(table, expected_version) from None
        self.on_commit(table_id, seq)
        if table.finished or step.finished:
            try:
                self.on_result_change(table_id)
            except Exception:  # the append stands; the group's next sync of this table catches up
                _log.exception("keeping the figures of the groups of table %s failed", table_id)
        self._remember(
            {
                **row,
                "version": seq,
                "head": step.head_after,
                "state": step.state,
                "finished": step.finished,
                "updated_at": now,
                # The new head entry's distance to its snapshot (after an undo it is not needed:
                # the next entry is a snapshot whatever it is, see since_snapshot).
                "head_since": since,
                "head_drawn": step.drawn,
                "last_hash": chained,
            }
        )
        # The row as this transaction wrote it: no second read of the table.
        written = replace(
            table,
            version=seq,
            head=step.head_after,
            state=step.state,
            finished=step.finished,
            updated_at=now,
            head_stands=step.drawn,
        )
        return Appended(seq, written, replayed=False)

    def preview(
        self, table_id: str, event: Mapping[str, Any], expected_version: int | None, token: str | None = None
    ) -> TableRow:
        """The table as it would be after `event`, without storing anything. Open to anyone, except
        for an event that depends on a seat's hidden cards: that one only for the seat's own token."""
        self.check_head(table_id)  # a damaged record is said on every read of the table
        with read_connection(self.engine) as conn:
            table = self._load(conn, table_id)
            game = require_game(table.game)
            current = game.load(table.state)
            if secret_owner(game, current, event) is not None:
                holder = self._holder(conn, table_id, token) if token else None
                refuse_unless_owner(game, current, table.players, event, holder)
            if expected_version is not None and expected_version != table.version:
                raise StaleVersion(table, expected_version)
            step = self._transition(conn, game, table, current, event, preview=True)
            if step.owner is not None:  # GEN-1: a secret entry's undo, previewed by its seat only
                refuse_unless_seat(table.players, step.owner, self._holder(conn, table_id, token))
        return TableRow(
            **{
                **table.__dict__,
                "version": table.version + 1,
                "head": step.head_after if step.kind == "undo" else table.version + 1,
                "state": step.state,
                "finished": step.finished,
                "head_stands": step.drawn,
            }
        )

    # -- the record's chain ---------------------------------------------------------------------

    def _last_hash(self, row: Mapping[str, Any], table: TableRow) -> str:
        """What the next entry's hash builds on: the last entry's, or the header's for the first."""
        if table.version == 0:
            return genesis(row)
        if not row.get("last_hash"):
            raise record_damaged(table.version, "missing")
        return str(row["last_hash"])

    def _check_log(self, conn: Connection, table: TableRow) -> None:
        """Before a replay from the snapshots (an undo): the chain, and the line of play the replay
        walks (`prev_head`, `undoes`, the head) as the recorded events alone make it."""
        rows = (
            conn.execute(
                select(
                    events.c.seq,
                    events.c.kind,
                    events.c.payload,
                    events.c.prev_head,
                    events.c.undoes,
                    events.c.hash,
                    events.c.signature,
                )
                .where(and_(events.c.table_id == table.id, events.c.seq <= table.version))
                .order_by(events.c.seq)
            )
            .mappings()
            .all()
        )
        self._check_chain(table, rows)
        line: list[int] = []
        for entry in rows:
            kind = "undo" if is_undo(entry["payload"]) else "game"
            if entry["kind"] != kind:
                raise record_damaged(entry["seq"], "changed")
            if kind == "game":
                if entry["prev_head"] != (line[-1] if line else 0):
                    raise record_damaged(entry["seq"], "changed")
                line.append(entry["seq"])
            elif not line or entry["undoes"] != line.pop():
                raise record_damaged(entry["seq"], "changed")
        if table.head != (line[-1] if line else 0):
            raise record_damaged(table.version, "changed")

    def _check_chain(self, table: TableRow, rows: Sequence[Any], after: int = 0) -> list[Any]:
        """`_follows`, remembering its finding for this table version (`check_head` says it too)."""
        key = (table.id, table.version)
        try:
            checked = self._follows(table, rows, after)
        except ApiProblem as problem:
            with self._written_lock:
                self._damaged.pop(key, None)
                self._damaged[key] = problem
                while len(self._damaged) > DAMAGED_KEPT:
                    del self._damaged[next(iter(self._damaged))]
            raise
        if after == 0 and key in self._damaged:  # the whole log read again, and whole: repaired
            with self._written_lock:
                self._damaged.pop(key, None)
        return checked

    def _follows(self, table: TableRow, rows: Sequence[Any], after: int = 0) -> list[Any]:
        """The entries past `after` (rows: from `after` itself on, when after > 0), once every one is
        found to follow from the one before and the last to carry the server's signature; else
        record-damaged naming the first entry that does not. Costs one SHA-256 per entry read and one
        signature check, so it runs where entries are read, never on the cached-state fast path."""
        previous = genesis(table.__dict__)
        if after > 0:
            if table.version < after:
                return []
            if not rows or rows[0]["seq"] != after or not rows[0]["hash"]:
                raise record_damaged(after, "missing")
            previous, rows = str(rows[0]["hash"]), rows[1:]
        expected = after + 1
        for entry in rows:
            if entry["seq"] != expected:
                raise record_damaged(expected, "missing" if entry["seq"] > expected else "moved")
            previous = link(previous, expected, entry["payload"])
            if entry["hash"] != previous:
                raise record_damaged(expected, "changed")
            expected += 1
        if expected - 1 != table.version:
            raise record_damaged(expected, "missing")
        last = rows[-1] if rows else None
        if last is not None and not self.key.verifies(last["signature"], table.id, table.version, previous):
            raise record_damaged(table.version, "not-signed")
        return list(rows)

    # -- internals -----------------------------------------------------------------------------

    def _remember(self, row: Mapping[str, Any]) -> None:
        with self._written_lock:
            written = self._written
            written.pop(row["id"], None)  # re-inserted last: the oldest table goes first
            written[row["id"]] = row
            while len(written) > WRITTEN_ROWS_KEPT:
                del written[next(iter(written))]

    @staticmethod
    def _advance_and_enter(
        conn: Connection, statement: DriverStatement, advanced: dict[str, Any], entry: dict[str, Any]
    ) -> None:
        """PostgreSQL: move the table row on (only from the version the step was decided on) and
        add the log entry in one statement, its own transaction: one round trip where BEGIN, UPDATE,
        INSERT and COMMIT took four. _Conflict when another append got there first. A trigger on the
        log announces the entry (api.tables.changes)."""
        if statement.first(conn.connection, {**advanced, **_entry_binds(entry)}) is None:
            raise _Conflict()

    def _advance_then_enter(self, advanced: dict[str, Any], entry: dict[str, Any]) -> None:
        """SQLite cannot update inside WITH: the same in a short write transaction."""
        with write_transaction(self.engine) as conn:
            if conn.execute(_ADVANCE, advanced).rowcount != 1:
                raise _Conflict()
            conn.execute(_ENTRY, entry)

    def _transition(
        self,
        conn: Connection,
        game: Game,
        table: TableRow,
        current: Any,
        event: Mapping[str, Any],
        preview: bool = False,
    ) -> Transition:
        """What `event` does to `table`, whose state `current` is (loaded once by the caller)."""
        if is_undo(event):
            check_undo_target(undo_target(event), table.head)  # names the head, or nothing
            self._check_log(conn, table)  # the replay below reads entries: they must be the record's
            undone = self._entry(conn, table.id, table.head)
            new_head = int(undone["prev_head"])  # the line of play: the head before the undone entry
            before = game.load(state_at(conn, game, table.id, new_head))
            owner = undo_owner(game, before, current, undone["payload"])  # GEN-1
            payload = dict(event)
            # A finished game has shown its seed; reopening it must not let anyone predict what comes
            # next, so the future is drawn from a fresh secret seed, recorded in this undo entry.
            if table.finished and game.chance_seed(current) is not None:
                payload[RESEED] = new_seed()
            restored = undone_to(game, before, current, payload.get(RESEED))
            state = game.dump(restored)
            finished = game.result(restored) is not None
            drawn = new_head > 0 and bool(self._entry(conn, table.id, new_head)["chance_drawn"])
            return Transition("undo", state, new_head, table.head, finished, payload, drawn, owner)
        next_state = step(game, current, event, preview)  # api.tables.secrecy
        return Transition(
            "game",
            game.dump(next_state),
            table.version + 1,
            None,
            game.result(next_state) is not None,
            dict(event),
            chance_stands(game, current, next_state),
        )

    def _load(self, conn: Connection, table_id: str) -> TableRow:
        return _row(self._row_of(conn, table_id))

    @staticmethod
    def _column(conn: Connection, table_id: str, column: Any) -> Any:
        """One column of a table's row; 404 when there is no such table."""
        if not is_our_id(table_id):
            raise not_found(table_id)
        statement = _COLUMNS.get(column.name)
        if statement is None:
            statement = select(column).where(game_tables.c.id == bindparam("table_id"))
            _COLUMNS[column.name] = statement
        row = conn.execute(statement, {"table_id": table_id}).first()
        if row is None:
            raise not_found(table_id)
        return row[0]

    def _holder(self, conn: Connection, table_id: str, token: str | None) -> int | None:
        return self._holder_of(self._row_of(conn, table_id), token)

    def _row_of(self, conn: Connection, table_id: str) -> Mapping[str, Any]:
        if not is_our_id(table_id):
            raise not_found(table_id)  # never sent to the database (NUL, odd lengths …)
        row: Mapping[str, Any] | None
        if self._row:  # the append's first statement: straight to the driver
            row = self._row.first(conn.connection, {"table_id": table_id})
        else:
            row = conn.execute(_ROW, {"table_id": table_id}).mappings().first()
        if row is None:
            raise not_found(table_id)
        return row

    @staticmethod
    def _holder_of(row: Mapping[str, Any], token: str | None) -> int | None:
        """Who is writing: None for the table's write token, a seat number for that seat's own token
        (a player's credential at this table); 401 without a token, 403 for any other."""
        write_hash = row["write_token_hash"]
        seat_hashes = row["seat_token_hashes"]
        if not token:
            raise ApiProblem(
                401,
                "write-token-required",
                "Recording needs the table's write token (the key in the join link) or your seat link.",
            )
        # Every stored hash is compared, whichever matches, so timing tells nothing about which.
        matches = [token_matches(token, stored) for stored in [write_hash, *(seat_hashes or [])]]
        if matches[0]:
            return None
        if any(matches):
            return matches.index(True) - 1
        raise ApiProblem(403, "bad-write-token", "This token does not belong to this table.")

    @staticmethod
    def _token_hash(conn: Connection, table_id: str) -> str:
        return str(TableStore._column(conn, table_id, game_tables.c.write_token_hash))

    @staticmethod
    def _verify_token(token: str | None, stored_hash: str) -> None:
        if not token:
            raise ApiProblem(
                401,
                "write-token-required",
                "Recording needs the table's write token (the key in the join link).",
            )
        if not token_matches(token, stored_hash):
            raise ApiProblem(403, "bad-write-token", "This write token does not belong to this table.")

    @staticmethod
    def _prior(conn: Connection, table_id: str, key: str, digest: str) -> int | None:
        prior = conn.execute(
            select(events.c.seq, events.c.request_hash).where(
                and_(events.c.table_id == table_id, events.c.idempotency_key == key)
            )
        ).first()
        if prior is None:
            return None
        if prior.request_hash != digest:
            raise ApiProblem(
                422,
                "idempotency-key-reused",
                "This Idempotency-Key was already used for a different request; use a new key.",
            )
        return int(prior.seq)

    @staticmethod
    def _entry(conn: Connection, table_id: str, seq: int) -> Mapping[str, Any]:
        return (
            conn.execute(
                select(events.c.prev_head, events.c.payload, events.c.chance_drawn).where(
                    and_(events.c.table_id == table_id, events.c.seq == seq)
                )
            )
            .mappings()
            .one()
        )

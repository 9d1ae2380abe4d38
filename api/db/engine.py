"""Engine creation; on SQLite, writers take the write lock up front so concurrent appends queue."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import psycopg
from sqlalchemy import JSON, Connection, Engine, create_engine, event, make_url
from sqlalchemy.exc import DBAPIError, DisconnectionError
from sqlalchemy.pool import ConnectionPoolEntry
from sqlalchemy.sql.expression import ClauseElement

from api.db.pg_waits import PromptConnection

TransactionStatus = psycopg.pq.TransactionStatus

WRITE_OPTION = "kibitz_write"
LONE_OPTION = "kibitz_lone_statements"
# A pooled connection idle longer than this is pinged before use (the server may have restarted or
# dropped it meanwhile); one used moments ago is not — under load that ping was a round trip on
# every request, a third of a conditional read's.
PING_AFTER_IDLE_SECONDS = 1.0


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        return _sqlite_engine(url)
    return _server_engine(url)


def _server_engine(url: str) -> Engine:
    # Connections stay in autocommit, and a transaction says BEGIN itself (psycopg still sends
    # COMMIT or ROLLBACK while the server is inside one): a lone SELECT — a phone polling — is a
    # single round trip, with neither BEGIN/ROLLBACK around it nor a switch of the connection's mode.
    psycopg_driver = make_url(url).get_dialect().driver == "psycopg"
    engine = create_engine(
        url,
        isolation_level="AUTOCOMMIT",
        pool_size=5,
        max_overflow=10,
        **({"pool_reset_on_return": None} if psycopg_driver else {}),
    )
    if psycopg_driver:

        @event.listens_for(engine, "do_connect")
        def _connect(_dialect: Any, _record: Any, cargs: Any, cparams: Any) -> PromptConnection:
            return PromptConnection.connect(*cargs, **cparams)  # psycopg.connect, waits of our own

        @event.listens_for(engine, "reset")
        def _on_reset(dbapi_connection: Any, _record: Any, _state: Any) -> None:
            # Back in the pool, a connection is rolled back only if it is still in a transaction:
            # in autocommit next to none is, and the pool's unconditional rollback cost every request.
            if dbapi_connection.info.transaction_status != TransactionStatus.IDLE:
                dbapi_connection.rollback()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        if not conn.get_execution_options().get(LONE_OPTION, False):
            conn.exec_driver_sql("BEGIN")

    @event.listens_for(engine, "checkin")
    def _on_checkin(_dbapi_connection: Any, record: ConnectionPoolEntry) -> None:
        record.info["idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _on_checkout(dbapi_connection: Any, record: ConnectionPoolEntry, _proxy: Any) -> None:
        idle_since = record.info.get("idle_since")
        if idle_since is None or time.monotonic() - idle_since < PING_AFTER_IDLE_SECONDS:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except Exception as error:  # noqa: BLE001 - any failure: let the pool connect afresh
            # The pool discards this connection and checks out another (a new one if need be).
            raise DisconnectionError(str(error)) from error

    return engine


def _sqlite_engine(url: str) -> Engine:
    engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy's "begin" event emit BEGIN itself (pysqlite's own BEGIN is deferred only).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        # FULL: a commit (an acknowledged 201) is on disk before the answer, even on power loss.
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        # A deferred transaction that reads and then writes fails at once when another writer got
        # in between (SQLITE_BUSY_SNAPSHOT); BEGIN IMMEDIATE waits for the lock instead.
        immediate = conn.get_execution_options().get(WRITE_OPTION, False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    return engine


@contextmanager
def write_transaction(engine: Engine) -> Iterator[Connection]:
    """A transaction that will write: serialised on SQLite, row-level on PostgreSQL."""
    with engine.connect() as conn:
        conn = conn.execution_options(**{WRITE_OPTION: True})
        with conn.begin():
            yield conn


@contextmanager
def read_connection(engine: Engine) -> Iterator[Connection]:
    with engine.connect() as conn, conn.begin():
        yield conn


@contextmanager
def lone_statements(engine: Engine) -> Iterator[Connection]:
    """Statements that each stand alone: on PostgreSQL each is its own transaction, with no BEGIN
    and ROLLBACK around it (two round trips less per conditional GET). For a lone SELECT, for reads
    whose result a later compare-and-swap checks, and for that one-statement compare-and-swap."""
    if engine.dialect.name != "postgresql":
        with read_connection(engine) as conn:
            yield conn
        return
    with engine.connect() as conn:
        yield conn.execution_options(**{LONE_OPTION: True})


class DriverStatement:
    """A Core statement compiled once for one database and run straight on a connection's driver
    cursor, without SQLAlchemy's per-call work (which cost more than the database's own: ~60 µs a
    statement against a 70 µs round trip). For the hottest statements only, and only where the
    driver's own types are the answer (PostgreSQL: psycopg reads JSON and times itself; on SQLite,
    JSON comes back as text). JSON parameters are sent as JSON text; None is SQL NULL."""

    def __init__(self, engine: Engine, statement: ClauseElement) -> None:
        self._dialect = engine.dialect
        compiled: Any = statement.compile(dialect=engine.dialect)  # an SQLCompiler
        self.sql = str(compiled)
        self._order = list(compiled.positiontup or []) if compiled.positional else None
        self._json = {name for name, bind in compiled.binds.items() if isinstance(bind.type, JSON)}
        self._names: tuple[str, ...] | None = None

    def first(self, driver: Any, params: Mapping[str, Any]) -> dict[str, Any] | None:
        """The first row as a dict (None without one), run on a driver connection (a pooled one, or
        a Connection's own: `conn.connection`)."""
        values = params
        if self._json:
            values = {
                name: json.dumps(value) if name in self._json and value is not None else value
                for name, value in params.items()
            }
        cursor = driver.cursor()
        dbapi = self._dialect.loaded_dbapi
        try:
            cursor.execute(self.sql, [values[n] for n in self._order] if self._order is not None else values)
            row = cursor.fetchone()
            if row is None:
                return None
            if self._names is None:  # the same columns every time: read them once
                self._names = tuple(column[0] for column in cursor.description)
            return dict(zip(self._names, row, strict=True))
        except dbapi.Error as error:
            # As SQLAlchemy would have it: its own exception classes, and a dropped connection
            # invalidated so the pool never hands it out again.
            gone = self._dialect.is_disconnect(error, driver, cursor)
            if gone:
                driver.invalidate(error)
            raise DBAPIError.instance(
                self.sql, values, error, dbapi.Error, connection_invalidated=gone, dialect=self._dialect
            ) from error
        finally:
            cursor.close()

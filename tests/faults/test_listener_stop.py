"""A change listener stops when asked, and the fixture that made a PostgreSQL database stops the
listeners on it before dropping it (issue 34: one left running kept reconnecting to a dropped test
database after the last test, a traceback a second)."""

from __future__ import annotations

import logging
import threading
import time

import pytest

from api.tables.changes import ChangeFeed, PostgresListener, stop_listeners
from tests.conftest import new_postgres_database

pytestmark = pytest.mark.postgres


def _listening_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "kibitz-listen" and t.is_alive()]


def _wait_until_listening(feed: ChangeFeed, listener: PostgresListener) -> None:
    """A listener resyncs the feed once its LISTEN took effect: wait for that."""
    resynced = threading.Event()
    feed.resync = resynced.set  # type: ignore[method-assign]
    listener.ensure_started()
    assert resynced.wait(15), "the listener never listened"


def test_a_stopped_listener_ends_its_thread() -> None:
    with new_postgres_database("kibitz_listen") as url:
        before = set(_listening_threads())
        listener = PostgresListener(url, ChangeFeed())
        _wait_until_listening(listener.feed, listener)
        assert len(set(_listening_threads()) - before) == 1
        started = time.monotonic()
        listener.stop()
        assert set(_listening_threads()) <= before
        assert time.monotonic() - started < 5


def test_dropping_a_database_stops_its_listeners_first(caplog: pytest.LogCaptureFixture) -> None:
    """Nothing reconnects to the dropped database: no thread left, no 'reconnecting' logged."""
    caplog.set_level(logging.ERROR, logger="api.tables.changes")
    before = set(_listening_threads())
    with new_postgres_database("kibitz_listen") as url:
        listener = PostgresListener(url, ChangeFeed())
        _wait_until_listening(listener.feed, listener)
    time.sleep(1.5)  # longer than a reconnect attempt
    assert set(_listening_threads()) <= before
    assert "reconnecting" not in caplog.text


def test_stop_listeners_only_stops_the_given_database() -> None:
    with new_postgres_database("kibitz_la") as first, new_postgres_database("kibitz_lb") as second:
        one, other = PostgresListener(first, ChangeFeed()), PostgresListener(second, ChangeFeed())
        _wait_until_listening(one.feed, one)
        _wait_until_listening(other.feed, other)
        stop_listeners(first)
        assert one._thread is not None and not one._thread.is_alive()
        assert other._thread is not None and other._thread.is_alive()
    assert not other._thread.is_alive()

"""The change feed that wakes live streams: announcements, and a listener that starts late."""

from __future__ import annotations

import threading
import time

import pytest

from api.tables.changes import ChangeFeed, PostgresListener
from tests.api.table_client import four_players
from tests.conftest import make_test_app


def _waiter(feed: ChangeFeed, table_id: str, after: int, timeout: float) -> tuple[threading.Thread, list]:
    """A stream waiting for the table to move past `after`; what it got lands in the list."""
    got: list = []
    subscribed = threading.Event()

    def wait() -> None:
        with feed.subscribe(table_id) as changes:
            subscribed.set()
            got.append(changes.wait_above(after, timeout))

    thread = threading.Thread(target=wait, daemon=True)
    thread.start()
    assert subscribed.wait(5)
    return thread, got


def test_an_announced_version_wakes_the_table_s_streams_only() -> None:
    feed = ChangeFeed()
    waiting, got = _waiter(feed, "t1", 3, timeout=10)
    other, other_got = _waiter(feed, "t2", 3, timeout=0.5)
    feed.announce("t1", 4)
    waiting.join(5)
    other.join(5)
    assert got == [4] and other_got == [None]
    assert feed.listening() == 0  # both gone: nothing kept per table


def test_a_resync_makes_every_stream_read_its_table_again() -> None:
    feed = ChangeFeed()
    waiting, got = _waiter(feed, "t1", 3, timeout=10)
    started = time.monotonic()
    feed.resync()
    waiting.join(5)
    assert got == [3] and time.monotonic() - started < 5  # woken, not timed out (None)


@pytest.mark.postgres
def test_a_listener_that_starts_late_still_wakes_streams(postgres_url: str) -> None:
    """An append committed before the process listened sent its notice to nobody: once the
    listener is listening, the waiting stream is told to read its table anyway."""
    client = make_test_app(postgres_url).test_client()
    created = client.post("/api/tables", json=four_players()).get_json()
    feed = ChangeFeed()
    waiting, got = _waiter(feed, created["id"], 0, timeout=20)
    appended = client.post(
        f"/api/tables/{created['id']}/events",
        json={"expected_version": 0, "event": {"type": "reveal_card", "value": 3}},
        headers={"Authorization": f"Bearer {created['write_token']}"},
    )
    assert appended.status_code == 201  # its notice is gone: nobody listens yet
    started = time.monotonic()
    PostgresListener(postgres_url, feed).ensure_started()
    waiting.join(15)
    assert got and got[0] is not None, "the stream was not woken"
    assert time.monotonic() - started < 15


def test_a_tick_is_a_heartbeat_and_a_resync_a_reread() -> None:
    """One ticker per process wakes every waiting stream for its heartbeat (None); a resync asks
    it to read its table again (`after`); a new version wins over both."""
    feed = ChangeFeed()
    with feed.subscribe("t1") as changes:
        results = []
        for poke, expected in ((changes.tick, None), (changes.wake, 3), (lambda: changes.advance(5), 5)):
            waiting = threading.Thread(target=lambda: results.append(changes.wait_above(3, 10)), daemon=True)
            waiting.start()
            while waiting.is_alive():  # poked until it hears it (a poke before its wait is missed)
                poke()
                waiting.join(0.05)
            assert results.pop() == expected

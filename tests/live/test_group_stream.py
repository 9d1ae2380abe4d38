"""A group's live stream across two app servers on PostgreSQL (issue 25): a table of the group
finished or abandoned through one server reaches a bot streaming from the other through the same
LISTEN/NOTIFY the tables' streams use (no broker of our own), and a bot back with Last-Event-ID on
the other server hears what it missed; on SQLite one server wakes its own streams."""

from __future__ import annotations

from pathlib import Path

import pytest

from devtools.gunicorn import GunicornProcess
from tests.api.table_client import HttpClient
from tests.api.test_group_stream import abandon, group_with_open_table
from tests.conftest import TEST_LIMITS
from tests.live.sse import StreamReader

pytestmark = pytest.mark.gunicorn

# Heartbeats (which also re-read the statuses) 6 s apart and waits of 5 s: only the change feed
# (PostgreSQL's notices across servers, the process itself on SQLite) can bring a change in time.
SLOW_HEARTBEAT = {**TEST_LIMITS, "KIBITZ_STREAM_HEARTBEAT": "6"}


@pytest.mark.postgres
def test_a_group_stream_hears_the_other_server(postgres_url: str, tmp_path: Path) -> None:
    with (
        GunicornProcess(postgres_url, tmp_path / "a.log", env=SLOW_HEARTBEAT) as server_a,
        GunicornProcess(postgres_url, tmp_path / "b.log", env=SLOW_HEARTBEAT) as server_b,
    ):
        http_a = HttpClient(server_a.base)
        created, table, move = group_with_open_table(http_a)
        stream = StreamReader(f"{server_b.base}/api/groups/{created['id']}/stream")
        try:
            assert stream.status == 200 and stream.next()["kind"] == "listening"
            table.play(move)  # MA-8: the last move, on A (the table's log trigger notifies) …
            finished = stream.next(timeout=5)  # … reaches the bot streaming from B
            assert (finished["id"], finished["kind"]) == ("1f", "finished")
            assert finished["entry"]["table_id"] == table.id and finished["entry"]["winners"]
            abandon(http_a, created, table.id, True)  # the group's own notice, sent by A
            abandoned = stream.next(timeout=5)
            assert (abandoned["id"], abandoned["kind"]) == ("1a", "abandoned")
        finally:
            stream.close()

        server_b.kill9()
        abandon(http_a, created, table.id, False)  # while the bot is away
        resumed = StreamReader(f"{server_a.base}/api/groups/{created['id']}/stream", {"Last-Event-ID": "1a"})
        try:
            back = resumed.next()
            assert (back["id"], back["kind"], back["entry"]["status"]) == ("1f", "finished", "finished")
            table.undo()
            assert resumed.next(timeout=5)["kind"] == "reopened"
        finally:
            resumed.close()


def test_one_server_wakes_its_own_group_streams(sqlite_url: str, tmp_path: Path) -> None:
    env = {**SLOW_HEARTBEAT, "KIBITZ_WORKERS": "1"}
    with GunicornProcess(sqlite_url, tmp_path / "gunicorn.log", env=env) as server:
        http = HttpClient(server.base)
        created, table, move = group_with_open_table(http)
        stream = StreamReader(f"{server.base}/api/groups/{created['id']}/stream")
        try:
            assert stream.next()["kind"] == "listening"
            table.play(move)
            assert stream.next(timeout=5)["kind"] == "finished"
            abandon(http, created, table.id, True)
            assert stream.next(timeout=5)["kind"] == "abandoned"
            assert stream.heartbeats == 0  # woken by the change feed, not by a heartbeat's re-read
        finally:
            stream.close()

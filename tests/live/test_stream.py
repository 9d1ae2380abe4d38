"""Live push: Server-Sent Events of every new table version, on SQLite in one process and on
PostgreSQL across two app servers (fan-out through LISTEN/NOTIFY), resumable with Last-Event-ID."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from devtools.gunicorn import GunicornProcess
from tests.conftest import TEST_LIMITS
from tests.live.sse import StreamReader

pytestmark = pytest.mark.gunicorn

ONE_PROCESS = {**TEST_LIMITS, "KIBITZ_WORKERS": "1", "KIBITZ_STREAM_HEARTBEAT": "1"}
PLAYERS = [
    {"name": n, "colours": [c]}
    for n, c in (("Ann", "red"), ("Ben", "green"), ("Cy", "yellow"), ("Di", "darkblue"))
]


def _create(base: str) -> dict[str, Any]:
    body = {"game": "mahe", "players": PLAYERS, "options": {"chance": "physical"}}
    created = requests.post(f"{base}/api/tables", json=body, timeout=10)
    assert created.status_code == 201, created.text
    return dict(created.json())


def _append(base: str, table: dict[str, Any], version: int, event: dict[str, Any]) -> None:
    response = requests.post(
        f"{base}/api/tables/{table['id']}/events",
        json={"expected_version": version, "event": event},
        headers={"Authorization": f"Bearer {table['write_token']}"},
        timeout=10,
    )
    assert response.status_code == 201, response.text


MOVES = [{"type": "reveal_card", "value": 3}, {"type": "die", "value": 2}, {"type": "stop"}]


@pytest.fixture
def sqlite_server(sqlite_url: str, tmp_path: Path) -> Iterator[str]:
    with GunicornProcess(sqlite_url, tmp_path / "gunicorn.log", env=ONE_PROCESS) as server:
        yield server.base


def test_every_append_reaches_a_streaming_phone_on_sqlite(sqlite_server: str) -> None:
    table = _create(sqlite_server)
    stream = StreamReader(f"{sqlite_server}/api/tables/{table['id']}/stream")
    try:
        assert stream.status == 200
        assert stream.response.headers["Content-Type"].startswith("text/event-stream")
        first = stream.next()
        assert first["id"] == 0 and first["table"]["version"] == 0 and first["entries"] == []
        for version, move in enumerate(MOVES):
            _append(sqlite_server, table, version, move)
            got = stream.next()
            assert got["id"] == version + 1 and got["table"]["version"] == version + 1
            assert [e["seq"] for e in got["entries"]] == [version + 1]
            assert got["entries"][0]["event"] == move
        assert got["table"] == requests.get(f"{sqlite_server}/api/tables/{table['id']}", timeout=10).json()
    finally:
        stream.close()


def test_a_phone_back_with_last_event_id_gets_what_it_missed(sqlite_server: str) -> None:
    table = _create(sqlite_server)
    for version, move in enumerate(MOVES):
        _append(sqlite_server, table, version, move)
    stream = StreamReader(f"{sqlite_server}/api/tables/{table['id']}/stream", {"Last-Event-ID": "1"})
    try:
        got = stream.next()
        assert got["id"] == 3 and [e["seq"] for e in got["entries"]] == [2, 3]
        # Heartbeats keep the idle connection alive.
        stream.events.get  # noqa: B018 - the reader keeps counting heartbeats in the background
        with pytest.raises(Exception):  # noqa: B017,PT011 - nothing new: no event within two heartbeats
            stream.next(timeout=2.5)
        assert stream.heartbeats >= 1
    finally:
        stream.close()


def test_seat_streams_open_only_with_that_seats_token(sqlite_server: str) -> None:
    body = {
        "game": "magellan",
        "players": [{"name": n} for n in ("Ann", "Ben", "Cy")],
        "options": {"depth": "ledger"},
    }
    table = requests.post(f"{sqlite_server}/api/tables", json=body, timeout=10).json()
    url = f"{sqlite_server}/api/tables/{table['id']}/stream?seat=1"
    cases = {
        None: (401, "seat-token-required"),
        table["write_token"]: (403, "bad-seat-token"),
        table["seats"][0]["token"]: (403, "bad-seat-token"),
    }
    for token, (status, code) in cases.items():
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        refused = requests.get(url, headers=headers, timeout=10)
        assert refused.status_code == status and refused.json()["code"] == code
    own = StreamReader(url, {"Authorization": f"Bearer {table['seats'][1]['token']}"})
    try:
        assert own.status == 200
        assert own.next()["private"]["hand"] == list(range(1, 10))  # MG-3: the own money cards
    finally:
        own.close()
    public = StreamReader(f"{sqlite_server}/api/tables/{table['id']}/stream")
    try:
        assert public.next()["private"] is None
    finally:
        public.close()


def test_bad_stream_requests_are_problems(sqlite_server: str) -> None:
    missing = requests.get(f"{sqlite_server}/api/tables/AAAAAAAAAAAAAAAA/stream", timeout=10)
    assert missing.status_code == 404
    table = _create(sqlite_server)
    bad = requests.get(
        f"{sqlite_server}/api/tables/{table['id']}/stream", headers={"Last-Event-ID": "x"}, timeout=10
    )
    assert bad.status_code == 400 and bad.json()["code"] == "bad-last-event-id"


@pytest.mark.postgres
def test_two_app_servers_share_changes_and_a_phone_resumes_on_the_other(
    postgres_url: str, tmp_path: Path
) -> None:
    # Heartbeats (which also re-read the version) 6 s apart and waits of 5 s: only
    # PostgreSQL's notices (sent by the log's trigger) can bring a change to the phone.
    env = {**TEST_LIMITS, "KIBITZ_STREAM_HEARTBEAT": "6"}
    with (
        GunicornProcess(postgres_url, tmp_path / "a.log", env=env) as server_a,
        GunicornProcess(postgres_url, tmp_path / "b.log", env=env) as server_b,
    ):
        table = _create(server_a.base)
        stream = StreamReader(f"{server_b.base}/api/tables/{table['id']}/stream")
        assert stream.next()["id"] == 0
        _append(server_a.base, table, 0, MOVES[0])  # appended on A …
        got = stream.next(timeout=5)  # … reaches the phone streaming from B
        assert got["id"] == 1 and got["entries"][0]["event"] == MOVES[0]
        last_seen = got["id"]

        server_b.kill9()  # B dies while the phone is streaming from it
        assert stream.ended.wait(10)
        _append(server_a.base, table, 1, MOVES[1])
        _append(server_a.base, table, 2, MOVES[2])

        resumed = StreamReader(
            f"{server_a.base}/api/tables/{table['id']}/stream", {"Last-Event-ID": str(last_seen)}
        )
        try:
            got = resumed.next()
            assert got["id"] == 3
            assert [e["event"] for e in got["entries"]] == MOVES[1:]  # nothing missed
            _append(server_a.base, table, 3, {"type": "die", "value": 1})
            assert resumed.next(timeout=5)["id"] == 4
        finally:
            resumed.close()

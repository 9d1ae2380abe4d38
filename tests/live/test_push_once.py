"""A change is read and rendered once per process, not once per phone (issue 23).

Two hundred phones follow one table through a real HTTP server (threaded, in this process, so the
test can read the process's counters): each gets every change exactly once and in order, while the
process reads the table once and renders once per change. Appends never wait on the streams. And
whatever versions phones ask from, the shared message is the one a phone would get rendered for
itself (hypothesis, against the store's own reading of the log).
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
import requests
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.serving import make_server

from api.db.migrate import upgrade
from api.http.context import STORE_KEY
from api.http.stream import EDITIONS_KEY
from api.i18n import localize_notes
from api.push import editions
from api.push.editions import Editions
from api.tables.store import TableStore, require_game
from devtools.gunicorn import GunicornProcess
from tests.conftest import TEST_LIMITS, make_test_app
from tests.live.sse import StreamReader
from tests.live.test_stream import PLAYERS

# Every phone of these tests is on one address: the per-client caps (hostile/test_client_caps.py) off.
ONE_ADDRESS = {**TEST_LIMITS, "KIBITZ_CLIENT_STREAMS": "0", "KIBITZ_CLIENT_CONNECTIONS": "0"}
PHONES = 200


def run_apart(coroutine: Any) -> Any:
    """asyncio.run in a thread of its own: in the whole suite the browser tests' Playwright keeps an
    event loop running in the main thread, where asyncio.run refuses to start another."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


CHANGES = 6


def _create(base: str) -> dict[str, Any]:
    body = {"game": "mahe", "players": PLAYERS, "options": {"chance": "physical"}}
    created = requests.post(f"{base}/api/tables", json=body, timeout=10)
    assert created.status_code == 201, created.text
    return dict(created.json())


def _next_move(table: dict[str, Any]) -> dict[str, Any]:
    """A legal Mahé move whatever the phase: reveal a card, roll, stop when deciding."""
    phase = table["legal_actions"]["phase"]
    if phase == "reveal_card":
        return {"type": "reveal_card", "value": 3}
    return {"type": "stop"} if phase == "decide" else {"type": "die", "value": 1}


def _append(base: str, created: dict[str, Any], version: int, view: dict[str, Any]) -> requests.Response:
    return requests.post(
        f"{base}/api/tables/{created['id']}/events",
        json={"expected_version": version, "event": _next_move(view)},
        headers={"Authorization": f"Bearer {created['write_token']}"},
        timeout=30,
    )


@pytest.fixture
def served(db_url: str) -> Iterator[tuple[str, Flask]]:
    """The app behind a real threaded HTTP server; streams last a minute, heartbeats half of it."""
    app = make_test_app(
        db_url, KIBITZ_STREAM_LIFETIME=60.0, KIBITZ_STREAM_HEARTBEAT=30.0, KIBITZ_CLIENT_STREAMS=0
    )
    server = make_server("127.0.0.1", 0, app, threaded=True)
    server.daemon_threads = True  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", app
    finally:
        server.shutdown()


class Phone:
    """One phone's stream, read with asyncio: every `table` event as (id, entry seqs)."""

    def __init__(self) -> None:
        self.got: list[tuple[int, list[int]]] = []
        self.changed = asyncio.Event()

    async def follow(self, port: int, table_id: str) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=2**22)
        writer.write(f"GET /api/tables/{table_id}/stream HTTP/1.1\r\nHost: test\r\n\r\n".encode())
        await writer.drain()
        try:
            while line := await reader.readline():
                if line.startswith(b"data: "):
                    data = json.loads(line[6:])
                    self.got.append((data["version"], [e["seq"] for e in data["entries"]]))
                    self.changed.set()
        finally:
            writer.close()

    async def has(self, version: int) -> None:
        while not self.got or self.got[-1][0] < version:
            self.changed.clear()
            await self.changed.wait()


def _in_process(app: Flask) -> Callable[[], tuple[int, int]]:
    counters = app.extensions[EDITIONS_KEY].counters
    return lambda: (counters.reads, counters.renders)


def _from_health(base: str) -> tuple[int, int]:
    """(reads, renders) of the live streams, as the server's health answer says them."""
    figures = requests.get(f"{base}/api/health", timeout=10).json()["streams"]
    return figures["reads"], figures["renders"]


async def _crowd(
    base: str, costs_now: Callable[[], tuple[int, int]]
) -> tuple[list[Phone], list[tuple[int, int]]]:
    """PHONES phones on one table, CHANGES appends one after the other (each once every phone has
    the one before); what each phone got, and the process's (reads, renders) for each change."""
    created = _create(base)
    port = int(base.rsplit(":", 1)[1])
    phones = [Phone() for _ in range(PHONES)]
    streams = [asyncio.create_task(p.follow(port, created["id"])) for p in phones]
    costs = []
    view = created["table"]
    loop = asyncio.get_running_loop()
    try:
        await asyncio.wait_for(asyncio.gather(*(p.has(0) for p in phones)), 60)
        # On PostgreSQL the change listener may start after the first streams and wake them all to
        # read once more (notices may have gone by meanwhile): let that settle before counting.
        settled = await loop.run_in_executor(None, costs_now)
        for _ in range(20):
            await asyncio.sleep(0.5)
            now = await loop.run_in_executor(None, costs_now)
            if now == settled:
                break
            settled = now
        for version in range(CHANGES):
            reads, renders = await loop.run_in_executor(None, costs_now)
            answer = await loop.run_in_executor(None, _append, base, created, version, view)
            assert answer.status_code == 201, answer.text
            view = answer.json()["table"]
            await asyncio.wait_for(asyncio.gather(*(p.has(version + 1) for p in phones)), 60)
            reads_after, renders_after = await loop.run_in_executor(None, costs_now)
            costs.append((reads_after - reads, renders_after - renders))
    finally:
        for stream in streams:
            stream.cancel()
        await asyncio.gather(*streams, return_exceptions=True)
    return phones, costs


@pytest.mark.gunicorn  # a real server and many connections: with the slower, serving tests
def test_two_hundred_phones_get_each_change_once_in_order_from_one_read_and_one_render(
    served: tuple[str, Flask],
) -> None:
    base, app = served
    phones, costs = run_apart(_crowd(base, _in_process(app)))
    expected = [(0, [])] + [(v, [v]) for v in range(1, CHANGES + 1)]
    assert all(p.got == expected for p in phones), "a phone missed, doubled or reordered a change"
    # Each change: one read of the table and its new entry, one render, for all 200 streams.
    assert costs == [(1, 1)] * CHANGES


@pytest.fixture
def gunicorn_server(db_url: str, tmp_path: Path) -> Iterator[str]:
    """The app under real gunicorn (gevent: the press writes to the streams); heartbeats 30 s."""
    env = {**ONE_ADDRESS, "KIBITZ_STREAM_HEARTBEAT": "30"}
    with GunicornProcess(db_url, tmp_path / "gunicorn.log", env=env) as server:
        yield server.base


@pytest.mark.gunicorn
def test_under_gunicorn_the_press_writes_each_change_once_to_two_hundred_phones(gunicorn_server: str) -> None:
    phones, costs = run_apart(_crowd(gunicorn_server, lambda: _from_health(gunicorn_server)))
    expected = [(0, [])] + [(v, [v]) for v in range(1, CHANGES + 1)]
    assert all(p.got == expected for p in phones), "a phone missed, doubled or reordered a change"
    assert costs == [(1, 1)] * CHANGES


def _chunked_events(raw: bytes) -> list[dict[str, Any]]:
    """The `table` events of an HTTP/1.1 chunked SSE response, decoding the chunks strictly."""
    head, _, body = raw.partition(b"\r\n\r\n")
    assert b"transfer-encoding: chunked" in head.lower()
    data = b""
    while body:
        size, _, body = body.partition(b"\r\n")
        length = int(size, 16)
        assert body[length : length + 2] == b"\r\n", "broken chunk framing"
        data, body = data + body[:length], body[length + 2 :]
    events = []
    for block in data.split(b"\n\n"):
        for line in block.split(b"\n"):
            if line.startswith(b"data: "):
                events.append(json.loads(line[6:]))
    return events


@pytest.mark.gunicorn
@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_a_slow_reader_is_handed_back_and_skips_ahead_with_every_entry_once(gunicorn_server: str) -> None:
    """A phone that stops reading (its socket full) is handed back by the press with the rest of
    the event it was taking: once it reads again it gets every entry exactly once, in order, in
    fewer events than changes, and the chunks on the wire are intact."""
    base = gunicorn_server
    created = _create(base)
    slow = socket.socket()
    slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    slow.connect(("127.0.0.1", int(base.rsplit(":", 1)[1])))
    slow.sendall(f"GET /api/tables/{created['id']}/stream HTTP/1.1\r\nHost: test\r\n\r\n".encode())
    view, version = created["table"], 0
    while _from_health(base)[1] == 0:  # its first event rendered: it is following
        pass
    while requests.get(f"{base}/api/health", timeout=10).json()["streams"]["handed_back"] == 0:
        answer = _append(base, created, version, view)
        assert answer.status_code == 201
        view, version = answer.json()["table"], version + 1
        assert version < 2000, "the socket never filled up"
    for _ in range(3):  # changes while it is behind: it gets them in one event
        answer = _append(base, created, version, view)
        assert answer.status_code == 201
        view, version = answer.json()["table"], version + 1
    slow.settimeout(5)
    raw = b""
    events: list[dict[str, Any]] = []
    while not events or events[-1]["version"] < version:
        raw += slow.recv(1 << 20)
        try:
            events = _chunked_events(raw)
        except (AssertionError, ValueError):  # a chunk not complete yet
            continue
    slow.close()
    seqs = [e["seq"] for event in events for e in event["entries"]]
    assert seqs == list(range(1, version + 1))  # every entry once, in order
    assert len(events) < version + 1  # it skipped ahead instead of queueing every version


@pytest.mark.gunicorn
def test_an_append_does_not_wait_for_the_streams(served: tuple[str, Flask]) -> None:
    """While the streams' render of a change is held up, the next appends still go through."""
    base, _app = served
    created = _create(base)
    stream = requests.get(f"{base}/api/tables/{created['id']}/stream", stream=True, timeout=(5, 30))
    lines = stream.iter_lines()
    assert next(line for line in lines if line.startswith(b"id:")) == b"id: 0"
    held, rendering = threading.Event(), threading.Event()
    real_render = editions.render

    def slow_render(*args: Any) -> bytes:
        rendering.set()
        assert held.wait(30)
        return real_render(*args)

    try:
        with mock.patch.object(editions, "render", slow_render):
            first = _append(base, created, 0, created["table"])
            assert first.status_code == 201
            assert rendering.wait(10), "the stream did not start rendering the change"
            # The stream is stuck in its render: appends go on regardless.
            view = first.json()["table"]
            for version in (1, 2):
                answer = _append(base, created, version, view)
                assert answer.status_code == 201
                view = answer.json()["table"]
            assert not held.is_set()
            held.set()
        # Once it can, the stream sends the change it had read, then skips to the newest version.
        ids = (line for line in lines if line.startswith(b"id:"))
        assert (next(ids), next(ids)) == (b"id: 1", b"id: 3")
    finally:
        held.set()
        stream.close()


@pytest.fixture(scope="module")
def one_app(tmp_path_factory: pytest.TempPathFactory) -> Flask:
    url = f"sqlite:///{tmp_path_factory.mktemp('editions') / 'kibitz.sqlite3'}"
    upgrade(url)
    return make_test_app(url)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    steps=st.lists(
        st.one_of(
            st.tuples(st.just("append"), st.sampled_from(["move", "undo"])),
            st.tuples(
                st.just("ask"), st.integers(-1, 14), st.sampled_from(["en", "de"]), st.sampled_from([None, 1])
            ),
        ),
        max_size=30,
    ),
    kept=st.integers(1, 4),
)
def test_a_shared_message_is_what_the_phone_would_get_on_its_own(
    one_app: Flask, steps: list[tuple[Any, ...]], kept: int
) -> None:
    """However far behind phones are (further than the entries kept, or ahead of the table), the
    message they share is byte for byte the one rendered for them alone from the store's log."""
    client = one_app.test_client()
    created = client.post(
        "/api/tables", json={"game": "mahe", "players": PLAYERS, "options": {"chance": "physical"}}
    ).get_json()
    tables: TableStore = one_app.extensions[STORE_KEY]
    edition_of = Editions(tables)
    version, view = 0, created["table"]
    with mock.patch.object(editions, "ENTRIES_KEPT", kept), edition_of.follow(created["id"]) as edition:
        for step in steps:
            if step[0] == "append":
                event = {"type": "undo"} if step[1] == "undo" and version else _next_move(view)
                answer = client.post(
                    f"/api/tables/{created['id']}/events",
                    json={"expected_version": version, "event": event},
                    headers={"Authorization": f"Bearer {created['write_token']}"},
                )
                if answer.status_code == 201:
                    version, view = version + 1, answer.get_json()["table"]
                continue
            _, since, language, seat = step
            since = None if since < 0 else since
            got_version, body = edition.message(since, version, language, seat)
            assert got_version == version
            if since == version:
                assert body is None
                continue
            table, entries = tables.entries_after(created["id"], since if since is not None else version)
            private = None
            if seat is not None:
                game = require_game(table.game)
                private = localize_notes(game.private_view(game.load(table.state), seat), language)
            assert body == editions.render(table, entries if since is not None else [], private, language)


@pytest.mark.gunicorn
def test_each_seat_and_language_gets_its_own_render_shared_by_its_streams(
    sqlite_url: str, tmp_path: Path
) -> None:
    """Private seat views differ (MG-3: a seat's own money cards): the press renders a change once
    per (seat, language) group, and every stream of a group gets that group's bytes."""
    # Heartbeats each second: the readers' threads end soon after they are closed.
    env = {**ONE_ADDRESS, "KIBITZ_STREAM_HEARTBEAT": "1"}
    with GunicornProcess(sqlite_url, tmp_path / "gunicorn.log", env=env) as server:
        _seat_streams(server.base)


def _seat_streams(base: str) -> None:
    body = {
        "game": "magellan",
        "players": [{"name": n} for n in ("Ann", "Ben", "Cy")],
        "options": {"depth": "ledger"},
    }
    table = requests.post(f"{base}/api/tables", json=body, timeout=10).json()
    url = f"{base}/api/tables/{table['id']}/stream"

    def seat(n: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {table['seats'][n]['token']}"}

    streams = {
        "seat 0": StreamReader(f"{url}?seat=0", seat(0)),
        "seat 0 again": StreamReader(f"{url}?seat=0", seat(0)),
        "seat 0 in German": StreamReader(f"{url}?seat=0&lang=de", seat(0)),
        "seat 1": StreamReader(f"{url}?seat=1", seat(1)),
        "public": StreamReader(url),
    }
    try:
        assert all(s.next()["id"] == 0 for s in streams.values())
        _reads, renders = _from_health(base)
        appended = requests.post(
            f"{base}/api/tables/{table['id']}/events",
            json={"expected_version": 0, "event": {"type": "reveal", "explorer": "columbus"}},
            headers={"Authorization": f"Bearer {table['write_token']}"},
            timeout=10,
        )
        assert appended.status_code == 201, appended.text
        got = {name: s.next() for name, s in streams.items()}
        assert {g["id"] for g in got.values()} == {1}
        for name, n, language in (("seat 0", 0, "en"), ("seat 0 in German", 0, "de"), ("seat 1", 1, "en")):
            own = requests.get(
                f"{base}/api/tables/{table['id']}/seats/{n}",
                headers={**seat(n), "Accept-Language": language},
                timeout=10,
            ).json()["view"]
            assert got[name]["private"] == own
        assert got["seat 0 again"] == got["seat 0"]
        assert got["seat 0"]["private"] != got["seat 1"]["private"]
        assert got["public"]["private"] is None
        assert _from_health(base)[1] - renders == 4  # four groups, five streams
    finally:
        for stream in streams.values():
            stream.close()


@pytest.mark.gunicorn
def test_a_stream_the_press_holds_ends_cleanly_when_its_time_is_up(sqlite_url: str, tmp_path: Path) -> None:
    """At the end of its lifetime the press hands the stream back to end it: the response closes
    with its last chunk, after the changes and heartbeats it was given (the phone reconnects)."""
    env = {**ONE_ADDRESS, "KIBITZ_STREAM_HEARTBEAT": "1", "KIBITZ_STREAM_LIFETIME": "3"}
    with GunicornProcess(sqlite_url, tmp_path / "gunicorn.log", env=env) as server:
        created = _create(server.base)
        with socket.create_connection(("127.0.0.1", server.port), timeout=20) as phone:
            phone.sendall(f"GET /api/tables/{created['id']}/stream HTTP/1.1\r\nHost: test\r\n\r\n".encode())
            raw = b""
            while b"id: 0" not in raw:  # following the table at version 0
                raw += phone.recv(1 << 16)
            assert _append(server.base, created, 0, created["table"]).status_code == 201
            while not raw.endswith(b"\r\n0\r\n\r\n"):  # the last chunk
                more = phone.recv(1 << 16)
                assert more, "the connection closed without the last chunk"
                raw += more
    assert [event["version"] for event in _chunked_events(raw)] == [0, 1]
    assert b": heartbeat" in raw

"""Issue 22, item 4: one client cannot stop the service. On a real gunicorn in its default
configuration (one gevent worker, worker_connections 5,000), from loopback only:

* 5,000 idle live streams from one client: the per-client caps (connections, streams) refuse the
  excess at once with 429 and Retry-After, and another client's health and appends answer within 1 s;
* a body trickled byte by byte gets 408 and its connection is closed, and health stays quick;
* POST /api/verify: 413 over its size, 429 over its rate, and four clients looping on it with large
  records do not hold up another client's health.
"""

from __future__ import annotations

import contextlib
import json
import resource
import socket
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from devtools.gunicorn import GunicornProcess
from tests.conftest import TEST_LIMITS, unavailable
from tests.hostile.clients import session_from

pytestmark = pytest.mark.gunicorn

FOUR = [
    {"name": n, "colours": [c]} for n, c in (("A", "red"), ("B", "green"), ("C", "yellow"), ("D", "purple"))
]
FLOOD = 5_000
STREAM_CAP = 100  # KIBITZ_CLIENT_STREAMS, the default
CONNECTION_CAP = 200  # KIBITZ_CLIENT_CONNECTIONS, the default


@pytest.fixture
def server(sqlite_url: str, tmp_path: Path) -> Iterator[GunicornProcess]:
    with GunicornProcess(sqlite_url, tmp_path / "gunicorn.log", env=TEST_LIMITS) as running:
        yield running


def _timed(call: Any) -> tuple[Any, float]:
    started = time.monotonic()
    answer = call()
    return answer, time.monotonic() - started


def _other_client_is_served(base: str, other: requests.Session) -> None:
    """Health and an append from another address, each within 1 s (the issue's yardstick)."""
    created = other.post(f"{base}/api/tables", json={"game": "mahe", "players": FOUR}, timeout=5).json()
    health, health_seconds = _timed(lambda: other.get(f"{base}/api/health", timeout=5))
    append, append_seconds = _timed(
        lambda: other.post(
            f"{base}/api/tables/{created['id']}/events",
            json={"expected_version": 0, "event": {"type": "reveal_card", "value": 2}},
            headers={"Authorization": f"Bearer {created['write_token']}"},
            timeout=5,
        )
    )
    assert health.status_code == 200 and append.status_code == 201
    assert health_seconds < 1.0 and append_seconds < 1.0, (health_seconds, append_seconds)


def _status(conn: socket.socket) -> bytes:
    """The status code a connection was answered with (b"" if none came within 10 s)."""
    parts = _status_line(conn).split(b" ")
    return parts[1] if len(parts) > 1 else b""


def _status_line(conn: socket.socket) -> bytes:
    conn.settimeout(10)
    data = b""
    try:
        while b"\r\n" not in data:
            chunk = conn.recv(4096)
            if not chunk:
                break
            data += chunk
    except (TimeoutError, ConnectionResetError):
        pass
    return data.split(b"\r\n", 1)[0]


def _files_for_the_flood() -> None:
    """5,000 sockets here and as many briefly in the server: raise the soft limit on open files (the
    server inherits it) up to the hard one."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = FLOOD + 1_000
    if hard != resource.RLIM_INFINITY and hard < wanted:
        unavailable(f"the flood needs {wanted} open files; the hard limit is {hard}")
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def test_five_thousand_idle_streams_from_one_client_leave_others_served(
    sqlite_url: str, tmp_path: Path
) -> None:
    _files_for_the_flood()
    with GunicornProcess(sqlite_url, tmp_path / "gunicorn.log", env=TEST_LIMITS) as running:
        _flood_of_streams(running)


def _flood_of_streams(server: GunicornProcess) -> None:
    other = session_from("127.0.0.2")
    table = other.post(f"{server.base}/api/tables", json={"game": "mahe", "players": FOUR}, timeout=5).json()
    ask = f"GET /api/tables/{table['id']}/stream HTTP/1.1\r\nHost: phone\r\n\r\n".encode()
    held: list[socket.socket] = []
    try:
        for _ in range(FLOOD):  # one client, 5,000 live streams it never reads
            conn = socket.create_connection(("127.0.0.1", server.port), timeout=10)
            conn.sendall(ask)
            held.append(conn)
        _other_client_is_served(server.base, other)
        statuses = Counter(_status(conn) for conn in held)
    finally:
        for conn in held:
            conn.close()
    # Exactly the cap's worth of streams is open; everything beyond it was refused with 429 at once
    # (the stream cap in the app, the connection cap in the worker) — none hangs unanswered.
    assert statuses[b"200"] == STREAM_CAP, statuses
    assert statuses[b"429"] == FLOOD - STREAM_CAP, statuses
    # The service is still there for everyone once the flood is gone.
    _other_client_is_served(server.base, session_from("127.0.0.1"))


def test_the_refusals_say_why_and_when_to_retry(server: GunicornProcess) -> None:
    table = requests.post(
        f"{server.base}/api/tables", json={"game": "mahe", "players": FOUR}, timeout=5
    ).json()
    url = f"{server.base}/api/tables/{table['id']}/stream"
    streams = [requests.get(url, stream=True, timeout=10) for _ in range(STREAM_CAP)]
    try:
        assert all(s.status_code == 200 for s in streams)
        refused = requests.get(url, stream=True, timeout=10)
        assert refused.status_code == 429 and refused.json()["code"] == "too-many-streams"
        assert int(refused.headers["Retry-After"]) >= 1
        idle = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(CONNECTION_CAP)]
        try:
            line, headers, body = _read_all(("127.0.0.1", server.port), b"GET /api/health HTTP/1.1\r\n\r\n")
            assert line.startswith(b"HTTP/1.1 429"), line
            assert json.loads(body)["code"] == "too-many-connections"
            assert int(headers["retry-after"]) >= 1
        finally:
            for conn in idle:
                conn.close()
    finally:
        for stream in streams:
            stream.close()
    # Closed streams give their slots back.
    assert _eventually(lambda: requests.get(url, stream=True, timeout=10).status_code == 200)


def _eventually(check: Any, seconds: float = 30) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.5)
    return False


def _read_all(address: tuple[str, int], request: bytes) -> tuple[bytes, dict[str, str], bytes]:
    with socket.create_connection(address, timeout=10) as conn:
        conn.sendall(request)
        data = b""
        try:
            while chunk := conn.recv(65536):
                data += chunk
        except ConnectionResetError:
            pass
    head, _, body = data.partition(b"\r\n\r\n")
    line, *lines = head.split(b"\r\n")
    headers = {k.decode().lower(): v.decode().strip() for k, _, v in (h.partition(b":") for h in lines)}
    return line, headers, body


def test_a_slow_body_gets_408_its_connection_closed_and_health_stays_quick(
    sqlite_url: str, tmp_path: Path
) -> None:
    env = {**TEST_LIMITS, "KIBITZ_BODY_TIMEOUT": "2"}
    with GunicornProcess(sqlite_url, tmp_path / "gunicorn.log", env=env) as running:
        slow: list[socket.socket] = []
        try:
            for n in range(150):  # sized and chunked bodies, one byte at a time
                conn = socket.create_connection(("127.0.0.1", running.port), timeout=10)
                framing = b"Content-Length: 1000" if n % 2 else b"Transfer-Encoding: chunked"
                conn.sendall(b"POST /api/verify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n")
                conn.sendall(framing + b"\r\n\r\n" + (b"{" if n % 2 else b"1\r\n{\r\n"))
                slow.append(conn)
            other = session_from("127.0.0.2")
            health, seconds = _timed(lambda: other.get(f"{running.base}/api/health", timeout=5))
            assert health.status_code == 200 and seconds < 1.0, seconds
            for _ in range(3):  # keep trickling: one more byte a second, never the whole body
                time.sleep(1)
                for n, conn in enumerate(slow):
                    with contextlib.suppress(OSError):  # already answered and closed
                        conn.sendall(b" " if n % 2 else b"1\r\n \r\n")
            for conn in slow:
                conn.settimeout(10)
                data = b""
                try:
                    while chunk := conn.recv(65536):
                        data += chunk
                except ConnectionResetError:
                    pass
                # 408 with a problem body, then the server closed the connection (recv returned b"").
                head, _, body = data.partition(b"\r\n\r\n")
                assert head.startswith(b"HTTP/1.1 408"), data[:200]
                assert b"connection: close" in head.lower()
                assert json.loads(body)["code"] == "request-timeout"
            health, seconds = _timed(lambda: other.get(f"{running.base}/api/health", timeout=5))
            assert health.status_code == 200 and seconds < 1.0, seconds
        finally:
            for conn in slow:
                conn.close()


def test_a_client_that_waits_for_100_continue_is_served(server: GunicornProcess) -> None:
    """Bodies are read ahead of the app: a client that sends its body only after `100 Continue`
    (curl does for bodies over 1 KB) hears it first, and is then served as usual."""
    body = json.dumps({"game": "mahe", "players": FOUR}).encode()
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
        conn.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Expect: 100-continue\r\nConnection: close\r\nContent-Length: %d\r\n\r\n" % len(body)
        )
        assert conn.recv(64).startswith(b"HTTP/1.1 100 Continue\r\n\r\n")
        conn.sendall(body)
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 201"), answer[:200]
    assert answer.count(b"100 Continue") == 0  # said once, not again by gunicorn


def heavy_record(max_bytes: int) -> dict[str, Any]:
    """A Mhing record of as many scored rounds as fit in `max_bytes`: every round's hand is analysed
    again on replay (the costliest record per byte we know of)."""
    hand = {"hidden": "b1 b1 b1 c4 c5 c6 k7 k8 k9 b6 b7 b8 c1 c1"}
    events: list[dict[str, Any]] = []
    record = {
        "format": "kibitz-record/1",
        "game": "mhing",
        "players": [{"name": n} for n in "ABCD"],
        "options": {},
        "seed": 1,
        "events": events,
        "result": None,
    }
    rounds = [
        {"seq": n + 1, "event": {"type": "round_won", "winner": n % 4, "hand": hand}} for n in range(10_000)
    ]
    sizes = [len(json.dumps(entry)) + 2 for entry in rounds]  # each with its ", " in the list
    room = max_bytes - len(json.dumps(record))
    while sizes and room >= sizes[len(events)]:
        room -= sizes[len(events)]
        events.append(rounds[len(events)])
    return record


def test_verify_refuses_oversize_records_and_too_many_verifications(sqlite_url: str, tmp_path: Path) -> None:
    env = {**TEST_LIMITS, "KIBITZ_VERIFY_LIMIT": "3 per minute"}
    with GunicornProcess(sqlite_url, tmp_path / "gunicorn.log", env=env) as running:
        url = f"{running.base}/api/verify"
        huge = requests.post(url, data=json.dumps(heavy_record(200 * 1024)), headers=_JSON, timeout=10)
        assert huge.status_code == 413 and huge.json()["code"] == "record-too-large"
        small = heavy_record(8 * 1024)
        statuses = [requests.post(url, json=small, timeout=10).status_code for _ in range(5)]
        assert statuses == [200, 200, 200, 429, 429]
        refused = requests.post(url, json=small, timeout=10)
        assert refused.json()["code"] == "too-many-requests" and int(refused.headers["Retry-After"]) >= 1
        # Another client has its own budget.
        assert session_from("127.0.0.2").post(url, json=small, timeout=10).status_code == 200


_JSON = {"Content-Type": "application/json"}


def test_four_clients_looping_on_verify_do_not_hold_up_health(sqlite_url: str, tmp_path: Path) -> None:
    """The issue's case: four clients verify large records as fast as they can (no rate limit here,
    to load the verifier fully); another client's health requests all answer within 1 s."""
    env = {**TEST_LIMITS, "KIBITZ_VERIFY_LIMIT": "100000 per minute"}
    record = json.dumps(heavy_record(120 * 1024))
    with GunicornProcess(sqlite_url, tmp_path / "gunicorn.log", env=env) as running:
        stop = threading.Event()
        verified: Counter[int] = Counter()

        def loop(n: int) -> None:
            with session_from(f"127.0.1.{n}") as own:
                while not stop.is_set():
                    verified[
                        own.post(
                            f"{running.base}/api/verify", data=record, headers=_JSON, timeout=30
                        ).status_code
                    ] += 1

        loopers = [threading.Thread(target=loop, args=(n,)) for n in range(1, 5)]
        for looper in loopers:
            looper.start()
        try:
            time.sleep(1)
            other = session_from("127.0.0.2")
            waits = []
            for _ in range(20):
                health, seconds = _timed(lambda: other.get(f"{running.base}/api/health", timeout=10))
                assert health.status_code == 200
                waits.append(seconds)
                time.sleep(0.1)
        finally:
            stop.set()
            for looper in loopers:
                looper.join(timeout=60)
    assert verified[200] >= 4, verified  # the verifier did work meanwhile
    assert set(verified) <= {200, 429}, verified  # 429 `verifier-busy` only
    assert max(waits) < 1.0, sorted(waits)

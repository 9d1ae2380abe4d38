"""Hostile clients against a real gunicorn in its default configuration (gunicorn.conf.py): slow and
stalled connections cannot exhaust the service, a path cannot forge access-log lines, oversize
chunked bodies get 413, gunicorn's own refusals carry our headers, SQLite commits durably."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
import sqlalchemy as sa

from api.db.engine import make_engine
from devtools.gunicorn import GunicornProcess
from tests.conftest import TEST_LIMITS
from tests.hostile.clients import session_from

pytestmark = pytest.mark.gunicorn

FOUR = [
    {"name": n, "colours": [c]} for n, c in (("A", "red"), ("B", "green"), ("C", "yellow"), ("D", "purple"))
]
SLOW_CONNECTIONS = 200


@pytest.fixture
def server(sqlite_url: str, tmp_path: Path) -> Iterator[GunicornProcess]:
    with GunicornProcess(sqlite_url, tmp_path / "gunicorn.log", env=TEST_LIMITS) as running:
        yield running


def _slow_connections(port: int, count: int) -> list[socket.socket]:
    """Half of them trickle headers and stop, half send headers and half a body and stop."""
    held = []
    for n in range(count):
        conn = socket.create_connection(("127.0.0.1", port))
        if n % 2:
            conn.sendall(b"GET /api/health HTTP/1.1\r\nHost: phone\r\nX-Slow: ")
        else:
            conn.sendall(
                b"POST /api/tables HTTP/1.1\r\nHost: phone\r\nContent-Type: application/json\r\n"
                b'Content-Length: 1000\r\n\r\n{"game": "ma'
            )
        held.append(conn)
    return held


def _still_answers(base: str) -> None:
    """Another client (its own address: the stalled ones are capped per address) is served at once."""
    other = session_from("127.0.0.2")
    table = other.post(f"{base}/api/tables", json={"game": "mahe", "players": FOUR, "options": {}}, timeout=5)
    assert table.status_code == 201
    created: dict[str, Any] = table.json()
    started = time.monotonic()
    health = other.get(f"{base}/api/health", timeout=5)
    health_seconds = time.monotonic() - started
    started = time.monotonic()
    append = other.post(
        f"{base}/api/tables/{created['id']}/events",
        json={"expected_version": 0, "event": {"type": "reveal_card", "value": 2}},
        headers={"Authorization": f"Bearer {created['write_token']}"},
        timeout=5,
    )
    append_seconds = time.monotonic() - started
    assert health.status_code == 200 and append.status_code == 201
    # The issue's own yardstick: both answer within a second while the slow clients hang on.
    assert health_seconds < 1.0 and append_seconds < 1.0, (health_seconds, append_seconds)


def _answers_while_stalled(server: GunicornProcess) -> None:
    held = _slow_connections(server.port, SLOW_CONNECTIONS)
    try:
        time.sleep(0.5)
        _still_answers(server.base)
    finally:
        for conn in held:
            conn.close()


def test_two_hundred_stalled_clients_do_not_block_health_or_appends(server: GunicornProcess) -> None:
    _answers_while_stalled(server)


@pytest.mark.postgres
def test_stalled_clients_on_postgresql(postgres_url: str, tmp_path: Path) -> None:
    """The gevent worker with the PostgreSQL driver (psycopg cooperates once `select` is patched)."""
    with GunicornProcess(postgres_url, tmp_path / "gunicorn.log", env=TEST_LIMITS) as running:
        _answers_while_stalled(running)


def test_a_path_cannot_forge_access_log_lines(server: GunicornProcess) -> None:
    requests.get(f"{server.base}/api/health%0aFORGED%20200%0d%0aALSO", timeout=5)
    time.sleep(0.3)
    lines = server.log_path.read_text(errors="replace").splitlines()
    assert not any(line.startswith(("FORGED", "ALSO")) for line in lines)
    assert any("/api/health\\nFORGED 200\\r\\nALSO" in line for line in lines)


def test_an_oversize_chunked_body_is_413_and_a_small_one_works(server: GunicornProcess) -> None:
    def chunks(total_kib: int) -> Iterator[bytes]:
        for _ in range(total_kib):
            yield b" " * 1024

    big = requests.post(
        f"{server.base}/api/tables",
        data=chunks(300),
        headers={"Content-Type": "application/json"},
        timeout=10,
    )
    assert big.status_code == 413 and big.json()["code"] == "request-too-large"
    body = json.dumps({"game": "mahe", "players": FOUR, "options": {}}).encode()
    small = requests.post(
        f"{server.base}/api/tables",
        data=iter([body[:10], body[10:]]),
        headers={"Content-Type": "application/json"},
        timeout=10,
    )
    assert small.status_code == 201


def _raw(port: int, request: bytes) -> tuple[str, dict[str, str], bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
        conn.sendall(request)
        data = b""
        try:
            while chunk := conn.recv(65536):
                data += chunk
        except ConnectionResetError:  # the server closes without reading the rest of a refused request
            pass
    head, _, body = data.partition(b"\r\n\r\n")
    status, *lines = head.decode("latin-1").split("\r\n")
    return status, {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines)}, body


@pytest.mark.parametrize(
    ("request_bytes", "status", "code"),
    [
        (b"NOT A REQUEST\r\n\r\n", 400, "bad-request"),
        (b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414, "uri-too-long"),
        (b"GET / HTTP/1.1\r\n" + b"".join(b"X-%d: y\r\n" % n for n in range(120)) + b"\r\n", 431, None),
    ],
)
def test_gunicorns_own_refusals_carry_the_security_headers(
    server: GunicornProcess, request_bytes: bytes, status: int, code: str | None
) -> None:
    line, headers, body = _raw(server.port, request_bytes)
    assert line.split()[1] == str(status)
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["x-frame-options"] == "DENY"
    assert headers["referrer-policy"] == "no-referrer"
    assert "default-src 'self'" in headers["content-security-policy"]
    assert headers["content-type"] == "application/problem+json"
    problem = json.loads(body)
    assert problem["status"] == status and (code is None or problem["code"] == code)


def test_sqlite_commits_are_durable(sqlite_url: str) -> None:
    """synchronous=FULL in WAL mode: an acknowledged append survives a power loss, not just a crash."""
    engine = make_engine(sqlite_url)
    with engine.connect() as conn:
        assert conn.execute(sa.text("PRAGMA synchronous")).scalar_one() == 2  # FULL
        assert conn.execute(sa.text("PRAGMA journal_mode")).scalar_one() == "wal"
    engine.dispose()

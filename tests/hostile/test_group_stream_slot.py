"""Issue 31, hole 7: a closed group stream frees its client's stream slot at once, on a real
gunicorn (gevent worker). With one stream allowed per address (KIBITZ_CLIENT_STREAMS=1) a phone
that drops its stream and reconnects straight away — five times in a row, with `Last-Event-ID` —
is answered 200 each time, not 429 for its own dead stream (the server used to notice the close
only when the next heartbeat, up to 15 s later, failed to write). A second live stream from the
same address is still refused: the cap holds."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from devtools.gunicorn import GunicornProcess
from tests.conftest import TEST_LIMITS

pytestmark = pytest.mark.gunicorn


@pytest.fixture
def server(sqlite_url: str, tmp_path: Path) -> Iterator[GunicornProcess]:
    env = {**TEST_LIMITS, "KIBITZ_CLIENT_STREAMS": "1", "KIBITZ_STREAM_HEARTBEAT": "15"}
    with GunicornProcess(sqlite_url, tmp_path / "gunicorn.log", env=env) as running:
        yield running


def open_stream(port: int, group_id: str, last: str | None) -> tuple[socket.socket, bytes]:
    """A raw stream request; the connection and what came back first (status line and headers)."""
    conn = socket.create_connection(("127.0.0.1", port), timeout=10)
    extra = f"Last-Event-ID: {last}\r\n" if last else ""
    request = f"GET /api/groups/{group_id}/stream HTTP/1.1\r\nHost: x\r\n{extra}\r\n"
    conn.sendall(request.encode())
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(4096)
        if not chunk:
            break
        data += chunk
    return conn, data


def test_a_dropped_stream_frees_its_slot_at_once(server: GunicornProcess) -> None:
    created = requests.post(f"{server.base}/api/groups", json={"name": "Club", "players": []}, timeout=5)
    group_id = created.json()["id"]
    conn, head = open_stream(server.port, group_id, None)
    assert head.startswith(b"HTTP/1.1 200"), head
    second, refused = open_stream(server.port, group_id, "0")
    assert refused.startswith(b"HTTP/1.1 429"), refused  # the cap: one live stream per address
    second.close()
    for _ in range(5):
        conn.close()  # the phone loses its connection
        started = time.monotonic()
        while True:
            conn, head = open_stream(server.port, group_id, "0")
            if head.startswith(b"HTTP/1.1 200") or time.monotonic() - started > 3:
                break
            conn.close()
            time.sleep(0.05)
        assert head.startswith(b"HTTP/1.1 200"), head
        assert time.monotonic() - started < 1.0  # well before any heartbeat
    conn.close()

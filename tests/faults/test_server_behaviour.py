"""Through a real gunicorn: write tokens never reach the log, and slow clients stall nobody else."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
import requests

from devtools.gunicorn import GunicornProcess
from tests.api.table_client import four_players
from tests.conftest import TEST_LIMITS

pytestmark = pytest.mark.gunicorn


def test_write_tokens_are_never_logged(sqlite_url: str, tmp_path: Path) -> None:
    log_path = tmp_path / "gunicorn.log"
    server = GunicornProcess(sqlite_url, log_path, env=TEST_LIMITS).start()
    try:
        created = requests.post(f"{server.base}/api/tables", json=four_players(), timeout=5).json()
        token = created["write_token"]
        url = f"{server.base}/api/tables/{created['id']}/events"
        body = {"expected_version": 0, "event": {"type": "reveal_card", "value": 3}}
        requests.post(url, json=body, headers={"Authorization": f"Bearer {token}"}, timeout=5)
        requests.post(url, json=body, headers={"Authorization": "Bearer wrong-guess-123"}, timeout=5)
        requests.get(f"{server.base}/api/tables/{created['id']}?k={token}", timeout=5)
    finally:
        server.stop()
    log = log_path.read_text()
    assert "/events" in log, "the access log is written"
    assert token not in log and "wrong-guess-123" not in log


def test_slow_and_dropped_clients_do_not_stall_other_tables(sqlite_url: str, tmp_path: Path) -> None:
    server = GunicornProcess(sqlite_url, tmp_path / "gunicorn.log", env=TEST_LIMITS).start()
    stalled: list[socket.socket] = []
    try:
        created = requests.post(f"{server.base}/api/tables", json=four_players(), timeout=5).json()
        for index in range(6):  # half-sent requests that never finish, and some that vanish
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
            sock.sendall(b'POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Length: 500\r\n\r\n{"game"')
            if index % 2:
                sock.close()
            else:
                stalled.append(sock)
        # Liveness, not speed: with the stalled connections held open, every request is still
        # answered (a server that gave its workers to the dawdlers would time these out).
        for _ in range(20):
            response = requests.get(f"{server.base}/api/tables/{created['id']}", timeout=3)
            assert response.status_code == 200
        other = requests.post(f"{server.base}/api/tables", json=four_players(), timeout=3)
        assert other.status_code == 201
    finally:
        for sock in stalled:
            sock.close()
        server.stop()

"""Issue 22, item 5: servers sharing one host. Two gunicorns started by one user each get their own
control socket (gunicorn's default was one path per user: the second took the first one's over and
removed it when it stopped)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from devtools.gunicorn import ROOT, GunicornProcess

pytestmark = pytest.mark.gunicorn
GUNICORNC = Path(sys.executable).parent / "gunicornc"


def _master_pid(socket_path: Path) -> int:
    """Ask the server behind this control socket who it is (gunicornc, as an operator would)."""
    deadline = time.monotonic() + 10  # the master opens it right after spawning its workers
    while not socket_path.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    answer = subprocess.run(
        [str(GUNICORNC), "-s", str(socket_path), "-c", "show all", "-j"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert answer.returncode == 0, answer.stdout + answer.stderr
    return int(json.loads(answer.stdout)["arbiter"]["pid"])


def _socket_of(server: GunicornProcess) -> Path:
    return ROOT / "var" / "run" / f"gunicorn-127.0.0.1-{server.port}.ctl"


def test_two_gunicorns_on_one_host_keep_their_own_control_sockets(sqlite_url: str, tmp_path: Path) -> None:
    with GunicornProcess(sqlite_url, tmp_path / "first.log") as first:
        with GunicornProcess(sqlite_url, tmp_path / "second.log") as second:
            assert first.process is not None and second.process is not None
            assert _master_pid(_socket_of(first)) == first.process.pid
            assert _master_pid(_socket_of(second)) == second.process.pid
        # The second one stopped: the first one's socket is still there and still its own.
        assert not _socket_of(second).exists()
        assert _master_pid(_socket_of(first)) == first.process.pid


def test_the_control_socket_can_be_turned_off(sqlite_url: str, tmp_path: Path) -> None:
    with GunicornProcess(sqlite_url, tmp_path / "off.log", env={"KIBITZ_CONTROL_SOCKET": "off"}) as server:
        assert not _socket_of(server).exists()

"""Issue 22, item 5: `make serve-cluster` (devtools.cluster) stopped with SIGTERM stops its servers and
then exits itself — with live streams open on both servers, and when stopped while still starting."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest
import redis
import requests

from devtools.gunicorn import ROOT, free_port
from tests.api.table_client import four_players
from tests.conftest import new_postgres_database

pytestmark = [pytest.mark.gunicorn, pytest.mark.postgres]
REDIS_URI = "redis://127.0.0.1:6379/11"


@pytest.fixture
def cluster_database() -> Iterator[str]:
    with new_postgres_database("kibitz_cluster") as url:
        yield url


def _two_free_ports() -> int:
    while True:
        port = free_port()
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port + 1))
            except OSError:
                continue
        return port


def _start(database: str, first_port: int) -> subprocess.Popen[str]:
    env = {
        **os.environ,
        "DATABASE_URL": database,
        "RATELIMIT_STORAGE_URI": REDIS_URI,
        "KIBITZ_FIRST_PORT": str(first_port),
    }
    return subprocess.Popen(
        [sys.executable, "-m", "devtools.cluster"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )


def _answers(port: int) -> bool:
    try:
        return requests.get(f"http://127.0.0.1:{port}/api/health", timeout=2).status_code == 200
    except requests.RequestException:
        return False


def _wait_for(condition: object, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.2)
    return False


def test_sigterm_stops_the_servers_and_the_supervisor(cluster_database: str) -> None:
    first = _two_free_ports()
    supervisor = _start(cluster_database, first)
    streams: list[requests.Response] = []
    try:
        assert _wait_for(lambda: _answers(first) and _answers(first + 1), 60), "the cluster did not start"
        table = requests.post(f"http://127.0.0.1:{first}/api/tables", json=four_players(), timeout=10).json()
        for port in (first, first + 1):  # a phone on each server: graceful stops wait for them
            streams.append(
                requests.get(
                    f"http://127.0.0.1:{port}/api/tables/{table['id']}/stream", stream=True, timeout=30
                )
            )
        supervisor.send_signal(signal.SIGTERM)
        # Both servers stop together within gunicorn's graceful timeout (10 s), then the supervisor.
        code = supervisor.wait(timeout=40)
    finally:
        for stream in streams:
            stream.close()
        if supervisor.poll() is None:
            os.killpg(supervisor.pid, signal.SIGKILL)
            supervisor.wait()
        redis.Redis.from_url(REDIS_URI).flushdb()
    assert code == 0, supervisor.stdout.read() if supervisor.stdout else ""
    assert not _answers(first) and not _answers(first + 1)


def test_sigterm_while_starting_leaves_nothing_running(cluster_database: str) -> None:
    first = _two_free_ports()
    supervisor = _start(cluster_database, first)
    try:
        assert _wait_for(lambda: _answers(first), 60), "the first server did not start"
        supervisor.send_signal(signal.SIGTERM)  # the second one is starting, or just started
        code = supervisor.wait(timeout=40)
    finally:
        if supervisor.poll() is None:
            os.killpg(supervisor.pid, signal.SIGKILL)
            supervisor.wait()
        redis.Redis.from_url(REDIS_URI).flushdb()
    assert code == 0
    time.sleep(1)
    assert not _answers(first) and not _answers(first + 1)

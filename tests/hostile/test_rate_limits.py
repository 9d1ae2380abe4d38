"""Rate limits as documented, through a real gunicorn in its default configuration: counters shared by
every request (one process, or Redis for several), Retry-After on 429, and a stale link locks out
only itself — the right token from the same address still works."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
import requests

from devtools.gunicorn import ROOT, GunicornProcess

pytestmark = pytest.mark.gunicorn

FOUR = [
    {"name": n, "colours": [c]} for n, c in (("A", "red"), ("B", "green"), ("C", "yellow"), ("D", "purple"))
]
BODY = {"game": "mahe", "players": FOUR, "options": {}}
REDIS_TEST_DB = 11


@pytest.fixture
def default_server(sqlite_url: str, tmp_path: Path) -> Iterator[str]:
    with GunicornProcess(sqlite_url, tmp_path / "gunicorn.log") as running:  # documented limits
        yield running.base


def _create(base: str) -> requests.Response:
    with requests.Session() as fresh:  # a new connection each time: any worker may answer
        return fresh.post(f"{base}/api/tables", json=BODY, timeout=10)


def _append(base: str, table: dict[str, Any], token: str) -> requests.Response:
    return requests.post(
        f"{base}/api/tables/{table['id']}/events",
        json={"expected_version": 0, "event": {"type": "reveal_card", "value": 1}},
        headers={"Authorization": f"Bearer {token}"},
        timeout=10,
    )


def test_exactly_thirty_creations_a_minute_then_429_with_retry_after(default_server: str) -> None:
    statuses = [_create(default_server).status_code for _ in range(32)]
    assert statuses == [201] * 30 + [429, 429]
    refused = _create(default_server)
    assert refused.json()["code"] == "too-many-requests"
    assert 1 <= int(refused.headers["Retry-After"]) <= 60


def test_a_stale_link_locks_out_only_itself(default_server: str) -> None:
    table = _create(default_server).json()
    stale = "a-link-from-yesterday"
    statuses = [_append(default_server, table, stale).status_code for _ in range(12)]
    assert statuses == [403] * 10 + [429, 429]
    locked = _append(default_server, table, stale)
    assert 1 <= int(locked.headers["Retry-After"]) <= 60
    # The right link from the same address (the same phone, or one beside it) still records.
    assert _append(default_server, table, table["write_token"]).status_code == 201


def test_guessing_many_tokens_is_still_throttled(default_server: str) -> None:
    table = _create(default_server).json()
    statuses = [_append(default_server, table, f"guess-{n}").status_code for n in range(32)]
    assert statuses == [403] * 30 + [429, 429]


def test_more_workers_without_shared_counters_refuse_to_start(sqlite_url: str) -> None:
    env = {
        "DATABASE_URL": sqlite_url,
        "KIBITZ_WORKERS": "2",
        "KIBITZ_BIND": "127.0.0.1:0",
        "PATH": "/usr/bin:/bin",
    }
    started = subprocess.run(
        [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "--check-config", "wsgi:app"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert started.returncode != 0
    assert "RATELIMIT_STORAGE_URI" in started.stdout + started.stderr


def test_two_workers_share_the_count_through_redis(sqlite_url: str, tmp_path: Path) -> None:
    uri = f"redis://127.0.0.1:6379/{REDIS_TEST_DB}"
    try:
        redis.Redis.from_url(uri).flushdb()
    except redis.RedisError as error:
        pytest.fail(f"Redis is not reachable at {uri}: {error}")
    env = {"KIBITZ_WORKERS": "2", "RATELIMIT_STORAGE_URI": uri, "KIBITZ_CREATE_LIMIT": "10 per minute"}
    with GunicornProcess(sqlite_url, tmp_path / "gunicorn.log", env=env) as running:
        statuses = [_create(running.base).status_code for _ in range(14)]
    redis.Redis.from_url(uri).flushdb()
    assert statuses == [201] * 10 + [429] * 4

"""Rate limits as documented, through a real gunicorn in its default configuration: counters shared by
every request (one process, or Redis for several), Retry-After on 429, a stale link locks out only
itself, and a guesser locks out nobody: the right tokens work from the guesser's own address and any
other, and its other tables are untouched (issue 22, item 3). Client addresses come from
X-Forwarded-For only behind as many proxies as KIBITZ_TRUSTED_PROXIES names."""

from __future__ import annotations

import http.client
import json
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


def _call(
    base: str,
    method: str,
    path: str,
    *,
    body: Any = None,
    token: str | None = None,
    source: str = "127.0.0.1",
    headers: dict[str, str] | None = None,
) -> tuple[int, Any]:
    """One request from the loopback address `source` (127.0.0.2 is another client to the server)."""
    host, port = base.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=10, source_address=(source, 0))
    sent = dict(headers or {})
    if token is not None:
        sent["Authorization"] = f"Bearer {token}"
    payload = None
    if body is not None:
        payload = json.dumps(body)
        sent["Content-Type"] = "application/json"
    try:
        conn.request(method, path, body=payload, headers=sent)
        answer = conn.getresponse()
        raw = answer.read()
        return answer.status, json.loads(raw) if raw else None
    finally:
        conn.close()


def _append_from(base: str, table: dict[str, Any], token: str, source: str, version: int) -> int:
    """Even versions turn the first egg card (typed, physical); odd ones undo it (GEN-1 allows it)."""
    event = {"type": "reveal_card", "value": 1} if version % 2 == 0 else {"type": "undo"}
    status, _ = _call(
        base,
        "POST",
        f"/api/tables/{table['id']}/events",
        body={"expected_version": version, "event": event},
        token=token,
        source=source,
    )
    return status


def test_guessing_many_tokens_is_still_throttled(default_server: str) -> None:
    table = _create(default_server).json()
    statuses = [_append(default_server, table, f"guess-{n}").status_code for n in range(32)]
    assert statuses == [403] * 30 + [429, 429]


def test_a_guesser_locks_out_nobody(default_server: str) -> None:
    """31+ wrong tokens from one address: the table's write token and seat tokens still work from
    that address and from another, and the guesser's other table is untouched."""
    base = default_server
    table, other_table = _create(base).json(), _create(base).json()
    guesses = [_append_from(base, table, f"guess-{n}", "127.0.0.1", 0) for n in range(35)]
    assert guesses == [403] * 30 + [429] * 5
    # The right write token, from the guesser's own address (the same café Wi-Fi) and another.
    assert _append_from(base, table, table["write_token"], "127.0.0.1", 0) == 201
    assert _append_from(base, table, table["write_token"], "127.0.0.2", 1) == 201
    for seat in table["seats"]:
        for source in ("127.0.0.1", "127.0.0.2"):
            status, view = _call(
                base,
                "GET",
                f"/api/tables/{table['id']}/seats/{seat['seat']}",
                token=seat["token"],
                source=source,
            )
            assert status == 200, (seat["seat"], source, view)
    # Still over budget: the guesser's next wrong token is refused, a wrong one from elsewhere is not.
    assert _append_from(base, table, "guess-again", "127.0.0.1", 2) == 429
    assert _append_from(base, table, "someone-elses-typo", "127.0.0.2", 2) == 403
    assert _append_from(base, table, table["write_token"], "127.0.0.1", 2) == 201
    # The guesser's other table: its own budget, untouched.
    assert _append_from(base, other_table, "typo", "127.0.0.1", 0) == 403
    assert _append_from(base, other_table, other_table["write_token"], "127.0.0.1", 0) == 201


def _create_as(base: str, forwarded_for: str) -> int:
    status, _ = _call(base, "POST", "/api/tables", body=BODY, headers={"X-Forwarded-For": forwarded_for})
    return status


def test_forwarded_addresses_count_only_behind_trusted_proxies(sqlite_url: str, tmp_path: Path) -> None:
    """Two clients behind one proxy (one peer address) get a budget each with KIBITZ_TRUSTED_PROXIES=1;
    without it X-Forwarded-For is ignored, so a client cannot name itself a fresh address."""
    limited = {"KIBITZ_CREATE_LIMIT": "3 per minute"}
    with GunicornProcess(sqlite_url, tmp_path / "direct.log", env=limited) as direct:
        first = [_create_as(direct.base, "203.0.113.5") for _ in range(4)]
        second = _create_as(direct.base, "203.0.113.6")
    assert first == [201, 201, 201, 429] and second == 429
    proxied = {**limited, "KIBITZ_TRUSTED_PROXIES": "1"}
    with GunicornProcess(sqlite_url, tmp_path / "proxied.log", env=proxied) as behind_proxy:
        first = [_create_as(behind_proxy.base, "203.0.113.5") for _ in range(4)]
        second = _create_as(behind_proxy.base, "203.0.113.6")
        # Only the last entry is the trusted proxy's: one more prepended by the client changes nothing.
        spoofed = _create_as(behind_proxy.base, "198.51.100.1, 203.0.113.5")
    assert first == [201, 201, 201, 429] and second == 201 and spoofed == 429


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

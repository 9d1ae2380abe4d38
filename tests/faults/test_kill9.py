"""kill -9 the server during concurrent appends, restart it: every acknowledged event is there,
nothing is half-written, and the cached state is exactly the replay of the log."""

from __future__ import annotations

import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
import requests

from api.app import create_app
from api.http.context import store
from api.rules.registry import get_game
from api.rules.replay import replay
from devtools.gunicorn import GunicornProcess
from tests.api.table_client import four_players
from tests.api.test_concurrency import pick_event
from tests.conftest import TEST_LIMITS

pytestmark = pytest.mark.gunicorn


def phone(
    base: str, table_id: str, token: str, acked: dict[int, dict[str, Any]], stop: threading.Event
) -> None:
    session = requests.Session()
    headers = {"Authorization": f"Bearer {token}"}
    table = None
    turn = 0
    while not stop.is_set():
        try:
            if table is None:
                table = session.get(f"{base}/api/tables/{table_id}", timeout=2).json()
            if table["finished"]:
                return
            turn += 1
            event = pick_event(table, turn)
            body = {"expected_version": table["version"], "event": event}
            key = str(uuid.uuid4())
            response = session.post(
                f"{base}/api/tables/{table_id}/events",
                json=body,
                headers={**headers, "Idempotency-Key": key},
                timeout=2,
            )
        except (requests.RequestException, ValueError):
            table = None  # the server is gone (or going); keep trying until told to stop
            time.sleep(0.02)
            continue
        if response.status_code == 201:
            acked[response.json()["seq"]] = event
            table = response.json()["table"]
        elif response.status_code == 409:
            table = response.json()["table"]
        else:
            table = None


@pytest.mark.parametrize("database", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_kill9_during_concurrent_appends_loses_no_acknowledged_event(
    database: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    url = request.getfixturevalue("sqlite_url" if database == "sqlite" else "postgres_url")
    server = GunicornProcess(url, tmp_path / "gunicorn.log", env=TEST_LIMITS).start()
    created = requests.post(f"{server.base}/api/tables", json=four_players(), timeout=5).json()
    table_id, token = created["id"], created["write_token"]
    acked: dict[int, dict[str, Any]] = {}
    stop = threading.Event()
    phones = [
        threading.Thread(target=phone, args=(server.base, table_id, token, acked, stop)) for _ in range(3)
    ]
    for thread in phones:
        thread.start()
    try:
        deadline = time.monotonic() + 20
        while len(acked) < 40 and time.monotonic() < deadline:
            time.sleep(0.05)
        server.kill9()  # mid-stream: requests are in flight
        acked_at_kill = len(acked)
        time.sleep(0.3)
        server.start()  # same port, same database
        deadline = time.monotonic() + 20
        while len(acked) < acked_at_kill + 20 and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        stop.set()
        for thread in phones:
            thread.join(timeout=10)
        server.stop()
    assert acked_at_kill >= 10, "the phones were appending when the server died"
    assert len(acked) > acked_at_kill, "appends went on after the restart"
    app = create_app(url)
    log = app.test_client().get(f"/api/tables/{table_id}/events").get_json()["events"]
    seqs = [entry["seq"] for entry in log]
    assert seqs == list(range(1, len(seqs) + 1)), "no gap, no half-written entry"
    by_seq = {entry["seq"]: entry["event"] for entry in log}
    for seq, event in acked.items():
        assert by_seq[seq] == event, f"acknowledged event {seq} is in the log as it was sent"
    with app.app_context():
        row = store().get(table_id)
    assert row.version == len(log)
    game = get_game("mahe")
    assert game is not None
    assert game.dump(replay(game, row.players, row.options, row.seed, [e["event"] for e in log])) == row.state

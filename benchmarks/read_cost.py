"""Reading a table with a long log costs about the same as reading one with a short log.

Baseline: GET /api/tables/{id} on a table with 20 log entries. Measured: the same on a table with
5,000 entries (die and undo, alternately), and the conditional GET (304). Run: `make bench`.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from flask.testing import FlaskClient

from api.app import create_app
from api.db.migrate import upgrade
from api.http.context import store

PLAYERS = [
    {"name": n, "colours": [c]} for n, c in (("A", "red"), ("B", "yellow"), ("C", "green"), ("D", "black"))
]


def table_with_log(client: FlaskClient, entries: int) -> str:
    created = client.post("/api/tables", json={"game": "mahe", "players": PLAYERS}).get_json()
    table_id, token = created["id"], created["write_token"]
    with client.application.app_context():
        tables = store()
        tables.append(table_id, token, 0, {"type": "reveal_card", "value": 3})
        version = 1
        while version < entries:
            event = {"type": "die", "value": 2} if version % 2 else {"type": "undo"}
            tables.append(table_id, token, version, event)
            version += 1
    return table_id


MHING_HAND = {"hidden": "b1 b1 b1 c4 c5 c6 k7 k8 k9 b6 b7 b8 c1 c1"}  # wins, worth 0 points


def mhing_table_with_rounds(client: FlaskClient, rounds: int) -> str:
    """A Mhing table whose log holds `rounds` won rounds, each with its fully scored hand."""
    players = [{"name": n} for n in "ABCD"]
    created = client.post("/api/tables", json={"game": "mhing", "players": players}).get_json()
    table_id, token = created["id"], created["write_token"]
    with client.application.app_context():
        tables = store()
        for version in range(rounds):
            event = {"type": "round_won", "winner": version % 4, "hand": MHING_HAND}
            tables.append(table_id, token, version, event)
    return table_id


def time_reads(client: FlaskClient, path: str, rounds: int, headers: dict[str, str] | None = None) -> float:
    """Median seconds per request over `rounds` batches of 20 requests."""
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(20):
            client.get(path, headers=headers or {})
        samples.append((time.perf_counter() - start) / 20)
    return statistics.median(samples)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        upgrade(url)
        client = create_app(url).test_client()
        short = table_with_log(client, 20)
        long = table_with_log(client, 5000)
        for path in (f"/api/tables/{short}", f"/api/tables/{long}"):
            time_reads(client, path, 3)  # warm up
        baseline = time_reads(client, f"/api/tables/{short}", 15)
        measured = time_reads(client, f"/api/tables/{long}", 15)
        etag = client.get(f"/api/tables/{long}").headers["ETag"]
        conditional = time_reads(client, f"/api/tables/{long}", 15, {"If-None-Match": etag})
        mhing_short = mhing_table_with_rounds(client, 20)
        mhing_long = mhing_table_with_rounds(client, 1000)
        for path in (f"/api/tables/{mhing_short}", f"/api/tables/{mhing_long}"):
            time_reads(client, path, 3)
        mhing_base = time_reads(client, f"/api/tables/{mhing_short}", 15)
        mhing_measured = time_reads(client, f"/api/tables/{mhing_long}", 15)
        short_bytes = len(client.get(f"/api/tables/{mhing_short}").get_data())
        long_bytes = len(client.get(f"/api/tables/{mhing_long}").get_data())
    print(f"GET table, 20 entries (baseline): {baseline * 1e3:.2f} ms")
    print(f"GET table, 5000 entries: {measured * 1e3:.2f} ms  ratio {measured / baseline:.2f}")
    print(f"conditional GET (304), 5000 entries: ratio {conditional / baseline:.2f}")
    print(
        f"Mhing GET, 1000 rounds vs 20: time {mhing_measured * 1e3:.2f} vs {mhing_base * 1e3:.2f} ms, "
        f"ratio {mhing_measured / mhing_base:.2f}; bytes {long_bytes} vs {short_bytes}, "
        f"ratio {long_bytes / short_bytes:.2f}"
    )


if __name__ == "__main__":
    main()

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
    print(f"GET table, 20 entries (baseline): {baseline * 1e3:.2f} ms")
    print(f"GET table, 5000 entries: {measured * 1e3:.2f} ms  ratio {measured / baseline:.2f}")
    print(f"conditional GET (304), 5000 entries: ratio {conditional / baseline:.2f}")


if __name__ == "__main__":
    main()

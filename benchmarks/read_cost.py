"""Reading a table with a long log costs about the same as reading one with a short log.

Baseline: GET /api/tables/{id} on a table with 20 log entries. Measured: the same on a table with
5,000 entries (die and undo, alternately), and the conditional GET (304); then a Mhing table at 20
and at 1,000 rounds (time and bytes). Long and short are timed in alternate batches, so whatever else
runs on the machine weighs on both alike. Run: `make bench`.
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


def paired_ratio(
    client: FlaskClient, measured: str, baseline: str, rounds: int
) -> tuple[float, float, float]:
    """Median per-request seconds of both paths and the median ratio of batches taken alternately, so
    load from anything else on the machine falls on both alike."""
    pairs = [(time_reads(client, measured, 1), time_reads(client, baseline, 1)) for _ in range(rounds)]
    return (
        statistics.median(m for m, _ in pairs),
        statistics.median(b for _, b in pairs),
        statistics.median(m / b for m, b in pairs),
    )


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        upgrade(url)
        client = create_app(url).test_client()
        short = table_with_log(client, 20)
        long = table_with_log(client, 5000)
        for path in (f"/api/tables/{short}", f"/api/tables/{long}"):
            time_reads(client, path, 3)  # warm up
        measured, baseline, ratio = paired_ratio(client, f"/api/tables/{long}", f"/api/tables/{short}", 31)
        etag = client.get(f"/api/tables/{long}").headers["ETag"]
        conditional = time_reads(client, f"/api/tables/{long}", 15, {"If-None-Match": etag})
        mhing_short = mhing_table_with_rounds(client, 20)
        mhing_long = mhing_table_with_rounds(client, 1000)
        for path in (f"/api/tables/{mhing_short}", f"/api/tables/{mhing_long}"):
            time_reads(client, path, 3)
        mhing_measured, mhing_base, mhing_ratio = paired_ratio(
            client, f"/api/tables/{mhing_long}", f"/api/tables/{mhing_short}", 31
        )
        short_bytes = len(client.get(f"/api/tables/{mhing_short}").get_data())
        long_bytes = len(client.get(f"/api/tables/{mhing_long}").get_data())
    print(f"GET table, 20 entries (baseline): {baseline * 1e3:.2f} ms")
    print(f"GET table, 5000 entries: {measured * 1e3:.2f} ms  ratio {ratio:.2f}")
    print(f"conditional GET (304), 5000 entries: ratio {conditional / baseline:.2f}")
    print(
        f"Mhing GET, 1000 rounds vs 20: time {mhing_measured * 1e3:.2f} vs {mhing_base * 1e3:.2f} ms, "
        f"ratio {mhing_ratio:.2f}; bytes {long_bytes} vs {short_bytes}, "
        f"ratio {long_bytes / short_bytes:.2f}"
    )


if __name__ == "__main__":
    main()

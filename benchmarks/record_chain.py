"""What the record's chain costs (api.tables.chain): appends and log reads, with and without it.

Baseline: the same store with the chain's work made free (hashing and signing patched to constants,
reading unchecked). Measured: appends (one SHA-256 and one Ed25519 signature each), the full log
(`GET …/events`, every entry re-hashed and the head's signature checked) at 200 and 1,000 entries,
and the cached table (`GET …/{id}`, which reads no entry: unchanged). Batches alternate, so load from
anything else on the machine falls on both alike. Run: `python -m benchmarks.record_chain`.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

from api.app import create_app
from api.db.migrate import upgrade
from api.http.context import store
from api.tables import store as store_module
from api.tables.chain import RecordKey
from benchmarks.read_cost import PLAYERS


@contextmanager
def chain_free(client: FlaskClient) -> Iterator[None]:
    """The chain's work made free: what the store cost before it."""
    tables = client.application.extensions["kibitz.store"]
    saved = (store_module.link, RecordKey.sign, tables._check_chain)
    store_module.link = lambda previous, seq, event: "0" * 64  # type: ignore[assignment]
    RecordKey.sign = lambda self, table_id, length, head: ""  # type: ignore[method-assign]
    tables._check_chain = lambda table, rows, after=0: list(rows[1:] if after else rows)
    try:
        yield
    finally:
        store_module.link, RecordKey.sign = saved[0], saved[1]  # type: ignore[method-assign]
        del tables._check_chain


def appends(client: FlaskClient, count: int) -> float:
    """Seconds per append: a fresh table, `count` typed dice and undos."""
    created = client.post("/api/tables", json={"game": "mahe", "players": PLAYERS}).get_json()
    table_id, token = created["id"], created["write_token"]
    with client.application.app_context():
        tables = store()
        tables.append(table_id, token, 0, {"type": "reveal_card", "value": 3})
        start = time.perf_counter()
        for version in range(1, count + 1):
            event = {"type": "die", "value": 2} if version % 2 else {"type": "undo"}
            tables.append(table_id, token, version, event)
        return (time.perf_counter() - start) / count


def table_of(client: FlaskClient, entries: int) -> str:
    created = client.post("/api/tables", json={"game": "mahe", "players": PLAYERS}).get_json()
    table_id, token = created["id"], created["write_token"]
    with client.application.app_context():
        tables = store()
        tables.append(table_id, token, 0, {"type": "reveal_card", "value": 3})
        for version in range(1, entries):
            tables.append(
                table_id, token, version, {"type": "die", "value": 2} if version % 2 else {"type": "undo"}
            )
    return table_id


def per_request(client: FlaskClient, path: str, batch: int = 10) -> float:
    start = time.perf_counter()
    for _ in range(batch):
        assert client.get(path).status_code == 200
    return (time.perf_counter() - start) / batch


def paired(measure: Callable[[], float], client: FlaskClient, rounds: int) -> tuple[float, float]:
    """Median seconds with the chain, and the median ratio to the chain-free store."""
    pairs: list[tuple[float, float]] = []
    for _ in range(rounds):
        with_chain = measure()
        with chain_free(client):
            without = measure()
        pairs.append((with_chain, without))
    return statistics.median(a for a, _ in pairs), statistics.median(a / b for a, b in pairs)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        upgrade(url)
        client = create_app(url, KIBITZ_CREATE_LIMIT="100000 per minute").test_client()
        rows: list[tuple[str, Any, Any]] = []
        append_time, append_ratio = paired(lambda: appends(client, 100), client, 15)
        rows.append(("append (typed die or undo)", append_time, append_ratio))
        for entries in (200, 1000):
            table_id = table_of(client, entries)
            log_time, log_ratio = paired(
                lambda path=f"/api/tables/{table_id}/events": per_request(client, path), client, 15
            )
            rows.append((f"GET …/events, {entries} entries", log_time, log_ratio))
        table_time, table_ratio = paired(
            lambda: per_request(client, f"/api/tables/{table_id}", 50), client, 15
        )
        rows.append(("GET table (cached state)", table_time, table_ratio))
    for label, seconds, ratio in rows:
        print(f"{label}: {seconds * 1e3:.2f} ms, ratio to chain-free {ratio:.2f}")


if __name__ == "__main__":
    main()

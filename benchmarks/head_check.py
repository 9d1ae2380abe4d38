"""What the table view's damage check costs (docs/records.md, "What each read checks").

Baseline: `version_of`, the poll's one-column query before the check. Measured: `check_head` (row
version, last entry, the one before, none past it; one SHA-256, a remembered signature) on a table
with 20 entries and on one with 2,000; and the 304 poll over HTTP, short log against long. Paired
batches, alternately, so other load on the machine weighs on both alike. Run:
`python -m benchmarks.head_check` (SQLite; `KIBITZ_BENCH_PG_URL` adds PostgreSQL).
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from api.app import create_app
from api.db.migrate import upgrade
from api.http.context import store
from benchmarks.read_cost import table_with_log

BATCH = 200


def per_call(call: Callable[[], object]) -> float:
    start = time.perf_counter()
    for _ in range(BATCH):
        call()
    return (time.perf_counter() - start) / BATCH


def paired(
    measured: Callable[[], object], baseline: Callable[[], object], rounds: int = 21
) -> tuple[float, float, float]:
    pairs = [(per_call(measured), per_call(baseline)) for _ in range(rounds)]
    return (
        statistics.median(m for m, _ in pairs),
        statistics.median(b for _, b in pairs),
        statistics.median(m / b for m, b in pairs),
    )


def run(url: str, label: str) -> None:
    app = create_app(url)
    client = app.test_client()
    short, long = table_with_log(client, 20), table_with_log(client, 2000)
    with app.app_context():
        tables = store()
        for table_id in (short, long):
            tables.check_head(table_id)  # warm: the signature is remembered from here on
        head_short, version_short, ratio_short = paired(
            lambda: tables.check_head(short), lambda: tables.version_of(short)
        )
        head_long, _, long_vs_short = paired(
            lambda: tables.check_head(long), lambda: tables.check_head(short)
        )
    etags = {t: client.get(f"/api/tables/{t}").headers["ETag"] for t in (short, long)}
    poll_long, poll_short, poll_ratio = paired(
        lambda: client.get(f"/api/tables/{long}", headers={"If-None-Match": etags[long]}),
        lambda: client.get(f"/api/tables/{short}", headers={"If-None-Match": etags[short]}),
        rounds=11,
    )
    print(f"[{label}] version_of (baseline): {version_short * 1e6:.0f} µs")
    print(f"[{label}] check_head, 20 entries: {head_short * 1e6:.0f} µs  ratio to baseline {ratio_short:.2f}")
    print(f"[{label}] check_head, 2000 vs 20 entries: {head_long * 1e6:.0f} µs  ratio {long_vs_short:.2f}")
    print(
        f"[{label}] 304 poll over HTTP, 2000 vs 20 entries: {poll_long * 1e6:.0f} vs "
        f"{poll_short * 1e6:.0f} µs  ratio {poll_ratio:.2f}"
    )


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        upgrade(url)
        run(url, "sqlite")
    pg = os.environ.get("KIBITZ_BENCH_PG_URL")
    if pg:
        upgrade(pg)
        run(pg, "postgresql")


if __name__ == "__main__":
    main()

"""`python -m benchmarks.load [--seconds S] [--clients N]`

Drives a real gunicorn (the project's config: one gevent worker) on loopback with concurrent clients
doing the table mix (70% reads, 20% appends, 10% Mhing scoring), and, in the same run, the trivial
GET /api/health as the baseline; on SQLite, on PostgreSQL, and on PostgreSQL with two workers
sharing rate limits in Redis (what `make serve-cluster` runs: two app processes). Figures are
ratios against that baseline: the machine is small and noisy.
"""

from __future__ import annotations

import argparse
import json
import secrets
import tempfile
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from benchmarks.load.clients import mix_client, read_cost, run, trivial_client
from benchmarks.load.cpu import group_cpu_seconds
from benchmarks.load.server import serving

PG_ADMIN = "postgresql+psycopg://root@127.0.0.1:5432/test"


def postgres_database() -> tuple[str, sa.Engine] | None:
    name = f"kibitz_bench_{secrets.token_hex(3)}"
    try:
        admin = sa.create_engine(PG_ADMIN, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    except Exception as error:  # noqa: BLE001 - no server: report and go on with SQLite only
        print(f"PostgreSQL not available: {error}")
        return None
    return PG_ADMIN.rsplit("/", 1)[0] + f"/{name}", admin


CLUSTER = {"KIBITZ_WORKERS": "2", "RATELIMIT_STORAGE_URI": "redis://127.0.0.1:6379/0"}


def scenario(
    label: str, url: str, log: Path, clients: int, seconds: float, env: dict[str, str] | None = None
) -> dict[str, object]:
    with serving(url, log, env) as server:
        assert server.process is not None
        group = server.process.pid  # gunicorn runs in a session of its own: master and workers

        def measured(client: Any) -> dict[str, Any]:
            """The scenario's figures plus the server's own CPU per request (ms)."""
            before = group_cpu_seconds(group)
            figures = run(client, server.base, clients, seconds)
            spent = group_cpu_seconds(group) - before
            figures["server_cpu_ms_per_request"] = spent * 1e3 / figures["requests"]
            return figures

        trivial = measured(trivial_client)
        mix = measured(mix_client)
        reads = read_cost(server.base)
    report = {
        "database": label,
        "trivial": trivial,
        "mix": mix,
        "mix_vs_trivial": {
            "throughput": mix["throughput"] / trivial["throughput"],
            "p50": mix["p50_ms"] / trivial["p50_ms"],
            "p99": mix["p99_ms"] / trivial["p99_ms"],
            "server_cpu_per_request": mix["server_cpu_ms_per_request"] / trivial["server_cpu_ms_per_request"],
        },
        "read_5000_vs_20": reads,
    }
    print(json.dumps(report, indent=2))
    return report


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--clients", type=int, default=8)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "gunicorn.log"
        scenario("sqlite", f"sqlite:///{Path(tmp) / 'load.sqlite3'}", log, args.clients, args.seconds)
        pg = postgres_database()
        if pg:
            url, admin = pg
            try:
                scenario("postgresql", url, log, args.clients, args.seconds)
                label = "postgresql, 2 workers + redis"
                scenario(label, url, log, args.clients, args.seconds, CLUSTER)
            finally:
                with admin.connect() as conn:
                    conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)')


if __name__ == "__main__":
    main()
